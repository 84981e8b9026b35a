"""``playspace validate``: check what ``playspace run`` takes without running it, every problem
one a line: a scene file (TOML), or a game module (``.py``), whose module must import and
define ``SCENE`` and ``build``, and whose scene (and trace, when it names one) must load; or a
model (``.gltf``, ``.glb``), said as what its nodes become (drawn, colliders by hint, bodies),
with what it could not use as warnings."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any


def add(commands: Any) -> None:
    validate = commands.add_parser(
        "validate",
        help="check scene files and game modules; exit 2 listing every problem if any is bad",
    )
    validate.add_argument(
        "files",
        nargs="+",
        metavar="FILE",
        help="a scene file (.toml) or a game module (.py), as playspace run takes, or a model "
        "(.gltf, .glb)",
    )
    validate.set_defaults(handler=handle, usage=validate)


def handle(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from playspace.app import TargetError
    from playspace.formats.models import ModelError
    from playspace.formats.scene import SceneError
    from playspace.systems.input import TraceError

    status = 0
    for file in args.files:
        try:
            said, warnings = _check(file)
        except (SceneError, TargetError, TraceError, ModelError) as error:
            print(error, file=sys.stderr)
            status = 2
            continue
        print(f"{file}: ok ({said})")
        for warning in warnings:
            print(warning, file=sys.stderr)
    return status


def _check(file: str) -> tuple[str, list[str]]:
    """What `file` holds, in a few words, and its warnings, each naming its file. Raises what
    loading the file, or a game's scene or trace, raises."""
    from playspace.app.game import load_example
    from playspace.formats.models import MODEL_SUFFIXES, read_model
    from playspace.formats.scene import load_scene
    from playspace.systems.input import load_trace

    if Path(file).suffix.lower() in MODEL_SUFFIXES:
        model = read_model(Path(file))
        return model.summary(), [f"{file}: warning: {unused}" for unused in model.unused]
    if not file.endswith(".py"):
        scene = load_scene(file)
        return scene.summary(), [f"{file}: warning: {w}" for w in scene.warnings()]
    game = load_example(Path(file))
    scene = load_scene(game.scene)
    said = f"game {game.name!r}; scene {game.scene}: {scene.summary()}"
    if game.trace is not None:
        said += f"; trace {game.trace}: {load_trace(game.trace).duration:.2f} s"
    return said, [f"{game.scene}: warning: {w}" for w in scene.warnings()]
