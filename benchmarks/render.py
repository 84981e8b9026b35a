"""What a rendered frame costs: Python time to prepare and submit it, and frames per second.

100, 1,000 and 5,000 moving props (boxes and spheres, each with a previous pose to
interpolate from) stand in a block in front of the eye on a floor, drawn offscreen at
1280x720 through EGL (Mesa's software renderer on a machine with no GPU). Per frame:

- late: the LATE phase's placement (``place_drawn``: each body between its last two poses),
  once a frame whatever the views, as every world built from a scene runs it; the renderer
  then reads what it placed, as it does in the preview, captures and a headset;
- collect: gathering instances from the world (the placed poses, matrices, batches),
  timed back to back ("warm") and right after a drawn frame ("after a frame": the software
  renderer has just run through megabytes of pixels on the same cores, so Python's objects
  come from memory, not cache; a GPU leaves the caches alone);
- prepare: collect plus the upload of the instance buffers (``Renderer.prepare``), after a
  frame;
- submit: the Python side of drawing one view (``Renderer.draw``: uniforms, one instanced
  draw call per mesh and material). llvmpipe shades vertices inside the draw calls, so this
  is timed in a second run with Mesa's ``mesa_glthread=true``, which hands every GL call to a
  driver thread: what is left on the calling thread is Python's own work;
- frame: prepare, draw and ``ctx.finish()``, which waits for the pixels: its inverse is the
  frames per second (without glthread, Mesa's default).

A stereo frame (the headset's): prepare once, then both eyes, drawn as two views (two
passes) or by ``Renderer.draw_stereo`` in one pass into a layered target, interleaved frame by
frame, at 1,000 objects (``--stereo-count``) and 640x480 an eye; its Python time is taken
from the ``mesa_glthread`` run, as submit's is.

The lit path, per quality preset (``low``, ``high``, ``ultra``): the frames per second of
the kitchen (``examples/kitchen.toml``, materials, sky, grid, shadows at ``high``) at
1280x720 offscreen, and the cost of one stereo frame at a headset's per-eye size (1832x1920,
two views sharing one prepare and one shadow map).

Run: ``python benchmarks/render.py [--counts 100 1000 5000] [--frames N]``. The last line
printed is one JSON object of the figures. Goals: preparing and submitting 1,000 objects
takes under 1 ms of Python per view; a stereo frame of 1,000 objects takes at most 1 ms of
Python, both eyes together; the kitchen runs at 60 frames a second or more at
``low`` and 30 or more at ``high`` on the software renderer.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from playspace import spatial
from playspace.app import build_world
from playspace.app.replay import replay_source
from playspace.components import Prop, Scenery, Transform
from playspace.components.physics import Box, Collider, Colliders, PreviousTransform, Sphere
from playspace.ecs import World
from playspace.formats.scene import load_scene
from playspace.render import Offscreen, Renderer, create_context, eye_view, preview_view
from playspace.render.quality import PRESETS, Quality
from playspace.render.stereo import LayeredTarget
from playspace.spatial import Pose
from playspace.systems.drawn import DrawnPlugin, place_drawn

if TYPE_CHECKING:
    import moderngl

SIZE = (1280, 720)
EYE_SIZE = (1832, 1920)  # a headset's per-eye image (Quest 2 class)
STEREO_SIZE = (640, 480)  # an eye in the stereo frame's timing: Python's time, not pixels
KITCHEN = Path(__file__).resolve().parent.parent / "examples" / "kitchen.toml"


def block_world(count: int) -> World:
    """A floor and `count` props in a block 3 m ahead, all inside the 90 degree view."""
    world = World(fixed_hz=90)
    world.spawn(
        Transform(spatial.vec3(0.0, -0.1, 0.0)),
        Colliders(Collider(Box((40.0, 0.2, 40.0)))),
        Scenery("floor"),
    )
    side = math.ceil(count ** (1 / 3))
    for i in range(count):
        x, y, z = i % side, (i // side) % side, i // (side * side)
        at = spatial.vec3(x * 0.3 - side * 0.15, 0.2 + y * 0.3, -3.0 - z * 0.3)
        turned = spatial.yaw_rotation(0.1 * i)
        shape = Sphere(0.1) if i % 2 else Box((0.2, 0.2, 0.2))
        world.spawn(
            Transform(at, turned),
            PreviousTransform(at - spatial.vec3(0.0, 0.01, 0.0), spatial.identity()),
            Colliders(Collider(shape)),
            Prop(f"prop {i}"),
        )
    world.fixed_time.alpha = 0.5  # between two steps: the interpolation runs
    world.add_plugin(DrawnPlugin())
    place_drawn(world, world.fixed_time.alpha)
    return world


def measure(count: int, frames: int) -> dict[str, float]:
    ctx = create_context()
    renderer, target = Renderer(ctx), Offscreen(ctx, SIZE)
    world = block_world(count)
    eye = preview_view(Pose(spatial.vec3(0.0, 1.2, 1.0), spatial.identity()), target.aspect)
    for _ in range(10):  # the first frames build the layout, the buffers and llvmpipe's code
        renderer.prepare(world)
        renderer.draw(eye, target.framebuffer)
    ctx.finish()
    late, warm, collect, prepare, submit, frame = [], [], [], [], [], []
    for _ in range(frames):
        start = time.perf_counter()
        renderer.instances.collect(world)
        warm.append(time.perf_counter() - start)
    for _ in range(frames):
        renderer.draw(eye, target.framebuffer)
        ctx.finish()
        start = time.perf_counter()
        renderer.instances.collect(world)
        collect.append(time.perf_counter() - start)
    for _ in range(frames):
        ctx.finish()
        placing = time.perf_counter()
        place_drawn(world, world.fixed_time.alpha)
        late.append(time.perf_counter() - placing)
        start = time.perf_counter()
        renderer.prepare(world)
        prepared = time.perf_counter()
        renderer.draw(eye, target.framebuffer)
        submitted = time.perf_counter()
        ctx.finish()
        prepare.append(prepared - start)
        submit.append(submitted - prepared)
        frame.append(time.perf_counter() - start)
    _finished(ctx, "drawing", target, renderer)
    return {
        "objects": count,
        "late_ms": statistics.median(late) * 1e3,
        "collect_warm_ms": statistics.median(warm) * 1e3,
        "collect_ms": statistics.median(collect) * 1e3,
        "prepare_ms": statistics.median(prepare) * 1e3,
        "submit_ms": statistics.median(submit) * 1e3,
        "frame_ms": statistics.median(frame) * 1e3,
        "fps": 1.0 / statistics.median(frame),
    }


class Releasable(Protocol):
    def release(self) -> None: ...


def _finished(ctx: moderngl.Context, doing: str, *made: Releasable) -> None:
    """Free what a measurement `made` and its context; a GL error it left (read before the
    freeing, which may raise one of its own) fails the benchmark, naming what it was `doing`."""
    error = ctx.error
    for thing in made:
        thing.release()
    ctx.release()
    if error != "GL_NO_ERROR":
        raise RuntimeError(f"GL error while {doing}: {error}")


def stereo(count: int, frames: int) -> dict[str, float | str]:
    """A stereo frame of `count` props: prepare and both eyes as two views, against prepare
    and one ``draw_stereo``, interleaved; median ms of each (Python's, under glthread)."""
    ctx = create_context()
    renderer = Renderer(ctx)
    world = block_world(count)
    layered = LayeredTarget(ctx, STEREO_SIZE)
    aspect = STEREO_SIZE[0] / STEREO_SIZE[1]
    views = [
        preview_view(Pose(spatial.vec3(dx, 1.2, 1.0), spatial.identity()), aspect)
        for dx in (-0.032, 0.032)
    ]
    two, one = [], []
    for i in range(frames + 5):  # the first frames build the buffers and llvmpipe's code
        ctx.finish()
        start = time.perf_counter()
        renderer.prepare(world)
        for view, layer in zip(views, layered.layers, strict=True):
            renderer.draw(view, layer)
        passes = time.perf_counter() - start
        ctx.finish()
        start = time.perf_counter()
        renderer.prepare(world)
        renderer.draw_stereo(views, layered)
        single = time.perf_counter() - start
        if i >= 5:
            two.append(passes)
            one.append(single)
    ctx.finish()
    path = renderer.stereo.describe()
    _finished(ctx, "drawing in stereo", layered, renderer)
    return {
        "objects": count,
        "path": path,
        "two_passes_ms": statistics.median(two) * 1e3,
        "one_pass_ms": statistics.median(one) * 1e3,
    }


def kitchen(quality: Quality, frames: int) -> dict[str, float | str]:
    """The kitchen at `quality`: a 1280x720 frame from the player's eye, and a stereo frame
    (prepare once, two eyes 6.4 cm apart) at the headset's per-eye size."""
    ctx = create_context()
    world, _ = build_world(load_scene(KITCHEN), replay_source(None))
    world.step(1)
    renderer = Renderer(ctx, quality=quality)
    timings = []
    for size, eyes in ((SIZE, 1), (EYE_SIZE, 2)):
        target = Offscreen(ctx, size)
        centre = eye_view(world, target.aspect)
        views = [
            preview_view(Pose(centre.pose.position + spatial.vec3(dx, 0, 0), centre.pose.rotation),
                         target.aspect)
            for dx in ((0.0,) if eyes == 1 else (-0.032, 0.032))
        ]  # fmt: skip
        times = []
        for i in range(frames + 3):  # the first frames build llvmpipe's code
            ctx.finish()
            start = time.perf_counter()
            renderer.prepare(world)
            for view in views:
                renderer.draw(view, target.framebuffer)
            ctx.finish()
            if i >= 3:
                times.append(time.perf_counter() - start)
        timings.append(statistics.median(times))
        target.release()
    _finished(ctx, "drawing the kitchen", renderer)
    frame, stereo = timings
    return {
        "quality": quality.name,
        "kitchen_ms": frame * 1e3,
        "kitchen_fps": 1.0 / frame,
        "stereo_ms": stereo * 1e3,
    }


def threaded_submit(
    counts: list[int], frames: int, stereo_count: int
) -> tuple[list[float], dict[str, float | str]]:
    """Submit times and the stereo frame from this script run again under
    ``mesa_glthread=true`` (Mesa reads it once, when EGL starts, so it takes a process of its
    own)."""
    done = subprocess.run(
        [
            sys.executable,
            __file__,
            "--counts",
            *map(str, counts),
            "--frames",
            str(frames),
            "--stereo-count",
            str(stereo_count),
            "--rows-only",
        ],
        env={**os.environ, "mesa_glthread": "true"},
        capture_output=True,
        text=True,
        check=True,
    )
    figures = json.loads(done.stdout.splitlines()[-1])
    return [float(row["submit_ms"]) for row in figures["rows"]], figures["stereo"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--counts", type=int, nargs="+", default=[100, 1000, 5000])
    parser.add_argument("--frames", type=int, default=60, help="frames timed per count")
    parser.add_argument("--lit-frames", type=int, default=20, help="kitchen frames timed")
    parser.add_argument("--stereo-count", type=int, default=1000, help="props in the stereo frame")
    parser.add_argument("--rows-only", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    rows = [measure(count, args.frames) for count in args.counts]
    if args.rows_only:  # the glthread run: its figures go back to the first run
        print(json.dumps({"rows": rows, "stereo": stereo(args.stereo_count, args.frames)}))
        return
    lit = [kitchen(quality, args.lit_frames) for quality in PRESETS.values()]
    submits, stereo_python = threaded_submit(args.counts, args.frames, args.stereo_count)
    for row, python in zip(rows, submits, strict=True):
        row["submit_python_ms"] = python
        row["python_per_view_ms"] = row["prepare_ms"] + python
    print(
        f"{args.frames} frames of moving props at {SIZE[0]}x{SIZE[1]} on Mesa's software "
        "renderer (llvmpipe, EGL); median ms"
    )
    print(
        f"{'objects':>8}{'late':>7}{'collect':>9}{'after':>8}{'prepare':>9}{'submit':>8}"
        f"{'python':>8}{'draw':>8}{'frame':>8}{'fps':>7}"
    )
    print(f"{'':>8}{'':>7}{'warm':>9}{'frame':>8}{'':>9}{'python':>8}{'/view':>8}{'wall':>8}")
    for row in rows:
        print(
            f"{row['objects']:>8}{row['late_ms']:>7.3f}"
            f"{row['collect_warm_ms']:>9.3f}{row['collect_ms']:>8.3f}"
            f"{row['prepare_ms']:>9.3f}{row['submit_python_ms']:>8.3f}"
            f"{row['python_per_view_ms']:>8.3f}{row['submit_ms']:>8.2f}{row['frame_ms']:>8.2f}"
            f"{row['fps']:>7.1f}"
        )
    print(
        "goal: at 1,000 objects, prepare + submit under 1 ms of Python per view "
        "(late placement is once a frame, for every view)"
    )
    print()
    print(
        f"the kitchen, median of {args.lit_frames} frames: {SIZE[0]}x{SIZE[1]}, and a stereo "
        f"frame at {EYE_SIZE[0]}x{EYE_SIZE[1]} per eye"
    )
    print(f"{'quality':>8}{'frame ms':>10}{'fps':>7}{'stereo ms':>11}")
    for preset in lit:
        print(
            f"{preset['quality']:>8}{preset['kitchen_ms']:>10.2f}{preset['kitchen_fps']:>7.1f}"
            f"{preset['stereo_ms']:>11.2f}"
        )
    print("goals: the kitchen at 60 fps or more at low, 30 or more at high")
    print()
    print(
        f"a stereo frame of {stereo_python['objects']} props, both eyes, Python's median ms "
        f"(glthread): two passes {stereo_python['two_passes_ms']:.3f}, one pass "
        f"{stereo_python['one_pass_ms']:.3f} ({stereo_python['path']}); goal: at most 1.0"
    )
    print(
        json.dumps(
            {
                "frames": args.frames,
                "size": list(SIZE),
                "rows": [{k: round(v, 4) for k, v in r.items()} for r in rows],
                "kitchen": [
                    {k: round(v, 3) if isinstance(v, float) else v for k, v in r.items()}
                    for r in lit
                ],
                "stereo": {
                    k: round(v, 4) if isinstance(v, float) else v for k, v in stereo_python.items()
                },
            }
        )
    )


if __name__ == "__main__":
    main()
