"""A long session: every example played at random for N simulated minutes.

Each example's trace is played again and again, each take a little different (its speed
varied by up to 20 %, the hands' reach turned up to 25 degrees about the head, now and then a
snap turn), so grabs, throws, hits, refills, drops and despawns keep happening in new ways.
Every simulated minute it prints the process's resident memory, the mean and slowest fixed
step, the events waiting in the world's queues, the props in the world, the props lost (fallen
out of the world from above the floor: through it), those thrown past the floor's edge, and
whether the player stayed in the world (the times they were rescued, and where they end).

Goals (issues 13 and 36): memory flat within 2 MB over the session (after the first minute,
which warms caches up), no prop lost, the player in the world at the end.

Run: ``python benchmarks/soak.py [--minutes 30] [--example kitchen snowball ...] [--seed 1]``
(every example by default: a module's own trace, a scene's ``traces/NAME.jsonl``). The last
line printed is one JSON object of the figures.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playspace import spatial  # noqa: E402
from playspace.app import build_world, load_target  # noqa: E402
from playspace.components import Transform  # noqa: E402
from playspace.components.input import DevicePose, HandInput, InputFrame  # noqa: E402
from playspace.components.physics import Box, Colliders  # noqa: E402
from playspace.components.rig import LEVEL_MARGIN  # noqa: E402
from playspace.components.scene import Prop, Scenery  # noqa: E402
from playspace.ecs import Phase, World, system  # noqa: E402
from playspace.systems.events import PlayerRescued  # noqa: E402
from playspace.systems.input import ReplaySource, ScriptedSource, load_trace  # noqa: E402
from playspace.systems.physics import FellOutOfWorld, Physics  # noqa: E402
from playspace.systems.player import local_rig  # noqa: E402

FIXED_HZ = 90
EXAMPLES = ROOT / "examples"
TRACED = {p.stem for p in (EXAMPLES / "traces").glob("*.jsonl")}
EVERY = sorted(
    {p.stem for p in EXAMPLES.glob("*.py")} | {p.stem for p in EXAMPLES.glob("*.toml")} & TRACED
)
PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


def resident_mb() -> float:
    """The process's resident memory now (Linux), in MB."""
    try:
        with open("/proc/self/statm", encoding="ascii") as statm:
            return int(statm.read().split()[1]) * PAGE / 1e6
    except OSError:
        import resource

        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e3


def _turned(device: DevicePose | None, head: spatial.Vec3, turn: spatial.Quat) -> DevicePose | None:
    if device is None:
        return None
    offset = device.pose.position - spatial.vec3(head.x, device.pose.position.y, head.z)
    position = spatial.vec3(head.x, device.pose.position.y, head.z) + spatial.rotate(turn, offset)
    return replace(
        device, pose=spatial.Pose(position, spatial.multiply(turn, device.pose.rotation))
    )


class Takes:
    """The trace again and again, each take varied at random (seeded: the same run twice)."""

    def __init__(self, trace_path: Path, seed: int) -> None:
        self.replay = ReplaySource(load_trace(trace_path))
        self.length = self.replay.duration
        self.rng = random.Random(seed)
        self.take_start, self.take = 0.0, self._new_take()

    def _new_take(self) -> tuple[float, spatial.Quat, bool]:
        rng = self.rng
        return (rng.uniform(0.8, 1.2), spatial.yaw_rotation(math.radians(rng.uniform(-25, 25))),
                rng.random() < 0.3)  # fmt: skip

    def __call__(self, t: float) -> InputFrame:
        speed, turn, flick = self.take
        local = (t - self.take_start) * speed
        if local > self.length + 0.5:  # a pause, then the next take
            self.take_start, self.take = t, self._new_take()
            speed, turn, flick = self.take
            local = 0.0
        frame = self.replay.sample(min(local, self.length))
        head = frame.head.pose.position if frame.head is not None else spatial.vec3(0, 1.7, 0)
        left, right = frame.left, frame.right
        left = replace(left, pose=_turned(left.pose, head, turn))
        right = replace(right, pose=_turned(right.pose, head, turn))
        if flick and self.length * 0.95 < local < self.length * 0.95 + 0.1:
            right = HandInput(right.pose, right.grip, right.trigger, (1.0, 0.0), right.buttons)
        return replace(frame, left=left, right=right)


def _floor(world: World) -> tuple[float, float, float, float]:
    """The x and z extent of the scene's floor (its static box named "floor")."""
    for entity, static in world.each(Scenery):
        if static.name == "floor":
            at = world.get(entity, Transform).position
            (part,) = world.get(entity, Colliders).parts
            assert isinstance(part.shape, Box)
            sx, _, sz = part.shape.size
            return (at.x - sx / 2, at.x + sx / 2, at.z - sz / 2, at.z + sz / 2)
    raise ValueError("the scene has no floor")


