"""The ``playspace`` command."""

from __future__ import annotations

import argparse
import contextlib
import math
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from playspace import __version__
from playspace.formats.shown import clipped, printable
from playspace.outputs import LineStream, output_problem
from playspace.stopping import INTERRUPTED, StopRequest

READER_LEFT = 128 + 13  # the exit status of a process that SIGPIPE ended
# playspace.render.cameras.CAMERAS and playspace.render.quality.QUALITY_NAMES, named here
# because importing render loads GL, which a headless run must not (tests/test_viewer.py
# checks that they agree)
CAMERAS = ("head", "spectator", "scene")
QUALITY_NAMES = ("auto", "low", "high", "ultra")

if TYPE_CHECKING:  # annotations only (the render package loads GL: runs that draw import it)
    from playspace.ecs import World
    from playspace.render.capture import Capture


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="playspace",
        description="An entity-component-system runtime for VR games.",
    )
    parser.add_argument("--version", action="version", version=f"playspace {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    demo = commands.add_parser(
        "demo", help="replay the kitchen example headless and say what happened"
    )
    demo.add_argument(
        "--out", type=Path, default=None, help="where to write (playspace-demo/); implies headless"
    )
    demo.add_argument("--no-render", action="store_true", help="no screenshot, simulate only")
    demo.add_argument(
        "--headless", action="store_true", help="replay the trace even when there is a display"
    )
    demo.set_defaults(usage=demo)  # an option's error prints its own command's usage
    validate = commands.add_parser(
        "validate", help="check scene files; exit 2 listing every problem if any is bad"
    )
    validate.add_argument("files", nargs="+", metavar="FILE", help="a scene file (TOML)")
    validate.set_defaults(usage=validate)
    run = commands.add_parser(
        "run",
        help="run a scene: in the desktop preview window (with --trace: play the recording in "
        "it), or --headless from a trace",
    )
    run.set_defaults(usage=run)
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
        help="write telemetry v1 here, line by line (- for standard output); a run that is "
        "stopped keeps what it wrote",
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
    run.add_argument(
        "--gl",
        choices=("auto", "egl", "glx"),
        default="auto",
        help="with --vr: the GL context the headset session binds: egl (no window), glx (a "
        "hidden window's; WGL on Windows) or auto (EGL where the runtime offers it)",
    )
    host = commands.add_parser(
        "host", help="host a networked match: the authoritative world (docs/networking.md)"
    )
    host.set_defaults(usage=host)
    host.add_argument("scene", type=Path, metavar="TARGET", help="a scene (.toml) or example (.py)")
    host.add_argument(
        "--play", action="store_true",
        help="play too, in seat 0 (remote players take seats 1 and up): in the preview window "
        "with the XR simulator, in the headset with --vr, or headless from --trace",
    )  # fmt: skip
    host.add_argument(
        "--trace", type=Path, metavar="FILE",
        help="with --play: play this trace headless (for its length unless --seconds)",
    )  # fmt: skip
    host.add_argument(
        "--player", default="host", metavar="NAME",
        help="with --play: your name in the match (host)",
    )  # fmt: skip
    join = commands.add_parser(
        "join", help="join a networked match: play your rig locally, send your input to the host"
    )
    join.set_defaults(usage=join)
    join.add_argument("scene", type=Path, metavar="TARGET", help="the host's scene or example")
    join.add_argument("--player", default="player", help="your name in the match (player)")
    join.add_argument(
        "--trace", type=Path, metavar="FILE", help="play this trace headless instead of the preview"
    )
    join.add_argument(
        "--impair",
        metavar="MS,LOSS",
        help="for tests: delay each message up to MS ms (input and state dropped at the "
        "fraction LOSS; events, sent reliably, only delayed)",
    )
    for side in (host, join):
        side.add_argument("--session", default="playspace", help="the match's name (playspace)")
        side.add_argument(
            "--listen", action="append", metavar="ENDPOINT",
            help="a Zenoh endpoint to listen on (host default: tcp/127.0.0.1:7447)",
        )  # fmt: skip
        side.add_argument(
            "--connect", action="append", metavar="ENDPOINT",
            help="a Zenoh endpoint to connect to (join default: tcp/127.0.0.1:7447)",
        )  # fmt: skip
        side.add_argument("--seconds", type=float, help="stop after this long (default: never)")
        side.add_argument("--fixed-hz", type=float, default=90.0, help="fixed steps a second")
        side.add_argument("--seed", type=int, default=0, help="seed of the run's random generator")
        side.add_argument(
            "--vr", action="store_true",
            help="play in the headset through OpenXR (docs/vr.md); a host needs --play too",
        )  # fmt: skip
        side.add_argument(
            "--gl", choices=("auto", "egl", "glx"), default="auto",
            help="with --vr: the GL context the headset session binds (as playspace run's)",
        )  # fmt: skip
        side.add_argument(
            "--quality", choices=QUALITY_NAMES, default=QUALITY_NAMES[0],
            help="with --vr: how much drawing costs (as playspace run's)",
        )  # fmt: skip
        side.add_argument(
            "--drive", type=Path, metavar="TRACE",
            help="with --vr: play TRACE into Monado's remote driver (tests, CI)",
        )  # fmt: skip
    host.add_argument("--telemetry", type=Path, metavar="FILE", help="write telemetry v1 here")
    host.add_argument(
        "--record",
        type=Path,
        metavar="FILE",
        help="write every seat's input, each step, as one trace (version 3): it replays the match",
    )
    host.add_argument(
        "--playout", type=int, default=2, metavar="N",
        help="input frames buffered before the host plays them (more absorbs a worse network)",
    )  # fmt: skip
    host.add_argument(
        "--state-every", type=_at_least_one, default=1, metavar="K",
        help="send the state every K-th fixed step (1)",
    )  # fmt: skip
    host.add_argument(
        "--keyframe-every", type=_at_least_one, default=90, metavar="N",
        help="every N-th state carries every moving body, the others those that moved (90)",
    )  # fmt: skip
    host.add_argument(
        "--players", type=_at_least_one, default=2, metavar="N",
        help="seats (2), the host's own with --play; a joiner past them waits for a free one",
    )  # fmt: skip
    commands.add_parser(
        "doctor", help="say what this machine offers: OpenXR runtime, GL, display, gamepads"
    )
    plot = commands.add_parser("plot", help="comfort plots of a telemetry file (plot extra)")
    plot.add_argument("telemetry", type=Path, metavar="TELEMETRY", help="a telemetry v1 file")
    plot.add_argument("--out", type=Path, required=True, metavar="FILE.png", help="the PNG")
    plot.add_argument(
        "--scene",
        type=Path,
        metavar="SCENE.toml",
        help="the scene the run played: its walls and furniture are drawn under the path",
    )
    plot.set_defaults(usage=plot)
    return parser


