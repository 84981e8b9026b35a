"""Locomotion providers as data: each way of moving the player, its place and its switches.

As Godot XR Tools' player body runs its movement providers, every fixed step runs the enabled
providers in ascending `order`. An `exclusive` provider that is active (a teleport being aimed,
a climb) takes the step: the providers after it run disabled, so they can let go of what they
were doing but do not move the player. A game adds a mode (climbing, flying) as a provider of
its own without touching the others, and switches one off with ``enabled``.

The settings and state of the providers a game adds (jump, sprint, crouch, climb: Godot XR
Tools' ``movement_jump``, ``movement_sprint``, ``movement_crouch`` and ``movement_climb``) are
here too.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from playspace.components.input import Button
from playspace.components.tracking import DeviceRole
from playspace.spatial import Vec3


@dataclass(slots=True)
class Provider:
    """One locomotion provider: its name (the system's), when it runs among the others, and
    whether it may take the step from those after it."""

    name: str
    order: int
    enabled: bool = True
    exclusive: bool = False


@dataclass(slots=True)
class Locomotion:
    """The providers of the world by name; a resource. Every player moves by the same ones
    (which of them took a player's step is on that player's origin: ``OriginMotion.taken_by``)."""

    providers: dict[str, Provider] = field(default_factory=dict)


@dataclass(slots=True)
class JumpSettings:
    """The jump provider's settings; a resource a game may change.

    Godot XR Tools jumps on the trigger; here the trigger clicks panels, so the jump is on the
    right controller's A (its ``ax_button``). 3 m/s upward is XR Tools' ground jump velocity:
    about ``speed ** 2 / (2 * g)`` = 0.46 m of rise under Earth's gravity."""

    hand: DeviceRole = DeviceRole.RIGHT_HAND
    button: Button = Button.A
    speed: float = 3.0  # m/s upward at take-off


@dataclass(slots=True)
class JumpState:
    """On each player's origin: the jump under way; whether the button was let go since the
    last press; whether the body is in the air from a jump, or landed from one and settling
    onto the floor (the character controller stands it a few centimetres up the step it lands);
    how far the view's floor was above the feet at take-off (slope quantization's lag, kept
    along the arc); how long the body has been in the air (a jump or a fall) and how fast it
    was going down last step."""

    armed: bool = True
    jumping: bool = False
    settling: bool = False
    lag: float = 0.0  # metres
    airtime: float = 0.0
    falling: float = 0.0  # m/s downward


@dataclass(slots=True)
class SprintSettings:
    """The sprint provider's settings; a resource. Godot XR Tools' defaults: hold the left
    stick's click (the walking stick) to walk twice as fast; `toggle` makes a click switch it."""

    hand: DeviceRole = DeviceRole.LEFT_HAND
    button: Button = Button.STICK
    multiplier: float = 2.0
    toggle: bool = False


@dataclass(slots=True)
class SprintState:
    """On each player's origin: whether the player sprints, and whether the button was down
    last step."""

    sprinting: bool = False
    held: bool = False


@dataclass(slots=True)
class CrouchSettings:
    """The crouch provider's settings; a resource. A click of the right stick (Godot XR Tools'
    crouch button, on the turning stick) crouches or stands: the view goes down by `lowered`
    metres and the capsule gets that much shorter. 0.6 m takes a 1.7 m player's eyes to
    1.1 m and the capsule to 1.2 m."""

    hand: DeviceRole = DeviceRole.RIGHT_HAND
    button: Button = Button.STICK
    lowered: float = 0.6


@dataclass(slots=True)
class CrouchState:
    """On each player's origin: whether the crouch button was down last step (how far the
    player is crouched is the origin's :class:`~playspace.components.rig.Crouch`)."""

    held: bool = False


@dataclass(slots=True)
class Climbable:
    """Marks a static or kinematic body the player can climb (Godot XR Tools' ``climbable``):
    a hand that grips within reach of one of its colliders holds on to it."""


@dataclass(slots=True)
class ClimbSettings:
    """The climb provider's settings; a resource. A hand holds on when its grip passes
    `grip_on` within `reach` metres of a :class:`Climbable` (the grab's reach and thresholds)
    and lets go when the grip falls under `grip_off`."""

    reach: float = 0.08
    grip_on: float = 0.7
    grip_off: float = 0.3


@dataclass(slots=True)
class ClimbHold:
    """One hand holding on: where the hand was in tracking space when it gripped, where the
    body's feet were then, and the grip's rank (the newest leads)."""

    hand_at: Vec3
    feet_at: Vec3
    rank: int


@dataclass(slots=True)
class ClimbState:
    """On each player's origin: the climb under way; which hands grip (held past `grip_on`),
    which of them hold on to something climbable, and how many grips there have been (the
    ranks)."""

    gripping: dict[DeviceRole, bool] = field(default_factory=dict)
    holds: dict[DeviceRole, ClimbHold] = field(default_factory=dict)
    grips: int = 0


@dataclass(slots=True)
class Suspended:
    """On a character: whether something holds it up this step (a climbing hand). The
    character system then gives it no gravity and no snap to the ground, and makes the move it
    was carried in all three axes, up and down too."""

    held: bool = False
