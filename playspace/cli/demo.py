"""``playspace demo``: the kitchen, played in the preview window or replayed headless from its
trace, said in a few lines.

It is the first thing a VR developer runs: the rig, slope quantization's floor snaps, grabbing,
the held-object layers (a pan that ghosts inside a wall and cannot hit the bee behind it),
hits on a bee, throwing. With a display it opens ``examples/kitchen.py`` in the preview window
and says what to do there and with which keys (the window's own help line); without one it
replays the kitchen's trace headless, writes a screenshot (when GL can be had) and telemetry.
Either way it ends saying what happened, counted in the world as it ran.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from playspace.cli.common import add_audio_device, add_debug, has_display, os_error
from playspace.loops.stopping import INTERRUPTED, StopRequest

if TYPE_CHECKING:
    from playspace.loops.preview import PreviewRun
    from playspace.render.capture import Capture
    from playspace.systems.telemetry import Tally

NAMED = "the kitchen (BeeBeeQ)"


def add(commands: Any) -> None:
    demo = commands.add_parser(
        "demo",
        help="play the kitchen example (in a window when there is a display) and say what happened",
    )
    demo.add_argument(
        "--out", type=Path, default=None, help="where to write (playspace-demo/); implies headless"
    )
    demo.add_argument("--no-render", action="store_true", help="no screenshot, simulate only")
    demo.add_argument(
        "--headless", action="store_true", help="replay the trace even when there is a display"
    )
    add_debug(demo)
    add_audio_device(demo)
    demo.set_defaults(handler=handle, usage=demo)


def handle(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """The kitchen in the preview window when there is a display, else replayed headless; a
    display that opens no window (a stale $DISPLAY, a server without GL) falls back to the
    headless replay and says so."""
    stop: StopRequest = args.stop
    if args.audio_device is not None and (args.headless or args.no_render or args.out):
        parser.error("--audio-device is for the preview window: the headless replay is silent")

    def headless() -> int:
        try:
            print(run(args.out or Path("playspace-demo"), render=not args.no_render, stop=stop))
        except DemoError as error:
            print(f"playspace demo: {error}", file=sys.stderr)
            return 2
        except OSError as error:
            return os_error("playspace demo", error)
        except KeyboardInterrupt as interrupt:
            print(f"playspace demo: interrupted {interrupt}", file=sys.stderr)
            return INTERRUPTED
        return 0

    def no_window(reason: str) -> int:
        print(f"playspace demo: {reason}; replaying it headless instead", file=sys.stderr)
        return headless()

    if has_display() and not (args.headless or args.no_render or args.out is not None):
        from playspace.cli import parser as command_parser
        from playspace.cli.run import preview

        device = [] if args.audio_device is None else ["--audio-device", args.audio_device]
        kitchen = command_parser().parse_args(["run", str(KITCHEN), *device])
        kitchen.stop = stop
        return preview(
            kitchen, parser, no_window, command="playspace demo", announce=_plays,
            report=_played,
        )  # fmt: skip
    return headless()


def _plays(keys: str) -> None:
    """What the window plays, what to do in it and the window's keys (its help line, made from
    the simulator's bindings), once it is open."""
    from playspace.systems.input.simulator import GRIP
    from playspace.systems.input.simulator import keys as key_names

    print(
        f"playspace demo: {NAMED} in the preview window: grab the pan (hold "
        f"{key_names(*GRIP)}), hit a bee with it, let go mid-swing to throw it; a pan pushed "
        "into a wall ghosts and cannot hit a bee through it",
        flush=True,
    )
    print(f"keys: {keys}", flush=True)


def _played(window: PreviewRun) -> list[str]:
    """What the window's run did, as the headless replay says it."""
    steps = window.steps
    lines = [
        f"playspace demo: {NAMED}, {steps} fixed steps ({steps / 90:.2f} s) played in the window"
    ]
    if window.tally is not None:
        lines.append(happened(window.tally))
    if window.summary is not None:
        lines.append(window.summary)
    return lines


def _examples() -> Path:
    """The examples: beside the package in a clone, else where an install put them."""
    beside = Path(__file__).resolve().parents[2] / "examples"
    if beside.is_dir():
        return beside
    return Path(sys.prefix) / "share" / "playspace" / "examples"


KITCHEN = _examples() / "kitchen.py"


class DemoError(RuntimeError):
    """The demo cannot run here (its example files are not beside the package)."""


def run(out: Path, render: bool = True, stop: Callable[[], bool] | None = None) -> str:
    """Replay the kitchen into `out` (telemetry, and a screenshot when `render`); report it.
    KeyboardInterrupt when `stop` ended it early (the telemetry written is kept)."""
    from playspace.loops.outputs import LineStream
    from playspace.loops.replay import run_headless

    if not KITCHEN.is_file():
        raise DemoError(
            f"the demo's example is not at {KITCHEN}: reinstall playspace, or run it from a "
            f"clone of the repository"
        )
    out.mkdir(parents=True, exist_ok=True)
    telemetry = out / "kitchen-telemetry.jsonl"
    screenshot = out / "kitchen.png"
    capture, picture = _capture(screenshot) if render else (None, "not drawn (--no-render)")
    try:
        with LineStream(telemetry) as stream:
            replayed = run_headless(KITCHEN, None, stream, after_step=capture, stop=stop)
    finally:
        if capture is not None:
            capture.release()
    if replayed.interrupted:
        raise KeyboardInterrupt(f"after {replayed.steps} steps; telemetry so far in {telemetry}")
    steps = replayed.steps
    lines = [
        f"playspace demo: {NAMED}, {steps} fixed steps ({steps / 90:.2f} s) "
        f"replayed headless from {KITCHEN.parent.name}/traces/kitchen.jsonl",
        happened(replayed.tally),
    ]
    summary = replayed.summary()
    if summary is not None:
        lines.append(summary)
    lines.append(f"telemetry: {telemetry}")
    lines.append(f"screenshot: {picture}")
    return "\n".join(lines)


def _capture(path: Path) -> tuple[Capture | None, str]:
    """A capture of the last step, or why there cannot be one (no GL here: said, not fatal).
    From a spectator behind the player, lit at high quality (one frame): the player's own eye
    at the end of the kitchen's trace sees only the pantry wall."""
    from playspace.render.cameras import camera_named
    from playspace.render.capture import Capture
    from playspace.render.context import GLUnavailableError

    try:
        return Capture(path, None, 1, camera=camera_named("spectator"), quality="high"), str(path)
    except GLUnavailableError as error:
        return None, f"none ({error})"


def happened(tally: Tally) -> str:
    """What the kitchen shows off, counted in the world as it ran (the window's run or the
    trace's replay): grabs, throws, hits on the bees, floor snaps, ghosted steps."""
    counts = tally.counts
    return (
        f"grabs {counts['grabbed']}, throws {tally.throws}, hits {counts['hit']}, "
        f"floor snaps {counts['floor_snapped']}, steps with a held object ghosted "
        f"{tally.ghost_steps}"
    )
