"""Physics beside drawing: would stepping Rapier while the eyes are drawn shorten a frame here?

Rapier's ``step`` releases Python's lock, so a frame could step the next fixed step in a worker
thread while the main thread draws and submits the previous frame's eyes (the poses drawn
double-buffered in LATE). Whatever the loop around them, such a frame can be no shorter than
the two running side by side; so this measures exactly that, with nothing of playspace's loop
in between: the kitchen with N awake props (a raw rapier3d world restored from the world's
engine) and both eyes of the same kitchen drawn by the renderer into an offscreen target
(EGL), one after the other (``serial``) and side by side (``overlap``: the step in a thread
started just before the draw, joined after ``ctx.finish()``). Each alone is timed too.

If ``overlap`` is not clearly below ``serial``, no pipelining of physics and drawing can
shorten the headset frame on this machine, and playspace keeps its frame in order. On
Mesa's llvmpipe the draw is itself spread over every core (it rasterises in threads), so the
step only takes cores from it.

Run: ``python benchmarks/overlap.py [--props 200 1000] [--size 320 360] [--rounds 15]
[--quality low]``. The last line printed is one JSON object of the figures.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import rapier3d as rp

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from frame import kitchen  # noqa: E402

from playspace.render.capture import Offscreen, eye_view  # noqa: E402
from playspace.render.context import create_context  # noqa: E402
from playspace.render.quality import PRESETS  # noqa: E402
from playspace.render.renderer import Renderer  # noqa: E402
from playspace.systems.physics import Physics  # noqa: E402

Row = dict[str, Any]


def _timed(work: Callable[[], None]) -> float:
    start = time.perf_counter()
    work()
    return (time.perf_counter() - start) * 1e3


def measure(props: int, size: tuple[int, int], quality: str, rounds: int) -> Row:
    world = kitchen(props, awake=True)
    raw = rp.PhysicsWorld.restore(world.resource(Physics).snapshot())
    raw.integration_parameters.dt = world.fixed_time.dt
    ctx = create_context()
    renderer = Renderer(ctx, quality=PRESETS[quality])
    target = Offscreen(ctx, size)
    view = eye_view(world, target.aspect)

    def draw() -> None:
        renderer.prepare(world)
        for _ in range(2):  # both eyes
            renderer.draw(view, target.framebuffer)
        ctx.finish()

    def serial() -> None:
        raw.step()
        draw()

    def overlap() -> None:
        worker = threading.Thread(target=raw.step)
        worker.start()
        draw()
        worker.join()

    kinds: dict[str, Callable[[], None]] = {
        "serial": serial, "overlap": overlap, "step": raw.step, "draw": draw
    }  # fmt: skip
    for work in kinds.values():  # warm: programs compiled, buffers made, caches filled
        work()
    times: dict[str, list[float]] = {name: [] for name in kinds}
    for _ in range(rounds):  # interleaved: what else the machine does falls on all alike
        for name, work in kinds.items():
            times[name].append(_timed(work))
    target.release()
    renderer.release()
    ctx.release()
    row: Row = {"props": props, "size": list(size), "quality": quality}
    row.update({f"{name}_ms": round(statistics.median(t), 3) for name, t in times.items()})
    row["saved"] = round(1.0 - row["overlap_ms"] / row["serial_ms"], 4)
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--props", type=int, nargs="+", default=[200, 1000])
    parser.add_argument("--size", type=int, nargs=2, default=[320, 360])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--quality", choices=sorted(PRESETS), default="low")
    args = parser.parse_args()
    rows = [measure(n, (args.size[0], args.size[1]), args.quality, args.rounds) for n in args.props]
    width, height = args.size
    print(f"a Rapier step and both eyes ({width}x{height} each, {args.quality}), median ms")
    print(f"{'awake':>7} {'step':>8} {'draw':>8} {'serial':>8} {'overlap':>8} {'saved':>7}")
    for row in rows:
        print(
            f"{row['props']:>7} {row['step_ms']:>8.2f} {row['draw_ms']:>8.2f} "
            f"{row['serial_ms']:>8.2f} {row['overlap_ms']:>8.2f} {row['saved']:>7.1%}"
        )
    best = max(row["saved"] for row in rows)
    print(f"the most side by side saves of a frame: {best:.1%}")
    print(json.dumps({"rows": rows, "best_saved": best, "rounds": args.rounds}))


if __name__ == "__main__":
    main()
