"""The ``playspace`` command: one module a subcommand, each with ``add(commands)``, which
declares its options, and ``handle(args, parser)``, which runs it and returns the exit status.
A subcommand imports what it runs when it runs, so ``playspace --help`` loads none of it."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from playspace import __version__
from playspace.cli import (
    certs,
    demo,
    doctor,
    drive,
    host,
    join,
    new,
    plot,
    relay,
    run,
    validate,
)
from playspace.cli.common import reader_left, system_failed
from playspace.loops.stopping import INTERRUPTED, StopRequest

SUBCOMMANDS = (demo, run, validate, host, join, relay, certs, doctor, plot, drive, new)


def parser() -> argparse.ArgumentParser:
    """The command's parser, with every subcommand's."""
    made = argparse.ArgumentParser(
        prog="playspace",
        description="An entity-component-system runtime for VR games.",
    )
    made.add_argument("--version", action="version", version=f"playspace {__version__}")
    commands = made.add_subparsers(dest="command", metavar="COMMAND")
    for subcommand in SUBCOMMANDS:
        subcommand.add(commands)
    return made


def main(argv: Sequence[str] | None = None) -> int:
    """The command. Ctrl-C, SIGTERM and SIGHUP are noted (:mod:`playspace.loops.stopping`) and
    each run stops at its next step or frame, keeping what it wrote: one line, exit status 130.
    A KeyboardInterrupt that gets through all the same (before a run starts) is that line too.
    A game's system that raises is one line too, naming it, exit status 1 (``--debug``: its
    traceback)."""
    stop = StopRequest()
    try:
        with stop.installed():
            return _main(argv, stop)
    except BrokenPipeError:  # `playspace ... | head`: the reader has all it wanted
        return reader_left()
    except KeyboardInterrupt as interrupt:
        said = f" {interrupt}" if str(interrupt) else ""
        print(f"playspace: interrupted{said}", file=sys.stderr)
        return INTERRUPTED


def _main(argv: Sequence[str] | None, stop: StopRequest) -> int:
    made = parser()
    args = made.parse_args(argv)
    args.stop = stop
    handler = getattr(args, "handler", None)
    if handler is None:
        made.print_help()
        return 0
    try:
        status: int = handler(args, args.usage)  # the command's own parser, for its usage
    except RuntimeError as error:  # a SystemFailed is one; a run has loaded its module
        from playspace.ecs import SystemFailed

        if not isinstance(error, SystemFailed):
            raise
        return system_failed(f"playspace {args.command}", error, getattr(args, "debug", False))
    return status
