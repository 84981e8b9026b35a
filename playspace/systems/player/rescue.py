"""The player stays in the world: a body that leaves it is put back on safe ground.

Walking physically off a ledge, or past the edge of a level, the body falls, and nothing else
would ever stop it: the view would follow it down for good. A body flung sideways (pushed by
physics, moving through the air) leaves the level before it falls far. Where the body stands
on walkable ground is remembered; a body below the physics kill height, or more than
:data:`~playspace.components.rig.LEVEL_MARGIN` outside the level's geometry across the floor,
is put back where it stood half a second before (at the scene's start when it never stood
anywhere) with the origin moved so the player stands at the body, behind the teleport's blink,
and a :class:`~playspace.systems.player.events.PlayerRescued` event says from where to where,
and why. A start that is itself out of the world (a seat placed past the level's edge, a start
under the floor) gives way to the level's ground nearest it; a level with no ground at all
leaves the player to fall, said once, rather than rescue them every step.
"""

from __future__ import annotations

import logging

from playspace import spatial
from playspace.components import TrackedDevice, Transform
from playspace.components.physics import BodyCommands, CharacterMotion
from playspace.components.rig import LEVEL_MARGIN, Rig, RigSettings, SafeGround
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

GIVE_UP = 2  # rescues in a row without standing after which the ground fallback is tried no more

log = logging.getLogger(__name__)


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
                safe.rescues = 0
            continue
        if safe.rescues > GIVE_UP:
            continue
        start = world.try_resource(PlayerStart)
        back = _way_back(physics, safe, start.position if start is not None else None)
        safe.rescues += 1
        if back is None:
            if safe.rescues > GIVE_UP:
                log.warning(
                    "player %d is out of the world (%s) and the level has no ground to put them "
                    "on: left to fall",
                    rig.player,
                    why,
                )
            continue
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


def _way_back(physics: Physics, safe: SafeGround, start: Vec3 | None) -> Vec3 | None:
    """Where to put a body that left the world: where it last stood, else the scene's start;
    when that is out of the world too, or the body left the world again without standing
    since (a start under the floor), the level's ground nearest the start; None when the
    level has none."""
    if safe.rescues == 0:
        spot = safe.trail[0] if safe.trail else start
        if spot is not None and _outside(physics, safe, spot) is None:
            return spot
    if safe.rescues >= GIVE_UP:
        return None
    return _ground(physics, start if start is not None else spatial.vec3(0.0, 0.0, 0.0))


def _ground(physics: Physics, near: Vec3) -> Vec3 | None:
    """The top of the level's geometry straight below the point of its extent nearest `near`
    (or below its middle), above the kill height; None when neither has any."""
    extent = physics.static_extent()
    if extent is None:
        return None
    low, high = extent
    nearest = (min(max(near.x, low.x), high.x), min(max(near.z, low.z), high.z))
    middle = ((low.x + high.x) / 2, (low.z + high.z) / 2)
    down, reach = spatial.vec3(0.0, -1.0, 0.0), high.y - low.y + 2.0
    for x, z in (nearest, middle):
        hit = physics.ray_cast(spatial.vec3(x, high.y + 1.0, z), down, reach, ("environment",))
        if hit is not None and hit.point.y > physics.kill_height:
            return hit.point
    return None


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
        low_x - LEVEL_MARGIN <= feet.x <= high_x + LEVEL_MARGIN
        and low_z - LEVEL_MARGIN <= feet.z <= high_z + LEVEL_MARGIN
    )
    return None if inside else "out_of_bounds"
