"""Holding, as data on its two ends: the hand (:class:`Hand` and the small components beside
it: what it grips, holds and hovers) and the :class:`Grabbable` (who holds it, and what it was
before). The grab system takes and lets go;
the layers system ghosts and restores; the throw system only sets the velocity an object
leaves with. Nothing about holding is kept anywhere else."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from playspace import spatial
from playspace.components.physics import BodyKind, Box, Shape
from playspace.components.tracking import DeviceRole
from playspace.spatial import Pose, Vec3


@dataclass(slots=True)
class Hand:
    """A hand that grabs: which one, and whose (``Rig.player``). What it does is in small
    components beside it on the hand's entity, one concern each, so a system reads and writes
    only what it works with: :class:`Grip`, :class:`Holding`, :class:`Hover`,
    :class:`PhysicsHand`, and :class:`DistanceGrab` where the hand opts in."""

    side: DeviceRole
    player: int = 0


@dataclass(slots=True)
class Grip:
    """Whether the hand grips (past ``GrabSettings.grip_on``, until below ``grip_off``), and
    whether its grip is a toggle: one squeeze grabs and the next lets go (XR Tools' grip
    toggle; None follows ``GrabSettings.grip_toggle``)."""

    gripping: bool = False
    toggle: bool | None = None


@dataclass(slots=True)
class Holding:
    """What the hand holds (`object`, None when empty), and how.

    `offset` is the held object's pose in the hand's frame now: at a grab, where it was
    grabbed, so the object does not jump into the palm. While `easing_to` is set, the offset
    moves to it, reaching it in `ease_left` seconds: an attach point's pose (the grip of a
    pistol meets the hand, as XRI's attach ease-in) or the palm, for an object pulled from a
    distance. `second` is True when this hand holds an object's second grab point (the object
    is aimed from the first hand toward this one).
    """

    object: int | None = None
    offset: Pose | None = None
    second: bool = False
    easing_to: Pose | None = None  # the offset it is moving to (None: there)
    ease_left: float = 0.0  # seconds until the offset reaches `easing_to`


@dataclass(slots=True)
class Hover:
    """What a free hand would take if it gripped now (`object`), as XRI's hover and Godot XR
    Tools' highlight show it; None when nothing."""

    object: int | None = None


@dataclass(slots=True)
class DistanceGrab:
    """On a hand: it takes any grabbable in its aim a few metres away
    (``GrabSettings.distance_range``), not only those within reach or those that opt in
    (``Grabbable.distance_grab``)."""


@dataclass(slots=True)
class PhysicsHand:
    """A hand that collides with the world (XR Tools' collision hands, Hurricane VR's physics
    hands): `collide` makes the hand, a ``GrabSettings.hand_shape``, stop at the environment
    instead of passing through it, while the controller goes on; None follows
    ``GrabSettings.hand_collision``.

    While it collides, `physical` is where the hand is (what grabs, what held objects follow,
    its ``Transform``) and `controller` where its controller is, both in the world, and
    `blocked` is True while the two are apart: the controller's hand is then drawn as a
    ghost. They stay None / False for a hand that does not collide.
    """

    collide: bool | None = None
    blocked: bool = False
    physical: Pose | None = None
    controller: Pose | None = None


@dataclass(slots=True)
class HeldBefore:
    """What an object was before a hand took it, so letting go restores exactly that: its
    body's kind, and each solid part's layer and whether it reported contacts."""

    kind: BodyKind
    layers: dict[int, str]
    reported: dict[int, bool]


