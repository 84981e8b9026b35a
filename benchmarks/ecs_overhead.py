"""What playspace's World costs over plain esper on the same work.

10,000 entities, five systems of two or three component queries each, run as fixed steps:
once through ``World.step`` (schedule, per-system timing, context switch, event upkeep) and once
written directly on esper (``esper.Processor`` and ``esper.process``). Both run the very same
loop bodies, so the difference is the runtime's overhead alone.

Then one entity's component by its id, as systems read a player's head, hands and body (some
seventy lookups a step in the kitchen): every entity's Position and Velocity through
``World.get`` (which raises a clear error for a missing one) against esper's
``component_for_entity`` (a bare KeyError), in interleaved rounds.

Run: ``python benchmarks/ecs_overhead.py [--entities N] [--steps N] [--rounds N]``. The last
line printed is one JSON object with both rates and their ratio.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import esper

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from playspace.ecs import Phase, World

DT = 1.0 / 90.0

Rows = list[tuple[int, tuple[Any, ...]]]
Work = Callable[[Rows, float], None]


@dataclass(slots=True)
class Position:
    x: float
    y: float
    z: float


@dataclass(slots=True)
class Velocity:
    x: float
    y: float
    z: float


@dataclass(slots=True)
class Mass:
    kg: float


@dataclass(slots=True)
class Damping:
    linear: float


@dataclass(slots=True)
class Spin:
    angle: float
    rate: float


@dataclass(slots=True)
class Lifetime:
    seconds: float


def move(rows: Rows, dt: float) -> None:
    for _, (p, v) in rows:
        p.x += v.x * dt
        p.y += v.y * dt
        p.z += v.z * dt


def gravity(rows: Rows, dt: float) -> None:
    for _, (v, m) in rows:
        v.y -= 9.81 * dt * (1.0 if m.kg > 0 else 0.0)


def damping(rows: Rows, dt: float) -> None:
    for _, (v, d) in rows:
        k = 1.0 - d.linear * dt
        v.x *= k
        v.y *= k
        v.z *= k


def spin(rows: Rows, dt: float) -> None:
    for _, (s, _m) in rows:
        s.angle = (s.angle + s.rate * dt) % 6.283185307179586


def age(rows: Rows, dt: float) -> None:
    for _, (life, p, v) in rows:
        life.seconds += dt
        if p.y < 0.0:
            p.y = 0.0
            v.y = -v.y * 0.5


WORK = (
    (move, (Position, Velocity)),
    (gravity, (Velocity, Mass)),
    (damping, (Velocity, Damping)),
    (spin, (Spin, Mass)),
    (age, (Lifetime, Position, Velocity)),
)


def components(i: int) -> list[object]:
    """A mix, so the queries differ in size: every entity moves, some spin, some age."""
    found: list[object] = [Position(0.0, 1.0 + i % 7, 0.0), Velocity(0.1, 0.0, -0.1)]
    found.append(Mass(1.0 + i % 3))
    if i % 2 == 0:
        found.append(Damping(0.05))
    if i % 3 == 0:
        found.append(Spin(0.0, 1.0))
    if i % 4 == 0:
        found.append(Lifetime(0.0))
    return found


def _system(body: Work, kinds: tuple[type, ...]) -> Callable[[World], None]:
    def run(world: World) -> None:
        body(world.query(*kinds), world.fixed_time.dt)

    return run


class _Processor(esper.Processor):
    def __init__(self, body: Work, kinds: tuple[type, ...]) -> None:
        self.body, self.kinds = body, kinds

    def process(self, dt: float) -> None:
        self.body(esper.get_components(*self.kinds), dt)


def build_world(entities: int) -> World:
    world = World(fixed_hz=90)
    for body, kinds in WORK:
        world.add_system(_system(body, kinds), phase=Phase.FIXED, name=body.__name__)
    for i in range(entities):
        world.spawn(*components(i))
    return world


def build_esper(entities: int) -> str:
    name = "plain-esper-benchmark"
    esper.switch_world(name)
    for body, kinds in WORK:
        esper.add_processor(_Processor(body, kinds))
    for i in range(entities):
        esper.create_entity(*components(i))
    return name


def rate_world(world: World, steps: int) -> float:
    start = time.perf_counter()
    world.step(steps)
    return steps / (time.perf_counter() - start)


def rate_esper(name: str, steps: int) -> float:
    esper.switch_world(name)
    start = time.perf_counter()
    for _ in range(steps):
        esper.process(DT)
    return steps / (time.perf_counter() - start)


def lookups(get: Callable[[int, type], object], ids: list[int]) -> float:
    """Nanoseconds a lookup of each entity's Position and Velocity through `get`."""
    start = time.perf_counter_ns()
    for entity in ids:
        get(entity, Position)
        get(entity, Velocity)
    return (time.perf_counter_ns() - start) / (2 * len(ids))


