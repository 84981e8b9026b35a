"""``playspace plot``: comfort plots of a telemetry file (the ``plot`` extra: matplotlib)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any


def add(commands: Any) -> None:
    plot = commands.add_parser("plot", help="comfort plots of a telemetry file (plot extra)")
    plot.add_argument(
        "telemetry", type=Path, metavar="TELEMETRY", help="a telemetry file (v1 or v2)"
    )
    plot.add_argument("--out", type=Path, required=True, metavar="FILE.png", help="the PNG")
    plot.add_argument(
        "--scene",
        type=Path,
        metavar="SCENE.toml",
        help="the scene the run played: its walls and furniture are drawn under the path",
    )
    plot.set_defaults(handler=handle, usage=plot)


def handle(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from playspace.cli.telemetry_plot import PlotError, plot_telemetry

    try:
        panels = plot_telemetry(args.telemetry, args.out, args.scene)
    except PlotError as error:
        print(f"playspace plot: {error}", file=sys.stderr)
        return 2
    print(f"{args.out}: {', '.join(panels)}")
    return 0
