"""The public face: what a game needs is in ``playspace.prelude``, and the examples and the
README's embedding example need nothing else."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import playspace.prelude as prelude
from playspace.ecs import Despawned
from playspace.systems.interaction.events import GRAB_EVENTS
from playspace.systems.physics.events import PHYSICS_EVENTS
from playspace.systems.player.events import PLAYER_REQUESTS, RIG_EVENTS

ROOT = Path(__file__).resolve().parent.parent


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


def test_the_examples_import_only_the_prelude() -> None:
    for module in sorted((ROOT / "examples").glob("*.py")):
        assert playspace_imports(module.read_text()) <= {"playspace.prelude"}, module.name


def test_the_readme_embedding_example_imports_only_the_prelude() -> None:
    readme = (ROOT / "README.md").read_text()
    section = readme.split("## Embedding playspace")[1].split("\n## ")[0]
    (block,) = re.findall(r"```python\n(.*?)```", section, re.S)
    assert playspace_imports(block) == {"playspace.prelude"}
    assert len(section.splitlines()) <= 80  # one screen of a laptop, code and words
