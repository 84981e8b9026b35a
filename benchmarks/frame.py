"""One full fixed step of the kitchen, against the raw physics step alone on the same scene.

The kitchen example (rig, grab and throw, four bees flying by their rule, its game systems)
with 200, then 1,000 extra props on the floor. A fixed step through ``World.step`` runs every
built-in system and physics; the raw figure steps a rapier3d world restored from a snapshot
of the same engine, so it is the same bodies in the same state, with nothing around it.

"around" is the full step less Rapier's own step as it ran inside the world, in two parts:
"sync", the physics systems' own work (building and watching bodies, driving kinematic bodies,
events, writing poses back), and "others", every other system and the schedule itself. Means are
over the measured steps only (not the 180 warm-up steps), whether or not a system ran. The
raw world's pose reads (one call per value: rapier3d has no batch accessor) are timed apart
from its step: the least any write-back costs.

Run: ``python benchmarks/frame.py [--props 200 1000] [--steps N]``. The last line printed is
one JSON object of the figures.
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

import rapier3d as rp

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playspace import spatial  # noqa: E402
from playspace.app import build_world  # noqa: E402
from playspace.components import Grabbable, Prop, Transform  # noqa: E402
from playspace.components.physics import Collider, Colliders, RigidBody, Sphere  # noqa: E402
from playspace.ecs import World  # noqa: E402
from playspace.example import load_example  # noqa: E402
from playspace.scene import load_scene  # noqa: E402
from playspace.systems.input import ReplaySource, load_trace  # noqa: E402
from playspace.systems.physics import Physics  # noqa: E402

SYNC = ("physics_prepare", "physics_step", "physics_writeback")


def kitchen(props: int) -> World:
    example = load_example(ROOT / "examples" / "kitchen.py")
    assert example.trace is not None
    source = ReplaySource(load_trace(example.trace))
    world, _ = build_world(load_scene(example.scene), source, plugins=[example.build])
    rng = random.Random(7)
    for i in range(props):
        x, z = rng.uniform(-2.6, -0.8), rng.uniform(-2.6, 2.6)
        world.spawn(
            Transform(position=spatial.vec3(x, 0.05 + 0.1 * (i % 3), z)),
            RigidBody(mass=0.2),
            Colliders(Collider(Sphere(0.05))),
            Prop(f"crumb {i}"),
            Grabbable(),
        )
    world.step(180)  # built, settled, the bees on their way
    return world


def _stepper(world: World, engine_ns: list[int]) -> Callable[[], None]:
    """One fixed step of `world`, noting how long Rapier's own step took inside it."""

    def step() -> None:
        world.step(1)
        engine_ns.append(world.resource(Physics).step_ns)

    return step


def _read_poses(raw: rp.PhysicsWorld) -> None:
    """What any write-back must at least do: read the pose of every awake body (no batch
    accessor exists, so one call per value)."""
    bodies = raw.rigid_bodies
    for handle in raw.active_bodies():
        body = bodies[handle]
        body.translation.to_tuple()
        body.rotation.to_tuple()


def _raw_stepper(raw: rp.PhysicsWorld, read_s: list[float]) -> Callable[[], None]:
    """One raw step, then (timed apart) the reading of the awake bodies' poses."""

    def step() -> None:
        raw.step()
        start = time.perf_counter()
        _read_poses(raw)
        read_s.append(time.perf_counter() - start)

    return step


def time_steps(step: object, steps: int) -> list[float]:
    times = []
    for _ in range(steps):
        start = time.perf_counter()
        step()  # type: ignore[operator]
        times.append(time.perf_counter() - start)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--props", type=int, nargs="+", default=[200, 1000])
    parser.add_argument("--steps", type=int, default=300)
    args = parser.parse_args()
    rows = []
    for props in args.props:
        world = kitchen(props)
        raw = rp.PhysicsWorld.restore(world.resource(Physics).snapshot())
        engine_ns: list[int] = []
        settled = {s.name: s.stats.total_ns for s in world.schedule.all()}
        ours = time_steps(_stepper(world, engine_ns), args.steps)
        reads: list[float] = []
        alone = [
            a - r
            for a, r in zip(time_steps(_raw_stepper(raw, reads), args.steps), reads, strict=True)
        ]
        # per measured step, whether or not the system ran (the warm-up steps left out)
        mean_ms = {
            s.name: (s.stats.total_ns - settled[s.name]) / args.steps / 1e6
            for s in world.schedule.all()
        }
        engine_ms = statistics.mean(engine_ns) / 1e6
        slowest = sorted(mean_ms, key=mean_ms.__getitem__, reverse=True)[:4]
        rows.append(
            {
                "props": props,
                "step_ms": statistics.mean(ours) * 1e3,
                "step_median_ms": statistics.median(ours) * 1e3,
                "step_worst_ms": max(ours) * 1e3,
                "raw_physics_ms": statistics.mean(alone) * 1e3,
                "engine_in_world_ms": engine_ms,
                "raw_pose_reads_ms": statistics.mean(reads) * 1e3,
                # the physics systems' own work: keeping Rapier in step with the components
                "sync_ms": sum(mean_ms[name] for name in SYNC) - engine_ms,
                "slowest": {name: mean_ms[name] for name in slowest},
            }
        )
    print(f"kitchen fixed step, {args.steps} steps (mean ms)")
    print(
        f"{'props':>6}{'full step':>11}{'median':>8}{'worst':>8}{'raw physics':>13}"
        f"{'engine in world':>17}{'sync':>7}{'others':>8}{'around':>8}{'ratio':>7}"
    )
    for row in rows:
        # "around": the full step less Rapier's own step as it ran inside the world (the live
        # world drives the hands, body and bees, so its step costs more than the snapshot's):
        # the physics systems' sync, then every other system and the schedule itself
        row["around_ms"] = row["step_ms"] - row["engine_in_world_ms"]
        row["others_ms"] = row["around_ms"] - row["sync_ms"]
        row["around_over_physics"] = row["around_ms"] / row["engine_in_world_ms"]
        print(
            f"{row['props']:>6}{row['step_ms']:>11.3f}{row['step_median_ms']:>8.3f}"
            f"{row['step_worst_ms']:>8.2f}{row['raw_physics_ms']:>13.3f}"
            f"{row['engine_in_world_ms']:>17.3f}{row['sync_ms']:>7.3f}{row['others_ms']:>8.3f}"
            f"{row['around_ms']:>8.3f}{row['around_over_physics']:>7.2f}"
        )
        print(
            "        slowest systems: "
            + ", ".join(f"{k} {v:.3f}" for k, v in row["slowest"].items())
        )
        floor = row["raw_pose_reads_ms"] / row["engine_in_world_ms"]
        print(
            f"        reading the awake bodies' poses alone, raw rapier3d: "
            f"{row['raw_pose_reads_ms']:.3f} ms ({floor:.2f}x the engine step)"
        )
    print("goal: at 200 props a step costs at most 1.5 ms; the systems around physics add at most")
    print("half of what the physics step itself costs")
    print(json.dumps({"steps": args.steps, "rows": _rounded(rows)}))


def _rounded(value: object) -> object:
    if isinstance(value, float):
        return round(value, 4)
    if isinstance(value, dict):
        return {k: _rounded(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_rounded(v) for v in value]
    return value


if __name__ == "__main__":
    main()
