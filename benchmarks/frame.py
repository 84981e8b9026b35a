"""A full fixed step of the kitchen with N props, against raw Rapier doing the same physics.

The kitchen example (rig, grab and throw, four bees flying by their rule, its game systems) with
N extra props on the floor, in two sweeps: props kept awake (``can_sleep`` off: every body
moves every step, the write-back's worst case) and props left to fall asleep (a furnished level
at rest: what playspace costs around an engine that has nothing to do). A fixed step through
``World.step`` runs every built-in system and physics.

The raw side is a rapier3d world restored from a snapshot of the same engine (the same bodies in
the same state) stepped with the same kinematic drive: every kinematic body (hands, the player's
capsule, the bees) is given, step for step, the very pose the world gave it (recorded in the
world's block, replayed in the raw block after it), so both engines move the same things.
Reading the awake bodies' poses back (rapier3d has no batch accessor: one call a body, as the
write-back reads them, ``read_poses``) is timed apart: the least any write-back costs.

The two sides are interleaved, a block of steps of one then of the other, over several rounds,
so what else the machine does at the time falls on both alike; each figure is the median of the
blocks' means per step, with the spread (min, max). Which side runs first alternates from round
to round (ours raw, raw ours, ours raw, ...): the side that runs second finds the caches as the
other left them, and a fixed order would charge that to one side only (``first_ms`` and
``second_ms`` give each side's medians by position). The pose reads are timed after the rounds:
reading the raw world's bodies just before its block would warm its caches. So that the raw
side can run first, the world runs one block ahead, untimed, before the rounds: the raw block
always replays a drive the world already recorded. For each sweep the largest N that fits a
5 ms step is found by linear interpolation between the sizes measured.

Each block of the world's also times Rapier's own step inside it (``Physics.step_ns``): the
rest, ``own_ms``, is what playspace does around the engine (the kitchen's systems, the
write-back, late placement), and ``rapier_in_world_ms`` against ``raw_ms`` shows how much slower
the same engine steps after the world's Python work than back to back (caches, and Rapier's
worker threads parked between steps). ``floor_ratio`` is what the ratio would be if playspace
did nothing but read the awake bodies' poses: Rapier's step inside the world plus the pose
reads, over raw. No write-back through these bindings, and no system, can take the step below
it; a goal under the floor is out of reach of work on playspace's own code.

Goals (issue 15, this 2-core machine): at most 1.25x raw at 1,000 awake props and 1.5x at 200;
at most 1.3x raw with 5,000 props asleep. Issue 37's, on what playspace owns: its own time at
most 0.12 ms a step with the kitchen at rest (the fewest props asleep), at most 1.0 us per awake
body (own time at 1,000 awake less at rest, over 1,000), and at least 0.85 of raw Rapier's
awake props fitting a 5 ms step.

Run: ``python benchmarks/frame.py [--awake 50 200 500 1000 2000] [--asleep 50 500 2000 5000
8000] [--rounds 5] [--block 20]``. The last line printed is one JSON object of the figures.
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import rapier3d as rp

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playspace import spatial  # noqa: E402
from playspace.app import build_world  # noqa: E402
from playspace.app.game import load_example  # noqa: E402
from playspace.components import Grabbable, Prop, Transform  # noqa: E402
from playspace.components.physics import Box, Collider, Colliders, RigidBody, Sphere  # noqa: E402
from playspace.ecs import World  # noqa: E402
from playspace.formats.scene import load_scene  # noqa: E402
from playspace.systems.input import ReplaySource, load_trace  # noqa: E402
from playspace.systems.physics import Physics  # noqa: E402
from playspace.systems.physics.convert import read_poses  # noqa: E402

Row = dict[str, Any]
BUDGET_MS = 5.0
GOALS = {("awake", 1000): 1.25, ("awake", 200): 1.5, ("asleep", 5000): 1.3}
# issue 37's, on playspace's own time (outside Rapier's step)
OWN_AT_REST_MS, OWN_PER_BODY_US, FITS_SHARE, AWAKE_FOR_PER_BODY = 0.12, 1.0, 0.85, 1000
SYNC = ("physics_prepare", "physics_step", "physics_writeback")
CUBE, GRID, COLUMNS, STACK = 0.08, 0.12, 16, 12  # 16 columns across, 46 rows: 8,832 cubes


def kitchen(props: int, awake: bool) -> World:
    """The kitchen with `props` grabbable props on its floor, settled: crumbs jostling in a
    heap that never sleeps (`awake`), or cubes stacked in columns on a grid, at rest and put
    to sleep by Rapier, as a furnished level is."""
    example = load_example(ROOT / "examples" / "kitchen.py")
    assert example.trace is not None
    source = ReplaySource(load_trace(example.trace))
    world, _ = build_world(load_scene(example.scene), source, plugins=[example.build])
    rng = random.Random(7)
    spawned = []
    for i in range(props):
        if awake:
            place = spatial.vec3(
                rng.uniform(-2.6, -0.8), 0.05 + 0.1 * (i % 3), rng.uniform(-2.6, 2.6)
            )
            shape: Sphere | Box = Sphere(0.05)
        else:  # columns of CUBE-sized cubes, GRID apart, on the floor west of the counter
            column, level = divmod(i, STACK)
            row, across = divmod(column, COLUMNS)
            place = spatial.vec3(-2.8 + across * GRID, CUBE * (level + 0.5), -2.8 + row * GRID)
            shape = Box((CUBE, CUBE, CUBE))
        spawned.append(
            world.spawn(
                Transform(position=place),
                RigidBody(mass=0.2, can_sleep=not awake),
                Colliders(Collider(shape)),
                Prop(f"prop {i}"),
                Grabbable(),
            )
        )
    world.step(180)  # built, settled, the bees on their way
    physics = world.resource(Physics)
    for _ in range(20):  # asleep: Rapier puts a body at rest to sleep within a few seconds
        if awake or all(physics.sleeping(e) for e in spawned):
            break
        world.step(90)
    return world


Pose7 = tuple[tuple[float, float, float], tuple[float, float, float, float]]
Drive = list[tuple[rp.RigidBody, Pose7]]


class RawTwin:
    """A raw engine in the world's state, stepped with the world's own kinematic drive: the
    poses the world gave its kinematic bodies (hands, capsule, bees) in the steps of a block
    are replayed, step for step, in the raw block after it, so both move the same things."""

    def __init__(self, world: World) -> None:
        self.world = world
        self.physics = world.resource(Physics)
        self.raw = rp.PhysicsWorld.restore(self.physics.snapshot())
        self.raw.integration_parameters.dt = world.fixed_time.dt
        self.bodies = self.raw.rigid_bodies
        self.recorded: list[Drive] = []
        self.rapier_ns = 0  # Rapier's own step inside the world's steps, summed

    def world_step(self) -> None:
        """One step of the world, noting where its kinematic bodies were driven to."""
        self.world.step(1)
        self.rapier_ns += self.physics.step_ns
        drive: Drive = []
        for body in self.physics.kinematic.values():
            p, q = body.transform.position, body.transform.rotation
            if body.handle in self.bodies:  # made after the snapshot: the raw world has none
                drive.append((self.bodies[body.handle], ((p.x, p.y, p.z), (q.x, q.y, q.z, q.w))))
        self.recorded.append(drive)

    def raw_step(self) -> None:
        """One raw step with the next recorded drive."""
        for rb, pose in self.recorded.pop(0):
            rb.set_next_kinematic_position(pose)
        self.raw.step()

    def read_awake_poses(self) -> None:
        """What any write-back must at least do: read every awake body's pose."""
        bodies = self.bodies
        read_poses([bodies[handle] for handle in self.raw.active_bodies()])


