"""``[[model]]`` in a scene file: a level made of a model stands a player on it, a model placed
dynamic falls and can be grabbed, and a broken model file is named with its table and key."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from playspace.app import build_world
from playspace.components import Transform
from playspace.components.interaction import Grabbable
from playspace.components.physics import RigidBody
from playspace.formats.models.write import ModelSpec, write_glb
from playspace.formats.scene import SceneError, load_scene
from playspace.prelude import ScriptedSource, standing_frame
from playspace.systems.player import local_rig
from tests.model_helpers import surface

LEVEL = [
    ModelSpec("Floor-col", surface("box", (12.0, 0.2, 12.0), (0.0, -0.1, 0.0))),
    ModelSpec(
        "Counter-boxcol",
        surface("box", (2.0, 0.9, 0.6), (0.0, 0.45, 0.0)),
        translation=(0, 0, -1.5),
    ),
]


def _scene(tmp_path: Path, text: str) -> Path:
    write_glb(tmp_path / "kitchen.glb", LEVEL)
    write_glb(tmp_path / "mug.glb", [ModelSpec("Mug", surface("cylinder", (0.05, 0.1, 0.05)))])
    path = tmp_path / "scene.toml"
    path.write_text(textwrap.dedent(text))
    return path


def test_a_level_made_of_a_model_stands_the_player_and_a_dynamic_model_falls_onto_it(
    tmp_path: Path,
) -> None:
    path = _scene(
        tmp_path,
        """
        [player]
        position = [0, 0, 1]

        [[model]]
        name = "kitchen"
        file = "kitchen.glb"

        [[model]]
        name = "mug"
        file = "mug.glb"
        kind = "dynamic"
        position = [0, 1.5, -1.5]
        grabbable = true
        mass = 0.4
        tags = ["cup"]
        """,
    )
    scene = load_scene(path)
    assert scene.summary() == "2 models"
    world, spawned = build_world(scene, ScriptedSource(lambda t: standing_frame()))
    mug = spawned["mug/Mug"]
    assert world.get(mug, RigidBody).mass == 0.4
    assert world.get(mug, Grabbable).tags == frozenset({"cup"})
    world.step(round(1.5 * 90))
    rig = local_rig(world)
    assert rig is not None
    assert world.get(rig.body, Transform).position.y == pytest.approx(0.0, abs=0.01)
    on_the_counter = 0.9 + 0.05  # the counter's top, and half the mug's height
    assert world.get(mug, Transform).position.y == pytest.approx(on_the_counter, abs=0.02)


def test_a_broken_model_file_is_named_with_its_table_and_key(tmp_path: Path) -> None:
    path = _scene(tmp_path, '[[model]]\nfile = "missing.glb"\n')
    with pytest.raises(SceneError) as raised:
        load_scene(path)
    assert raised.value.errors == [
        f"{path}: [[model]] 1, key 'file': no such file: {tmp_path / 'missing.glb'}"
    ]


def test_a_start_on_a_model_s_floor_is_on_the_level_and_one_far_off_it_is_not(
    tmp_path: Path,
) -> None:
    near = _scene(tmp_path, '[player]\nposition = [5, 0, 5]\n[[model]]\nfile = "kitchen.glb"\n')
    assert load_scene(near).player.position == (5.0, 0.0, 5.0)
    far = _scene(tmp_path, '[player]\nposition = [90, 0, 0]\n[[model]]\nfile = "kitchen.glb"\n')
    with pytest.raises(SceneError, match="key 'position': expected a place on the level"):
        load_scene(far)


def test_validate_says_what_a_model_becomes_and_what_it_could_not_use(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from playspace.cli import main

    mug = ModelSpec(
        "Mug-rigid",
        surface("cylinder", (0.05, 0.1, 0.05)),
        extras={"grabbable": True},
        children=[ModelSpec("Handle-boxcol", surface(), translation=(0.06, 0.0, 0.0))],
    )
    helper = ModelSpec("Helper-noimp", children=[ModelSpec("Hidden-col", surface())])
    path = write_glb(tmp_path / "level.glb", [*LEVEL, ModelSpec("Lamp", surface()), mug, helper])
    assert main(["validate", str(path)]) == 0
    out = capsys.readouterr().out
    assert out == (
        f"{path}: ok (5 nodes placed: 3 drawn, 3 colliders (boxcol 2, col 1), 1 bodies "
        "(grabbable 1), 2 left out (-noimp, or in no scene))\n"
    )
    (tmp_path / "broken.glb").write_bytes(b"glTF but not")
    assert main(["validate", str(tmp_path / "broken.glb")]) == 2
    assert "a GLB file without its JSON chunk" in capsys.readouterr().err


def test_validate_counts_attach_points_sockets_and_stated_colliders(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from playspace.cli import main

    gun = ModelSpec(
        "Gun-rigid",
        surface(),
        extras={"grabbable": True},
        children=[ModelSpec("Grip", extras={"attach": "right"})],
    )
    rack = ModelSpec("Rack", extras={"socket": {"radius": 0.1}})
    path = write_glb(tmp_path / "kit.glb", [gun, rack])
    assert main(["validate", str(path)]) == 0
    assert capsys.readouterr().out == (
        f"{path}: ok (3 nodes placed: 0 drawn, 1 bodies (grabbable 1), 1 attach points, "
        "1 sockets)\n"
    )