@dataclass(slots=True)
class Grabbable:
    """A body the player's hands may pick up, and its state while they do.

    `held_by` is the hand entity holding it (None when free) and `before` what it was before
    (None when free); `ghost` is True while a held object is inside the environment, drawn as
    a ghost; `last_clear` is where it last was, held, outside the environment (a release inside
    a wall puts it back there). `dropped` holds the layers its solid parts go back to once a
    released object is clear of the player's body. These are fields, not tag components,
    because they change every few frames and a structural change rebuilds every query cache.
    `socketed_in` is the socket that holds it (``playspace.components.sockets``), and `tags`
    are the names a socket accepts it by, as XRI's interaction layers and Godot XR Tools'
    groups; a list given as `tags` is kept as a frozenset.

    `attach_left` and `attach_right` are where each hand holds it, poses in its own frame
    (XRI's attach transform, XR Tools' grab points): grabbed, the object moves so that pose
    meets the hand's grip pose, over `attach_ease` seconds (0: at once), wherever it was
    grabbed. None keeps the pose it was grabbed at. `distance_grab` lets any hand pull it
    from a few metres away (a hand's :class:`DistanceGrab` opts it in for everything); set it
    through ``world.get_mut``, so the distance grab sees it.
    """

    held_by: int | None = None
    socketed_in: int | None = None  # the socket entity holding it (None when not in one)
    tags: frozenset[str] = frozenset()  # what sockets accept it by (Socket.accepts)
    ghost: bool = False
    second_grip: Vec3 | None = None  # a second grab point (object frame): held in two hands
    throw_scale: tuple[float, float] = (1.0, 1.0)  # linear, angular
    max_throw_speed: float = 20.0  # m/s: a tracking glitch must not fire a missile
    attach_left: Pose | None = None  # where the left hand holds it (its frame)
    attach_right: Pose | None = None  # where the right hand holds it (its frame)
    attach_ease: float = 0.0  # seconds it takes to move into the hand (0: at once)
    distance_grab: bool = False  # any hand may pull it from a few metres away
    before: HeldBefore | None = None
    last_clear: Pose | None = None
    dropped: dict[int, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if isinstance(self.tags, str) or not all(isinstance(t, str) for t in self.tags):
            raise TypeError(f"grabbable tags must be a set of names, got {self.tags!r}")
        self.tags = frozenset(self.tags)


@dataclass(slots=True)
class GrabSettings:
    """Grab and throw settings, a resource (Godot XR Tools' and XRI's numbers where they agree).

    `com_offset` is where the controller's centre of mass is in the grip pose's frame: it
    depends on the controller (OpenXR's interaction profile chooses it) and is where the throw
    measures v and w, so that v + w x r uses one tracked point throughout.

    A distance grab (``DistanceGrab``, ``Grabbable.distance_grab``) takes the object
    nearest the aim (the grip pose's -Z) within `distance_angle` of it and `distance_range`
    away, with nothing of the environment between, and pulls it into the palm over
    `pull_time` (XR Tools' ranged pickup: 5 m and 5 degrees; a cone a little wider forgives
    a shaking hand). `grip_toggle` makes every hand's grip a toggle unless a hand says
    otherwise (``Grip.toggle``).

    `hand_collision` makes every hand a physics hand unless a hand says otherwise
    (``PhysicsHand.collide``): a `hand_shape` that slides along the environment and stops at it.
    It is in a controller's grip pose frame (OpenXR's: X the palm's normal, Z along the
    handle): the default box is a fist round a controller, 8 cm from the palm through the
    back of the hand, 4 cm across, 12 cm along the handle. A bare hand's pose (the palm's)
    has X the palm's normal too, but the fingers straight out along -Z, so there the shape is
    turned a quarter turn about Z: the box is a flat hand, 8 cm across the knuckles, 4 cm
    thick, 12 cm from wrist to finger tips. A physics hand left more than
    `hand_snap` metres behind the tracked one (the player teleported, or reached through a
    thin wall) jumps to it once the tracked pose is clear of the environment.
    """

    reach: float = 0.08  # radius of the grab sensor at the grip point, metres
    grip_on: float = 0.7
    grip_off: float = 0.3
    com_offset: Vec3 = field(default_factory=lambda: spatial.vec3(0.0, -0.01, 0.03))
    history: int = 20  # fixed steps of controller poses kept for the throw
    distance_range: float = 3.0  # metres a distance grab reaches (0: no distance grabs)
    distance_angle: float = math.radians(10.0)  # half-angle of its cone about the aim
    pull_time: float = 0.25  # seconds a pulled object takes to reach the palm
    grip_toggle: bool = False  # one squeeze grabs, the next lets go (every hand)
    hand_collision: bool = False  # hands stop at the environment (every hand)
    hand_shape: Shape = field(default_factory=lambda: Box((0.08, 0.04, 0.12)))
    hand_snap: float = 0.5  # metres apart at which a physics hand jumps to the tracked one
