"""The models and sounds are what their sources make: ``assets/models.py`` (the examples'),
``assets/hands.py`` (the rigged hands) and ``assets/sounds.py`` (the default sounds) run again
write what the repository holds (the models' bytes, the sounds' samples: FLAC's bytes may
differ between libsndfile versions, its samples never), so an asset is changed by changing
its script."""

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


def test_the_default_sounds_are_made_by_their_script(tmp_path: Path) -> None:
    import soundfile

    made = sorted(_script("sounds").make(tmp_path))
    shipped = sorted((ROOT / "playspace" / "systems" / "audio" / "sounds").glob("*.flac"))
    assert sorted(p.name for p in made) == [p.name for p in shipped]
    for path, committed in zip(made, shipped, strict=True):
        ours, _ = soundfile.read(str(path), dtype="int16")
        theirs, rate = soundfile.read(str(committed), dtype="int16")
        assert rate == 48000 and (ours == theirs).all(), path.name