def _in_world(world: World) -> bool:
    """Whether the player's feet are where the rescue leaves a player be: above the kill
    height, and within its margin of the level's geometry across the floor."""
    physics, rig = world.resource(Physics), local_rig(world)
    if rig is None:
        raise ValueError("the world shows no player")
    feet = world.get(rig.body, Transform).position
    extent = physics.static_extent()
    if feet.y < physics.kill_height or extent is None:
        return extent is None
    low, high = extent
    return (
        low.x - LEVEL_MARGIN <= feet.x <= high.x + LEVEL_MARGIN
        and low.z - LEVEL_MARGIN <= feet.z <= high.z + LEVEL_MARGIN
    )


def soak(example: str, minutes: float, seed: int) -> dict[str, Any]:
    game = EXAMPLES / f"{example}.py"
    scene, module = load_target(game if game.is_file() else EXAMPLES / f"{example}.toml")
    trace = module.trace if module is not None else EXAMPLES / "traces" / f"{example}.jsonl"
    assert trace is not None, f"{example}: no trace to play"
    lost: list[FellOutOfWorld] = []  # fell through the floor: what must never happen
    off: list[FellOutOfWorld] = []  # thrown past the floor's edge, and fell: the game's rules
    rescued: list[PlayerRescued] = []

    def count_lost(world: World) -> None:
        @system(Phase.LATE, reads=(FellOutOfWorld, PlayerRescued))
        def fallen(w: World) -> None:
            for fell in w.read_events(FellOutOfWorld, reader=fallen):
                over = (
                    floor[0] <= fell.position.x <= floor[1]
                    and floor[2] <= fell.position.z <= floor[3]
                )
                (lost if over else off).append(fell)
            rescued.extend(w.read_events(PlayerRescued, reader=fallen))

        world.add_systems(fallen)

    source = ScriptedSource(Takes(trace, seed))
    plugins = [module.build] if module is not None else []
    world, _ = build_world(scene, source, FIXED_HZ, seed, [*plugins, count_lost])
    floor = _floor(world)
    rows = []
    print(f"{example}: {'minute':>6} {'memory MB':>10} {'step ms':>8} {'(max)':>7} "
          f"{'queued':>7} {'props':>6} {'lost':>5} {'thrown off':>10}")  # fmt: skip
    with world:
        for minute in range(1, math.ceil(minutes) + 1):
            steps = round(min(minutes - minute + 1, 1.0) * 60 * FIXED_HZ)
            slowest, start = 0.0, time.perf_counter()
            for _ in range(steps):
                before = time.perf_counter()
                world.step()
                slowest = max(slowest, time.perf_counter() - before)
            mean_ms = (time.perf_counter() - start) / steps * 1e3
            queued = world.events.held()
            row = {
                "minute": minute, "memory_mb": round(resident_mb(), 2),
                "step_ms": round(mean_ms, 3), "step_ms_max": round(slowest * 1e3, 2),
                "queued": queued, "props": len(world.each(Prop)), "lost": len(lost),
                "thrown_off": len(off),
            }  # fmt: skip
            rows.append(row)
            print(f"{'':>{len(example) + 1}} {minute:>6} {row['memory_mb']:>10.2f} "
                  f"{mean_ms:>8.3f} {row['step_ms_max']:>7.2f} {queued:>7} "
                  f"{row['props']:>6} {row['lost']:>5} {len(off):>10}")  # fmt: skip
        in_world = _in_world(world)
    settled = [r["memory_mb"] for r in rows[1:]] or [rows[0]["memory_mb"]]
    return {
        "example": example,
        "minutes": minutes,
        "memory_growth_mb": round(max(settled) - min(settled), 2),
        "props_lost": len(lost),
        "props_thrown_off": len(off),
        "player_rescued": len(rescued),
        "player_in_world": in_world,
        "step_ms_mean": round(sum(r["step_ms"] for r in rows) / len(rows), 3),
        "per_minute": rows,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=30.0, help="simulated, each (30)")
    parser.add_argument("--example", nargs="+", default=EVERY, choices=EVERY)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    results = [soak(name, args.minutes, args.seed) for name in args.example]
    for result in results:
        where = "in" if result["player_in_world"] else "OUT OF"
        print(f"{result['example']}: memory grew {result['memory_growth_mb']} MB after the first "
              f"minute, {result['props_lost']} props lost, the player rescued "
              f"{result['player_rescued']} times and {where} the world at the end "
              "(goals: 2 MB, none, in)")  # fmt: skip
    print(json.dumps({"runs": results}))


if __name__ == "__main__":
    main()
