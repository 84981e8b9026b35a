"""``validate`` and a headless ``run`` agree on every scene (issue 36): each example's scene,
changed in the ways a reliability campaign broke them (a player far out or under the floor, a
kill height above the start, a seat past the level, extreme gravity, numbers at the edge of
a float, files that are not what they say), is either refused by both with the same message,
or validated and then run without a traceback."""

from __future__ import annotations

import copy
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import tomli_w

from playspace.cli import main

ROOT = Path(__file__).resolve().parents[2]
SCENES = sorted([*ROOT.glob("examples/*.toml"), *ROOT.glob("examples/scenes/*.toml")])
Data = dict[str, Any]


def _player(data: Data, position: list[float]) -> None:
    data.setdefault("player", {})["position"] = position


def _physics(data: Data, key: str, value: object) -> None:
    data.setdefault("physics", {})[key] = value


def _first_box(data: Data, key: str, value: object) -> None:
    data["box"][0][key] = value


def _jointed(axis: list[float]) -> Callable[[Data], None]:
    def change(data: Data) -> None:
        data.setdefault("prop", []).append(
            {
                "name": "mutant hinge",
                "shape": "box",
                "size": [0.2, 0.2, 0.2],
                "position": [0.0, 1.0, 0.0],
                "joint": {"kind": "hinge", "axis": axis},
            }
        )

    return change


def _lift(period: float) -> Callable[[Data], None]:
    def change(data: Data) -> None:
        data.setdefault("prop", []).append(
            {
                "name": "mutant lift",
                "shape": "box",
                "size": [1.0, 0.1, 1.0],
                "kind": "kinematic",
                "position": [0.0, 0.5, 0.0],
                "path": {"to": [0.0, 2.5, 0.0], "period": period},
            }
        )

    return change


MUTATIONS: dict[str, Callable[[Data], None]] = {
    "player 10 km out": lambda d: _player(d, [10_000.0, 0.0, 0.0]),
    "player under the floor": lambda d: _player(d, [0.0, -0.5, 0.0]),
    "player far below": lambda d: _player(d, [0.0, -1_000.0, 0.0]),
    "kill height just above 0": lambda d: _physics(d, "kill_height", 0.1),
    "a second player's seat far out": lambda d: d.setdefault("spawn", []).append(
        {"position": [5_000.0, 0.0, 0.0]}
    ),
    "gravity 1000 upward": lambda d: _physics(d, "gravity", [0.0, 1_000.0, 0.0]),
    "a texture that is no image": lambda d: _first_box(d, "texture", "garbage.png"),
    "a missing texture": lambda d: _first_box(d, "texture", "missing.png"),
    "a missing mesh": lambda d: d.setdefault("mesh", []).append(
        {"name": "mutant mesh", "file": "missing.obj"}
    ),
    "a joint axis of 1e308": _jointed([1e308, 0.0, 0.0]),
    "a joint axis of 1e-200": _jointed([1e-200, 1e-200, 0.0]),
    "a path period of 5e-324": _lift(5e-324),
    "a box of 1e308": lambda d: _first_box(d, "size", [1e308, 1.0, 1.0]),
    "a box at nan": lambda d: _first_box(d, "position", [float("nan"), 0.0, 0.0]),
}


def _said(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, str]:
    status = main(argv)
    return status, capsys.readouterr().err


@pytest.mark.parametrize("scene", SCENES, ids=[path.stem for path in SCENES])
def test_validate_and_a_headless_run_agree_on_every_mutation_of_the_examples(
    scene: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    original = tomllib.loads(scene.read_text(encoding="utf-8"))
    (tmp_path / "garbage.png").write_bytes(b"not a picture at all")
    disagreements = []
    for name, mutate in MUTATIONS.items():
        data = copy.deepcopy(original)
        if "box" not in data:
            data["box"] = [{"name": "floor", "size": [10.0, 0.2, 10.0], "position": [0, -0.1, 0]}]
        mutate(data)
        changed = tmp_path / f"{scene.stem}.toml"
        changed.write_text(tomli_w.dumps(data), encoding="utf-8")
        for asset in scene.parent.iterdir():  # the meshes, models and textures it names
            if asset.suffix in (".obj", ".gltf", ".glb", ".png", ".jpg", ".bin"):
                (tmp_path / asset.name).write_bytes(asset.read_bytes())
            elif asset.name == "models" and not (tmp_path / "models").exists():
                (tmp_path / "models").symlink_to(asset)
        validated, refusal = _said(capsys, ["validate", str(changed)])
        ran, said = _said(capsys, ["run", str(changed), "--headless", "--seconds", "2"])
        if validated == 0 and ran != 0:
            disagreements.append(f"{name}: validated, but run said ({ran}): {said.strip()}")
        elif validated != 0 and (ran != 2 or said.strip() != refusal.strip()):
            disagreements.append(f"{name}: refused ({refusal.strip()}), run said ({ran}): {said}")
    assert disagreements == []
