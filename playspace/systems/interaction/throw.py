"""The throw in the fixed step: a history of controller poses, and what a released object gets.

Each step the controller's centre of mass (the grip pose moved by the profile's offset) is kept
in *tracking space*, so a snap turn or a teleport inside the window cannot bend the estimate:
the origin jumps, the room does not. On release the estimator (``estimate.release_velocity``)
gives v + w x r for the object from that window; it is turned into the world through the
origin, and smooth locomotion's own velocity is added, since the player carried the object.
A hand whose tracking was lost gives no velocity: stale samples never throw anything.
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass, field

import numpy as np

from playspace import spatial
from playspace.components import TrackedDevice, Transform
from playspace.components.interaction import Grabbable, GrabSettings, Hand
from playspace.components.physics import BodyCommands, SetVelocity
from playspace.components.rig import OriginMotion, Rig
from playspace.ecs import Despawned, Phase, World, on_event, system
from playspace.spatial import Pose, Vec3
from playspace.systems.interaction.estimate import release_velocity
from playspace.systems.interaction.events import LetGo, Released
from playspace.systems.physics import Physics
from playspace.systems.player.players import player_rig
from playspace.systems.sets import FixedSet, add_fixed_sets

Sample = tuple[float, tuple[float, float, float], tuple[float, float, float, float]]

# No hand moves faster than this (a pitcher's hand peaks near 20 m/s): a step that takes the
# controller further is a tracking glitch, and the history starts again after it rather than
# throwing it.
MAX_HAND_SPEED = 30.0


@dataclass(slots=True)
class Carried:
    """How locomotion carried a player's origin last step (across the floor, m/s, and about
    +Y, rad/s), which an object the player throws keeps as their own motion; and where the
    origin was (position and yaw)."""

    velocity: Vec3 = field(default_factory=lambda: spatial.vec3(0.0, 0.0, 0.0))
    spin: float = 0.0
    last: tuple[Vec3, float] | None = None


@dataclass(slots=True)
class ThrowHistory:
    """Recent controller centre-of-mass poses per hand (tracking space), and how each player
    was carried (by ``Rig.player``); a resource."""

    hands: dict[int, deque[Sample]] = field(default_factory=dict)
    players: dict[int, Carried] = field(default_factory=dict)


def _controller(device: TrackedDevice, settings: GrabSettings) -> Pose:
    """The controller's centre of mass in tracking space."""
    grip = device.pose
    return Pose(grip.position + spatial.rotate(grip.rotation, settings.com_offset), grip.rotation)


@system(
    Phase.FIXED,
    in_set=FixedSet.THROW,
    reads=(GrabSettings, Hand, Rig, TrackedDevice, Transform, OriginMotion),
    writes=(ThrowHistory,),
)
def throw_history(world: World) -> None:
    """Keep each hand's recent poses; forget them when tracking is lost."""
    history, settings = world.resource(ThrowHistory), world.resource(GrabSettings)
    now = world.fixed_time.elapsed
    for entity, (_, device) in world.query(Hand, TrackedDevice):
        samples = history.hands.setdefault(entity, deque(maxlen=settings.history))
        if not device.tracked:
            samples.clear()
            continue
        com = _controller(device, settings)
        p, q = com.position, com.rotation
        if samples and _jumped(samples[-1], p, now):
            samples.clear()  # a glitch: nothing before it, nor the jump itself, is thrown
        samples.append((now, (p.x, p.y, p.z), (q.x, q.y, q.z, q.w)))
    dt = world.fixed_time.dt
    for entity, rig in world.each(Rig):
        carried = history.players.setdefault(rig.player, Carried())
        transform = world.get(entity, Transform)
        origin = (spatial.Vec3(transform.position), spatial.yaw(transform.rotation))
        if carried.last is not None and world.get(entity, OriginMotion).continuous:
            step = origin[0] - carried.last[0]  # a jump (teleport, snap turn) carries nothing
            carried.velocity = spatial.vec3(step.x, 0.0, step.z) / dt
            carried.spin = math.remainder(origin[1] - carried.last[1], math.tau) / dt
        else:
            carried.velocity, carried.spin = spatial.vec3(0.0, 0.0, 0.0), 0.0
        carried.last = origin


def _jumped(last: Sample, p: Vec3, now: float) -> bool:
    """Whether the controller got from `last` to `p` faster than a hand can move."""
    before, (x, y, z) = last[0], last[1]
    reach = MAX_HAND_SPEED * max(now - before, 0.0)
    return (p.x - x) ** 2 + (p.y - y) ** 2 + (p.z - z) ** 2 > reach * reach


