"""``playspace host``: the authoritative world of a networked match (docs/networking.md)."""

from __future__ import annotations

import argparse
import contextlib
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from playspace.cli.common import (
    add_audio_device,
    add_reload,
    at_least_one,
    has_display,
    headset,
)
from playspace.cli.match import add_match_options, in_a_match, match_network
from playspace.loops.outputs import LineStream
from playspace.loops.stopping import INTERRUPTED

if TYPE_CHECKING:
    from playspace.ecs import World


def add(commands: Any) -> None:
    host = commands.add_parser(
        "host", help="host a networked match: the authoritative world (docs/networking.md)"
    )
    host.set_defaults(handler=handle, usage=host)
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
    add_match_options(host, hosting=True)
    host.add_argument("--telemetry", type=Path, metavar="FILE", help="write telemetry (v2) here")
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
        "--state-every", type=at_least_one, default=1, metavar="K",
        help="send the state every K-th fixed step (1)",
    )  # fmt: skip
    host.add_argument(
        "--keyframe-every", type=at_least_one, default=90, metavar="N",
        help="every N-th state carries every moving body, the others those that moved (90)",
    )  # fmt: skip
    host.add_argument(
        "--budget", type=at_least_one, default=48_000, metavar="BYTES",  # net.host.DEFAULT_BUDGET
        help="bytes a second of state a client, at most (48000): the bodies that matter most "
        "to it go first (docs/networking.md, Sixteen players)",
    )  # fmt: skip
    host.add_argument(
        "--players", type=at_least_one, default=2, metavar="N",
        help="seats (2), the host's own with --play; a joiner past them waits for a free one",
    )  # fmt: skip
    add_reload(host)
    add_audio_device(host)


def handle(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    return in_a_match("playspace host", lambda: _host(args, parser))


def _host(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """The authoritative world of a match, until --seconds or Ctrl-C (with --play: also until
    the window is closed or the headset's session ends, or for the trace's length); who joined
    and left, and what was refused, said as it goes."""
    from playspace.net import DEFAULT_ENDPOINT, Host
    from playspace.systems.audio import AudioPlugin
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
    heard = args.play and args.trace is None  # the host's player, in the window or the headset
    if args.audio_device is not None and not heard:
        parser.error(
            "--audio-device is for a host that plays in the preview window or with --vr: add "
            "--play (without --trace, which plays silent)"
        )
    if args.play and not args.vr and args.trace is None and not has_display():
        print(
            "playspace host --play: no display for the preview; add --trace (or --vr)",
            file=sys.stderr,
        )
        return 2
    network = match_network(args, parser, [DEFAULT_ENDPOINT], [])
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
                name=args.player, reload=not (args.no_reload or args.vr), budget=args.budget,
                plugins=[AudioPlugin(output="device", device=args.audio_device)] if heard else [],
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
                "reload": not args.no_reload,  # the headset's loop applies the saves
            }
            status = headset("playspace host", args.scene, args.gl, args.quality, options)
            if not hosts:  # no session opened: run_vr said why
                return status
            host = hosts[0]
            steps = host.world.fixed_time.step  # after the run: the steps it ran
            summarised = True
        elif args.play and args.trace is None:
            from playspace.loops.preview import host_in_window
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
            late = f", {host.late[player]} after leaving" if host.late[player] else ""
            print(
                f"input of {player}: {queue.skipped} frames skipped, {queue.filled} lost "
                f"(each played as the motion between its neighbours), {queue.starved} steps held"
                f"{late}"
            )
        example = host.example
        if not summarised and example is not None and example.summary is not None:
            print(example.summary(host.world))
    return status or (INTERRUPTED if args.stop() else 0)
