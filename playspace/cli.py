"""The ``playspace`` command."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from playspace import __version__


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="playspace",
        description="An entity-component-system runtime for VR games.",
    )
    parser.add_argument("--version", action="version", version=f"playspace {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    demo = commands.add_parser("demo", help="run a tiny world headless and say what happened")
    demo.add_argument("--seconds", type=float, default=3.0, help="how long to run (default 3)")
    demo.add_argument("--seed", type=int, default=0, help="seed of the frame-time jitter")
    validate = commands.add_parser(
        "validate", help="check scene files; exit 2 listing every problem if any is bad"
    )
    validate.add_argument("files", nargs="+", metavar="FILE", help="a scene file (TOML)")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if args.command == "demo":
        from playspace import demo

        if not 0 < args.seconds < 3600:
            parser.error(f"--seconds must be between 0 and 3600, got {args.seconds}")
        print(demo.run(args.seconds, args.seed))
        return 0
    if args.command == "validate":
        from playspace.scene import SceneError, load_scene

        status = 0
        for file in args.files:
            try:
                print(f"{file}: ok ({load_scene(file).summary()})")
            except SceneError as error:
                print(error, file=sys.stderr)
                status = 2
        return status
    parser.print_help()
    return 0


if __name__ == "__main__":
    sys.exit(main())
