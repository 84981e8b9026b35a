"""BeeBeeQ's kitchen, as a playspace example: bees, a chef, and a game system that scores.

The bees are opponents. With a gamepad connected each is flown by one (left stick: across,
right stick: up and down); without one a bee flies toward the chef whenever it can see them,
and hovers an arm's length away. A held pan or spatula that strikes a bee raises the runtime's
``hit`` event: this game knocks the bee back, tumbling off up to 25 degrees to either side (by
chance from the run's :class:`~playspace.app.RunRandom`, so ``--seed`` changes where it goes and a
replay with the same seed is the same run), and scores it. Held objects pass through walls and
cannot hit a bee through one: that is the runtime's held-object layers, not this file.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from playspace.prelude import (
    FixedSet,
    InputState,
    LocalPlayer,
    Opponent,
    Phase,
    Physics,
    Rig,
    RunRandom,
    Transform,
    Vec3,
    World,
    events,
    local_rig,
    spatial,
    system,
)

SCENE = "kitchen.toml"
TRACE = "traces/kitchen.jsonl"

APPROACH = 0.3  # m/s toward the chef
HOVER = 0.9  # metres from the chef's head where a bee stops
PAD_SPEED = 1.5  # m/s at full stick
KNOCKBACK = (3.0, 0.4)  # m/s, seconds
TUMBLE = math.radians(25.0)  # the most a knocked bee flies off to either side


@dataclass(slots=True)
class Hive:
    """The score and each bee's knock-back, a resource."""

    score: int = 0
    knocked: dict[int, tuple[Vec3, float]] = field(default_factory=dict)


def _bees(world: World) -> list[tuple[int, Transform]]:
    return [(e, t) for e, (o, t) in world.query(Opponent, Transform) if o.name.startswith("bee")]


def _chef(world: World) -> Rig:
    """The chef: the player this process shows (the kitchen has one)."""
    chef = local_rig(world)
    if chef is None:
        raise ValueError("the kitchen needs its chef: a world with the player's plugin")
    return chef


@system(
    Phase.FIXED,
    in_set=FixedSet.GAME,
    reads=(events.Hit, Rig, LocalPlayer, Transform),
    writes=(Hive, RunRandom),
)
def bee_hits(world: World) -> None:
    """A bee struck by a held object is knocked back, away from the chef, and scores."""
    hive, rng = world.resource(Hive), world.resource(RunRandom).rng
    head = world.get(_chef(world).head, Transform).position
    for hit in world.read_events(events.Hit, reader=bee_hits):
        bee = world.try_get(hit.opponent, Transform)
        if bee is None or hit.opponent in hive.knocked:
            continue
        away = spatial.vec3(bee.position.x - head.x, 0.0, bee.position.z - head.z)
        if spatial.length(away) < 1e-6:
            away = spatial.vec3(0.0, 0.0, -1.0)
        tumble = spatial.yaw_rotation(rng.uniform(-TUMBLE, TUMBLE))
        away = spatial.rotate(tumble, away / spatial.length(away))
        hive.knocked[hit.opponent] = (away, KNOCKBACK[1])
        hive.score += 1


@system(
    Phase.FIXED,
    in_set=FixedSet.GAME,
    after=(bee_hits,),
    reads=(InputState, Opponent, Physics, Rig, LocalPlayer),
    writes=(Hive, Transform),
)
def bee_flight(world: World) -> None:
    """Fly each bee: knocked back, by its gamepad (the chef's input's), or toward the chef it
    can see."""
    hive, dt, chef = world.resource(Hive), world.fixed_time.dt, _chef(world)
    pads = world.get(chef.origin, InputState).frame.pads
    head = world.get(chef.head, Transform).position
    physics = world.resource(Physics)
    for i, (entity, transform) in enumerate(_bees(world)):
        knocked = hive.knocked.get(entity)
        if knocked is not None:
            away, left = knocked
            transform.position = transform.position + away * (KNOCKBACK[0] * dt)
            left -= dt
            if left > 0:
                hive.knocked[entity] = (away, left)
            else:
                del hive.knocked[entity]
        elif i < len(pads):
            pad = pads[i]
            step = spatial.vec3(pad.left_stick[0], pad.right_stick[1], -pad.left_stick[1])
            transform.position = transform.position + step * (PAD_SPEED * dt)
        else:
            toward = head - transform.position
            distance = spatial.length(toward)
            seen = physics.ray_cast(transform.position, toward, distance, ["environment"])
            if distance > HOVER and seen is None:
                transform.position = transform.position + toward / distance * (APPROACH * dt)


def build(world: World) -> None:
    """The kitchen's rules: the hive's score, the bees' flight, knock-back on a hit."""
    world.insert_resource(Hive())
    world.add_systems(bee_hits, bee_flight)


def summary(world: World) -> str:
    return f"bees hit: {world.resource(Hive).score}"
