"""What playspace's physics systems cost over raw rapier3d on the same work.

100, 1,000 and 5,000 dynamic bodies (spheres and boxes) fall onto a floor and pile up. Each
fixed step is timed twice over the same scene: once as a whole ``World.step`` with the
PhysicsPlugin (prepare, step, write-back into Transforms with previous poses kept, events,
the schedule), once as raw rapier3d doing the same step and reading the same poses (those of
the active bodies) into Python.

Run: ``python benchmarks/physics.py [--counts 100 1000 5000] [--steps N]``. The last line
printed is one JSON object of the figures.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

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


def time_playspace(world: World, steps: int) -> list[float]:
    times = []
    for _ in range(steps):
        start = time.perf_counter()
        world.step(1)
        times.append(time.perf_counter() - start)
    return times


def time_raw(engine: rp.PhysicsWorld, steps: int) -> list[float]:
    times = []
    bodies = engine.rigid_bodies
    for _ in range(steps):
        start = time.perf_counter()
        engine.step()
        poses = []
        for handle in engine.active_bodies():
            body = bodies[handle]
            poses.append((body.translation.to_tuple(), body.rotation.to_tuple()))
        times.append(time.perf_counter() - start)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--counts", type=int, nargs="+", default=[100, 1000, 5000])
    parser.add_argument("--steps", type=int, default=180, help="fixed steps timed per run")
    args = parser.parse_args()

    rows = []
    for count in args.counts:
        raw = time_raw(raw_world(count), args.steps)
        ours = time_playspace(playspace_world(count), args.steps)
        rows.append(
            {
                "bodies": count,
                "raw_ms": statistics.mean(raw) * 1e3,
                "playspace_ms": statistics.mean(ours) * 1e3,
                "raw_worst_ms": max(raw) * 1e3,
                "playspace_worst_ms": max(ours) * 1e3,
            }
        )
    print(f"{args.steps} fixed steps at 90 Hz of bodies piling up on a floor (mean ms per step)")
    print(
        f"{'bodies':>8}{'raw rapier3d':>14}{'playspace':>12}{'ratio':>8}"
        f"{'worst raw':>11}{'worst ours':>12}"
    )
    for row in rows:
        row["ratio"] = row["playspace_ms"] / row["raw_ms"]
        print(
            f"{row['bodies']:>8}{row['raw_ms']:>14.3f}{row['playspace_ms']:>12.3f}"
            f"{row['ratio']:>8.2f}{row['raw_worst_ms']:>11.2f}{row['playspace_worst_ms']:>12.2f}"
        )
    print("goal: at 1,000 bodies a playspace step costs at most 1.5x the raw one")
    print(
        json.dumps(
            {"steps": args.steps, "rows": [{k: round(v, 4) for k, v in r.items()} for r in rows]}
        )
    )


if __name__ == "__main__":
    main()
