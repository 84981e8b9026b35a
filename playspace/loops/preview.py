"""The preview loop: a scene in a desktop window, played through the XR simulator.

:func:`preview` composes the run: the window first (so a machine that cannot show one is left
as it was), the simulator read once a window frame through a
:class:`~playspace.systems.input.LiveSource` (each fixed step sees the head and hands at its
own time), an optional recording of what the steps saw, and the world. :func:`run_preview` is
the loop itself: poll the window's events, move the simulator by the frame's wall time,
advance the world by the same, draw, swap. :func:`drive_window` is that loop's frame-by-frame
part, which the trace viewer (:mod:`playspace.loops.viewer`) shares.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from moderngl_window.context.base import BaseWindow

from playspace.app import build_world, load_target, telemetry_events
from playspace.app.reload import LiveReload
from playspace.components.debug import PhysicsDebug
from playspace.components.input import InputSource
from playspace.ecs import World
from playspace.loops.keep import KEEP_KEY, save, where_player_stands
from playspace.loops.live import code_record, keeping, marked, trace_writer, watching
from playspace.loops.paced import advance
from playspace.loops.replay import show_physics_debug
from playspace.render.capture import write_png
from playspace.render.preview import Action, Preview, poll_gamepads, preview_window
from playspace.systems.audio import AudioPlugin
from playspace.systems.input import KeepLast, LiveSource, Recorder
from playspace.systems.input.simulator import Simulator
from playspace.systems.inspector import toggle_inspector
from playspace.systems.telemetry import Tally, TallyPlugin

if TYPE_CHECKING:
    from playspace.net import Host

DEBUG_KEY = "f3"  # shows or hides the physics debug view, as debug overlays in games do
INSPECTOR_KEY = "f1"  # shows or hides the inspector (docs/live-development.md)


@dataclass(frozen=True, slots=True)
class PreviewRun:
    """What a preview did: frames drawn and fixed steps run, until it was closed; for a
    preview of a scene or a game, what happened in it (the events by kind) and the game's own
    summary line, when it has one."""

    frames: int
    steps: int
    interrupted: bool = False  # stopped by Ctrl-C, SIGTERM or SIGHUP, not closed
    tally: Tally | None = None
    summary: str | None = None


def debug_actions(world: Callable[[], World]) -> dict[str, Action]:
    """The window's F3: show or hide the physics debug view of `world()` (the world shown
    now: a trace sought back plays a new one). The player's own choice, made from a key, as
    a headset's menu would make it; the renderer only reads it."""

    def toggle() -> None:
        shown = world()
        debug = shown.try_resource(PhysicsDebug) or shown.insert_resource(PhysicsDebug())
        debug.shown = not debug.shown

    return {DEBUG_KEY: ("F3 physics", toggle)}


def drive_window(
    preview: Preview,
    frame: Callable[[float], int],
    *,
    frames: int | None = None,
    done: Callable[[], bool] = lambda: False,
    screenshot: Path | None = None,
    stop: Callable[[], bool] | None = None,
) -> PreviewRun:
    """Call `frame` with each frame's wall time (it moves the world and draws; it returns the
    fixed steps it ran) until the window is closed (Esc), `frames` frames have been drawn,
    `done` says so or `stop` does (asked each frame); `screenshot` saves the last frame as a
    PNG. Releases the preview's GPU objects at the end."""
    window = preview.window
    drawn = steps = 0
    try:
        last = time.perf_counter()
        while True:
            now = time.perf_counter()
            steps += frame(now - last)
            last = now
            drawn += 1
            if (frames is not None and drawn >= frames) or done() or window.is_closing:
                if screenshot is not None:
                    write_png(screenshot, preview.read())
                break
            if stop is not None and stop():
                return PreviewRun(drawn, steps, interrupted=True)
            window.swap_buffers()  # and poll the window's events
    finally:
        preview.release()
    return PreviewRun(drawn, steps)


