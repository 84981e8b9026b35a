"""The examples' models are what their sources make: ``assets/models.py`` run again writes the
same bytes as the files in the repository, so a model is changed by changing its script."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_every_model_in_the_examples_is_made_by_its_script(tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location("asset_models", ROOT / "assets" / "models.py")
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    made = script.make(tmp_path)
    committed = sorted((ROOT / "examples" / "models").glob("*.glb"))
    assert sorted(p.name for p in made) == [p.name for p in committed]
    for path in made:
        assert path.read_bytes() == (ROOT / "examples" / "models" / path.name).read_bytes(), (
            path.name
        )