def _gl_probe() -> str:
    """The GL renderer of a standalone EGL context (no window needed), for ``doctor``."""
    from playspace.render import create_context

    ctx = create_context()
    try:
        major, minor = divmod(ctx.version_code // 10, 10)
        return f"{ctx.info['GL_RENDERER']}, OpenGL {major}.{minor} (EGL, no window)"
    finally:
        ctx.release()


def _run_vr(args: argparse.Namespace) -> int:
    """``playspace run --vr``: the headset run, with its telemetry, recording and driver."""
    from playspace.loops.replay import show_physics_debug

    with contextlib.ExitStack() as stack:
        telemetry = None
        if args.telemetry is not None:
            try:
                telemetry = stack.enter_context(LineStream(args.telemetry))
            except OSError as error:
                return _os_error("playspace run", error)
        options = {
            "seconds": args.seconds,
            "fixed_hz": args.fixed_hz,
            "seed": args.seed,
            "telemetry": telemetry,
            "record": args.record,
            "drive": args.drive,
            "stop": args.stop,
            "plugins": [show_physics_debug] if args.debug_physics else [],
        }
        return _headset("playspace run", args.scene, args.gl, args.quality, options)


def _headset(
    command: str, scene: Path, gl_choice: str, quality: str, options: dict[str, Any]
) -> int:
    """Run `scene` in the headset, drawing with the renderer on the GL context `gl_choice`
    chooses (:mod:`playspace.loops.gl`: EGL, or a hidden window's GLX/WGL context), made
    current first because the OpenXR session binds the context current when it opens. When
    ``auto`` finds no GL at all, an input-only session; an explicit choice that cannot be had
    is an error. After a run that drew, one line says through what and how many frames."""
    from playspace.loops.gl import DrawnCount, choose_gl, headset_gl
    from playspace.loops.headset import failure_message, run_vr
    from playspace.render.context import GLUnavailableError
    from playspace.xr.state import XrUnavailable

    with contextlib.ExitStack() as stack:
        try:
            binding = choose_gl(gl_choice)
        except XrUnavailable as error:  # this platform has no such binding (or none at all)
            print(failure_message(error, scene), file=sys.stderr)
            return 2
        try:
            gl = stack.enter_context(headset_gl(binding))
        except GLUnavailableError as error:
            if gl_choice != "auto":
                print(f"{command} --vr --gl {gl_choice}: {error}", file=sys.stderr)
                return 2
            print(f"{command} --vr: no GL ({error}); input only", file=sys.stderr)
            return run_vr(scene, **options)
        from playspace.loops.eyes import headset_eyes
        from playspace.render import Renderer, add_standard_passes, quality_named

        renderer = add_standard_passes(Renderer(gl.ctx, quality=quality_named(quality, gl.ctx)))
        stack.callback(renderer.release)
        drawn = DrawnCount()
        status = run_vr(scene, eyes=drawn.counting(headset_eyes(renderer)), **options)
        if drawn.frames:
            print(f"GL: {gl.describe()}: {drawn.frames} frames drawn ({drawn.eyes} eye images)")
        return status


def _run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from playspace.app import TargetError
    from playspace.formats.trace import LONGEST_RUN
    from playspace.loops.replay import run_headless
    from playspace.scene import SceneError
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
            ("--camera", args.camera != CAMERAS[0]),
        )  # fmt: skip
        for flag, value in vr_ignores:
            if value:
                parser.error(f"{flag} is not for --vr: the headset run is played live")
        _refuse_overwriting_inputs(args)
        return _run_vr(args)
    _refuse_missing_scene_camera(args)
    if not args.headless:
        return _preview(args, parser)
    if args.record is not None or args.quit_after is not None:
        parser.error("--record and --quit-after are for the preview window (drop --headless)")
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
            return _os_error("playspace run", error)
    try:
        with contextlib.ExitStack() as stack:
            if capture is not None:
                stack.callback(capture.release)
            out = None
            if args.telemetry is not None:
                out = stack.enter_context(LineStream(args.telemetry))
            replayed = run_headless(
                args.scene, args.trace, out, args.seconds, args.fixed_hz, args.seed, capture,
                stop=args.stop, debug_physics=args.debug_physics,
            )  # fmt: skip
            summary = replayed.summary()
    except KeyboardInterrupt:
        return _interrupted(out)
    except (SceneError, TraceError, TargetError) as error:
        print(error, file=sys.stderr)
        return 2
    except OSError as error:
        return _os_error("playspace run", error)
    if replayed.interrupted:
        return _interrupted(out)
    steps = replayed.steps
    done = [f"{args.scene}: {steps} fixed steps ({steps / replayed.fixed_hz:.2f} s) headless"]
    if args.telemetry:
        done.append(f"telemetry in {args.telemetry}")
    if capture is None and (args.screenshot or args.frames):
        done.append("nothing drawn (--no-render)")
    if capture is not None and args.screenshot:
        done.append(f"screenshot in {args.screenshot}")
    if capture is not None and args.frames:
        done.append(f"{capture.frame_count} frames in {args.frames}")
    print(", ".join(done))
    if summary is not None:
        print(summary)
    return 0