def _block(step: Callable[[], None], steps: int) -> float:
    """Mean ms a step over a block of `steps`."""
    start = time.perf_counter()
    for _ in range(steps):
        step()
    return (time.perf_counter() - start) / steps * 1e3


def measure(props: int, awake: bool, rounds: int, block: int) -> Row:
    world = kitchen(props, awake)
    twin = RawTwin(world)
    _block(twin.world_step, block)  # the drive of the raw side's first block
    before = {s.name: s.stats.total_ns for s in world.schedule.all()}
    ours: list[float] = []
    inside: list[float] = []  # Rapier's step within each of our blocks, ms a step
    raw: list[float] = []
    reads: list[float] = []
    by_position: dict[str, list[float]] = {"ours_first": [], "ours_second": [], "raw_first": [],
                                           "raw_second": []}  # fmt: skip

    def ours_block() -> float:
        start = twin.rapier_ns
        took = _block(twin.world_step, block)
        inside.append((twin.rapier_ns - start) / block / 1e6)
        return took

    for i in range(rounds):  # interleaved, in turn first: ours raw, raw ours, ours raw, ...
        if i % 2 == 0:
            ours.append(ours_block())
            raw.append(_block(twin.raw_step, block))
            by_position["ours_first"].append(ours[-1])
            by_position["raw_second"].append(raw[-1])
        else:
            raw.append(_block(twin.raw_step, block))
            ours.append(ours_block())
            by_position["raw_first"].append(raw[-1])
            by_position["ours_second"].append(ours[-1])
    measured = rounds * block
    for _ in range(rounds):  # apart: reads of the raw world just before its block would warm it
        reads.append(_block(twin.read_awake_poses, 1))
    system_ms = {
        s.name: (s.stats.total_ns - before[s.name]) / measured / 1e6 for s in world.schedule.all()
    }
    slowest = sorted(system_ms, key=system_ms.__getitem__, reverse=True)[:4]
    step_ms, raw_ms = statistics.median(ours), statistics.median(raw)
    return {
        "props": props,
        "asleep": not awake,
        "step_ms": step_ms,
        "step_spread_ms": [min(ours), max(ours)],
        "raw_ms": raw_ms,
        "raw_spread_ms": [min(raw), max(raw)],
        "ratio": step_ms / raw_ms,
        "rapier_in_world_ms": statistics.median(inside),
        "own_ms": statistics.median(o - r for o, r in zip(ours, inside, strict=True)),
        "raw_pose_reads_ms": statistics.median(reads),
        "floor_ratio": (statistics.median(inside) + statistics.median(reads)) / raw_ms,
        "first_ms": {side: _median(by_position[f"{side}_first"]) for side in ("ours", "raw")},
        "second_ms": {side: _median(by_position[f"{side}_second"]) for side in ("ours", "raw")},
        "sync_ms": sum(system_ms[name] for name in SYNC),
        "slowest": {name: system_ms[name] for name in slowest},
    }


