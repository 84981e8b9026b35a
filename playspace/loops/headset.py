"""The headset run: a scene or an example in a headset, composed for the frame loop.

:func:`run_vr` loads the target, opens an OpenXR session (the backend, on the GL context the
caller made current), adds what a headset run has beside the game's plugins (telemetry,
a recording and a trace driving Monado's remote driver when asked) and hands the
run to :class:`~playspace.loops.vr_loop.VrLoop`, DESIGN.md's frame against the runtime.

When no session opens it prints one line, naming which of the three failures it was (no
OpenXR runtime, no headset, the runtime refused the session) and how to run the desktop
preview instead, and returns 2: no traceback, and well within a second when there is no
runtime at all. A runtime failing mid-session is one line and status 1; Ctrl-C ends the
session in order (:func:`sigint_polled`).
"""

from __future__ import annotations

import contextlib
import logging
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import TextIO

from playspace.app import TargetError, build_world, load_target, telemetry_events
from playspace.app.game import headless_command
from playspace.components.debug import InspectorPlace
from playspace.components.input import InputSource
from playspace.ecs import World
from playspace.formats.scene import SceneError
from playspace.loops.keep import save, where_player_stands
from playspace.loops.live import code_record, keeping, marked, trace_writer, watching
from playspace.loops.presses import Press, keep_chord, left_menu
from playspace.loops.stopping import INTERRUPTED
from playspace.loops.vr_loop import VrLoop, XrBackend
from playspace.systems.audio import AudioPlugin
from playspace.systems.input import KeepLast, Recorder, TraceError, load_trace
from playspace.systems.inspector import toggle_inspector
from playspace.systems.inspector.notice import LiveNoticePlugin
from playspace.systems.telemetry import Lines, TelemetryPlugin
from playspace.xr.state import (
    FailureKind,
    XrUnavailable,
)
from playspace.xr.views import RenderEye

_WHAT_TO_DO = {
    FailureKind.NO_RUNTIME: "install and start one (SteamVR, Monado, Meta's) or set "
    "XR_RUNTIME_JSON to its manifest",
    FailureKind.NO_HEADSET: "connect the headset, switch it on and check the runtime sees it",
    FailureKind.SESSION_REFUSED: "the runtime's log says why",
}


def failure_message(error: XrUnavailable, scene: Path | str) -> str:
    """The one line a failed ``--vr`` run prints: what failed, why, and the way around it."""
    return (
        f"playspace run --vr: {error.kind.value} ({error.detail}); {_WHAT_TO_DO[error.kind]}. "
        f"To run without a headset, use the desktop preview: playspace run {scene} "
        f"(or headless: {headless_command(scene)})"
    )


def open_backend(app_name: str, graphics: bool) -> XrBackend:
    """The real OpenXR backend; XrUnavailable when no session opens (pyopenxr is imported
    here, so a run that never gets this far never loads the loader)."""
    try:
        from playspace.xr.backend import OpenXRBackend
    except (ImportError, OSError, NotImplementedError) as error:  # macOS: no loader at all
        raise XrUnavailable(FailureKind.NO_RUNTIME, f"the OpenXR loader failed: {error}") from error
    return OpenXRBackend(app_name, graphics)