def lookups_esper(name: str, ids: list[int]) -> float:
    """Nanoseconds a lookup on plain esper, in its context `name`."""
    esper.switch_world(name)
    return lookups(esper.component_for_entity, ids)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entities", type=int, default=10_000)
    parser.add_argument("--steps", type=int, default=60)
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()

    world = build_world(args.entities)
    plain = build_esper(args.entities)
    rate_world(world, 5)  # warm the query caches of both
    rate_esper(plain, 5)
    world_rates, esper_rates = [], []
    for i in range(args.rounds):  # interleaved, alternating who goes first: drift hits both
        if i % 2:
            esper_rates.append(rate_esper(plain, args.steps))
        world_rates.append(rate_world(world, args.steps))
        if not i % 2:
            esper_rates.append(rate_esper(plain, args.steps))
    ids = [entity for entity, _ in world.each(Position)]
    world_gets, esper_gets = [], []
    for i in range(args.rounds):
        if i % 2:
            esper_gets.append(lookups_esper(plain, ids))
        world_gets.append(lookups(world.get, ids))
        if not i % 2:
            esper_gets.append(lookups_esper(plain, ids))
    world_get, esper_get = min(world_gets), min(esper_gets)

    # The best round of each is the one least disturbed by the rest of the machine (timeit's
    # rule); the median is shown beside it.
    world_rate, esper_rate = max(world_rates), max(esper_rates)
    overhead = esper_rate / world_rate - 1.0
    median_overhead = statistics.median(esper_rates) / statistics.median(world_rates) - 1.0
    print(f"{args.entities} entities, 5 systems, {args.steps} fixed steps x {args.rounds} rounds")
    print(f"{'':18}{'steps/s (median)':>18}{'best':>10}{'ms/step':>10}")
    for label, rates in (("playspace World", world_rates), ("plain esper", esper_rates)):
        med = statistics.median(rates)
        print(f"{label:18}{med:18.1f}{max(rates):10.1f}{1000 / med:10.3f}")
    print(
        f"World overhead over plain esper: {overhead * 100:+.1f}% best round, "
        f"{median_overhead * 100:+.1f}% median (goal: at most +10%)"
    )
    print(
        f"one entity's component: World.get {world_get:.0f} ns, esper's component_for_entity "
        f"{esper_get:.0f} ns (best round): {world_get / esper_get:.2f}x"
    )
    print(
        json.dumps(
            {
                "entities": args.entities,
                "systems": len(WORK),
                "world_steps_per_s": round(world_rate, 2),
                "esper_steps_per_s": round(esper_rate, 2),
                "rate_ratio_world_over_esper": round(world_rate / esper_rate, 4),
                "overhead_percent": round(overhead * 100, 2),
                "median_overhead_percent": round(median_overhead * 100, 2),
                "lookup_ns_world": round(world_get, 1),
                "lookup_ns_esper": round(esper_get, 1),
                "lookup_ratio_world_over_esper": round(world_get / esper_get, 4),
            }
        )
    )


if __name__ == "__main__":
    main()