def _median(values: list[float]) -> float | None:
    return statistics.median(values) if values else None


def largest_fitting(rows: list[Row], key: str) -> float | None:
    """The largest N whose step fits the budget, interpolated between sizes measured."""
    points = sorted((int(r["props"]), float(r[key])) for r in rows)
    if not points or points[0][1] > BUDGET_MS:
        return None
    for (n0, t0), (n1, t1) in itertools.pairwise(points):
        if t1 > BUDGET_MS:
            return n0 + (n1 - n0) * (BUDGET_MS - t0) / (t1 - t0)
    return float(points[-1][0])  # fits at every size measured


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--awake", type=int, nargs="*", default=[50, 200, 500, 1000, 2000])
    parser.add_argument("--asleep", type=int, nargs="*", default=[50, 500, 2000, 5000, 8000])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--block", type=int, default=20)
    args = parser.parse_args()
    sweeps = {
        "awake": [measure(n, True, args.rounds, args.block) for n in args.awake],
        "asleep": [measure(n, False, args.rounds, args.block) for n in args.asleep],
    }
    print(f"kitchen fixed step, interleaved, {args.rounds} rounds of {args.block} steps (ms)")
    print(f"{'props':>12}{'playspace':>11}{'spread':>14}{'raw':>8}{'spread':>14}{'ratio':>7}"
          f"{'sync':>7}{'pose reads':>12}{'rapier in':>11}{'own':>7}")  # fmt: skip
    fits = {}
    for name, rows in sweeps.items():
        for row in rows:
            low, high = row["step_spread_ms"]
            rlow, rhigh = row["raw_spread_ms"]
            print(
                f"{row['props']:>6} {name:<5}{row['step_ms']:>11.3f}{low:>7.2f}-{high:<6.2f}"
                f"{row['raw_ms']:>8.3f}{rlow:>7.2f}-{rhigh:<6.2f}{row['ratio']:>7.2f}"
                f"{row['sync_ms']:>7.3f}{row['raw_pose_reads_ms']:>12.3f}"
                f"{row['rapier_in_world_ms']:>11.3f}{row['own_ms']:>7.3f}"
            )
        fits[name] = {
            "playspace": largest_fitting(rows, "step_ms"),
            "raw": largest_fitting(rows, "raw_ms"),
        }
        ours, raw = fits[name]["playspace"], fits[name]["raw"]
        print(f"  fits a {BUDGET_MS:.0f} ms step ({name}): playspace {_n(ours)}, raw {_n(raw)}")
    goals = {}
    for (name, props), goal in GOALS.items():
        for row in (r for r in sweeps[name] if r["props"] == props):
            ratio, floor = float(row["ratio"]), float(row["floor_ratio"])
            goals[f"{name}_{props}"] = {"ratio": ratio, "goal": goal, "met": ratio <= goal,
                                        "floor_ratio": floor}  # fmt: skip
            print(f"goal {name} {props}: {ratio:.2f}x raw (at most {goal}x): "
                  f"{'met' if ratio <= goal else 'not met'}; floor {floor:.2f}x (Rapier in the "
                  "world and the pose reads alone)")  # fmt: skip
    goals.update(own_time_goals(sweeps, fits))
    figures = {"rounds": args.rounds, "block": args.block, "budget_ms": BUDGET_MS,
               "sweeps": sweeps, "fits_budget": fits, "goals": goals}  # fmt: skip
    print(json.dumps(_rounded(figures)))


