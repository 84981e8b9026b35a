"""Example games: a Python module beside its scene, adding its rules as a plugin.

An example module is how a game extends the runtime, in the smallest form:

    SCENE = "kitchen.toml"            # its scene file, beside the module
    TRACE = "traces/kitchen.jsonl"    # optional: the recording that shows it off
    def build(world): ...             # a plugin: its resources, events and systems
    def summary(world) -> str: ...    # optional: one line on what happened

``playspace run examples/kitchen.py`` loads it like this; a module without SCENE or build is
refused with a message that says what is missing.
"""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from playspace.ecs import World


class ExampleError(ValueError):
    """A file given as an example is not one."""


@dataclass(frozen=True, slots=True)
class Example:
    name: str
    scene: Path
    trace: Path | None
    build: Callable[[World], None]
    summary: Callable[[World], str] | None


def load_example(path: Path) -> Example:
    """Import an example module and check it provides what an example must."""
    if path.suffix != ".py":
        raise ExampleError(f"{path}: an example is a Python module (.py), not {path.suffix!r}")
    if not path.is_file():
        raise ExampleError(f"{path}: no such file")
    module = _import(path)
    scene = getattr(module, "SCENE", None)
    build = getattr(module, "build", None)
    missing = [
        what
        for what, ok in (
            ("SCENE (the scene file's name)", isinstance(scene, str)),
            ("build(world) (its plugin)", callable(build)),
        )
        if not ok
    ]
    if missing:
        raise ExampleError(f"{path}: an example module must define {' and '.join(missing)}")
    assert isinstance(scene, str) and callable(build)
    trace = getattr(module, "TRACE", None)
    summary = getattr(module, "summary", None)
    return Example(
        name=path.stem,
        scene=path.parent / scene,
        trace=path.parent / trace if isinstance(trace, str) else None,
        build=build,
        summary=summary if callable(summary) else None,
    )


def _import(path: Path) -> ModuleType:
    """The module of `path`, imported once (a second load gives the same classes, as Python's
    own imports do, so a resource made by one load is found by the other)."""
    name = f"playspace_example_{path.stem}"
    loaded = sys.modules.get(name)
    if loaded is not None and Path(getattr(loaded, "__file__", "")) == path.resolve():
        return loaded
    spec = importlib.util.spec_from_file_location(name, path.resolve())
    if spec is None or spec.loader is None:
        raise ExampleError(f"{path}: cannot be imported as a Python module")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up while the file runs
    try:
        spec.loader.exec_module(module)
    except Exception as error:
        del sys.modules[name]
        raise ExampleError(f"{path}: importing it failed: {error!r}") from error
    return module


def headless_command(target: Path | str) -> str:
    """How to run `target` with no headset and no window: an example brings its own trace."""
    trace = "" if str(target).endswith(".py") else " --trace FILE"
    return f"playspace run {target} --headless{trace}"