class _Refused(Exception):
    """A run that cannot start for a reason other than its options' syntax: one line, exit 2
    (no usage: the options were well formed)."""


def _refuse_overwriting_inputs(args: argparse.Namespace) -> None:
    """An output path that names an input would destroy it (a trace recorded once); one that
    cannot be written is said before the run, not after it."""
    for flag, path in (("--telemetry", args.telemetry), ("--record", args.record)):
        problem = None if path is None else output_problem(path)
        if problem is not None:
            raise _Refused(f"{flag} '{clipped(str(path))}' {problem}")
    named = [args.scene, args.trace, args.drive]
    if str(args.scene).endswith(".py"):  # an example's own scene and trace are inputs too
        from playspace.example import ExampleError, load_example

        with contextlib.suppress(ExampleError):
            example = load_example(Path(args.scene))
            named += [example.scene, example.trace]
    inputs = {Path(p).resolve(): p for p in named if p is not None}
    outputs = (("--telemetry", args.telemetry), ("--screenshot", args.screenshot),
               ("--record", args.record), ("--frames", args.frames))  # fmt: skip
    for flag, path in outputs:
        if path is not None and Path(path).resolve() in inputs:
            raise _Refused(f"{flag} {path} is an input of this run: it would be overwritten")


def _refuse_missing_scene_camera(args: argparse.Namespace) -> None:
    """``--camera scene`` draws from the scene's ``[camera]`` table: a scene without one is
    said before anything runs, not after a whole run with nothing to draw from. A scene that
    does not load is left for the run to report, with all its problems."""
    if args.camera != "scene":
        return
    from playspace.app import TargetError, load_target
    from playspace.scene import SceneError

    try:
        scene, _ = load_target(Path(args.scene))
    except (SceneError, TargetError):  # an example that cannot be loaded is a TargetError
        return
    if scene.camera is None:
        raise _Refused(
            f"--camera scene: {scene.path} has no [camera] table (its position and look_at: "
            "docs/scene-format.md); use --camera head or --camera spectator"
        )


