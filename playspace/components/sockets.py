"""Sockets and snap zones as plain data: a zone that takes a grabbable let go inside it, holds
it in a set pose, and can call it back when it was dropped elsewhere (Unity XRI's
XRSocketInteractor, Godot XR Tools' snap zone and return-to-snap-zone).

The socket system (``playspace.systems.interaction.sockets``) does the snapping; these are the
settings a game writes and the state the system keeps, as fields (a socket fills and empties
every few seconds, and a structural change would rebuild every query cache).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from playspace.components.interaction import HeldBefore
from playspace.components.physics import Box, Sphere
from playspace.spatial import Pose


@dataclass(slots=True)
class Socket:
    """A zone on an entity that snaps accepted grabbables into place, a tool rack's hook or a
    holster; the entity needs a ``Transform`` (the zone's centre and turn).

    Settings: `zone` is a sphere or a box centred on the entity; an object is inside it when
    its origin (its ``Transform``) is. `snap` is where a socketed object's origin goes, in the
    entity's frame. `accepts` names the ``Grabbable.tags`` it takes (any one of them is
    enough; empty: every grabbable). With `return_after` (seconds; 0: at once) the last object
    it held comes back when it has lain free that long, dropped or thrown elsewhere. With
    `carried_by` the socket rides on that entity at `offset` (the player's body for a
    holster: the body's ``Transform`` is at the feet, turned with the head's yaw).

    State, kept by the socket system: `holding` is the object in it (a game may set it on a
    socket it spawns, and the object snaps in at the next step); `hovering` is the held object
    a hand would leave in it if it let go now (drawn highlighted); `home` is the object that
    returns to it, `away` the fixed steps that object has been free, and `before` what the
    socketed object was before it went in (given back to the hand that takes it).
    """

    zone: Sphere | Box = field(default_factory=lambda: Sphere(0.1))
    snap: Pose = field(default_factory=Pose.identity)
    accepts: frozenset[str] = frozenset()
    return_after: float | None = None
    carried_by: int | None = None
    offset: Pose = field(default_factory=Pose.identity)
    holding: int | None = None
    hovering: int | None = None  # drawn highlighted: let go now, this one snaps in
    home: int | None = None
    away: int = 0
    before: HeldBefore | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.zone, Sphere | Box):
            raise TypeError(f"a socket's zone must be a Sphere or a Box, got {self.zone!r}")
        if isinstance(self.accepts, str) or not all(isinstance(t, str) for t in self.accepts):
            raise TypeError(f"a socket's accepts must be a set of tag names, got {self.accepts!r}")
        self.accepts = frozenset(self.accepts)
        after = self.return_after
        if after is not None and (
            isinstance(after, bool)
            or not isinstance(after, int | float)
            or not math.isfinite(after)
            or after < 0
        ):
            raise ValueError(
                f"a socket's return_after must be None or a finite number of seconds >= 0, "
                f"got {after!r}"
            )
