"""What the ``playspace`` subcommands share: their exit statuses and messages, the display
check, and running a target in the headset."""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import traceback
from pathlib import Path
from typing import TYPE_CHECKING, Any

from playspace.formats.quoting import clipped
from playspace.loops.outputs import LineStream
from playspace.loops.stopping import INTERRUPTED

if TYPE_CHECKING:  # a command that runs no world loads no ecs
    from playspace.ecs import SystemFailed

READER_LEFT = 128 + 13  # the exit status of a process that SIGPIPE ended
# playspace.render.cameras.CAMERAS and playspace.render.quality.QUALITY_NAMES, named here
# because importing render loads GL, which a headless run must not (a test checks that they
# agree)
CAMERAS = ("head", "spectator", "scene")
QUALITY_NAMES = ("auto", "low", "high", "ultra")


class Refused(Exception):
    """A run that cannot start for a reason other than its options' syntax: one line, exit 2
    (no usage: the options were well formed)."""


def os_error(command: str, error: OSError) -> int:
    """A file that could not be written or read, said in one line naming it: exit 2. A pipe
    whose reader left is no error of the run's: :func:`main` ends quietly."""
    if isinstance(error, BrokenPipeError):
        raise error
    print(f"{command}: {error.filename}: {error.strerror}", file=sys.stderr)
    return 2


def interrupted(telemetry: LineStream | None) -> int:
    """Ctrl-C (or SIGTERM, SIGHUP): one line saying how far the run got; exit 130."""
    kept = ""
    if telemetry is not None and telemetry.lines:
        kept = f"; telemetry of {telemetry.lines - 1} steps in {telemetry.name}"
    print(f"playspace run: interrupted{kept}", file=sys.stderr)
    return INTERRUPTED


LONGEST_FAILURE = 500  # characters of a failed system's line; --debug shows it all


def add_debug(command: argparse.ArgumentParser) -> None:
    """``--debug``, on the commands that run a world."""
    command.add_argument(
        "--debug",
        action="store_true",
        help="when a system fails, print its whole traceback instead of one line",
    )


def add_reload(command: argparse.ArgumentParser) -> None:
    """``--no-reload``, on the commands that run a game live."""
    command.add_argument(
        "--no-reload",
        action="store_true",
        help="do not apply the game's saved modules, scene and models while it runs "
        "(docs/live-development.md)",
    )


def add_audio_device(command: argparse.ArgumentParser) -> None:
    """``--audio-device``, on the commands that play sound live (a window or a headset)."""
    command.add_argument(
        "--audio-device",
        type=_device_name,
        metavar="NAME",
        help="play sound through the device of this name, such as a headset's own (playspace "
        "doctor lists them); else the system's default device",
    )


def _device_name(text: str) -> str:
    """A sound device's name (an argparse type): not empty."""
    if not text.strip():
        raise argparse.ArgumentTypeError(
            "expected a sound device's name (playspace doctor lists them)"
        )
    return text


def system_failed(command: str, failed: SystemFailed, debug: bool) -> int:
    """A system of the world raised: one line naming it, its line and the step (with `debug`,
    the whole traceback, the system's own exception first); exit 1. What the run wrote so far
    stays written. A pipe whose reader left while telemetry streamed into it is no failure:
    the run ends quietly, as :func:`main` ends it when the reader leaves elsewhere."""
    if isinstance(failed.error, BrokenPipeError):
        return reader_left()
    if debug:
        traceback.print_exception(failed)
    else:
        print(f"{command}: {clipped(str(failed), LONGEST_FAILURE)}", file=sys.stderr)
    return 1


def reader_left() -> int:
    """End quietly, as a Unix filter does when its reader leaves: no message, and the status
    a process ended by SIGPIPE has (141). Standard output now leads nowhere, so what Python
    still holds for it is dropped at exit instead of failing again."""
    with contextlib.suppress(OSError, ValueError):
        nowhere = os.open(os.devnull, os.O_WRONLY)
        os.dup2(nowhere, sys.stdout.fileno())
    return READER_LEFT


def has_display() -> bool:
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def at_least_one(text: str) -> int:
    """A whole number of at least 1 (an argparse type)."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of at least 1, got {text!r}")
    return value


def headset(
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
