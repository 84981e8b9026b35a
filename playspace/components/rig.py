"""The rig in the player's terms: origin, head, hands and body, and how they may move.

The *origin* places tracking space (the physical room, floor at y = 0) in the world; the head
and hands are its children, posed by tracking; the *body* is a capsule of its own that follows
where the player physically stands, with collision. Locomotion moves the origin; the body is
never a child of the origin (DESIGN.md, "The rig").
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass, field
from enum import Enum

from playspace.spatial import Vec3

SLOPE_QUANTIZATION = 0.20  # metres of vertical travel before the floor snaps; 0: off
SAFE_TRAIL = 45  # grounded steps the rescue remembers: half a second at 90 Hz
LEVEL_MARGIN = 2.0  # metres past the level's outermost geometry across the floor: no ground


class SeparationPolicy(Enum):
    """What happens when the body cannot get to where the player physically stands."""

    FADE = "fade"  # the view darkens with the separation (Godot's recommendation)
    PUSH_BACK = "push_back"  # the origin moves so the head stays with the body


class TurnMode(Enum):
    SNAP = "snap"
    SMOOTH = "smooth"


class MoveRelativeTo(Enum):
    """Whose yaw the left stick's forward follows."""

    HEAD = "head"
    LEFT_HAND = "left_hand"
    RIGHT_HAND = "right_hand"


@dataclass(slots=True)
class RigSettings:
    """Comfort and movement settings, a resource a game (or its options menu) may change.

    Defaults follow Godot XR Tools and Unity's XR Interaction Toolkit where they agree; the
    snap turn is the 30 degrees DESIGN.md asks for. A body stopped by a wall stands its radius
    from it, and the eyes are `neck_offset` ahead of the body's centre: facing the wall, they
    reach it at a separation of ``body_radius - neck_offset``. Keep that at `fade_full` or
    more, so the view is black before the eyes can be inside a wall.

    A separation counts only when the head's way from the body is barred: a sphere of
    `head_radius` swept from where the eyes would be at the body to where they are hits the
    level (a wall, the table's top under a head lowered into it). A head leaning over a table
    the body cannot enter has a clear way, and the view stays clear (the fade policy; push-back
    moves the head back to the body whatever the way). Keep `head_radius` above
    ``body_radius - neck_offset - fade_start``, so a wall bars the way before the fade starts.
    """

    neck_offset: float = 0.1  # metres behind the eyes to the neck, projected to the floor
    policy: SeparationPolicy = SeparationPolicy.FADE
    fade_start: float = 0.10  # metres of separation where the view starts to darken
    fade_full: float = 0.20  # black from here; controller movement stops too
    turn_mode: TurnMode = TurnMode.SNAP
    snap_turn: float = math.radians(30.0)
    smooth_turn_speed: float = math.radians(90.0)  # rad/s at full stick
    move_speed: float = 2.5  # m/s at full stick
    move_relative_to: MoveRelativeTo = MoveRelativeTo.HEAD
    stick_deadzone: float = 0.15
    flick_on: float = 0.7  # stick past this is a flick (snap turn, teleport aim)
    flick_off: float = 0.3  # back inside this re-arms it
    slope_quantization: float = SLOPE_QUANTIZATION
    teleport_speed: float = 7.0  # m/s the arc leaves the hand at
    teleport_max_time: float = 2.0  # seconds of arc flight cast
    teleport_blink: float = 0.15  # seconds of the blink (fade out and in)
    body_radius: float = 0.3  # see below: with the neck offset it decides when walls go black
    crouch_min_height: float = 0.8  # the capsule never gets shorter than this
    height_margin: float = 0.1  # capsule height is the head's height plus this
    head_radius: float = 0.12  # the sphere around the eyes that tells leaning from walking in
    eye_height: float = 1.7  # a standing player's eyes: where seated play calibrates the view


@dataclass(slots=True)
class Rig:
    """One player's entities, on that player's origin.

    Their state is in small components on them: the body's :class:`Separation`, the head's
    :class:`ViewFade`, the origin's :class:`OriginMotion`, :class:`TeleportAim` and
    :class:`TurnState`. How far the view's floor lags the body's is not kept: it is the
    origin's height less the body's feet. `player` numbers the players of a world from 0 in
    the order they joined; events about a player carry it (telemetry leaves out player 0's)."""

    origin: int
    head: int
    left_hand: int
    right_hand: int
    body: int
    player: int = 0


