"""The models are what their sources make: ``assets/models.py`` (the examples') and
``assets/hands.py`` (the rigged hands) run again write the same bytes as the files in the
repository, so a model is changed by changing its script."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]


def _script(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"asset_{name}", ROOT / "assets" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    return script


def test_the_hands_are_made_by_their_script(tmp_path: Path) -> None:
    (made,) = _script("hands").make(tmp_path / "hands.glb")
    shipped = ROOT / "playspace" / "systems" / "animation" / "hands.glb"
    assert made.read_bytes() == shipped.read_bytes()


def test_every_model_in_the_examples_is_made_by_its_script(tmp_path: Path) -> None:
    made = _script("models").make(tmp_path)
    committed = sorted((ROOT / "examples" / "models").glob("*.glb"))
    assert sorted(p.name for p in made) == [p.name for p in committed]
    for path in made:
        assert path.read_bytes() == (ROOT / "examples" / "models" / path.name).read_bytes(), (
            path.name
        )