def run_vr(
    target: Path | str,
    *,
    plugins: Iterable[object] = (),
    eyes: Callable[[World], RenderEye] | None = None,
    seconds: float | None = None,
    fixed_hz: float | None = None,
    seed: int = 0,
    telemetry: Lines | None = None,
    record: Path | None = None,
    drive: Path | None = None,
    app_name: str | None = None,
    opener: Callable[[str, bool], XrBackend] = open_backend,
    out: TextIO | None = None,
    clock: Callable[[], float] = time.monotonic,
    sleep: Callable[[float], None] = time.sleep,
    stop: Callable[[], bool] | None = None,
    world: Callable[[InputSource, float], World] | None = None,
    reload: bool = True,
    audio_device: str | None = None,
) -> int:
    """Run a scene or an example module (``.toml`` or ``.py``, as ``playspace run`` takes) in
    the headset until the runtime or `seconds` ends it, with the game's `plugins` added as
    :func:`~playspace.app.build_world` adds them; the exit status.

    `eyes(world)` makes the ``render_eye(view, projection, target)`` that draws one eye of that
    world; its GL context must be current. Without it the session is input-only
    (``XR_MND_headless``). `fixed_hz` None follows the headset's refresh rate. `telemetry`
    receives telemetry as headless runs write it; `record` saves what the fixed steps saw
    as a trace that replays headless to the same telemetry. `drive` plays a trace into Monado's
    remote driver (:mod:`playspace.xr.monado`), its clock starting when the session is first
    FOCUSED: a real runtime then reports the trace's poses and controls, which is how a game is
    tested against a real runtime with scripted input. The application name the runtime
    shows is `app_name`, else the scene's name. `opener`, `clock` and `sleep` let a scripted
    runtime stand in for a real one (tests drive it at full speed); `stop` says when the run
    was asked to stop (the command's SIGTERM and SIGHUP). `reload` applies the game's saved
    module, scene and models while it runs (:mod:`playspace.app.reload`); the input of the
    last 30 s is kept, and both grips held with the left stick clicked save it
    (:mod:`playspace.loops.keep`). `audio_device` names the sound device (a headset's own,
    say) it plays through, else the default. Returns 0; 2 with one
    message on stderr when the scene is bad, the recording cannot be written or no session
    opens; 1 with one message when the runtime failed a call mid-session; 130 when Ctrl-C (or
    SIGTERM, SIGHUP) ended it, the session ended in order.

    `world(source, hz)`, when given, builds the world in place of the target's own, once the
    headset's rate is known: `source` is the headset's input, `hz` the fixed rate. That is
    how something that owns its world plays in the headset (a networked host, whose world
    hosts the match as it steps). The target then only names the run and gives the summary
    printed at its end; what the world has is the callback's to add, so `plugins`,
    `telemetry`, `record` and `seed`, which only shape the world built here, are refused
    with it (ValueError) rather than silently left out. No session, no call: the callback
    runs at the session's first frame.
    """
    added = list(plugins)
    if world is not None:
        shaping = [
            name
            for name, given in (
                ("plugins", bool(added)), ("telemetry", telemetry is not None),
                ("record", record is not None), ("seed", seed != 0),
            )
            if given
        ]  # fmt: skip
        if shaping:
            raise ValueError(
                f"run_vr: {', '.join(shaping)} shape the world run_vr builds, and world= "
                "builds its own: add them in the world callback"
            )
    out = out or sys.stdout
    try:
        scene, example = load_target(Path(target))
    except (SceneError, TargetError) as error:
        print(error, file=sys.stderr)
        return 2
    driver = None
    if drive is not None:
        from playspace.loops.drive import trace_driver

        try:
            driver = trace_driver(load_trace(drive))
        except TraceError as error:
            print(error, file=sys.stderr)
            return 2
    _show_log_lines()
    with contextlib.ExitStack() as stack:
        try:
            code = code_record(record, example) if reload else None
            writer = None
            if record is not None:
                writer = stack.enter_context(trace_writer(record, None, code))
        except OSError as error:
            print(f"playspace run: {record}: {error.strerror}", file=sys.stderr)
            return 2
        interrupted = stack.enter_context(sigint_polled())  # before the runtime's threads
        try:
            backend = opener(app_name or scene.name, eyes is not None)
        except XrUnavailable as error:
            print(failure_message(error, target), file=sys.stderr)
            return 2
        stack.callback(backend.destroy)  # a no-op when the loop already destroyed it
        if driver is not None:  # the remote driver listens once the instance exists
            driver.start()
            stack.callback(driver.stop)
        if telemetry is not None:
            added.append(TelemetryPlugin(telemetry, telemetry_events()))
        added.append(AudioPlugin(output="device", device=audio_device))  # silent where none
        if reload:
            added.append(LiveNoticePlugin())
        if example is not None:
            added.append(example.build)

        keeper: KeepLast | None = None
        recordings = marked(writer, code)  # the session kept joins when the world is built
        chord, menu = Press(keep_chord), Press(left_menu)

        def build(source: InputSource, hz: float) -> World:
            nonlocal keeper
            if world is not None:
                return world(source, hz)
            keeper = KeepLast()
            kept = keeping(keeper, example) if reload else None
            if kept is not None:
                recordings.append(kept)
            source = Recorder(source, keeper)
            if writer is not None:
                writer.fixed_hz = hz
                source = Recorder(source, writer)
            made = build_world(scene, source, hz, seed, added)[0]
            keeper.where = where_player_stands(made)
            return made

        live = watching(scene, example, recordings) if reload else None
        if live is not None:
            stack.callback(live.close)

        def between(shown: World) -> None:
            if live is not None:
                live.apply(shown)
            if keeper is not None and chord.pressed(shown):
                save(keeper, shown.fixed_time.hz)
            if menu.pressed(shown):
                toggle_inspector(shown, InspectorPlace.WRIST)

        print(f"OpenXR: {backend.runtime}; headset: {backend.headset}; {_space(backend)}", file=out)
        loop = VrLoop(
            backend, build, fixed_hz=fixed_hz, eyes=eyes, out=out, clock=clock, sleep=sleep,
            on_focus=None if driver is None else driver.start_clock,
            interrupted=interrupted if stop is None else lambda: interrupted() or stop(),
            between=between,
        )  # fmt: skip
        with loop.closing():
            reason = loop.run(seconds)
            if loop.lifecycle.failed:
                print(f"playspace run --vr: stopped: {reason}", file=sys.stderr)
                return 1
            print(f"OpenXR: stopped: {reason}", file=out)
            if example is not None and example.summary is not None and loop.world is not None:
                print(example.summary(loop.world), file=out)
    return INTERRUPTED if reason == "interrupted" else 0