def run_preview(
    world: World,
    simulator: Simulator,
    window: BaseWindow,
    *,
    frames: int | None = None,
    seconds: float | None = None,
    screenshot: Path | None = None,
    stop: Callable[[], bool] | None = None,
    camera: str = "head",
    quality: str = "auto",
    announce: Callable[[str], None] | None = None,
    live: LiveReload | None = None,
    actions: dict[str, Action] | None = None,
) -> PreviewRun:
    """Run the world in `window`, played through `simulator`, until it is closed (Esc),
    `frames` frames have been drawn, the world's clock passes `seconds` or `stop` says so
    (asked each frame); `screenshot` saves the last frame as a PNG. `camera` is the one shown
    first; `quality` the renderer's preset. `announce` is given the window's help line (every
    key it answers) once the window shows the world, before the first frame. `live` applies
    the game's saved files before each frame. `actions` are keys of the caller's own, beside
    F3."""
    if window.name == "glfw":  # gamepads come from glfw, which only the glfw window starts
        simulator.gamepads = poll_gamepads
    actions = debug_actions(lambda: world) | (actions or {})
    preview = Preview(world, simulator, window, camera=camera, quality=quality, actions=actions)
    if announce is not None:
        announce(preview.help_line())

    def frame(seconds: float) -> int:
        if live is not None:
            live.apply(world)
        simulator.update(seconds)
        steps = advance(world, seconds)
        preview.draw(seconds, steps)
        return steps

    def passed() -> bool:
        return seconds is not None and world.time.elapsed >= seconds

    return drive_window(
        preview, frame, frames=frames, done=passed, screenshot=screenshot, stop=stop
    )


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
    camera: str = "head",
    quality: str = "auto",
    debug_physics: bool = False,
    announce: Callable[[str], None] | None = None,
    reload: bool = True,
    audio_device: str | None = None,
) -> tuple[PreviewRun, int | None]:
    """Run a scene or an example module in the preview window until it is closed; what it did
    (what happened in it counted as a headless run counts it) and, with `record`, how many
    samples the trace holds. `camera` is the one shown first; `debug_physics` shows the
    physics debug view from the start; `announce` is given the window's keys when it opens;
    `reload` applies the game's saved files while it runs (:mod:`playspace.app.reload`);
    `audio_device` names the sound device it plays through (the default one when None).
    Raises what loading the target raises, :class:`~playspace.render.preview.PreviewError`
    when no window opens, OSError when the recording cannot be written."""
    scene, example = load_target(target)
    simulator = Simulator()
    recorder: Recorder | None = None
    with contextlib.ExitStack() as stack:
        window = stack.enter_context(preview_window(f"playspace: {target.name}"))
        keeper = KeepLast()
        source: InputSource = Recorder(LiveSource(simulator.sample), keeper)
        code = code_record(record, example) if reload else None
        writer = None
        if record is not None:
            writer = stack.enter_context(trace_writer(record, fixed_hz, code))
            source = recorder = Recorder(source, writer)
        counted = TallyPlugin(telemetry_events())
        heard = AudioPlugin(output="device", device=audio_device)  # silent where there is none
        added = [counted, heard, *plugins, *([example.build] if example is not None else [])]
        world, _ = build_world(scene, source, fixed_hz, seed, added)
        if debug_physics:
            show_physics_debug(world)
        keeper.where = where_player_stands(world)
        keys: dict[str, Action] = {
            KEEP_KEY: (f"{KEEP_KEY.upper()} keep 30 s", lambda: save(keeper, fixed_hz)),
            INSPECTOR_KEY: (f"{INSPECTOR_KEY.upper()} inspector", lambda: _inspect(world)),
        }
        live = None
        if reload:
            kept = keeping(keeper, example)
            live = watching(scene, example, [*marked(writer, code), *([kept] if kept else [])])
            stack.callback(live.close)
        run = run_preview(
            world, simulator, window, frames=frames, seconds=seconds, screenshot=screenshot,
            stop=stop, camera=camera, quality=quality, announce=announce, live=live,
            actions=keys,
        )  # fmt: skip
    said = None if example is None or example.summary is None else example.summary(world)
    run = replace(run, tally=world.resource(Tally), summary=said)
    return run, None if recorder is None else recorder.samples


def _inspect(world: World) -> None:
    toggle_inspector(world)


def host_in_window(
    make: Callable[[InputSource], Host],
    *,
    seconds: float | None = None,
    stop: Callable[[], bool] | None = None,
    camera: str = "head",
    quality: str = "auto",
) -> tuple[Host, PreviewRun]:
    """Host a match and play it in the desktop preview window: `make` builds the host with
    the window's XR simulator as its player's source; the window's loop steps the world (and
    so hosts the match) until it is closed, `seconds` have passed or `stop` says so. Raises
    :class:`~playspace.render.preview.PreviewError` when no window opens."""
    simulator = Simulator()
    with preview_window("playspace: host") as window:
        host = make(LiveSource(simulator.sample))
        host.show_players()
        run = run_preview(
            host.world, simulator, window, seconds=seconds, stop=stop, camera=camera,
            quality=quality, live=host.live,
        )  # fmt: skip
    return host, run
