"""What ``playspace host`` and ``join`` share: the network of a match from their options, and
a match's failures said in one line."""

from __future__ import annotations

import argparse
import ipaddress
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from playspace.cli.common import QUALITY_NAMES, add_debug, os_error

if TYPE_CHECKING:
    from playspace.net import Network, Tls


def match_network(
    args: argparse.Namespace,
    parser: argparse.ArgumentParser,
    listen: list[str],
    connect: list[str],
) -> Network:
    """The network ``host`` or ``join`` was given: its endpoints (`listen` and `connect` when
    none; with ``--relay`` that one only, as a Zenoh client), TLS when all three ``--tls-*``
    files are given (one or two is an error), the match's password from ``--password-file``,
    the players' tokens from ``--tokens`` (a host), and this end's own token from
    ``--token-file`` (a player's, its name the token's; a host's for a relay, its session's)."""
    from playspace.net import NetError, Network
    from playspace.net.certs import read_tokens

    mode = "peer"
    if args.relay is not None:
        if args.listen or args.connect:
            parser.error("--relay is where this end connects: drop --listen and --connect")
        mode, listen, connect = "client", [], [args.relay]
    tls = secured(args, parser, [*(args.listen or listen), *(args.connect or connect)])
    password = None
    if args.password_file is not None:
        password = _first_line(args.password_file, "--password-file", parser)
    user, tokens = "", None
    try:
        if args.token_file is not None:
            user = args.session if args.hosting else args.player
            password = _first_line(args.token_file, "--token-file", parser)
        if getattr(args, "tokens", None) is not None:
            tokens = read_tokens(args.tokens)
        endpoints = (args.listen or listen, args.connect or connect)
        return Network(args.session, *endpoints, tls, password, user, tokens, mode)
    except NetError as error:
        parser.error(str(error))
    except OSError as error:
        parser.error(f"--tokens {args.tokens}: {error.strerror}")


def secured(
    args: argparse.Namespace, parser: argparse.ArgumentParser, endpoints: list[str]
) -> Tls | None:
    """TLS when all three ``--tls-*`` files are given (one or two is an error), else None;
    a usage error when a plain one of `endpoints` reaches past this machine without
    ``--plain``: across machines a match (and its relay) runs encrypted."""
    from playspace.net import Tls

    files = (args.tls_ca, args.tls_cert, args.tls_key)
    tls = None
    if any(files):
        if not all(files):
            parser.error("--tls-ca, --tls-cert and --tls-key go together: give all three")
        tls = Tls(*files)
    beyond = [e for e in endpoints if _exposed(e)]
    if beyond and tls is None and not args.plain:
        parser.error(
            f"{', '.join(beyond)} reaches beyond this machine unencrypted: across machines a "
            "match runs over TLS (playspace certs makes the certificates; give --tls-ca, "
            "--tls-cert, --tls-key and tls/HOST:PORT endpoints), or add --plain on a network "
            "you trust"
        )
    return tls


def _first_line(path: Path, option: str, parser: argparse.ArgumentParser) -> str:
    """The secret on `path`'s first line (kept off the command line, where others see it)."""
    try:
        return path.read_text(encoding="utf-8").splitlines()[0].strip()
    except (OSError, UnicodeDecodeError, IndexError) as error:
        parser.error(f"{option} {path}: no secret on its first line ({error})")


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


def add_match_options(side: argparse.ArgumentParser, *, hosting: bool) -> None:
    """The options ``host`` and ``join`` share: the match, the network, the headset; and the
    players' tokens (a host's, `hosting`), and this end's own token."""
    side.set_defaults(hosting=hosting)
    side.add_argument("--session", default="playspace", help="the match's name (playspace)")
    side.add_argument(
        "--listen", action="append", metavar="ENDPOINT",
        help="a Zenoh endpoint to listen on (host default: tcp/127.0.0.1:7447)",
    )  # fmt: skip
    side.add_argument(
        "--connect", action="append", metavar="ENDPOINT",
        help="a Zenoh endpoint to connect to (join default: tcp/127.0.0.1:7447)",
    )  # fmt: skip
    add_security_options(side)
    side.add_argument(
        "--password-file", type=Path, metavar="FILE",
        help="the match's password, the first line of FILE (not on the command line, where "
        "others see it): every end must know it",
    )  # fmt: skip
    side.add_argument(
        "--relay", metavar="ENDPOINT",
        help="meet through the relay at ENDPOINT (playspace relay) instead of --listen and "
        "--connect: hosts and players behind NAT reach each other there",
    )  # fmt: skip
    if hosting:
        side.add_argument(
            "--tokens", type=Path, metavar="FILE",
            help="let in only the players named in FILE (NAME:TOKEN a line; playspace certs "
            "writes it), each proving its token, each kept to its own keys",
        )  # fmt: skip
    side.add_argument(
        "--token-file", type=Path, metavar="FILE",
        help="this end's token, its first line: a player's (NAME.token) for a host or relay "
        "given --tokens; a host's (SESSION.host-token) for a relay given --hosts",
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


def add_security_options(side: argparse.ArgumentParser) -> None:
    """The ``--tls-*`` files and ``--plain`` (read by :func:`secured`): a match's, a relay's."""
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