@system(
    Phase.FIXED,
    in_set=FixedSet.THROW,
    after=(throw_history,),
    run_if=on_event(LetGo),
    reads=(
        LetGo,
        GrabSettings,
        Grabbable,
        Hand,
        Physics,
        Rig,
        ThrowHistory,
        TrackedDevice,
        Transform,
    ),
    writes=(BodyCommands, Released),
)
def throw(world: World) -> None:
    """Launch what was let go this step with the velocity of the hand's recent motion; say
    how each left (at rest, when it was not to be launched)."""
    commands = world.resource(BodyCommands)
    for let_go in world.read_events(LetGo, reader=throw):
        grabbable = world.try_get(let_go.object, Grabbable)
        if grabbable is None:
            continue  # despawned as it was let go
        linear, angular = spatial.vec3(0.0, 0.0, 0.0), spatial.vec3(0.0, 0.0, 0.0)
        if let_go.launch:
            linear, angular = _launch(world, let_go, grabbable)
            commands.send(SetVelocity(let_go.object, linear, angular))
        world.send(Released(let_go.hand, let_go.object, linear, angular))


@system(
    Phase.FIXED,
    in_set=FixedSet.PHYSICS_PREPARE,
    run_if=on_event(Despawned),
    reads=(Despawned,),
    writes=(ThrowHistory,),
)
def forget_throwers(world: World) -> None:
    """Forget the history of a hand that was despawned."""
    history = world.resource(ThrowHistory)
    for gone in world.read_events(Despawned, reader=forget_throwers):
        history.hands.pop(gone.entity, None)


class ThrowPlugin:
    """Throwing: what a hand lets go leaves with the velocity of its recent motion (add after
    the GrabPlugin; without it, what is let go drops at rest)."""

    def build(self, world: World) -> None:
        world.insert_resource(ThrowHistory())
        for kind in (LetGo, Released):
            world.add_event(kind)
        add_fixed_sets(world)
        world.add_systems(forget_throwers, throw_history, throw)


def _launch(world: World, let_go: LetGo, grabbable: Grabbable) -> tuple[Vec3, Vec3]:
    """The object's velocity in the world from the hand's recent motion (v + w x r)."""
    history = world.resource(ThrowHistory)
    samples = history.hands.get(let_go.hand)
    if not samples or len(samples) < 2:
        return spatial.vec3(0.0, 0.0, 0.0), spatial.vec3(0.0, 0.0, 0.0)
    settings = world.resource(GrabSettings)
    physics = world.resource(Physics)
    # r: the object's centre of mass from the controller's, in the controller's frame (the
    # controller's frame is the grip's, moved by com_offset)
    centre = spatial.transform_point(let_go.offset, physics.local_center_of_mass(let_go.object))
    offset = centre - settings.com_offset
    times = np.array([s[0] for s in samples])
    positions = np.array([s[1] for s in samples])
    orientations = np.array([s[2] for s in samples])
    device = world.get(let_go.hand, TrackedDevice)
    reported = None
    if device.linear_velocity is not None and device.angular_velocity is not None:
        lever = spatial.rotate(device.pose.rotation, settings.com_offset)
        v = device.linear_velocity + spatial.cross(device.angular_velocity, lever)
        w = device.angular_velocity
        reported = (np.array([v.x, v.y, v.z]), np.array([w.x, w.y, w.z]))
    linear, angular = release_velocity(
        times,
        positions,
        orientations,
        np.array([offset.x, offset.y, offset.z]),
        max_speed=grabbable.max_throw_speed,
        scale=grabbable.throw_scale,
        reported=reported,
    )
    player = world.get(let_go.hand, Hand).player
    rig = player_rig(world, player)
    assert rig is not None, f"hand of player {player}, who is not in the world"
    origin = world.get(rig.origin, Transform)
    world_linear = spatial.rotate(origin.rotation, spatial.vec3_from(linear)) + _carried(
        history.players.get(player, Carried()),
        world.get(let_go.object, Transform).position,
        origin.position,
    )
    speed = spatial.length(world_linear)  # the limit holds for what leaves, locomotion included
    if speed > grabbable.max_throw_speed:
        world_linear = world_linear * (grabbable.max_throw_speed / speed)
    return world_linear, spatial.rotate(origin.rotation, spatial.vec3_from(angular))


def _carried(carried: Carried, point: Vec3, origin: Vec3) -> Vec3:
    """The velocity locomotion gave `point` (a point of the room) last step: the origin's
    across the floor, and its turn about +Y around the origin (a smooth turn pivots on the
    head: the origin's own move accounts for that)."""
    lever = point - origin
    spin = spatial.cross(spatial.vec3(0.0, carried.spin, 0.0), lever)
    return carried.velocity + spatial.vec3(spin.x, 0.0, spin.z)
