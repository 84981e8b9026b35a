"""``playspace validate``: check scene files without running them; every problem, one a line."""

from __future__ import annotations

import argparse
import sys
from typing import Any


def add(commands: Any) -> None:
    validate = commands.add_parser(
        "validate", help="check scene files; exit 2 listing every problem if any is bad"
    )
    validate.add_argument("files", nargs="+", metavar="FILE", help="a scene file (TOML)")
    validate.set_defaults(handler=handle, usage=validate)


def handle(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from playspace.formats.scene import SceneError, load_scene

    status = 0
    for file in args.files:
        try:
            scene = load_scene(file)
            print(f"{file}: ok ({scene.summary()})")
            for warning in scene.warnings():
                print(f"{file}: warning: {warning}", file=sys.stderr)
        except SceneError as error:
            print(error, file=sys.stderr)
            status = 2
    return status
