"""The public face: what a game needs is in ``playspace.prelude``, and the examples and the
README's embedding example need nothing else."""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

import pytest

import playspace.prelude as prelude
from playspace.ecs import Despawned
from playspace.systems.interaction.events import GRAB_EVENTS
from playspace.systems.physics.events import PHYSICS_EVENTS
from playspace.systems.player.events import PLAYER_REQUESTS, RIG_EVENTS

ROOT = Path(__file__).resolve().parents[1]
EVERY: list[str] = prelude.__all__  # type: ignore[attr-defined]  # made when asked for


def playspace_imports(source: str) -> set[str]:
    """The playspace modules a piece of Python imports from."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("playspace"):
            found.add(node.module or "")
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("playspace"))
    return found


def test_every_event_is_in_the_events_namespace_and_none_in_a_star_import() -> None:
    events = {*RIG_EVENTS, *PLAYER_REQUESTS, *GRAB_EVENTS, *PHYSICS_EVENTS, Despawned}
    missing = [e.__name__ for e in events if getattr(prelude.events, e.__name__, None) is not e]
    assert missing == []
    assert not [e.__name__ for e in events if e.__name__ in EVERY]


def test_everything_the_prelude_names_is_there_once() -> None:
    assert all(hasattr(prelude, name) for name in EVERY)
    assert len(set(EVERY)) == len(EVERY)


@pytest.mark.parametrize("generic", ["Hit", "Static", "Look", "Seed", "standing", "calibrate"])
def test_no_generic_name_lands_in_a_game_s_namespace(generic: str) -> None:
    assert generic not in EVERY


def test_a_star_import_gives_every_name() -> None:
    names: dict[str, object] = {}
    exec("from playspace.prelude import *", names)
    assert [name for name in EVERY if name not in names] == []
    assert set(EVERY) <= set(dir(prelude))


def test_a_name_that_is_not_there_is_the_usual_error() -> None:
    with pytest.raises(AttributeError, match="has no attribute 'Wrold'"):
        getattr(prelude, "Wrold")  # noqa: B009 (mypy would refuse the misspelt attribute)
    with pytest.raises(ImportError, match="cannot import name 'Wrold'"):
        exec("from playspace.prelude import Wrold", {})


def test_the_checkers_see_the_preludes_the_names_are_loaded_from() -> None:
    """The star imports under ``TYPE_CHECKING`` (what mypy and IDEs read) and the packages'
    preludes the names load from at run time are the same list."""
    tree = ast.parse((ROOT / "playspace" / "prelude.py").read_text())
    (block,) = [
        n for n in tree.body if isinstance(n, ast.If) and ast.unparse(n.test) == "TYPE_CHECKING"
    ]
    seen = set()
    for node in block.body:
        assert isinstance(node, ast.ImportFrom) and [a.name for a in node.names] == ["*"]
        seen.add(node.module)
    assert seen == set(prelude.PRELUDES)


def test_each_package_prelude_names_what_it_imports_once() -> None:
    names = [n for module in prelude.PRELUDES for n in importlib.import_module(module).__all__]
    assert sorted(names) == sorted(EVERY)
    assert len(set(names)) == len(names)


def test_the_examples_import_only_the_prelude() -> None:
    for module in sorted((ROOT / "examples").glob("*.py")):
        assert playspace_imports(module.read_text()) <= {"playspace.prelude"}, module.name


def test_the_readme_embedding_example_imports_only_the_prelude() -> None:
    readme = (ROOT / "README.md").read_text()
    section = readme.split("## Embedding playspace")[1].split("\n## ")[0]
    (block,) = re.findall(r"```python\n(.*?)```", section, re.S)
    assert playspace_imports(block) == {"playspace.prelude"}
    assert len(section.splitlines()) <= 80  # one screen of a laptop, code and words
