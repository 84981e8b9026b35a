"""``playspace run``: a scene or a game in the preview window, headless, or in the headset."""

from __future__ import annotations

import argparse
import contextlib
import math
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from playspace.cli.common import (
    CAMERAS,
    QUALITY_NAMES,
    Refused,
    add_audio_device,
    add_debug,
    add_reload,
    has_display,
    headset,
    interrupted,
    os_error,
)
from playspace.formats.quoting import clipped, printable
from playspace.loops.outputs import LineStream, WaveStream, output_problem
from playspace.loops.stopping import INTERRUPTED

if TYPE_CHECKING:  # annotations only (the render package loads GL: runs that draw import it)
    from playspace.loops.preview import PreviewRun
    from playspace.render.capture import Capture


def add(commands: Any) -> None:
    run = commands.add_parser(
        "run",
        help="run a scene: in the desktop preview window (with --trace: play the recording in "
        "it), or --headless from a trace",
    )
    run.set_defaults(handler=handle, usage=run)
    run.add_argument(
        "scene", type=Path, metavar="SCENE", help="a scene file (.toml) or an example module (.py)"
    )
    run.add_argument(
        "--headless",
        action="store_true",
        help="no window; no GL either unless --screenshot or --frames asks for pictures",
    )
    run.add_argument(
        "--trace",
        type=Path,
        metavar="FILE",
        help="replay this trace (v1 or v2): headless, or in the window with pause, step, speed and "
        "seeking (docs/preview.md)",
    )
    run.add_argument(
        "--telemetry",
        type=Path,
        metavar="FILE",
        help="write telemetry (v2) here, line by line (- for standard output); a run that is "
        "stopped keeps what it wrote",
    )
    run.add_argument(
        "--audio-out",
        type=Path,
        metavar="FILE.wav",
        help="with --headless: write the run's sound here (16-bit stereo WAV, HRTF), mixed "
        "from the world's own events; the same trace writes the same samples",
    )
    run.add_argument("--seconds", type=float, help="how long to run (default: the trace's length)")
    run.add_argument(
        "--fixed-hz",
        type=float,
        help="fixed steps a second (default: the headset's refresh rate with --vr, the rate a "
        "trace was recorded at, else 90)",
    )
    run.add_argument("--seed", type=int, default=0, help="seed of the run's random generator")
    run.add_argument(
        "--screenshot",
        type=Path,
        metavar="OUT.png",
        help="headless: draw the last fixed step from the player's eye into this PNG "
        "(offscreen, EGL); preview: save the window's last frame",
    )
    run.add_argument(
        "--frames",
        type=Path,
        metavar="DIR",
        help="draw every N-th step into DIR/step_NNNNNN.png (telemetry's step, from 0)",
    )
    run.add_argument(
        "--every", type=int, default=1, metavar="N", help="with --frames: every N fixed steps (1)"
    )
    run.add_argument(
        "--no-render",
        action="store_true",
        help="draw nothing, even with --screenshot or --frames: simulate only",
    )
    run.add_argument(
        "--record",
        type=Path,
        metavar="FILE",
        help="preview and --vr: save what the player did as a trace (v1) that replays the session",
    )
    run.add_argument(
        "--quit-after", type=int, metavar="N", help="preview: close the window after N frames"
    )
    run.add_argument(
        "--camera",
        choices=CAMERAS,
        default=CAMERAS[0],
        help="where the window and captures look from: the player's head, a spectator "
        "behind and above it, or the scene's own [camera] (F5 switches in the window)",
    )
    run.add_argument(
        "--quality",
        choices=QUALITY_NAMES,
        default=QUALITY_NAMES[0],
        help="how much drawing costs: shadows from high, multisampling in ultra; auto (the "
        "default) is high on a GPU and low on a software renderer",
    )
    run.add_argument(
        "--debug-physics",
        action="store_true",
        help="show the physics debug view from the start (F3 switches it in the window)",
    )
    run.add_argument(
        "--drive",
        type=Path,
        metavar="TRACE",
        help="with --vr: play TRACE into Monado's remote driver from when the session is "
        "focused, so a real runtime reports its poses and controls (tests, CI)",
    )
    run.add_argument(
        "--vr", action="store_true", help="run in the headset through OpenXR (docs/vr.md)"
    )
    add_reload(run)
    add_audio_device(run)
    run.add_argument(
        "--gl",
        choices=("auto", "egl", "glx"),
        default="auto",
        help="with --vr: the GL context the headset session binds: egl (no window), glx (a "
        "hidden window's; WGL on Windows) or auto (EGL where the runtime offers it)",
    )
    run.add_argument(
        "--profile", type=Path, metavar="FILE",
        help="write the run's timeline (every system, fixed step, frame and OpenXR call) as a "
        "Chrome trace: open it in ui.perfetto.dev",
    )  # fmt: skip
    add_debug(run)