def _os_error(command: str, error: OSError) -> int:
    """A file that could not be written or read, said in one line naming it: exit 2. A pipe
    whose reader left is no error of the run's: :func:`main` ends quietly."""
    if isinstance(error, BrokenPipeError):
        raise error
    print(f"{command}: {error.filename}: {error.strerror}", file=sys.stderr)
    return 2


def _interrupted(telemetry: LineStream | None) -> int:
    """Ctrl-C (or SIGTERM, SIGHUP): one line saying how far the run got; exit 130."""
    kept = ""
    if telemetry is not None and telemetry.lines:
        kept = f"; telemetry of {telemetry.lines - 1} steps in {telemetry.name}"
    print(f"playspace run: interrupted{kept}", file=sys.stderr)
    return INTERRUPTED


def _reader_left() -> int:
    """End quietly, as a Unix filter does when its reader leaves: no message, and the status
    a process ended by SIGPIPE has (141). Standard output now leads nowhere, so what Python
    still holds for it is dropped at exit instead of failing again."""
    with contextlib.suppress(OSError, ValueError):
        nowhere = os.open(os.devnull, os.O_WRONLY)
        os.dup2(nowhere, sys.stdout.fileno())
    return READER_LEFT


def _has_display() -> bool:
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def _demo_preview(kitchen: Path, stop: StopRequest) -> argparse.Namespace:
    """`playspace run examples/kitchen.py` with its defaults: the demo with a display."""
    args = _parser().parse_args(["run", str(kitchen)])
    args.stop = stop
    return args