@contextlib.contextmanager
def sigint_polled() -> Iterator[Callable[[], bool]]:
    """Keep Ctrl-C away from the runtime's threads: a ``Callable`` that says (once) whether it
    was pressed, for the loop to ask each turn.

    An in-process runtime (Monado) starts threads of its own, and a SIGINT the kernel hands to
    one of them, or a KeyboardInterrupt raised in the middle of a runtime call, can leave it
    half torn down; destroying the session afterwards then crashes. Blocked here, on the main
    thread, before the runtime starts, the signal is blocked in every thread it creates too,
    and stays pending until the loop asks and ends the session in order. Where signals cannot
    be blocked (Windows, a thread other than the main one) Ctrl-C stays a KeyboardInterrupt,
    which the loop also turns into an exit."""
    blockable = hasattr(signal, "pthread_sigmask") and (
        threading.current_thread() is threading.main_thread()
    )
    if not blockable:
        yield lambda: False
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})

    def pressed() -> bool:
        return signal.sigtimedwait([signal.SIGINT], 0) is not None

    try:
        yield pressed
    finally:
        pressed()  # one pressed after the loop ended is taken here, not raised on unblocking
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def _space(backend: XrBackend) -> str:
    return "STAGE" if backend.stage else "LOCAL, floor estimated from the head"


def _show_log_lines() -> None:
    """Let the backend's info lines (skipped bindings) reach stderr if nobody set up logging."""
    logger = logging.getLogger("playspace.xr")
    if not logger.handlers and not logging.getLogger().handlers:
        handler = logging.StreamHandler()
        handler.setFormatter(logging.Formatter("%(message)s"))
        logger.addHandler(handler)
        logger.setLevel(logging.INFO)
