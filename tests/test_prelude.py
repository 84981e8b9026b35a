"""The public face: what a game needs is in ``playspace.prelude``, and the examples and the
README's embedding example need nothing else."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import playspace.prelude as prelude
from playspace.ecs import Despawned
from playspace.systems.interaction.events import GRAB_EVENTS
from playspace.systems.physics.events import PHYSICS_EVENTS
from playspace.systems.player.events import PLAYER_REQUESTS, RIG_EVENTS

ROOT = Path(__file__).resolve().parents[1]


def playspace_imports(source: str) -> set[str]:
    """The playspace modules a piece of Python imports from."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("playspace"):
            found.add(node.module or "")
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("playspace"))
    return found


def test_every_event_is_in_the_prelude() -> None:
    events = {*RIG_EVENTS, *PLAYER_REQUESTS, *GRAB_EVENTS, *PHYSICS_EVENTS, Despawned}
    missing = [e.__name__ for e in events if getattr(prelude, e.__name__, None) is not e]
    assert missing == []


def test_everything_the_prelude_names_is_there() -> None:
    assert all(hasattr(prelude, name) for name in prelude.__all__)
    assert len(set(prelude.__all__)) == len(prelude.__all__)


def test_a_star_import_gives_every_name() -> None:
    names: dict[str, object] = {}
    exec("from playspace.prelude import *", names)
    assert [name for name in prelude.__all__ if name not in names] == []
    assert set(prelude.__all__) <= set(dir(prelude))


def test_a_name_that_is_not_there_is_the_usual_error() -> None:
    with pytest.raises(AttributeError, match="has no attribute 'Wrold'"):
        getattr(prelude, "Wrold")  # noqa: B009 (mypy would refuse the misspelt attribute)
    with pytest.raises(ImportError, match="cannot import name 'Wrold'"):
        exec("from playspace.prelude import Wrold", {})


def test_the_checkers_see_each_name_where_it_is_loaded_from() -> None:
    """The imports under ``TYPE_CHECKING`` (what mypy and IDEs read) and the table the names
    load from at run time say the same."""
    tree = ast.parse((ROOT / "playspace" / "prelude.py").read_text())
    (block,) = [
        n for n in tree.body if isinstance(n, ast.If) and ast.unparse(n.test) == "TYPE_CHECKING"
    ]
    seen = {}
    for node in block.body:
        assert isinstance(node, ast.ImportFrom) and node.module is not None
        for alias in node.names:
            # `from playspace import spatial` names a module, loaded as itself
            seen[alias.name] = (
                f"playspace.{alias.name}" if node.module == "playspace" else node.module
            )
    assert seen == prelude._HOME
    assert sorted(seen) == sorted(prelude.__all__)


def test_the_examples_import_only_the_prelude() -> None:
    for module in sorted((ROOT / "examples").glob("*.py")):
        assert playspace_imports(module.read_text()) <= {"playspace.prelude"}, module.name


def test_the_readme_embedding_example_imports_only_the_prelude() -> None:
    readme = (ROOT / "README.md").read_text()
    section = readme.split("## Embedding playspace")[1].split("\n## ")[0]
    (block,) = re.findall(r"```python\n(.*?)```", section, re.S)
    assert playspace_imports(block) == {"playspace.prelude"}
    assert len(section.splitlines()) <= 80  # one screen of a laptop, code and words