def _preview(
    args: argparse.Namespace,
    parser: argparse.ArgumentParser,
    no_window: Callable[[str], int] | None = None,
) -> int:
    """The desktop preview: the scene in a window, driven by the XR simulator, or with
    ``--trace`` the recording played in it as the headless replay plays it. When no window
    opens, `no_window` (given the reason) decides what happens instead, if given."""
    viewing = args.trace is not None
    played = "the viewer plays the trace in a window" if viewing else "the preview is played live"
    for flag, value in (
        ("--telemetry", args.telemetry), ("--frames", args.frames), ("--no-render", args.no_render),
    ):  # fmt: skip
        if value:
            parser.error(f"{flag} is for headless runs (add --headless); {played}")
    if viewing and args.record is not None:
        parser.error("--record is for the live preview: --trace plays a recording already")
    if args.quit_after is not None and args.quit_after < 1:
        parser.error(f"--quit-after must be a whole number >= 1, got {args.quit_after}")
    _refuse_overwriting_inputs(args)
    from playspace.example import headless_command

    headless = headless_command(args.scene)
    if viewing:
        headless = f"playspace run {args.scene} --headless --trace {args.trace}"
    window = "the trace viewer" if viewing else "the preview window"
    if not _has_display():
        print(
            f"playspace run: no display for {window} ($DISPLAY and $WAYLAND_DISPLAY "
            f"are unset); run headless instead: {headless}",
            file=sys.stderr,
        )
        return 2
    from playspace.app import TargetError
    from playspace.loops.preview import preview
    from playspace.loops.viewer import view_trace
    from playspace.render.preview import PreviewError
    from playspace.scene import SceneError
    from playspace.systems.input import TraceError

    shown = {
        "seconds": args.seconds, "seed": args.seed, "frames": args.quit_after,
        "screenshot": args.screenshot, "stop": args.stop, "camera": args.camera,
        "quality": args.quality, "debug_physics": args.debug_physics,
    }  # fmt: skip
    fixed_hz = args.fixed_hz or 90.0
    recorded = None
    try:
        if viewing:
            run, player = view_trace(args.scene, args.trace, fixed_hz=args.fixed_hz, **shown)
        else:
            run, recorded = preview(args.scene, fixed_hz=fixed_hz, record=args.record, **shown)
    except (SceneError, TargetError, TraceError) as error:
        print(error, file=sys.stderr)
        return 2
    except PreviewError as error:
        if no_window is not None:
            return no_window(str(error))
        print(f"playspace run: {error}; run headless instead: {headless}", file=sys.stderr)
        return 2
    except OSError as error:
        return _os_error("playspace run", error)
    if run.interrupted:
        kept = f"; the recording so far is in {args.record}" if args.record else ""
        print(f"playspace run: interrupted{kept}", file=sys.stderr)
        return INTERRUPTED
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
    return 0


