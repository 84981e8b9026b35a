"""``playspace relay``: a Zenoh router that hosts and players behind NAT connect to, carrying
any number of matches and their lobby (docs/networking.md, "Across the internet")."""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

from playspace.cli.common import add_debug
from playspace.cli.match import add_security_options, in_a_match, secured


def add(commands: Any) -> None:
    relay = commands.add_parser(
        "relay", help="relay matches across the internet: hosts and players behind NAT meet here"
    )
    relay.set_defaults(handler=handle, usage=relay)
    relay.add_argument(
        "--listen", action="append", metavar="ENDPOINT",
        help="a Zenoh endpoint to listen on, repeatable (default: tcp/127.0.0.1:7447)",
    )  # fmt: skip
    add_security_options(relay)
    relay.add_argument(
        "--tokens", type=Path, metavar="FILE",
        help="let in only the players named in FILE (NAME:TOKEN a line; playspace certs "
        "writes it), each kept to its own keys in every match; needs --hosts",
    )  # fmt: skip
    relay.add_argument(
        "--hosts", type=Path, metavar="FILE",
        help="with --tokens: each match's host token (SESSION:TOKEN a line): its host proves "
        "it as the session's name and acts only within that session",
    )  # fmt: skip
    relay.add_argument("--seconds", type=float, help="stop after this long (default: Ctrl-C)")
    add_debug(relay)


def handle(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    return in_a_match("playspace relay", lambda: _relay(args, parser))


def _relay(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """Relay until --seconds, Ctrl-C or SIGTERM (a relay's normal end: exit 0)."""
    from playspace.net import DEFAULT_ENDPOINT
    from playspace.net.certs import read_tokens
    from playspace.net.relay import Relay

    listen = args.listen or [DEFAULT_ENDPOINT]
    tls = secured(args, parser, listen)
    tokens, hosts = (read_tokens(f) if f is not None else None for f in (args.tokens, args.hosts))
    relay = Relay(listen, tls, tokens, hosts)
    try:
        guarded = (
            f"; {len(tokens)} players' and {len(hosts)} matches' tokens" if tokens and hosts else ""
        )
        where = ", ".join(relay.listen)
        print(
            f"relaying on {where}{guarded}: hosts and players connect to it as Zenoh clients "
            f"(--connect {relay.listen[0]}), and playspace join --list --connect "
            f"{relay.listen[0]} lists its matches",
            flush=True,
        )
        end = None if args.seconds is None else time.monotonic() + args.seconds
        while not args.stop() and (end is None or time.monotonic() < end):
            time.sleep(0.05)
    finally:
        relay.close()
    return 0
