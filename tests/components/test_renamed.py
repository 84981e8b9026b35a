"""The British spelling of color, kept working for one release: what a game wrote yesterday
runs today and is told, at its own line, what to write instead."""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from playspace.components.debug import PhysicsDebug
from playspace.components.text import Label, ScreenText
from playspace.render.materials import Lighting, Material
from playspace.render.panels import PointerLook

RED = (1.0, 0.0, 0.0, 1.0)
GREEN = (0.0, 1.0, 0.0, 1.0)
ROOT = Path(__file__).resolve().parents[2]

# (class, the keyword arguments it needs besides the color, old name, new name, a value)
RENAMED: list[tuple[type, dict[str, Any], str, str, Any]] = [
    (Label, {"text": "crate"}, "colour", "color", RED),
    (ScreenText, {}, "colour", "color", RED),
    (Material, {}, "colour", "color", RED),
    (Lighting, {}, "colour", "color", (1.0, 1.0, 1.0)),
    (PointerLook, {}, "ray_colour", "ray_color", RED),
    (PointerLook, {}, "cursor_colour", "cursor_color", RED),
    (PhysicsDebug, {}, "colours", "colors", np.ones((1, 4), dtype=np.float32)),
]
IDS = [f"{cls.__name__}.{old}" for cls, _, old, _, _ in RENAMED]


@pytest.mark.parametrize(("cls", "rest", "old", "new", "value"), RENAMED, ids=IDS)
def test_the_old_keyword_still_builds_the_thing_and_names_the_new_one(
    cls: type, rest: dict[str, Any], old: str, new: str, value: Any
) -> None:
    with pytest.warns(DeprecationWarning, match=rf"{cls.__name__}\.{old} is renamed {new}") as w:
        made = cls(**rest, **{old: value})
    assert w[0].filename == __file__  # the game's own line, not the shim's
    assert getattr(made, new) is value
    with pytest.warns(DeprecationWarning, match=f"renamed {new}"):
        assert getattr(made, old) is value


@pytest.mark.parametrize(("cls", "rest", "old", "new", "value"), RENAMED, ids=IDS)
def test_the_new_spelling_is_quiet_and_both_at_once_is_refused(
    cls: type, rest: dict[str, Any], old: str, new: str, value: Any
) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert getattr(cls(**rest, **{new: value}), new) is value
    with pytest.raises(TypeError, match=f"got both '{old}' and '{new}'"):
        cls(**rest, **{old: value, new: value})


def test_a_game_that_recolors_a_label_by_the_old_name_still_recolors_it() -> None:
    label = Label("crate", color=RED)
    with pytest.warns(DeprecationWarning, match="Label.colour is renamed color"):
        label.colour = GREEN  # type: ignore[attr-defined]
    assert label.color == GREEN


def test_color_has_one_spelling_in_the_code_the_docs_and_the_examples() -> None:
    """Outside the old names kept above (and a scene file refusing the British key), nothing
    says colour."""
    kept = {
        Path("tests/components/test_renamed.py"),
        Path("tests/formats/test_scene.py"),
    }
    found = []
    for folder in ("playspace", "tests", "examples", "benchmarks", "docs"):
        for path in sorted((ROOT / folder).rglob("*")):
            if path.suffix not in {".py", ".md", ".toml", ".jsonl", ".txt"}:
                continue
            if path.relative_to(ROOT) in kept:
                continue
            for number, line in enumerate(path.read_text().splitlines(), 1):
                if "colour" in line.lower() and "@renamed_fields(" not in line:
                    found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    readme = (ROOT / "README.md").read_text().lower()
    assert found == [] and "colour" not in readme
