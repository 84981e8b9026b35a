"""``playspace validate``: check what ``playspace run`` takes without running it, every problem
one a line: a scene file (TOML), or a game module (``.py``), whose module must import and
define ``SCENE`` and ``build``, and whose scene (and trace, when it names one) must load."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from playspace.formats.scene import Scene


def add(commands: Any) -> None:
    validate = commands.add_parser(
        "validate",
        help="check scene files and game modules; exit 2 listing every problem if any is bad",
    )
    validate.add_argument(
        "files",
        nargs="+",
        metavar="FILE",
        help="a scene file (.toml) or a game module (.py), as playspace run takes",
    )
    validate.set_defaults(handler=handle, usage=validate)


def handle(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from playspace.app import TargetError
    from playspace.formats.scene import SceneError
    from playspace.systems.input import TraceError

    status = 0
    for file in args.files:
        try:
            said, scene, scene_file = _check(file)
        except (SceneError, TargetError, TraceError) as error:
            print(error, file=sys.stderr)
            status = 2
            continue
        print(f"{file}: ok ({said})")
        for warning in scene.warnings():
            print(f"{scene_file}: warning: {warning}", file=sys.stderr)
    return status


def _check(file: str) -> tuple[str, Scene, str]:
    """What `file` holds, in a few words; its scene, and the scene's file (what the scene's
    warnings are about). Raises what loading the file, or a game's scene or trace, raises."""
    from playspace.app.game import load_example
    from playspace.formats.scene import load_scene
    from playspace.systems.input import load_trace

    if not file.endswith(".py"):
        scene = load_scene(file)
        return scene.summary(), scene, file
    game = load_example(Path(file))
    scene = load_scene(game.scene)
    said = f"game {game.name!r}; scene {game.scene}: {scene.summary()}"
    if game.trace is not None:
        said += f"; trace {game.trace}: {load_trace(game.trace).duration:.2f} s"
    return said, scene, str(game.scene)
