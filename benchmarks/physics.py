"""What playspace's physics systems cost over raw rapier3d on the same work.

100, 1,000 and 5,000 dynamic bodies (spheres and boxes) fall onto a floor and pile up, in two
worlds of the same scene: a whole ``World.step`` with the PhysicsPlugin (prepare, step,
write-back into Transforms with previous poses kept, events, the schedule), and raw rapier3d
doing the same step and reading the same poses (those of the active bodies) into Python, as
fast as the bindings allow (one call a body into one array: ``read_poses``, as the
write-back reads them, which does more: PyGLM objects, previous poses, fallen bodies). The
two are interleaved, a block of steps of one then of the other, so what else the machine does
falls on both alike; each figure is the median of the blocks' means per step, with the spread.

Goal (issue 15): at 1,000 bodies the physics system costs at most 1.2x raw.

Run: ``python benchmarks/physics.py [--counts 100 1000 5000] [--steps N] [--block N]``. The
last line printed is one JSON object of the figures.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import rapier3d as rp

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from playspace import spatial
from playspace.components import Transform
from playspace.components.physics import (
    Box,
    Collider,
    Colliders,
    RigidBody,
    Shape,
    Sphere,
)
from playspace.ecs import World
from playspace.systems.physics import PhysicsPlugin
from playspace.systems.physics.convert import read_poses

DT = 1.0 / 90.0
FLOOR = 60.0


def layout(count: int, seed: int = 1) -> list[tuple[tuple[float, float, float], bool]]:
    """Where each body starts and whether it is a sphere: a loose column over the floor."""
    rng = random.Random(seed)
    side = max(1, round(count ** (1 / 3) * 1.5))
    bodies = []
    for i in range(count):
        x, z, y = i % side, (i // side) % side, i // (side * side)
        jitter = (rng.uniform(-0.05, 0.05), rng.uniform(-0.05, 0.05))
        position = (
            x * 0.3 - side * 0.15 + jitter[0],
            0.5 + y * 0.3,
            z * 0.3 - side * 0.15 + jitter[1],
        )
        bodies.append((position, i % 2 == 0))
    return bodies


def playspace_world(count: int) -> World:
    world = World(fixed_hz=90)
    world.add_plugin(PhysicsPlugin())
    floor = Collider(Box((FLOOR, 0.2, FLOOR)), layer="environment")
    world.spawn(Transform(position=spatial.vec3(0, -0.1, 0)), Colliders(floor))
    for (x, y, z), is_sphere in layout(count):
        shape: Shape = Sphere(0.1) if is_sphere else Box((0.2, 0.2, 0.2))
        world.spawn(
            Transform(position=spatial.vec3(x, y, z)),
            RigidBody(mass=1.0),
            Colliders(Collider(shape)),
        )
    world.step(1)  # builds the bodies: not part of a steady step
    return world


def raw_world(count: int) -> rp.PhysicsWorld:
    engine = rp.PhysicsWorld(gravity=(0.0, -9.81, 0.0))
    engine.integration_parameters.dt = DT
    engine.add_collider(rp.Collider.cuboid(FLOOR / 2, 0.1, FLOOR / 2).translation((0, -0.1, 0)))
    for (x, y, z), is_sphere in layout(count):
        collider = rp.Collider.ball(0.1) if is_sphere else rp.Collider.cuboid(0.1, 0.1, 0.1)
        engine.add_body(rp.RigidBody.dynamic().translation((x, y, z)), [collider.mass(1.0)])
    engine.step()
    return engine


def raw_step(engine: rp.PhysicsWorld) -> Callable[[], None]:
    """One raw step, and the poses of the active bodies read into Python."""
    bodies = engine.rigid_bodies

    def step() -> None:
        engine.step()
        read_poses([bodies[handle] for handle in engine.active_bodies()])

    return step


def block_ms(step: Callable[[], None], steps: int) -> float:
    """Mean ms a step over a block of `steps`."""
    start = time.perf_counter()
    for _ in range(steps):
        step()
    return (time.perf_counter() - start) / steps * 1e3


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--counts", type=int, nargs="+", default=[100, 1000, 5000])
    parser.add_argument("--steps", type=int, default=180, help="fixed steps timed per world")
    parser.add_argument("--block", type=int, default=20, help="steps a block, interleaved")
    args = parser.parse_args()

    rows = []
    for count in args.counts:
        world, step = playspace_world(count), raw_step(raw_world(count))
        ours: list[float] = []
        raw: list[float] = []
        for _ in range(max(1, args.steps // args.block)):
            ours.append(block_ms(lambda: world.step(1), args.block))  # noqa: B023
            raw.append(block_ms(step, args.block))
        rows.append(
            {
                "bodies": count,
                "raw_ms": statistics.median(raw),
                "playspace_ms": statistics.median(ours),
                "raw_spread_ms": [min(raw), max(raw)],
                "playspace_spread_ms": [min(ours), max(ours)],
            }
        )
    print(f"{args.steps} fixed steps at 90 Hz of bodies piling up on a floor, interleaved in "
          f"blocks of {args.block} (median ms per step)")  # fmt: skip
    print(f"{'bodies':>8}{'raw rapier3d':>14}{'spread':>14}{'playspace':>12}{'spread':>14}"
          f"{'ratio':>8}")  # fmt: skip
    for row in rows:
        row["ratio"] = row["playspace_ms"] / row["raw_ms"]
        low, high = row["raw_spread_ms"]
        olow, ohigh = row["playspace_spread_ms"]
        print(
            f"{row['bodies']:>8}{row['raw_ms']:>14.3f}{low:>7.2f}-{high:<6.2f}"
            f"{row['playspace_ms']:>12.3f}{olow:>7.2f}-{ohigh:<6.2f}{row['ratio']:>8.2f}"
        )
    print("goal: at 1,000 bodies the physics system costs at most 1.2x raw")
    print(
        json.dumps({"steps": args.steps, "block": args.block, "rows": [_rounded(r) for r in rows]})
    )


def _rounded(row: dict[str, Any]) -> dict[str, Any]:
    return {k: [round(x, 4) for x in v] if isinstance(v, list) else round(v, 4)
            for k, v in row.items()}  # fmt: skip


if __name__ == "__main__":
    main()