@dataclass(slots=True)
class Separation:
    """On the body: how far it is from where the player physically stands (metres, across
    the floor); whether the head's way from the body passes through the level (`barred`: a
    wall, not the air above a table); and whether both say the player walked into something
    (`blocked`)."""

    distance: float = 0.0
    barred: bool = False
    blocked: bool = False


@dataclass(slots=True)
class ViewFade:
    """On the head: how dark the view is, 0 (clear) to 1 (black), the most of the separation
    policy's fade and a blink (teleport, rescue) with `blink_left` seconds to go."""

    amount: float = 0.0
    blink_left: float = 0.0


@dataclass(slots=True)
class OriginMotion:
    """On the origin: whether a locomotion provider carried it continuously this step
    (smooth movement, flying, climbing), as opposed to a jump (teleport, snap turn). The
    comfort vignette darkens the edges for it; a throw adds the player's own velocity."""

    continuous: bool = False
    taken_by: str | None = None  # the exclusive provider that took this step, if one did


class AimProblem(Enum):
    """Why the teleport's target is refused (telemetry's ``teleport_refused`` reason)."""

    NO_TARGET = "none"  # the arc hit nothing within its flight time
    SLOPE = "slope"  # too steep to stand on
    ROOM = "room"  # no room for the body


@dataclass(slots=True)
class TeleportAim:
    """On the origin: the teleport being aimed, for the provider and whatever draws the arc.
    `target` is where the arc landed (None: nowhere); `problem` is None for a target the body
    can stand at."""

    aiming: bool = False
    target: Vec3 | None = None
    problem: AimProblem | None = AimProblem.NO_TARGET
    arc: list[Vec3] = field(default_factory=list)


@dataclass(slots=True)
class TurnState:
    """On the origin: a snap turn is armed once the stick has come back to the middle."""

    armed: bool = True


@dataclass(slots=True)
class MoveState:
    """On the origin: whether smooth movement moved the player last step (its start snaps the
    view's floor, announced; the steps after follow it), and what scales its speed this step:
    1 until a provider before it (sprint) changes it; cleared before the providers run."""

    moving: bool = False
    speed_scale: float = 1.0


@dataclass(slots=True)
class Crouch:
    """On the origin: how far a virtual crouch lowers the player (metres; 0 standing). The
    view's floor sits this far below the body's feet, and the capsule is this much shorter,
    so a player standing in a small room can play crouched under what the body could not enter
    standing."""

    lowered: float = 0.0


@dataclass(slots=True)
class Seated:
    """On the origin: how far seated play raises the player (metres; 0 for standing play).
    The view's floor sits this far *above* the body's feet (the opposite of a crouch) and the
    capsule is this much taller, so a seated player's eyes are where a standing player's are
    (:mod:`playspace.systems.player.seated`, Godot XR Tools' player height offset, XRI's
    floor offset)."""

    raised: float = 0.0
    calibrated: bool = False  # seated play calibrated the view since the head was tracked


@dataclass(slots=True)
class Origin:
    """Marks the origin entity; its Transform maps tracking space into the world."""


@dataclass(slots=True)
class LocalPlayer:
    """Marks the origin of the player this process shows: its headset's, its preview's (the
    first player of a world; a networked host holds others, a client shows its own). What
    is drawn from the player's eyes, the telemetry's head and hands and the headset's
    controllers follow this player; every player system serves every player alike."""


@dataclass(slots=True)
class PlayerBody:
    """Marks the body: the player's capsule; its Transform is at the feet, facing the head's yaw.

    `placed` is False until the body has been put where the player first stands (the neck
    point of the first tracked head), so a player standing still at the start is not
    separated from their body."""

    placed: bool = False


@dataclass(slots=True)
class SafeGround:
    """On the body: where it stood on walkable ground over its last :data:`SAFE_TRAIL` grounded
    steps, which the rescue puts a fallen body back on (the oldest of them: the newest is the
    very edge it went over, where the capsule's rim still touched the floor, and standing
    there it would slip off again); and the level's extent across the floor (lowest x, z;
    highest x, z), measured again whenever the count of bodies changes (`measured_at`);
    and how many rescues in a row found no ground to stand on (`rescues`: a start outside the
    level, or under its floor)."""

    trail: deque[Vec3] = field(default_factory=lambda: deque(maxlen=SAFE_TRAIL))
    extent: tuple[float, float, float, float] | None = None
    measured_at: int = -1
    rescues: int = 0
