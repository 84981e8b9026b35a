"""``playspace drive TRACE``: play a trace into Monado's remote driver from this process, for
an OpenXR application that is already running (``playspace run --vr --drive`` does it for its
own run)."""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path
from typing import Any

PORT = 4242  # playspace.xr.monado.PORT, named here so the parser loads nothing of OpenXR's


def add(commands: Any) -> None:
    drive = commands.add_parser(
        "drive",
        help="play a trace into Monado's remote driver (P_OVERRIDE_ACTIVE_CONFIG=remote), for "
        "an OpenXR application that is already running",
    )
    drive.add_argument("trace", type=Path, metavar="TRACE", help="a trace file (v1 or v2)")
    drive.add_argument(
        "--start-delay",
        type=float,
        default=0.0,
        metavar="S",
        help="seconds between connecting and starting the trace's clock (the first sample is "
        "held meanwhile); start it when the application is focused",
    )
    drive.add_argument("--port", type=int, default=PORT, help=f"the driver's port ({PORT})")
    drive.add_argument(
        "--connect-seconds",
        type=float,
        default=30.0,
        metavar="S",
        help="how long to wait for the runtime's driver (30)",
    )
    drive.set_defaults(handler=handle, usage=drive)


def handle(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from playspace.formats.trace import TraceError, load_trace
    from playspace.loops.drive import trace_driver

    if not (math.isfinite(args.start_delay) and args.start_delay >= 0):
        parser.error(f"--start-delay must be a number >= 0, got {args.start_delay}")
    try:
        trace = load_trace(args.trace)
    except TraceError as error:
        print(error, file=sys.stderr)
        return 2
    driver = trace_driver(trace, port=args.port, connect_seconds=args.connect_seconds)
    driver.start()
    try:
        while not driver.connected.wait(0.1):
            if not driver.running:
                print(f"playspace drive: {driver.error}", file=sys.stderr)
                return 1
        print(f"playspace drive: connected to 127.0.0.1:{args.port}", file=sys.stderr)
        time.sleep(args.start_delay)
        driver.start_clock()
        print(f"playspace drive: playing {args.trace} ({trace.duration:.2f} s)", file=sys.stderr)
        # until a packet at the trace's end went: its last pose is where the player stays
        while driver.running and (driver.last_time or 0.0) < trace.duration and not args.stop():
            time.sleep(0.01)
    finally:
        driver.stop()
    print(
        f"playspace drive: sent {driver.sent} packets, up to {driver.last_time or 0.0:.2f} s"
        + (f"; {driver.error}" if driver.error else ""),
        file=sys.stderr,
    )
    return 1 if driver.error else 0
