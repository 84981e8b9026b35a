"""The player stays in the world: a body that leaves it is put back on safe ground.

Walking physically off a ledge, or past the edge of a level, the body falls, and nothing else
would ever stop it: the view would follow it down for good. A body flung sideways (pushed by
physics, moving through the air) leaves the level before it falls far. Where the body stands
on walkable ground is remembered; a body below the physics kill height, or more than
:data:`MARGIN` outside the level's geometry across the floor, is put back where it stood half a
second before (at the scene's start when it never stood anywhere) with the origin moved so the
player stands at the body, behind the teleport's blink, and a
:class:`~playspace.systems.player.events.PlayerRescued` event says from where to where, and why.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from playspace import spatial
from playspace.components import TrackedDevice, Transform
from playspace.components.physics import CharacterMotion
from playspace.components.rig import Rig, RigSettings
from playspace.components.scene import PlayerStart
from playspace.ecs import Phase, World, system
from playspace.spatial import Vec3
from playspace.systems.physics import Physics
from playspace.systems.player.events import BlinkRequested, FloorSnapRequested, PlayerRescued
from playspace.systems.player.poses import floor_point, horizontal, to_world

TRAIL = 45  # grounded steps remembered: half a second at 90 Hz
MARGIN = 2.0  # metres past the level's outermost geometry across the floor: nothing to stand on


@dataclass(slots=True)
class SafeGround:
    """Where the body stood on walkable ground over its last grounded steps; a resource.

    The rescue puts it back where it stood :data:`TRAIL` grounded steps before the fall, not
    at the last of them: that one is the very edge it went over, where the capsule's rim still
    touched the floor, and standing there it would slip off again."""

    trail: deque[Vec3] = field(default_factory=lambda: deque(maxlen=TRAIL))
    # the level's geometry across the floor (lowest x, z; highest x, z), and the count of
    # bodies it was measured at: a game that adds or removes a body has it measured again
    extent: tuple[float, float, float, float] | None = None
    measured_at: int = -1

    @property
    def feet(self) -> Vec3 | None:
        return self.trail[0] if self.trail else None


@system(
    Phase.FIXED,
    in_set="separation",
    after=("separation",),
    reads=(PlayerStart, Rig, RigSettings, TrackedDevice),
    writes=(
        Transform,
        SafeGround,
        CharacterMotion,
        Physics,
        PlayerRescued,
        FloorSnapRequested,
        BlinkRequested,
    ),
)
def keep_in_world(world: World) -> None:
    """Remember safe ground; put a body fallen below the kill height back on it."""
    rig, safe = world.resource(Rig), world.resource(SafeGround)
    feet = world.get(rig.body, Transform).position
    motion = world.get(rig.body, CharacterMotion)
    physics = world.resource(Physics)
    why = _outside(physics, safe, feet)
    if why is None:
        if motion.grounded:
            safe.trail.append(spatial.Vec3(feet))
        return
    start = world.try_resource(PlayerStart)
    back = safe.feet or (start.position if start is not None else spatial.vec3(0.0, 0.0, 0.0))
    fell = spatial.Vec3(feet)
    physics.teleport(rig.body, back)
    motion.vertical_speed, motion.grounded = 0.0, True
    origin = world.get(rig.origin, Transform)
    head = world.get(rig.head, TrackedDevice)
    stands = floor_point(to_world(origin, head.pose), world.resource(RigSettings).neck_offset)
    origin.position = origin.position + horizontal(back - stands)
    world.send(FloorSnapRequested())  # the view's floor joins the body's at once
    world.send(BlinkRequested())
    safe.trail.clear()
    world.send(PlayerRescued(fell, spatial.Vec3(back), why))


def _outside(physics: Physics, safe: SafeGround, feet: Vec3) -> str | None:
    """Why the body at `feet` is out of the world (``"fell"``, ``"out_of_bounds"``), or None."""
    if feet.y < physics.kill_height:
        return "fell"
    if safe.measured_at != len(physics.bodies):
        safe.measured_at = len(physics.bodies)
        extent = physics.static_extent()
        safe.extent = (
            None if extent is None else (extent[0].x, extent[0].z, extent[1].x, extent[1].z)
        )
    if safe.extent is None:
        return None
    low_x, low_z, high_x, high_z = safe.extent
    inside = (
        low_x - MARGIN <= feet.x <= high_x + MARGIN and low_z - MARGIN <= feet.z <= high_z + MARGIN
    )
    return None if inside else "out_of_bounds"
