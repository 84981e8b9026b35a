"""What the ``playspace`` subcommands share: their exit statuses and messages, the display
check, and running a target in the headset."""

from __future__ import annotations

import argparse
import contextlib
import ipaddress
import os
import sys
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from playspace.formats.quoting import clipped
from playspace.loops.outputs import LineStream
from playspace.loops.stopping import INTERRUPTED

if TYPE_CHECKING:  # a command that runs no world loads no ecs
    from playspace.ecs import SystemFailed
    from playspace.net import Network

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


def match_network(
    args: argparse.Namespace,
    parser: argparse.ArgumentParser,
    listen: list[str],
    connect: list[str],
) -> Network:
    """The network ``host`` or ``join`` was given: its endpoints (`listen` and `connect` when
    none), TLS when all three ``--tls-*`` files are given (one or two is an error), the
    match's password from ``--password-file``."""
    from playspace.net import NetError, Network, Tls

    files = (args.tls_ca, args.tls_cert, args.tls_key)
    tls = None
    if any(files):
        if not all(files):
            parser.error("--tls-ca, --tls-cert and --tls-key go together: give all three")
        tls = Tls(*files)
    beyond = [e for e in (*(args.listen or listen), *(args.connect or connect)) if _exposed(e)]
    if beyond and tls is None and not args.plain:
        parser.error(
            f"{', '.join(beyond)} reaches beyond this machine unencrypted: across machines a "
            "match runs over TLS (playspace certs makes the certificates; give --tls-ca, "
            "--tls-cert, --tls-key and tls/HOST:PORT endpoints), or add --plain on a network "
            "you trust"
        )
    password = None
    if args.password_file is not None:
        try:
            password = args.password_file.read_text(encoding="utf-8").splitlines()[0].strip()
        except (OSError, UnicodeDecodeError, IndexError) as error:
            parser.error(f"--password-file {args.password_file}: no password in it ({error})")
    try:
        endpoints = (args.listen or listen, args.connect or connect)
        return Network(args.session, *endpoints, tls, password)
    except NetError as error:
        parser.error(str(error))


def _exposed(endpoint: str) -> bool:
    """Whether a Zenoh endpoint is plain and reaches past this machine (not loopback)."""
    kind, _, where = endpoint.partition("/")
    if kind in ("tls", "quic", "unixsock-stream"):
        return False
    host = where.rsplit(":", 1)[0].strip("[]")
    if host == "localhost":
        return False
    try:
        return not ipaddress.ip_address(host).is_loopback
    except ValueError:
        return True  # a name: somewhere else


def add_match_options(side: argparse.ArgumentParser) -> None:
    """The options ``host`` and ``join`` share: the match, the network, the headset."""
    side.add_argument("--session", default="playspace", help="the match's name (playspace)")
    side.add_argument(
        "--listen", action="append", metavar="ENDPOINT",
        help="a Zenoh endpoint to listen on (host default: tcp/127.0.0.1:7447)",
    )  # fmt: skip
    side.add_argument(
        "--connect", action="append", metavar="ENDPOINT",
        help="a Zenoh endpoint to connect to (join default: tcp/127.0.0.1:7447)",
    )  # fmt: skip
    for option, what in (
        ("--tls-ca", "the party's certificate authority (ca.pem)"),
        ("--tls-cert", "this end's certificate (host.pem, or the player's NAME.pem)"),
        ("--tls-key", "this end's private key (host.key, NAME.key)"),
    ):
        side.add_argument(
            option, type=Path, metavar="FILE",
            help=f"mutual TLS ({what}; all three, endpoints tls/HOST:PORT; playspace certs "
            "makes them)",
        )  # fmt: skip
    side.add_argument(
        "--plain", action="store_true",
        help="allow a plain (unencrypted) endpoint that reaches beyond this machine, on a "
        "network you trust; without it such a match needs --tls-*",
    )  # fmt: skip
    side.add_argument(
        "--password-file", type=Path, metavar="FILE",
        help="the match's password, the first line of FILE (not on the command line, where "
        "others see it): every end must know it",
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
    add_debug(side)


def in_a_match(command: str, run: Callable[[], int]) -> int:
    """`run` a host or a player of a match; what stops it before it starts (the network, the
    scene, the game, a trace, a file) said in one line: exit 2."""
    from playspace.app import TargetError
    from playspace.formats.scene import SceneError
    from playspace.net import NetError
    from playspace.systems.input import TraceError

    try:
        return run()
    except (NetError, SceneError, TargetError, TraceError) as error:
        print(f"{command}: {error}", file=sys.stderr)
        return 2
    except OSError as error:
        return os_error(command, error)
