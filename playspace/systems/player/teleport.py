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
from playspace.components.physics import Capsule, CharacterBody
from playspace.components.rig import Rig, RigSettings
from playspace.ecs import Phase, World, system
from playspace.spatial import Vec3
from playspace.systems.physics import Layers, Physics
from playspace.systems.rig.events import Teleported, TeleportRefused
from playspace.systems.rig.poses import floor_point, horizontal, to_world
from playspace.systems.tracking import InputState

ARC_STEP = 1.0 / 30.0  # seconds of flight per cast segment
CLEARANCE = 0.02  # metres the capsule must clear the floor by at the target
WALL_MARGIN = 0.05  # metres an arc starts short of a wall between the body and the hand


@system(
    Phase.FIXED,
    in_set="locomotion",
    after=("smooth_move",),
    reads=(InputState, RigSettings, TrackedDevice, CharacterBody, Layers),
    writes=(Transform, Rig, Physics, Teleported, TeleportRefused),
)
def teleport(world: World) -> None:
    """Aim while the right stick is forward; on release go to a valid target or refuse."""
    rig, settings = world.resource(Rig), world.resource(RigSettings)
    rig.blink_left = max(0.0, rig.blink_left - world.fixed_time.dt)
    push = world.resource(InputState).frame.right.stick[1]
    if push > settings.flick_on:
        rig.teleport_aiming = True
    if not rig.teleport_aiming:
        return
    hand = world.get(rig.right_hand, TrackedDevice)
    if hand.tracked:
        _aim(world, rig, settings, hand)
    if push >= settings.flick_off:
        return
    rig.teleport_aiming = False
    rig.arc = []
    target, problem = rig.teleport_target, rig.teleport_problem
    if target is None or problem is not None:
        world.send(TeleportRefused(target, problem or "none"))
        return
    _go(world, rig, settings, target)


def _aim(world: World, rig: Rig, settings: RigSettings, hand: TrackedDevice) -> None:
    origin = world.get(rig.origin, Transform)
    pose = to_world(origin, hand.pose)
    velocity = spatial.rotate(pose.rotation, spatial.vec3(0.0, 0.0, -settings.teleport_speed))
    physics = world.resource(Physics)
    layers = _walkable_layers(world.resource(Layers))
    gravity = physics.engine.gravity.y
    start = _reachable(world, rig, pose.position, layers)
    point = start
    rig.arc = [point]
    rig.teleport_target, rig.teleport_problem = None, "none"
    for i in range(1, math.ceil(settings.teleport_max_time / ARC_STEP) + 1):
        t = i * ARC_STEP
        following = start + velocity * t + spatial.vec3(0.0, 0.5 * gravity * t * t, 0.0)
        segment = following - point
        length = math.sqrt(segment.x**2 + segment.y**2 + segment.z**2)
        hit = physics.ray_cast(point, segment, length, layers=layers, exclude=rig.body)
        if hit is not None:
            rig.arc.append(hit.point)
            rig.teleport_target = hit.point
            rig.teleport_problem = _problem(world, rig, hit.point, hit.normal)
            return
        rig.arc.append(following)
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


def _walkable_layers(layers: Layers) -> list[str]:
    return [n for n in layers.names if n != "player" and layers.collides("player", n)]


def _problem(world: World, rig: Rig, target: Vec3, normal: Vec3) -> str | None:
    """Why the body could not stand at `target`: too steep, no room, or nothing (None)."""
    capsule = world.get(rig.body, CharacterBody)
    if normal.y < math.cos(capsule.max_slope):
        return "slope"
    centre = target + spatial.vec3(0.0, capsule.height / 2 + CLEARANCE, 0.0)
    shape = Capsule(capsule.radius, capsule.height)
    layers = _walkable_layers(world.resource(Layers))
    if world.resource(Physics).overlap(shape, centre, spatial.identity(), layers, rig.body):
        return "room"
    return None


def _go(world: World, rig: Rig, settings: RigSettings, target: Vec3) -> None:
    origin = world.get(rig.origin, Transform)
    head = world.get(rig.head, TrackedDevice)
    stands = floor_point(to_world(origin, head.pose), settings.neck_offset)
    origin.position = origin.position + horizontal(target - stands)
    world.resource(Physics).teleport(rig.body, target)
    rig.snap_floor = True
    rig.blink_left = settings.teleport_blink
    world.send(Teleported(spatial.Vec3(target)))
