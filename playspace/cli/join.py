"""``playspace join``: play in a networked match, your rig local, your input sent to the host."""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from playspace.cli.common import (
    add_audio_device,
    has_display,
    headset,
)
from playspace.cli.match import add_match_options, in_a_match, match_network
from playspace.loops.stopping import INTERRUPTED

if TYPE_CHECKING:
    from playspace.net.client import Client, Standing


def add(commands: Any) -> None:
    join = commands.add_parser(
        "join", help="join a networked match: play your rig locally, send your input to the host"
    )
    join.set_defaults(handler=handle, usage=join)
    join.add_argument(
        "scene", type=Path, metavar="TARGET", nargs="?",
        help="the host's scene or example (not with --list)",
    )  # fmt: skip
    join.add_argument(
        "--list", action="store_true",
        help="list the matches reachable through --connect (a relay or a host) and exit",
    )  # fmt: skip
    join.add_argument("--player", default="player", help="your name in the match (player)")
    join.add_argument(
        "--id", metavar="ID",
        help="this client's id (16 hex digits; default: a new one, said when you join): the "
        "id of a client that dropped takes its own seat again within 30 s",
    )  # fmt: skip
    join.add_argument(
        "--trace", type=Path, metavar="FILE", help="play this trace headless instead of the preview"
    )
    join.add_argument(
        "--watch", action="store_true",
        help="watch as a spectator: no seat, no input sent; the match drawn around the stage",
    )  # fmt: skip
    join.add_argument(
        "--impair",
        metavar="MS,LOSS",
        help="for tests: delay each message up to MS ms (input and state dropped at the "
        "fraction LOSS; events, sent reliably, only delayed); or internet-100 or "
        "internet-200: those round trips, 30 ms jitter, 5%% lost in bursts",
    )
    add_audio_device(join)
    add_match_options(join, hosting=False)


def handle(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    if args.list:
        if args.scene is not None:
            parser.error("--list lists the matches: drop TARGET")
        return in_a_match("playspace join --list", lambda: _list(args, parser))
    if args.scene is None:
        parser.error("TARGET is required: the host's scene or example (or --list the matches)")
    return in_a_match("playspace join", lambda: _join(args, parser))


def _list(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """Print each match the network reaches, one a line, and how many answers were not a
    lobby's; the network's failures are one line (exit 2), an empty lobby is not one."""
    from playspace.net import DEFAULT_ENDPOINT
    from playspace.net.lobby import list_matches

    listing = list_matches(match_network(args, parser, [], [DEFAULT_ENDPOINT]))
    for match in listing.matches:
        print(match)
    skipped = f"; {listing.skipped} answers not a lobby's, skipped" if listing.skipped else ""
    print(f"{len(listing.matches)} matches{skipped}")
    return 0


def _joined(session: str, player: str, standing: Standing, client: str) -> str:
    """The line that says the player is in the match as which client (its id takes its seat
    again after a drop: ``--id``), and whether they have a seat: a joiner past the host's
    seats plays on, unseen, until one is free."""
    said = f"joined session {session!r} as {player} (client {client})"
    if standing.number is not None:
        return f"{said}, seated: player {standing.number}"
    if standing.place is not None:
        return (
            f"{said}, without a seat: every seat is taken; you wait for one, number "
            f"{standing.place} in the queue"
        )
    return f"{said}; the host has not said whether you have a seat"


def _watching(session: str, player: str, client: Client) -> str:
    """The line that says a spectator is in: it takes no seat and sends nothing."""
    seated = sorted((client.remote.seated or {}).values())
    who = ", ".join(seated) if seated else "nobody yet"
    return f"watching session {session!r} as {player} (client {client.id}): seated {who}"


def _join(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """Play in a match: a trace headless with --trace, in the headset with --vr, else the
    preview window."""
    from playspace.net import DEFAULT_ENDPOINT, Client, Impairment, NetError, play
    from playspace.net.client import PROFILES

    if args.vr and args.trace is not None:
        parser.error("--vr plays from the headset: drop --trace")
    if args.drive is not None and not args.vr:
        parser.error("--drive feeds the headset's runtime: add --vr")
    if args.audio_device is not None and args.trace is not None:
        parser.error("--audio-device is for the preview window and --vr: --trace plays silent")

    impairment = None
    if args.impair in PROFILES:
        impairment = replace(PROFILES[args.impair], seed=args.seed)
    elif args.impair is not None:
        try:
            delay, loss = (float(part) for part in args.impair.split(","))
        except ValueError:
            parser.error(
                f"--impair expects MS,LOSS (150,0.1) or one of {', '.join(PROFILES)}, "
                f"got {args.impair!r}"
            )
        impairment = Impairment(delay / 1000.0, loss, args.seed)
    network = match_network(args, parser, [], [DEFAULT_ENDPOINT])
    say = lambda line: print(line, flush=True)  # noqa: E731 - the client's voice
    try:
        client = Client(
            network, args.player, impairment, say=say, client_id=args.id, observer=args.watch
        )
    except NetError as error:
        parser.error(str(error))
    try:
        client.wait_for_host()
        if args.watch:
            print(_watching(args.session, args.player, client), flush=True)
        elif (standing := client.wait_for_seat()).refused:
            print(
                f"playspace join: another client plays as {args.player} in session "
                f"{args.session!r}: choose another name (--player)",
                file=sys.stderr,
            )
            return 2
        else:
            print(_joined(args.session, args.player, standing, client.id), flush=True)
        if args.vr:
            options = {
                "seconds": args.seconds,
                "fixed_hz": args.fixed_hz,
                "seed": args.seed,
                "drive": args.drive,
                "stop": args.stop,
                "plugins": [client.plugin],
                "audio_device": args.audio_device,
            }
            status = headset("playspace join", args.scene, args.gl, args.quality, options)
            if status != 0:
                return status
        elif args.trace is None:
            if not has_display():
                print("playspace join: no display for the preview; add --trace", file=sys.stderr)
                return 2
            from playspace.loops.preview import preview

            preview(args.scene, fixed_hz=args.fixed_hz, seed=args.seed, plugins=[client.plugin],
                    seconds=args.seconds, stop=args.stop,
                    audio_device=args.audio_device)  # fmt: skip
        else:
            play(client, args.scene, args.trace, seconds=args.seconds, fixed_hz=args.fixed_hz,
                 seed=args.seed, stop=args.stop)  # fmt: skip
        events = sum(len(step.events) for step in client.events)
        print(f"sent {client.sent} bytes of input; {events} events from the host")
        print(f"host: {client.remote.score or 'no score'}")
    finally:
        client.close()
    return INTERRUPTED if args.stop() else 0
