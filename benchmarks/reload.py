"""Live reload's latency: from a file's save to the running world holding what was saved.

Each row is the median and the worst of ``--rounds`` saves (ms). The runs with the watcher
(:class:`playspace.app.reload.LiveReload`) step their world at 90 frames a second, calling
``LiveReload.apply`` between frames as a game's loop does, so they count the frames a save
waits for; the rows without it time the same work called directly:

- ``module: save to new code running``: a game module (one FIXED system writing a module
  constant into a resource) saved with a new constant, until a step has written the new value
  (goal: under 0.5 s);
- ``module: reload_module alone``: the same save reloaded directly; ``modules_at``: what
  ``LiveReload`` does first, finding which loaded modules the saved file is (every module of
  the process looked at); the rest of the first row is the watcher (its settle delay,
  ``watch.SETTLE``, and the frames it waits for);
- ``scene: save to box remade``, ``... prop moved``: a scene of a floor and 500 objects (half
  scenery boxes, half dynamic box props, on a grid) saved with one scenery box moved (remade:
  despawned and spawned anew) or one prop moved (its body teleported), until ``apply`` says
  so (goal: under 1 s); ``load_scene`` and ``apply_scene`` alone, and with the step after it,
  split that;
- ``scene: build_world again``: what a user has without reload, the world built anew from the
  saved scene, alone and with its first step (Rapier making every collider); its ratio column
  is over ``apply_scene`` alone, and with its step. The JSON has the ratio with the scene's
  load on both sides too, and over the watcher's whole row.

``LiveReload.apply`` with nothing saved, what every frame pays, is the last row (µs).
Run: ``python benchmarks/reload.py [--rounds 20] [--objects 500]``. The last line printed is
one JSON object of the figures (ms).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import statistics
import sys
import tempfile
import time
import types
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playspace.app import build_world  # noqa: E402
from playspace.app.reload import LiveReload, apply_scene  # noqa: E402
from playspace.app.reload.modules import modules_at, reload_module  # noqa: E402
from playspace.app.reload.watch import SETTLE  # noqa: E402
from playspace.app.spawn import SpawnedScene  # noqa: E402
from playspace.components import Transform  # noqa: E402
from playspace.components.input import InputFrame  # noqa: E402
from playspace.ecs import World  # noqa: E402
from playspace.formats.scene import load_scene  # noqa: E402
from playspace.systems.input import ScriptedSource  # noqa: E402

FRAME = 1 / 90  # seconds: the watcher's runs step a frame, then wait for the next one
MODULE_GOAL_MS = 500.0
SCENE_GOAL_MS = 1000.0
SHIFT = 0.2  # metres a moved object goes along x: the grid is 1 m, the objects at most 0.5 m
GAME_NAME = "reload_bench_game"
_Row = tuple[str, dict[str, float], float | None, dict[str, float] | None]

GAME = """
from __future__ import annotations

from dataclasses import dataclass

from playspace.ecs import Phase, World, system

VALUE = {value}


@dataclass
class Seen:
    value: int = -1


@system(Phase.FIXED, writes=(Seen,))
def note(world: World) -> None:
    world.resource(Seen).value = VALUE
"""
TINY = """
[scene]
name = "tiny"

[[box]]
name = "floor"
size = [4, 0.2, 4]
position = [0, -0.1, 0]
"""


def _quiet(line: str) -> None:
    """Where the reloads' lines go: the table is the output."""


def _ms(values: list[float]) -> dict[str, float]:
    return {"median_ms": statistics.median(values) * 1e3, "worst_ms": max(values) * 1e3}


def _until(world: World, live: LiveReload, done: Callable[[list[str]], bool]) -> float:
    """Step `world` frame by frame, applying saves between frames, until `done` is true of
    what the last apply said; returns when (``time.perf_counter``)."""
    deadline = time.perf_counter() + 10.0
    while True:
        start = time.perf_counter()
        said = live.apply(world)
        world.step(1)
        if done(said):
            return time.perf_counter()
        if start > deadline:
            raise RuntimeError("the save was never applied")
        time.sleep(max(0.0, FRAME - (time.perf_counter() - start)))


