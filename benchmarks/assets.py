"""What a model costs to load: a generated level of 200 nodes and about 100k triangles.

Rows, each the median of several rounds in this process:

- ``trimesh.load (raw library)``: trimesh reading the same GLB as a scene, the library a
  reader would otherwise use; the ratio column is ours over it;
- ``read_model, cold``: the file read, checked and decoded, nothing cached;
- ``read_model, cached``: the same file again, found by its content's hash;
- ``spawn_model, cold``: the entities made from a model read anew (colliders made as shapes,
  surfaces baked); ``again``: the same model spawned once more, its colliders' shapes kept;
- ``load cached``: read cached and spawned again, what a reload or a second level pays;
- ``first physics step``: Rapier building the colliders of what was spawned;
- ``two hands``: the Python cost a frame of two skinned hands: both hands' 26 joints posed
  (``pose_hands``: the skeleton made anew when every finger moves), their skin matrices made,
  and both gathered for drawing (``SceneInstances.skinned``) (goal: under 0.1 ms a hand).

Goal (issue 32): a cached level loaded in under 0.2 s. Run: ``python benchmarks/assets.py
[--rounds 5]``. The last line printed is one JSON object of the figures (ms).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playspace.app import build_world  # noqa: E402
from playspace.app.models import spawn_model  # noqa: E402
from playspace.components.hands import HandPose  # noqa: E402
from playspace.components.tracking import HandControls  # noqa: E402
from playspace.ecs import World  # noqa: E402
from playspace.formats.models import read_model  # noqa: E402
from playspace.formats.models.read import forget_models  # noqa: E402
from playspace.formats.models.write import ModelSpec, write_glb  # noqa: E402
from playspace.formats.scene import load_scene  # noqa: E402
from playspace.prelude import ScriptedSource, standing_frame  # noqa: E402
from playspace.render import meshes  # noqa: E402
from playspace.render.instances import SceneInstances  # noqa: E402
from playspace.systems.animation.hands import pose_hands  # noqa: E402
from playspace.systems.physics import PhysicsPlugin  # noqa: E402

NODES = 200
GOAL_MS = 200.0
HINTS = ("-col", "", "-convcol", "", "-boxcol")  # a level: some collide, most are drawn only


def level(folder: Path) -> tuple[Path, int]:
    """A GLB of NODES nodes in a grid, each a sphere of about 500 triangles: the file and its
    triangle count."""
    ball = meshes.sphere(segments=22, rings=12)
    surface = meshes.surface_of(ball, (0.4, 0.4, 0.4))
    nodes = [
        ModelSpec(f"Piece{i}{HINTS[i % len(HINTS)]}", surface, translation=(i % 20, 0.5, i // 20))
        for i in range(NODES)
    ]
    return write_glb(folder / "level.glb", nodes), NODES * len(surface.triangles)


def timed(
    work: Callable[[], object], rounds: int, before: Callable[[], None] | None = None
) -> float:
    times = []
    for _ in range(rounds):
        if before is not None:
            before()
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e3


def hands_per_frame(rounds: int) -> tuple[float, float]:
    """Milliseconds a frame to pose both hands, bend their skins and gather them for drawing:
    with the controls standing still (most frames), and with every finger moving every frame
    (a new curl each frame: the skeleton and the skin matrices made anew)."""
    scene = load_scene(ROOT / "examples" / "hands.toml")
    world, _ = build_world(scene, ScriptedSource(lambda t: standing_frame()))
    world.advance(1 / 90)
    frames, drawn = 200, SceneInstances()
    hands = [e for e, _ in world.each(HandPose)]

    def still() -> None:
        for _ in range(frames):
            pose_hands(world)
            drawn.skinned(world)

    def moving() -> None:
        for frame in range(frames):
            curl = (frame % 97) / 97  # within the ease of a frame: reached every frame
            for entity in hands:
                world.add(entity, HandControls(trigger=curl, grip=curl))
            pose_hands(world)
            drawn.skinned(world)

    return timed(still, rounds) / frames, timed(moving, rounds) / frames


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    import trimesh

    with tempfile.TemporaryDirectory() as folder:
        path, triangles = level(Path(folder))
        raw = timed(lambda: trimesh.load(path, force="scene"), args.rounds)
        cold = timed(lambda: read_model(path), args.rounds, forget_models)
        read_model(path)
        cached = timed(lambda: read_model(path), args.rounds)
        models = [read_model(path)]

        def spawned() -> World:
            world = World()
            world.add_plugin(PhysicsPlugin())
            spawn_model(world, models[-1])
            return world

        def fresh() -> None:  # a model read anew: nothing made of it yet
            forget_models()
            models.append(read_model(path))

        spawn_cold = timed(spawned, args.rounds, fresh)
        spawn = timed(spawned, args.rounds)
        worlds: list[World] = []
        first_step = timed(lambda: worlds[-1].step(), args.rounds, lambda: worlds.append(spawned()))
    hands, moving_hands = hands_per_frame(args.rounds)
    figures = {
        "nodes": NODES,
        "triangles": triangles,
        "trimesh_load_ms": round(raw, 1),
        "read_cold_ms": round(cold, 1),
        "read_cached_ms": round(cached, 2),
        "spawn_cold_ms": round(spawn_cold, 1),
        "spawn_again_ms": round(spawn, 1),
        "load_cached_ms": round(cached + spawn, 1),
        "first_step_ms": round(first_step, 1),
        "cold_over_trimesh": round(cold / raw, 2),
        "two_hands_still_ms": round(hands, 3),
        "two_hands_moving_ms": round(moving_hands, 3),
    }
    print(f"a level of {NODES} nodes, {triangles} triangles; median of {args.rounds} (ms)")
    print(f"{'what':<30}{'ms':>10}{'ratio':>8}")
    print(f"{'trimesh.load (raw library)':<30}{raw:>10.1f}{1.0:>8.2f}")
    print(f"{'read_model, cold':<30}{cold:>10.1f}{cold / raw:>8.2f}")
    print(f"{'read_model, cached':<30}{cached:>10.2f}{cached / raw:>8.3f}")
    print(f"{'spawn_model, cold':<30}{spawn_cold:>10.1f}")
    print(f"{'spawn_model, again':<30}{spawn:>10.1f}")
    print(f"{'load cached (read + spawn)':<30}{cached + spawn:>10.1f}")
    print(f"{'first physics step':<30}{first_step:>10.1f}")
    print(f"{'two hands, controls still':<30}{hands:>10.3f}")
    print(f"{'two hands, every finger moving':<30}{moving_hands:>10.3f}")
    met = "yes" if cached + spawn < GOAL_MS else "no"
    print(f"goal: a cached level loaded (read and spawned) in under {GOAL_MS:.0f} ms: {met}")
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
