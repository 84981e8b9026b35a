"""Holding, as data on its two ends: the :class:`Hand` (what it holds, and how) and the
:class:`Grabbable` (who holds it, and what it was before). The grab system takes and lets go;
the layers system ghosts and restores; the throw system only sets the velocity an object
leaves with. Nothing about holding is kept anywhere else."""

from __future__ import annotations

from dataclasses import dataclass, field

from playspace import spatial
from playspace.components.physics import BodyKind
from playspace.components.tracking import DeviceRole
from playspace.spatial import Pose, Vec3


@dataclass(slots=True)
class Hand:
    """A hand that grabs: its grip state and what it holds.

    `offset` is the held object's pose in the hand's frame at the moment of the grab, kept so
    the object does not jump into the palm. `second` is True when this hand holds an object's
    second grab point (the object is aimed from the first hand toward this one). `hovering` is
    what a free hand would take if it gripped now, as XRI's hover and Godot XR Tools'
    highlight show it.
    """

    side: DeviceRole
    gripping: bool = False
    holding: int | None = None
    offset: Pose | None = None
    second: bool = False
    hovering: int | None = None  # what it would take if it gripped now (drawn highlighted)


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
    """

    held_by: int | None = None
    socketed_in: int | None = None  # the socket entity holding it (None when not in one)
    tags: frozenset[str] = frozenset()  # what sockets accept it by (Socket.accepts)
    ghost: bool = False
    second_grip: Vec3 | None = None  # a second grab point (object frame): held in two hands
    throw_scale: tuple[float, float] = (1.0, 1.0)  # linear, angular
    max_throw_speed: float = 20.0  # m/s: a tracking glitch must not fire a missile
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
    """

    reach: float = 0.08  # radius of the grab sensor at the grip point, metres
    grip_on: float = 0.7
    grip_off: float = 0.3
    com_offset: Vec3 = field(default_factory=lambda: spatial.vec3(0.0, -0.01, 0.03))
    history: int = 12  # fixed steps of controller poses kept for the throw
