"""The preview loop: a scene in a desktop window, played through the XR simulator.

:func:`preview` composes the run: the window first (so a machine that cannot show one is left
as it was), the simulator read once a window frame through a
:class:`~playspace.systems.input.LiveSource` (each fixed step sees the head and hands at its
own time), an optional recording of what the steps saw, and the world. :func:`run_preview` is
the loop itself: poll the window's events, move the simulator by the frame's wall time,
advance the world by the same, draw, swap.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from moderngl_window.context.base import BaseWindow

from playspace.app import build_world, load_target
from playspace.ecs import World
from playspace.render.capture import write_png
from playspace.render.preview import Controls, Preview, preview_window
from playspace.systems.input import InputSource, LiveSource, Recorder, TraceWriter
from playspace.systems.input.simulator import Simulator


@dataclass(frozen=True, slots=True)
class PreviewRun:
    """What a preview did: frames drawn and fixed steps run, until it was closed."""

    frames: int
    steps: int
    interrupted: bool = False  # stopped by Ctrl-C, SIGTERM or SIGHUP, not closed


def run_preview(
    world: World,
    controls: Controls,
    window: BaseWindow,
    *,
    frames: int | None = None,
    seconds: float | None = None,
    screenshot: Path | None = None,
    stop: Callable[[], bool] | None = None,
) -> PreviewRun:
    """Run the world in `window` until it is closed (Esc), `frames` frames have been drawn,
    the world's clock passes `seconds` or `stop` says so (asked each frame); `screenshot`
    saves the last frame as a PNG."""
    preview = Preview(world, controls, window)
    drawn = steps = 0
    try:
        last = time.perf_counter()
        while True:
            now = time.perf_counter()
            steps += preview.frame(now - last)
            last = now
            drawn += 1
            done = (frames is not None and drawn >= frames) or (
                seconds is not None and world.time.elapsed >= seconds
            )
            if done or window.is_closing:
                if screenshot is not None:
                    write_png(screenshot, preview.read())
                break
            if stop is not None and stop():
                return PreviewRun(drawn, steps, interrupted=True)
            window.swap_buffers()  # and poll the window's events
    finally:
        preview.release()
    return PreviewRun(drawn, steps)


def preview(
    target: Path,
    *,
    fixed_hz: float = 90.0,
    seed: int = 0,
    plugins: Iterable[object] = (),
    record: Path | None = None,
    frames: int | None = None,
    seconds: float | None = None,
    screenshot: Path | None = None,
    stop: Callable[[], bool] | None = None,
) -> tuple[PreviewRun, int | None]:
    """Run a scene or an example module in the preview window until it is closed; what it did
    and, with `record`, how many samples the trace holds. Raises what loading the target
    raises, :class:`~playspace.render.preview.PreviewError` when no window opens, OSError when
    the recording cannot be written."""
    scene, example = load_target(target)
    simulator = Simulator()
    recorder: Recorder | None = None
    with contextlib.ExitStack() as stack:
        window = stack.enter_context(preview_window(f"playspace: {target.name}"))
        source: InputSource = LiveSource(simulator.sample)
        if record is not None:
            writer = stack.enter_context(TraceWriter(record, fixed_hz))
            source = recorder = Recorder(source, writer)
        added = [*plugins, *([example.build] if example is not None else [])]
        world, _ = build_world(scene, source, fixed_hz, seed, added)
        run = run_preview(
            world, simulator, window, frames=frames, seconds=seconds, screenshot=screenshot,
            stop=stop,
        )  # fmt: skip
    return run, None if recorder is None else recorder.samples
