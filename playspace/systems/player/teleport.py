"""Teleport: push the right stick forward to aim an arc from the right hand, release to go.

The arc is a ballistic path from the controller, cast segment by segment against what the
body collides with. A target is valid only on walkable floor (no steeper than the capsule's
``max_slope``) with room for the capsule standing there; anything else is refused with a
reason. Going there blinks the view and moves the origin so the player's physical spot (not
the origin's) lands on the target; the body is moved at once, without a velocity.
"""

from __future__ import annotations

import math

from playspace import spatial
from playspace.components import TrackedDevice, Transform
from playspace.components.physics import BodyCommands, Capsule, CharacterBody
from playspace.components.rig import AimProblem, Rig, RigSettings, TeleportAim
from playspace.components.tracking import HandControls
from playspace.ecs import World
from playspace.spatial import Vec3
from playspace.systems.input.placement import tracked_world_pose
from playspace.systems.physics import Layers, Physics
from playspace.systems.physics.commands import teleport_body
from playspace.systems.player.events import (
    BlinkRequested,
    FloorSnapRequested,
    Teleported,
    TeleportRefused,
)
from playspace.systems.player.follow import body_layers
from playspace.systems.player.poses import floor_point, horizontal
from playspace.systems.player.providers import locomotion_provider

ARC_STEP = 1.0 / 30.0  # seconds of flight per cast segment
CLEARANCE = 0.02  # metres the capsule must clear the floor by at the target
WALL_MARGIN = 0.05  # metres an arc starts short of a wall between the body and the hand


TELEPORT_ORDER = 10  # after smooth movement; while it aims it takes the step from turning


@locomotion_provider(
    TELEPORT_ORDER,
    exclusive=True,
    reads=(Rig, RigSettings, TrackedDevice, HandControls, CharacterBody, Layers),
    writes=(
        Transform,
        TeleportAim,
        Physics,
        Teleported,
        TeleportRefused,
        FloorSnapRequested,
        BlinkRequested,
        BodyCommands,
    ),
)
def teleport(world: World, rig: Rig, disabled: bool) -> bool:
    """Aim while the right stick is forward; on release go to a valid target or refuse."""
    settings = world.resource(RigSettings)
    aim = world.get(rig.origin, TeleportAim)
    push = world.get(rig.right_hand, HandControls).stick[1]
    if disabled:
        aim.aiming, aim.arc = False, []
        return False
    if push > settings.flick_on:
        aim.aiming = True
    if not aim.aiming:
        return False
    hand = world.get(rig.right_hand, TrackedDevice)
    if hand.tracked:
        _aim(world, rig, aim, settings, hand)
    if push >= settings.flick_off:
        return True
    aim.aiming, aim.arc = False, []
    if aim.target is None or aim.problem is not None:
        reason = (aim.problem or AimProblem.NO_TARGET).value
        world.send(TeleportRefused(aim.target, reason, rig.player))
        return True
    _go(world, rig, settings, aim.target)
    return True


def _aim(
    world: World, rig: Rig, aim: TeleportAim, settings: RigSettings, hand: TrackedDevice
) -> None:
    origin = world.get(rig.origin, Transform)
    pose = tracked_world_pose(origin.pose(), hand.pose)
    velocity = spatial.rotate(pose.rotation, spatial.vec3(0.0, 0.0, -settings.teleport_speed))
    physics = world.resource(Physics)
    layers = body_layers(world.resource(Layers))
    gravity = physics.gravity.y
    start = _reachable(world, rig, pose.position, layers)
    point = start
    aim.arc = [point]
    aim.target, aim.problem = None, AimProblem.NO_TARGET
    for i in range(1, math.ceil(settings.teleport_max_time / ARC_STEP) + 1):
        t = i * ARC_STEP
        following = start + velocity * t + spatial.vec3(0.0, 0.5 * gravity * t * t, 0.0)
        segment = following - point
        length = math.sqrt(segment.x**2 + segment.y**2 + segment.z**2)
        hit = physics.ray_cast(point, segment, length, layers=layers, exclude=rig.body)
        if hit is not None:
            aim.arc.append(hit.point)
            aim.target = hit.point
            aim.problem = _problem(world, rig, hit.point, hit.normal)
            return
        aim.arc.append(following)
        point = following


def _reachable(world: World, rig: Rig, hand: Vec3, layers: list[str]) -> Vec3:
    """Where the arc starts: the hand, or, when something stands between the body and the hand
    (a player leaning through a wall with the view faded), just this side of it. Aimed from a
    hand beyond a wall the arc would land beyond it, where the body could never walk."""
    feet = world.get(rig.body, Transform).position
    chest = feet + spatial.vec3(0.0, 0.75 * world.get(rig.body, CharacterBody).height, 0.0)
    reach = hand - chest
    distance = spatial.length(reach)
    if distance < 1e-6:
        return hand
    physics = world.resource(Physics)
    wall = physics.ray_cast(chest, reach, distance, layers=layers, exclude=rig.body)
    if wall is None:
        return hand
    return chest + reach * (max(wall.distance - WALL_MARGIN, 0.0) / distance)


def _problem(world: World, rig: Rig, target: Vec3, normal: Vec3) -> AimProblem | None:
    """Why the body could not stand at `target`: too steep, no room, or nothing (None)."""
    capsule = world.get(rig.body, CharacterBody)
    if normal.y < math.cos(capsule.max_slope):
        return AimProblem.SLOPE
    centre = target + spatial.vec3(0.0, capsule.height / 2 + CLEARANCE, 0.0)
    shape = Capsule(capsule.radius, capsule.height)
    layers = body_layers(world.resource(Layers))
    if world.resource(Physics).overlap(shape, centre, spatial.identity(), layers, rig.body):
        return AimProblem.ROOM
    return None


def _go(world: World, rig: Rig, settings: RigSettings, target: Vec3) -> None:
    origin = world.get(rig.origin, Transform)
    head = world.get(rig.head, TrackedDevice)
    stands = floor_point(tracked_world_pose(origin.pose(), head.pose), settings.neck_offset)
    origin.position = origin.position + horizontal(target - stands)
    teleport_body(world, rig.body, target)
    world.send(FloorSnapRequested(player=rig.player))
    world.send(BlinkRequested(rig.player))
    world.send(Teleported(spatial.Vec3(target), rig.player))