def handle(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from playspace.ecs.profile import profiling

    try:
        _refuse_overwriting_inputs(args)  # the profile among the outputs, before it is opened
        with profiling(args.profile) as profile:
            done = _run(args, parser)
        if profile is not None:
            print(f"profile: {profile.said()}", file=sys.stderr)
        return done
    except OSError as error:
        return os_error("playspace run", error)
    except Refused as refused:
        print(f"playspace run: {printable(str(refused))}", file=sys.stderr)
        return 2


def _run_vr(args: argparse.Namespace) -> int:
    """``playspace run --vr``: the headset run, with its telemetry, recording and driver."""
    from playspace.loops.replay import show_physics_debug

    with contextlib.ExitStack() as stack:
        telemetry = None
        if args.telemetry is not None:
            try:
                telemetry = stack.enter_context(LineStream(args.telemetry))
            except OSError as error:
                return os_error("playspace run", error)
        options = {
            "seconds": args.seconds,
            "fixed_hz": args.fixed_hz,
            "seed": args.seed,
            "telemetry": telemetry,
            "record": args.record,
            "drive": args.drive,
            "stop": args.stop,
            "plugins": [show_physics_debug] if args.debug_physics else [],
            "reload": not args.no_reload,
            "audio_device": args.audio_device,
        }
        return headset("playspace run", args.scene, args.gl, args.quality, options)


def _run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from playspace.app import TargetError
    from playspace.formats.scene import SceneError
    from playspace.formats.trace import LONGEST_RUN
    from playspace.loops.replay import run_headless
    from playspace.systems.input import TraceError

    # a day of running at most (a trace too), a step between 1 s and 0.1 ms: the clock counts
    # integer nanoseconds, and the steps of a run must stay countable
    if args.seconds is not None and not (
        math.isfinite(args.seconds) and 0 < args.seconds <= LONGEST_RUN
    ):
        parser.error(f"--seconds must be a number > 0 and <= {LONGEST_RUN:g}, got {args.seconds}")
    if args.fixed_hz is not None and not (
        math.isfinite(args.fixed_hz) and 1 <= args.fixed_hz <= 10_000
    ):
        parser.error(f"--fixed-hz must be a number >= 1 and <= 10000, got {args.fixed_hz}")
    if args.every < 1:
        parser.error(f"--every must be a whole number >= 1, got {args.every}")
    if args.screenshot is not None and args.screenshot.suffix.lower() != ".png":
        parser.error(f"--screenshot {args.screenshot}: screenshots are PNG: name it FILE.png")
    if args.drive is not None and not args.vr:
        parser.error("--drive is for --vr: it plays a trace into the runtime's remote driver")
    if args.gl != "auto" and not args.vr:
        parser.error(f"--gl {args.gl} is for --vr: it chooses the GL context a headset binds")
    if args.vr:
        vr_ignores = (
            ("--headless", args.headless), ("--trace", args.trace),
            ("--screenshot", args.screenshot), ("--frames", args.frames),
            ("--quit-after", args.quit_after is not None),
            ("--camera", args.camera != CAMERAS[0]), ("--audio-out", args.audio_out),
        )  # fmt: skip
        for flag, value in vr_ignores:
            if value:
                parser.error(f"{flag} is not for --vr: the headset run is played live")
        _refuse_overwriting_inputs(args)
        return _run_vr(args)
    _refuse_missing_scene_camera(args)
    if not args.headless:
        return preview(args, parser)
    if args.record is not None or args.quit_after is not None:
        parser.error("--record and --quit-after are for the preview window (drop --headless)")
    if args.audio_device is not None:
        parser.error(
            "--audio-device is for the preview window and --vr: a headless run plays no sound "
            "(--audio-out writes it to a file)"
        )
    draws = bool(args.screenshot or args.frames) and not args.no_render
    for flag, value in (
        ("--camera", args.camera != CAMERAS[0]),
        ("--quality", args.quality != QUALITY_NAMES[0]),
        ("--debug-physics", args.debug_physics),
    ):
        if value and not draws:
            parser.error(f"{flag} is for runs that draw: add --screenshot or --frames")
    _refuse_overwriting_inputs(args)
    capture: Capture | None = None
    if draws:
        # Only a run that draws imports the render package: a plain headless run loads no GL.
        from playspace.render.cameras import camera_named
        from playspace.render.capture import Capture
        from playspace.render.context import GLUnavailableError

        try:
            capture = Capture(
                args.screenshot, args.frames, args.every, camera=camera_named(args.camera),
                quality=args.quality,
            )  # fmt: skip
        except GLUnavailableError as error:
            print(f"playspace run: {error}", file=sys.stderr)
            return 2
        except OSError as error:
            return os_error("playspace run", error)
    try:
        with contextlib.ExitStack() as stack:
            if capture is not None:
                stack.callback(capture.release)
            out = None
            if args.telemetry is not None:
                out = stack.enter_context(LineStream(args.telemetry))
            audio = None
            if args.audio_out is not None:
                audio = stack.enter_context(contextlib.closing(WaveStream(args.audio_out)))
            replayed = run_headless(
                args.scene, args.trace, out, args.seconds, args.fixed_hz, args.seed, capture,
                stop=args.stop, debug_physics=args.debug_physics, audio=audio,
            )  # fmt: skip
            summary = replayed.summary()
            happened = replayed.tally.line()
    except KeyboardInterrupt:
        return interrupted(out)
    except (SceneError, TraceError, TargetError) as error:
        print(error, file=sys.stderr)
        return 2
    except OSError as error:
        return os_error("playspace run", error)
    if replayed.interrupted:
        return interrupted(out)
    steps = replayed.steps
    done = [f"{args.scene}: {steps} fixed steps ({steps / replayed.fixed_hz:.2f} s) headless"]
    if args.telemetry:
        done.append(f"telemetry in {args.telemetry}")
    if args.audio_out:
        done.append(f"sound in {args.audio_out}")
    if capture is None and (args.screenshot or args.frames):
        done.append("nothing drawn (--no-render)")
    if capture is not None and args.screenshot:
        done.append(f"screenshot in {args.screenshot}")
    if capture is not None and args.frames:
        done.append(f"{capture.frame_count} frames in {args.frames}")
    print(", ".join(done))
    print(happened)
    if summary is not None:
        print(summary)
    if args.trace is None and args.seconds is None and args.scene.suffix == ".toml":
        print(
            "playspace run: no input was given, so the player stood still for a single fixed "
            "step; play a recording with --trace FILE, or stand still for S seconds with "
            "--seconds S",
            file=sys.stderr,
        )
    return 0


def _refuse_overwriting_inputs(args: argparse.Namespace) -> None:
    """An output path that names an input would destroy it (a trace recorded once); one that
    cannot be written is said before the run, not after it."""
    for flag, path in (
        ("--telemetry", args.telemetry), ("--record", args.record),
        ("--audio-out", args.audio_out), ("--profile", args.profile),
    ):  # fmt: skip
        problem = None if path is None else output_problem(path)
        if problem is not None:
            raise Refused(f"{flag} '{clipped(str(path))}' {problem}")
    named = [args.scene, args.trace, args.drive]
    if str(args.scene).endswith(".py"):  # an example's own scene and trace are inputs too
        from playspace.app.game import ExampleError, load_example

        with contextlib.suppress(ExampleError):
            example = load_example(Path(args.scene))
            named += [example.scene, example.trace]
    inputs = {Path(p).resolve(): p for p in named if p is not None}
    outputs = (("--telemetry", args.telemetry), ("--screenshot", args.screenshot),
               ("--record", args.record), ("--frames", args.frames),
               ("--audio-out", args.audio_out), ("--profile", args.profile))  # fmt: skip
    for flag, path in outputs:
        if path is not None and Path(path).resolve() in inputs:
            raise Refused(f"{flag} {path} is an input of this run: it would be overwritten")


def _refuse_missing_scene_camera(args: argparse.Namespace) -> None:
    """``--camera scene`` draws from the scene's ``[camera]`` table: a scene without one is
    said before anything runs, not after a whole run with nothing to draw from. A scene that
    does not load is left for the run to report, with all its problems."""
    if args.camera != "scene":
        return
    from playspace.app import TargetError, load_target
    from playspace.formats.scene import SceneError

    try:
        scene, _ = load_target(Path(args.scene))
    except (SceneError, TargetError):  # an example that cannot be loaded is a TargetError
        return
    if scene.camera is None:
        raise Refused(
            f"--camera scene: {scene.path} has no [camera] table (its position and look_at: "
            "docs/scene-format.md); use --camera head or --camera spectator"
        )


def preview(
    args: argparse.Namespace,
    parser: argparse.ArgumentParser,
    no_window: Callable[[str], int] | None = None,
    *,
    command: str = "playspace run",
    announce: Callable[[str], None] | None = None,
    report: Callable[[PreviewRun], list[str]] | None = None,
) -> int:
    """The desktop preview: the scene in a window, driven by the XR simulator, or with
    ``--trace`` the recording played in it as the headless replay plays it. When no window
    opens, `no_window` (given the reason) decides what happens instead, if given. `command`
    names what runs it in messages; `announce` is given the window's keys when it opens;
    `report` says what a live preview did when it ends (by default: frames and steps, the
    events, the game's summary)."""
    viewing = args.trace is not None
    played = "the viewer plays the trace in a window" if viewing else "the preview is played live"
    for flag, value in (
        ("--telemetry", args.telemetry), ("--frames", args.frames), ("--no-render", args.no_render),
        ("--audio-out", args.audio_out),
    ):  # fmt: skip
        if value:
            parser.error(f"{flag} is for headless runs (add --headless); {played}")
    if viewing and args.record is not None:
        parser.error("--record is for the live preview: --trace plays a recording already")
    if args.quit_after is not None and args.quit_after < 1:
        parser.error(f"--quit-after must be a whole number >= 1, got {args.quit_after}")
    _refuse_overwriting_inputs(args)
    from playspace.app.game import headless_command

    headless = headless_command(args.scene)
    if viewing:
        headless = f"playspace run {args.scene} --headless --trace {args.trace}"
    window = "the trace viewer" if viewing else "the preview window"
    if not has_display():
        print(
            f"playspace run: no display for {window} ($DISPLAY and $WAYLAND_DISPLAY "
            f"are unset); run headless instead: {headless}",
            file=sys.stderr,
        )
        return 2
    from playspace.app import TargetError
    from playspace.formats.scene import SceneError
    from playspace.loops.preview import preview
    from playspace.loops.viewer import view_trace
    from playspace.render.preview import PreviewError
    from playspace.systems.input import TraceError

    shown = {
        "seconds": args.seconds, "seed": args.seed, "frames": args.quit_after,
        "screenshot": args.screenshot, "stop": args.stop, "camera": args.camera,
        "quality": args.quality, "debug_physics": args.debug_physics,
        "audio_device": args.audio_device,
    }  # fmt: skip
    fixed_hz = args.fixed_hz or 90.0
    recorded = None
    try:
        if viewing:
            run, player = view_trace(args.scene, args.trace, fixed_hz=args.fixed_hz, **shown)
        else:
            run, recorded = preview(
                args.scene, fixed_hz=fixed_hz, record=args.record, announce=announce,
                reload=not args.no_reload, **shown,
            )  # fmt: skip
    except (SceneError, TargetError, TraceError) as error:
        print(error, file=sys.stderr)
        return 2
    except PreviewError as error:
        if no_window is not None:
            return no_window(str(error))
        print(f"{command}: {error}; run headless instead: {headless}", file=sys.stderr)
        return 2
    except OSError as error:
        return os_error(command, error)
    if run.interrupted:
        kept = f"; the recording so far is in {args.record}" if args.record else ""
        print(f"{command}: interrupted{kept}", file=sys.stderr)
        return INTERRUPTED
    if report is not None:
        print("\n".join(report(run)))
        return 0
    if viewing:
        hz, steps = player.replay.fixed_hz, player.replay.steps
        done = [
            f"{args.scene}: {run.frames} frames, {args.trace} viewed, left at "
            f"{player.step / hz:.2f} of {steps / hz:.2f} s (step {player.step} of {steps})"
        ]
    else:
        seconds = run.steps / fixed_hz
        done = [
            f"{args.scene}: {run.frames} frames, {run.steps} fixed steps ({seconds:.2f} s) "
            "previewed"
        ]
    if args.screenshot:
        done.append(f"screenshot in {args.screenshot}")
    if recorded is not None:
        done.append(f"{recorded} samples recorded in {args.record}")
    print(", ".join(done))
    for line in (None if run.tally is None else run.tally.line(), run.summary):
        if line is not None:
            print(line)
    return 0
