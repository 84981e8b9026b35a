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

from playspace import spatial
from playspace.components import TrackedDevice, Transform
from playspace.components.physics import BodyCommands, CharacterMotion
from playspace.components.rig import Rig, RigSettings, SafeGround
from playspace.components.scene import PlayerStart
from playspace.ecs import Phase, World, system
from playspace.spatial import Vec3
from playspace.systems.input.placement import tracked_world_pose
from playspace.systems.physics import Physics
from playspace.systems.physics.commands import teleport_body
from playspace.systems.player.events import BlinkRequested, FloorSnapRequested, PlayerRescued
from playspace.systems.player.follow import separation, view_fade
from playspace.systems.player.poses import floor_point, horizontal
from playspace.systems.sets import FixedSet

MARGIN = 2.0  # metres past the level's outermost geometry across the floor: nothing to stand on


@system(
    Phase.FIXED,
    in_set=FixedSet.SEPARATION,
    after=(separation,),
    before=(view_fade,),
    reads=(PlayerStart, Rig, RigSettings, TrackedDevice),
    writes=(
        Transform,
        SafeGround,
        CharacterMotion,
        Physics,
        PlayerRescued,
        FloorSnapRequested,
        BlinkRequested,
        BodyCommands,
    ),
)
def keep_in_world(world: World) -> None:
    """Remember each player's safe ground; put a body fallen below the kill height back on it."""
    physics = world.resource(Physics)
    for _, rig in world.each(Rig):
        feet = world.get(rig.body, Transform).position
        motion = world.get(rig.body, CharacterMotion)
        safe = world.get(rig.body, SafeGround)
        why = _outside(physics, safe, feet)
        if why is None:
            if motion.grounded:
                safe.trail.append(spatial.Vec3(feet))
            continue
        start = world.try_resource(PlayerStart)
        fallback = start.position if start is not None else spatial.vec3(0.0, 0.0, 0.0)
        back = safe.trail[0] if safe.trail else fallback
        fell = spatial.Vec3(feet)
        teleport_body(world, rig.body, back)
        motion.vertical_speed, motion.grounded = 0.0, True
        origin = world.get(rig.origin, Transform)
        head = world.get(rig.head, TrackedDevice)
        neck = world.resource(RigSettings).neck_offset
        origin.position = origin.position + horizontal(
            back - floor_point(tracked_world_pose(origin.pose(), head.pose), neck)
        )
        world.send(FloorSnapRequested(player=rig.player))  # the view's floor joins the body's
        world.send(BlinkRequested(player=rig.player))
        safe.trail.clear()
        world.send(PlayerRescued(fell, spatial.Vec3(back), why, player=rig.player))


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