def _game(folder: Path) -> tuple[types.ModuleType, Path]:
    """The game module, written and imported as a game's module is run."""
    path = folder / f"{GAME_NAME}.py"
    path.write_text(GAME.format(value=0))
    spec = importlib.util.spec_from_file_location(GAME_NAME, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[GAME_NAME] = module
    spec.loader.exec_module(module)
    return module, path


def module_rounds(folder: Path, rounds: int) -> dict[str, dict[str, float]]:
    """Seconds from a module's save to a step of its new code, with the watcher and without;
    and what an apply with nothing saved costs."""
    module, path = _game(folder)
    (folder / "tiny.toml").write_text(TINY)
    world = World()
    world.insert_resource(module.Seen())
    world.add_systems(module.note)
    world.step(1)
    live = LiveReload(load_scene(folder / "tiny.toml"), path, say=_quiet)
    seen = world.resource(module.Seen)
    watched, alone, found = [], [], []
    value = 0
    try:
        time.sleep(0.2)  # the watcher is up
        for _ in range(rounds):
            value += 1

            def running(said: list[str], want: int = value) -> bool:
                return bool(seen.value == want)

            start = time.perf_counter()
            path.write_text(GAME.format(value=value))
            watched.append(_until(world, live, running) - start)
        idle = _idle_apply(world, live)
    finally:
        live.close()
    for _ in range(rounds):
        value += 1
        path.write_text(GAME.format(value=value))
        start = time.perf_counter()
        (which,) = modules_at(path)
        looked = time.perf_counter()
        reload_module(world, which)
        alone.append(time.perf_counter() - looked)
        found.append(looked - start)
        world.step(1)
        if seen.value != value:
            raise RuntimeError("the reloaded system did not run the new code")
    del sys.modules[GAME_NAME]
    return {"watched": _ms(watched), "alone": _ms(alone), "found": _ms(found), "idle": _ms(idle)}


def _idle_apply(world: World, live: LiveReload) -> list[float]:
    """Seconds of ``LiveReload.apply`` when nothing was saved, a thousand at a time."""
    time.sleep(2 * SETTLE)
    live.apply(world)  # anything the last save left
    times = []
    for _ in range(5):
        start = time.perf_counter()
        for _ in range(1000):
            live.apply(world)
        times.append((time.perf_counter() - start) / 1000)
    return times


def scene_text(objects: int, shifted: set[str]) -> str:
    """A floor and `objects` on a 1 m grid: even ones scenery boxes, odd ones box props; each
    named in `shifted` stands SHIFT further along x."""
    side = max(1, round(objects**0.5))
    half = side / 2 + 2
    tables = [
        f'[scene]\nname = "reload"\n\n[[box]]\nname = "floor"\n'
        f"size = [{2 * half}, 0.2, {2 * half}]\nposition = [0, -0.1, 0]\n"
    ]
    for i in range(objects):
        name = _name(i)
        x = i % side - side / 2 + (SHIFT if name in shifted else 0.0)
        z = i // side - side / 2
        if i % 2 == 0:
            tables.append(
                f'[[box]]\nname = "{name}"\nsize = [0.5, 0.5, 0.5]\nposition = [{x}, 0.25, {z}]\n'
            )
        else:
            tables.append(
                f'[[prop]]\nname = "{name}"\nshape = "box"\nsize = [0.3, 0.3, 0.3]\n'
                f"position = [{x}, 0.15, {z}]\n"
            )
    return "\n".join(tables)


def _name(i: int) -> str:
    return f"scenery {i}" if i % 2 == 0 else f"crate {i}"


class _SceneFile:
    """The scene's file, saved with one object moved to and fro."""

    def __init__(self, path: Path, objects: int) -> None:
        self.path, self.objects = path, objects
        self.shifted: set[str] = set()
        path.write_text(scene_text(objects, self.shifted))

    def move(self, name: str) -> None:
        """Save the file with `name` at its other place."""
        self.shifted ^= {name}
        self.path.write_text(scene_text(self.objects, self.shifted))

    def check(self, world: World, name: str) -> None:
        """Refuse a figure if `name` is not where the file says (after a step)."""
        entity = world.resource(SpawnedScene).entities[name]
        x = world.get(entity, Transform).position.x
        i = int(name.split()[-1])
        side = max(1, round(self.objects**0.5))
        want = i % side - side / 2 + (SHIFT if name in self.shifted else 0.0)
        if abs(x - want) > 1e-3:
            raise RuntimeError(f"{name} is at x {x}, the file says {want}")


def scene_rounds(folder: Path, objects: int, rounds: int) -> dict[str, dict[str, float]]:
    """Seconds from a scene's save to its difference applied, with the watcher and without,
    and to a world built anew from it."""
    file = _SceneFile(folder / "reload.toml", objects)
    source = ScriptedSource(lambda t: InputFrame(t))
    scene = load_scene(file.path)
    world, _ = build_world(scene, source)
    world.step(30)
    box, prop = _name(objects // 2 - objects // 2 % 2), _name(objects // 2 | 1)
    times: dict[str, list[float]] = {}

    def note(what: str, seconds: float) -> None:
        times.setdefault(what, []).append(seconds)

    for n in range(rounds + 1):  # the first a warm-up
        for name in (box, prop):
            file.move(name)
            start = time.perf_counter()
            fresh = load_scene(file.path)
            loaded = time.perf_counter()
            apply_scene(world, scene, fresh)
            applied = time.perf_counter()
            world.step(1)
            stepped = time.perf_counter()
            scene = fresh
            file.check(world, name)
            if n:
                note("load", loaded - start)
                note(f"apply {name}", applied - loaded)
                note(f"apply step {name}", stepped - loaded)
    live = LiveReload(scene, say=_quiet)
    try:
        time.sleep(0.2)  # the watcher is up
        for _ in range(rounds):
            for name, what in ((box, "remade"), (prop, "moved")):

                def said_so(said: list[str], line: str = f"{what} {name}") -> bool:
                    return any(line in s for s in said)

                start = time.perf_counter()
                file.move(name)
                end = _until(world, live, said_so)
                note(f"watched {name}", end - start)
                file.check(world, name)
    finally:
        live.close()
    for n in range(rounds + 1):
        start = time.perf_counter()
        rebuilt, _ = build_world(scene, source)
        built = time.perf_counter()
        rebuilt.step(1)
        if n:
            note("build", built - start)
            note("build step", time.perf_counter() - start)
        del rebuilt
    figures = {what: _ms(values) for what, values in times.items()}
    for kind, name in (("box", box), ("prop", prop)):
        for what in ("apply", "apply step", "watched"):
            figures[f"{what} {kind}"] = figures.pop(f"{what} {name}")
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20, help="saves timed per row (20)")
    parser.add_argument("--objects", type=int, default=500, help="in the scene (at least 2)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        game = Path(folder) / "game"  # a folder of its own: the watcher reloads every .py in it
        game.mkdir()
        module = module_rounds(game, args.rounds)
        scene = scene_rounds(Path(folder), args.objects, args.rounds)
    apply, apply_step = scene["apply box"], scene["apply step box"]
    rows: list[_Row] = [  # what, its figure, its goal, the figure its ratio is over
        ("module: save to new code running", module["watched"], MODULE_GOAL_MS, None),
        ("module: reload_module alone", module["alone"], None, None),
        ("module: modules_at, which to reload", module["found"], None, None),
        ("scene: save to box remade", scene["watched box"], SCENE_GOAL_MS, None),
        ("scene: save to prop moved", scene["watched prop"], SCENE_GOAL_MS, None),
        ("scene: load_scene alone", scene["load"], None, None),
        ("scene: apply_scene, box remade", apply, None, None),
        ("  with the step after it", apply_step, None, None),
        ("scene: apply_scene, prop moved", scene["apply prop"], None, None),
        ("  with the step after it", scene["apply step prop"], None, None),
        ("scene: build_world again", scene["build"], None, apply),
        ("  with its first step", scene["build step"], None, apply_step),
    ]
    print(
        f"live reload, {args.rounds} saves a row, a scene of a floor and {args.objects} objects;"
        f" watcher settle {SETTLE * 1e3:.0f} ms, frames of {FRAME * 1e3:.1f} ms (ms)"
    )
    print(f"{'what':<38}{'median':>9}{'worst':>9}{'ratio':>8}")
    for label, figure, _, over in rows:
        ratio = f"{figure['median_ms'] / over['median_ms']:>8.1f}" if over else ""
        print(f"{label:<38}{figure['median_ms']:>9.1f}{figure['worst_ms']:>9.1f}{ratio}")
    idle_us = module["idle"]["median_ms"] * 1e3
    print(f"{'LiveReload.apply, nothing saved (µs)':<38}{idle_us:>9.2f}")
    met = all(figure["worst_ms"] < goal for _, figure, goal, _ in rows if goal is not None)
    print(
        f"goals: a module's save running within {MODULE_GOAL_MS / 1e3:.1f} s, a scene's applied"
        f" within {SCENE_GOAL_MS / 1e3:.0f} s (the worst of each): {'yes' if met else 'no'}"
    )
    rebuild, load = scene["build step"]["median_ms"], scene["load"]["median_ms"]
    figures = {
        "rounds": args.rounds,
        "objects": args.objects,
        "settle_ms": round(SETTLE * 1e3, 1),
        "frame_ms": round(FRAME * 1e3, 2),
        "module_goal_ms": MODULE_GOAL_MS,
        "scene_goal_ms": SCENE_GOAL_MS,
        "module_save_to_running": _rounded(module["watched"]),
        "module_reload_alone": _rounded(module["alone"]),
        "module_modules_at": _rounded(module["found"]),
        "loaded_modules": len(sys.modules),
        "scene_save_to_box_remade": _rounded(scene["watched box"]),
        "scene_save_to_prop_moved": _rounded(scene["watched prop"]),
        "scene_load": _rounded(scene["load"]),
        "scene_apply_box": _rounded(apply),
        "scene_apply_box_with_step": _rounded(apply_step),
        "scene_apply_prop": _rounded(scene["apply prop"]),
        "scene_apply_prop_with_step": _rounded(scene["apply step prop"]),
        "scene_build_world": _rounded(scene["build"]),
        "scene_build_world_with_step": _rounded(scene["build step"]),
        "build_over_apply": round(scene["build"]["median_ms"] / apply["median_ms"], 2),
        "rebuild_over_apply_with_steps": round(rebuild / apply_step["median_ms"], 2),
        "load_and_rebuild_over_load_and_apply": round(
            (load + rebuild) / (load + apply_step["median_ms"]), 2
        ),
        "rebuild_over_save_to_applied": round(rebuild / scene["watched box"]["median_ms"], 2),
        "idle_apply_us": round(idle_us, 3),
        "goals_met": met,
    }
    print(json.dumps(figures))


def _rounded(figure: dict[str, float]) -> dict[str, float]:
    return {key: round(value, 2) for key, value in figure.items()}


if __name__ == "__main__":
    main()
