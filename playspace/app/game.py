"""Example games: a Python module beside its scene, adding its rules as a plugin.

An example module is how a game extends the runtime, in the smallest form:

    SCENE = "kitchen.toml"            # its scene file, beside the module
    TRACE = "traces/kitchen.jsonl"    # optional: the recording that shows it off
    def build(world): ...             # a plugin: its resources, events and systems
    def summary(world) -> str: ...    # optional: one line on what happened

``playspace run examples/kitchen.py`` loads it like this; a module without SCENE or build is
refused with a message that says what is missing. Its folder is on the import path, as it is
for ``python game.py``: a game split into modules imports the ones beside it by name.
"""

from __future__ import annotations

import importlib.util
import sys
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import TypeVar

from playspace.ecs import World


class TargetError(ValueError):
    """What ``playspace run`` was given cannot run: neither a scene nor a usable example."""


class ExampleError(TargetError):
    """A file given as an example is not one, or its build failed."""


@dataclass(frozen=True, slots=True)
class Example:
    name: str
    scene: Path
    trace: Path | None
    build: Callable[[World], None]
    summary: Callable[[World], str] | None
    module: Path | None = None  # the module's own file


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
            ("SCENE (the scene file's name)", scene is not None),
            ("build(world) (its plugin)", callable(build)),
        )
        if not ok
    ]
    if missing:
        raise ExampleError(f"{path}: an example module must define {' and '.join(missing)}")
    assert callable(build)
    trace = getattr(module, "TRACE", None)
    summary = getattr(module, "summary", None)
    for name, value, kind in (("SCENE", scene, ".toml"), ("TRACE", trace, ".jsonl")):
        if value is not None and not (isinstance(value, str) and value.endswith(kind)):
            raise ExampleError(
                f"{path}: {name} must name a {kind} file beside the module, got {value!r}"
            )
    assert isinstance(scene, str)
    return Example(
        name=path.stem,
        scene=path.parent / scene,
        trace=path.parent / trace if isinstance(trace, str) else None,
        build=_reporting(path, "build", build),
        summary=_reporting(path, "summary", summary) if callable(summary) else None,
        module=path,
    )


R = TypeVar("R")


def _reporting(path: Path, name: str, call: Callable[[World], R]) -> Callable[[World], R]:
    """The module's `call`, a failure in it said as one line naming the module and line."""

    def reported(world: World) -> R:
        try:
            return call(world)
        except Exception as error:
            where = f"{path}{_line(error, path)}"
            raise ExampleError(f"{where}: {name}(world) failed: {_short(error)}") from error

    return reported


def _short(error: BaseException) -> str:
    shown = repr(error)
    return shown if len(shown) <= 300 else shown[:300] + "..."


def _line(error: BaseException, path: Path) -> str:
    """``:12``, the deepest line of `path` that `error` passed through, or nothing."""
    lines = [
        f.lineno
        for f in traceback.extract_tb(error.__traceback__)
        if Path(f.filename) == path.resolve()
    ]
    return f":{lines[-1]}" if lines else ""


def _import(path: Path) -> ModuleType:
    """The module of `path`, imported once (a second load gives the same classes, as Python's
    own imports do, so a resource made by one load is found by the other)."""
    name = f"playspace_example_{path.stem}"
    loaded = sys.modules.get(name)
    if loaded is not None and Path(getattr(loaded, "__file__", "")) == path.resolve():
        return loaded
    folder = str(path.resolve().parent)
    if folder not in sys.path:  # as `python game.py` does: modules beside it import by name
        sys.path.insert(0, folder)
    spec = importlib.util.spec_from_file_location(name, path.resolve())
    if spec is None or spec.loader is None:
        raise ExampleError(f"{path}: cannot be imported as a Python module")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up while the file runs
    try:
        spec.loader.exec_module(module)
    except SyntaxError as error:
        del sys.modules[name]
        line = f":{error.lineno}" if error.lineno else ""
        raise ExampleError(f"{path}{line}: not valid Python: {error.msg}") from None
    except (Exception, SystemExit) as error:  # a module that exits at import runs nothing
        del sys.modules[name]
        where = f"{path}{_line(error, path)}"
        raise ExampleError(f"{where}: importing it failed: {_short(error)}") from error
    return module


def headless_command(target: Path | str) -> str:
    """How to run `target` with no headset and no window: an example brings its own trace."""
    trace = "" if str(target).endswith(".py") else " --trace FILE"
    return f"playspace run {target} --headless{trace}"