def _at_least_one(text: str) -> int:
    """A whole number of at least 1 (an argparse type)."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of at least 1, got {text!r}")
    return value


def _host(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """The authoritative world of a match, until --seconds or Ctrl-C (with --play: also until
    the window is closed or the headset's session ends, or for the trace's length); who joined
    and left, and what was refused, said as it goes."""
    from playspace.net import DEFAULT_ENDPOINT, Host, Network, host_in_window
    from playspace.systems.input import InputSource, ReplaySource, load_trace

    if not args.play:
        for flag, value in (
            ("--trace", args.trace), ("--player", args.player != "host"), ("--vr", args.vr),
        ):  # fmt: skip
            if value:
                parser.error(f"{flag} is for a host that plays too: add --play")
    if args.vr and args.trace is not None:
        parser.error("--vr plays from the headset: drop --trace")
    if args.drive is not None and not args.vr:
        parser.error("--drive feeds the headset's runtime: add --vr")
    if args.play and not args.vr and args.trace is None and not _has_display():
        print(
            "playspace host --play: no display for the preview; add --trace (or --vr)",
            file=sys.stderr,
        )
        return 2
    network = Network(args.session, args.listen or [DEFAULT_ENDPOINT], args.connect or [])
    with contextlib.ExitStack() as stack:
        telemetry = None
        if args.telemetry is not None:
            telemetry = stack.enter_context(LineStream(args.telemetry))

        def make(play: InputSource | None, fixed_hz: float = args.fixed_hz) -> Host:
            host = Host(
                args.scene, network, fixed_hz=fixed_hz, seed=args.seed,
                playout=args.playout, state_every=args.state_every,
                keyframe_every=args.keyframe_every, telemetry=telemetry, record=args.record,
                say=lambda line: print(line, flush=True), players=args.players, play=play,
                name=args.player,
            )  # fmt: skip
            stack.callback(host.close)
            playing = f" playing as {args.player}" if args.play else ""
            print(
                f"hosting {args.scene} as session {args.session!r} on {network.listen}{playing}",
                flush=True,
            )
            return host

        status = 0
        summarised = False  # the headset run prints the example's summary itself
        if args.vr:
            hosts: list[Host] = []

            def world(source: InputSource, hz: float) -> World:
                """The host, built at the session's first frame on the headset's input."""
                host = make(source, hz)
                host.show_players()
                hosts.append(host)
                return host.world

            options = {
                "seconds": args.seconds,
                "fixed_hz": args.fixed_hz,
                "drive": args.drive,
                "stop": args.stop,
                "world": world,
            }
            status = _headset("playspace host", args.scene, args.gl, args.quality, options)
            if not hosts:  # no session opened: run_vr said why
                return status
            host = hosts[0]
            steps = host.world.fixed_time.step  # after the run: the steps it ran
            summarised = True
        elif args.play and args.trace is None:
            from playspace.render.preview import PreviewError

            try:
                host, run = host_in_window(make, seconds=args.seconds, stop=args.stop)
            except PreviewError as error:
                print(f"playspace host --play: {error}; add --trace", file=sys.stderr)
                return 2
            steps = run.steps
        elif args.play:
            trace = load_trace(args.trace)
            host = make(ReplaySource(trace))
            seconds = args.seconds if args.seconds is not None else trace.duration
            steps = host.run(seconds, stop=args.stop)
        else:
            host = make(None)
            steps = host.run(args.seconds, stop=args.stop)
        refused = ", ".join(f"{n} {why}" for why, n in sorted(host.refused.items())) or "none"
        print(f"{steps} fixed steps hosted; refused messages: {refused}", flush=True)
        print(f"{host.sent} bytes of state and events published")
        for player, queue in host.queues.items():
            print(f"input of {player}: {queue.skipped} frames skipped, {queue.starved} steps held")
        example = host.example
        if not summarised and example is not None and example.summary is not None:
            print(example.summary(host.world))
    return status or (INTERRUPTED if args.stop() else 0)


def _join(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """Play in a match: a trace headless with --trace, in the headset with --vr, else the
    preview window."""
    from playspace.net import DEFAULT_ENDPOINT, Client, Impairment, Network, play

    if args.vr and args.trace is not None:
        parser.error("--vr plays from the headset: drop --trace")
    if args.drive is not None and not args.vr:
        parser.error("--drive feeds the headset's runtime: add --vr")

    impairment = None
    if args.impair is not None:
        try:
            delay, loss = (float(part) for part in args.impair.split(","))
        except ValueError:
            parser.error(f"--impair expects MS,LOSS (150,0.1), got {args.impair!r}")
        impairment = Impairment(delay / 1000.0, loss, args.seed)
    network = Network(args.session, args.listen or [], args.connect or [DEFAULT_ENDPOINT])
    client = Client(network, args.player, impairment)
    try:
        client.wait_for_host()
        print(f"joined session {args.session!r} as {args.player}", flush=True)
        if args.vr:
            options = {
                "seconds": args.seconds,
                "fixed_hz": args.fixed_hz,
                "seed": args.seed,
                "drive": args.drive,
                "stop": args.stop,
                "plugins": [client.plugin],
            }
            status = _headset("playspace join", args.scene, args.gl, args.quality, options)
            if status != 0:
                return status
        elif args.trace is None:
            if not _has_display():
                print("playspace join: no display for the preview; add --trace", file=sys.stderr)
                return 2
            from playspace.loops.preview import preview

            preview(args.scene, fixed_hz=args.fixed_hz, seed=args.seed, plugins=[client.plugin],
                    seconds=args.seconds, stop=args.stop)  # fmt: skip
        else:
            play(client, args.scene, args.trace, seconds=args.seconds, fixed_hz=args.fixed_hz,
                 seed=args.seed, stop=args.stop)  # fmt: skip
        events = sum(len(step.events) for step in client.events)
        print(f"sent {client.sent} bytes of input; {events} events from the host")
        print(f"host: {client.remote.score or 'no score'}")
    finally:
        client.close()
    return INTERRUPTED if args.stop() else 0


def main(argv: Sequence[str] | None = None) -> int:
    """The command. Ctrl-C, SIGTERM and SIGHUP are noted (:mod:`playspace.stopping`) and each
    run stops at its next step or frame, keeping what it wrote: one line, exit status 130. A
    KeyboardInterrupt that gets through all the same (before a run starts) is that line too."""
    stop = StopRequest()
    try:
        with stop.installed():
            return _main(argv, stop)
    except BrokenPipeError:  # `playspace ... | head`: the reader has all it wanted
        return _reader_left()
    except KeyboardInterrupt as interrupt:
        said = f" {interrupt}" if str(interrupt) else ""
        print(f"playspace: interrupted{said}", file=sys.stderr)
        return INTERRUPTED


def _demo(args: argparse.Namespace, stop: StopRequest) -> int:
    """The kitchen in the preview window when there is a display, else replayed headless; a
    display that opens no window (a stale $DISPLAY, a server without GL) falls back to the
    headless replay and says so."""
    from playspace import demo

    def headless() -> int:
        try:
            print(
                demo.run(args.out or Path("playspace-demo"), render=not args.no_render, stop=stop)
            )
        except demo.DemoError as error:
            print(f"playspace demo: {error}", file=sys.stderr)
            return 2
        except OSError as error:
            return _os_error("playspace demo", error)
        return 0

    def no_window(reason: str) -> int:
        print(f"playspace demo: {reason}; replaying it headless instead", file=sys.stderr)
        return headless()

    if _has_display() and not (args.headless or args.no_render or args.out is not None):
        return _preview(_demo_preview(demo.KITCHEN, stop), args.usage, no_window)
    return headless()


def _main(argv: Sequence[str] | None, stop: StopRequest) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    args.stop = stop
    parser = getattr(args, "usage", parser)  # the command's own parser, for its usage
    if args.command == "demo":
        return _demo(args, stop)
    if args.command == "validate":
        from playspace.scene import SceneError, load_scene

        status = 0
        for file in args.files:
            try:
                scene = load_scene(file)
                print(f"{file}: ok ({scene.summary()})")
                for warning in scene.warnings():
                    print(f"{file}: warning: {warning}", file=sys.stderr)
            except SceneError as error:
                print(error, file=sys.stderr)
                status = 2
        return status
    if args.command == "run":
        try:
            return _run(args, parser)
        except _Refused as refused:
            print(f"playspace run: {printable(str(refused))}", file=sys.stderr)
            return 2
    if args.command in ("host", "join"):
        from playspace.app import TargetError
        from playspace.net import NetError
        from playspace.scene import SceneError
        from playspace.systems.input import TraceError

        try:
            return _host(args, parser) if args.command == "host" else _join(args, parser)
        except (NetError, SceneError, TargetError, TraceError) as error:
            print(f"playspace {args.command}: {error}", file=sys.stderr)
            return 2
        except OSError as error:
            return _os_error(f"playspace {args.command}", error)
    if args.command == "plot":
        from playspace.plot import PlotError, plot_telemetry

        try:
            plot_telemetry(args.telemetry, args.out, args.scene)
        except PlotError as error:
            print(f"playspace plot: {error}", file=sys.stderr)
            return 2
        print(f"{args.out}: head and floor heights, the path from above, release speeds")
        return 0
    if args.command == "doctor":
        from playspace.doctor import doctor_report

        print("\n".join(doctor_report(_gl_probe)))
        return 0
    parser.print_help()
    return 0


if __name__ == "__main__":
    sys.exit(main())