def own_time_goals(sweeps: dict[str, list[Row]], fits: dict[str, dict[str, Any]]) -> Row:
    """Issue 37's goals, on what playspace owns: its own time a step with the kitchen at rest
    (the fewest props asleep), its own time per awake body (1,000 awake against at rest), and
    the awake props that fit the budget as a share of raw Rapier's."""
    found: Row = {}
    rest = min(sweeps["asleep"], key=lambda r: int(r["props"]), default=None)
    many = next((r for r in sweeps["awake"] if r["props"] == AWAKE_FOR_PER_BODY), None)
    if rest is not None:
        at_rest = float(rest["own_ms"])
        found["own_at_rest"] = {"ms": at_rest, "goal": OWN_AT_REST_MS,
                                "met": at_rest <= OWN_AT_REST_MS}  # fmt: skip
        print(f"goal own time at rest ({rest['props']} asleep): {at_rest:.3f} ms "
              f"(at most {OWN_AT_REST_MS} ms)")  # fmt: skip
        if many is not None:
            per_body = (float(many["own_ms"]) - at_rest) / AWAKE_FOR_PER_BODY * 1e3
            found["own_per_awake_body"] = {"us": per_body, "goal": OWN_PER_BODY_US,
                                           "met": per_body <= OWN_PER_BODY_US}  # fmt: skip
            print(f"goal own time per awake body: {per_body:.2f} us (at most {OWN_PER_BODY_US})")
    ours, raw = fits["awake"]["playspace"], fits["awake"]["raw"]
    if ours is not None and raw:
        share = ours / raw
        found["fits_awake"] = {"share": share, "goal": FITS_SHARE, "met": share >= FITS_SHARE}
        print(f"goal awake props that fit {BUDGET_MS:.0f} ms: {share:.2f} of raw's "
              f"(at least {FITS_SHARE})")  # fmt: skip
    return found


def _n(value: float | None) -> str:
    return "none" if value is None else f"{value:,.0f}"


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
