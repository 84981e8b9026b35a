"""glTF models read as node trees: written by the project's writer and read back, hints and
extras, transforms given as matrices, texture transforms, and broken files named."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from playspace.components.appearance import Appearance
from playspace.formats.models import Hint, ModelError, forget_models, read_model, split_hint
from playspace.formats.models.write import ModelSpec, write_glb
from tests.mesh_helpers import write_gltf
from tests.model_helpers import glb_json, rewritten, surface, wedge

RED = Appearance(color=(1.0, 0.0, 0.0, 1.0), roughness=0.4, metallic=0.0)


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("Counter-col", ("Counter", Hint.COLLIDER)),
        ("Mug-RIGID", ("Mug", Hint.RIGID)),
        ("Rock-convcol", ("Rock", Hint.CONVEX)),
        ("Wall-colonly", ("Wall", Hint.COLLIDER_ONLY)),
        ("Hull-convcolonly", ("Hull", Hint.CONVEX_ONLY)),
        ("Crate-boxcol", ("Crate", Hint.BOX)),
        ("Ball-spherecol", ("Ball", Hint.SPHERE)),
        ("Pole-capsulecol", ("Pole", Hint.CAPSULE)),
        ("Helper-noimp", ("Helper", Hint.NO_IMPORT)),
        ("left-hand", ("left-hand", Hint.NONE)),  # a dash in a name is no hint
        ("Table", ("Table", Hint.NONE)),
    ],
)
def test_a_node_name_s_hint_is_read_as_godot_reads_it(
    name: str, expected: tuple[str, Hint]
) -> None:
    assert split_hint(name) == expected


def test_a_written_model_reads_back_node_for_node(tmp_path: Path) -> None:
    box = surface("box", (1.0, 0.1, 0.5))
    mug = ModelSpec(
        "Mug-rigid",
        surface("cylinder", (0.08, 0.1, 0.08)),
        RED,
        translation=(0.2, 0.95, 0.0),
        rotation=(0.0, math.sin(0.3), 0.0, math.cos(0.3)),
        extras={"grabbable": True, "mass": 0.3, "tags": ["cup"]},
    )
    table = ModelSpec(
        "Table-col", box, None, (0.0, 0.9, 0.0), scale=(2.0, 1.0, 1.0), children=[mug]
    )
    path = write_glb(tmp_path / "kitchen.glb", [table, ModelSpec("Marker-noimp")])
    model = read_model(path)
    table_node, mug_node, marker = model.nodes
    assert model.roots == (0, 2) and [n.name for n in model.walk()] == ["Table", "Mug"]
    assert (table_node.hint, mug_node.hint, marker.hint) == (
        Hint.COLLIDER,
        Hint.RIGID,
        Hint.NO_IMPORT,
    )
    assert table_node.children == (1,) and mug_node.parent == 0
    assert table_node.scale == (2.0, 1.0, 1.0) and table_node.translation == (0.0, 0.9, 0.0)
    assert mug_node.rotation == pytest.approx((0.0, math.sin(0.3), 0.0, math.cos(0.3)))
    assert mug_node.extras == {"grabbable": True, "mass": 0.3, "tags": ["cup"]}
    (part,) = table_node.parts
    assert part.look is None
    np.testing.assert_array_equal(part.surface.positions, box.positions)
    np.testing.assert_array_equal(part.surface.triangles, box.triangles)
    np.testing.assert_allclose(part.surface.normals, box.normals, atol=1e-6)
    assert mug_node.parts[0].look == RED
    assert marker.parts == () and model.unused == ()


def test_a_node_s_matrix_is_taken_apart_into_its_place_turn_and_scale(tmp_path: Path) -> None:
    turn = 0.7
    c, s = math.cos(turn), math.sin(turn)
    # column-major: about Y by `turn`, scaled 2, 3, 4, at (1, 2, 3)
    matrix = [2 * c, 0, -2 * s, 0, 0, 3, 0, 0, 4 * s, 0, 4 * c, 0, 1, 2, 3, 1]
    path = write_glb(tmp_path / "m.glb", [ModelSpec("Thing", surface())])
    document = glb_json(path)
    document["nodes"][0]["matrix"] = matrix
    model = read_model(rewritten(path, document))
    (node,) = model.nodes
    assert node.translation == pytest.approx((1.0, 2.0, 3.0))
    assert node.scale == pytest.approx((2.0, 3.0, 4.0))
    assert node.rotation == pytest.approx((0.0, math.sin(turn / 2), 0.0, math.cos(turn / 2)))


def test_a_texture_transform_moves_the_uvs(tmp_path: Path) -> None:
    moved = {
        "pbrMetallicRoughness": {
            "baseColorTexture": {
                "index": 0,
                "extensions": {"KHR_texture_transform": {"offset": [0.5, 0.25], "scale": [2, 2]}},
            }
        }
    }
    path = write_gltf(tmp_path, moved, image=_png())
    (part,) = read_model(path).nodes[0].parts
    assert part.look is not None and part.look.texture is not None
    np.testing.assert_allclose(part.surface.uvs, [[0.5, 0.25]] * 3)  # uvs 0, scaled, moved


def test_points_and_lines_are_left_out_and_said(tmp_path: Path) -> None:
    path = write_glb(tmp_path / "m.glb", [ModelSpec("Thing", wedge())])
    document = glb_json(path)
    document["meshes"][0]["primitives"][0]["mode"] = 1
    model = read_model(rewritten(path, document))
    assert model.nodes[0].parts == ()
    assert model.unused == ("meshes[0].primitives[0]: mode 1 (points or lines) is not drawn",)


@pytest.mark.parametrize(
    ("extras", "message"),
    [
        (
            {"mass": -1},
            r"nodes\[0\] \(Mug\): extras.mass: expected kilograms > 0 and < 100000, got -1",
        ),
        ({"grabbable": "yes"}, "extras.grabbable: expected true or false, got 'yes'"),
        ({"tags": "cup"}, "extras.tags: expected a list of names, got 'cup'"),
    ],
)
def test_wrong_extras_are_an_error_naming_the_node_and_the_key(
    tmp_path: Path, extras: dict[str, object], message: str
) -> None:
    path = write_glb(tmp_path / "m.glb", [ModelSpec("Mug-rigid", surface(), extras=extras)])
    with pytest.raises(ModelError, match=message):
        read_model(path)


def test_a_hint_with_nothing_to_collide_or_a_body_with_nothing_is_an_error(
    tmp_path: Path,
) -> None:
    empty_hint = write_glb(tmp_path / "a.glb", [ModelSpec("Wall-col")])
    with pytest.raises(ModelError, match=r"nodes\[0\] \(Wall-col\): a collision hint \(-col\)"):
        read_model(empty_hint)
    empty_body = write_glb(
        tmp_path / "b.glb", [ModelSpec("Mug-rigid", None, children=[ModelSpec("Tag")])]
    )
    with pytest.raises(ModelError, match=r"nodes\[0\] \(Mug\): a body with nothing"):
        read_model(empty_body)


def _broken(document: dict[str, Any], change: str) -> None:
    if change == "cycle":
        document["nodes"].append({"name": "B", "children": [0]})
        document["nodes"][0]["children"] = [1]
    elif change == "two parents":
        document["nodes"] += [{"name": "B", "children": [0]}, {"name": "C", "children": [0]}]
    elif change == "index past the end":
        document["nodes"][0]["mesh"] = 7
    elif change == "zero rotation":
        document["nodes"][0]["rotation"] = [0, 0, 0, 0]
    elif change == "accessor past its view":
        document["accessors"][0]["count"] = 10_000
    elif change == "triangle past the vertices":
        document["accessors"][3]["count"] = 2
        document["meshes"][0]["primitives"][0]["attributes"] = {"POSITION": 0}
        document["accessors"][0]["count"] = 2


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ("cycle", "scenes\\[0\\].nodes: expected indices of nodes without a parent"),
        ("two parents", "nodes\\[0\\] is a child of both nodes\\[1\\] and nodes\\[2\\]"),
        ("index past the end", "nodes\\[0\\].mesh is 7, but the file has no meshes\\[7\\]"),
        ("zero rotation", "nodes\\[0\\].rotation: expected a unit quaternion"),
        ("accessor past its view", "accessors\\[0\\] reaches past its bufferView"),
        ("triangle past the vertices", "indices: expected whole triangles of vertices 0 to 1"),
    ],
)
def test_a_broken_model_is_one_error_naming_the_file_and_the_item(
    tmp_path: Path, change: str, message: str
) -> None:
    path = write_glb(tmp_path / "m.glb", [ModelSpec("Thing", wedge())])
    document = glb_json(path)
    _broken(document, change)
    with pytest.raises(ModelError, match=message) as raised:
        read_model(rewritten(path, document))
    assert str(raised.value).startswith(str(path))


def test_what_is_no_model_is_said(tmp_path: Path) -> None:
    with pytest.raises(ModelError, match=r"expected a glTF model \(\.gltf, \.glb\), got \.obj"):
        read_model(tmp_path / "level.obj")
    with pytest.raises(ModelError, match="no such file"):
        read_model(tmp_path / "level.glb")
    (tmp_path / "junk.glb").write_bytes(b"not a model")
    with pytest.raises(ModelError, match="not a GLB file"):
        read_model(tmp_path / "junk.glb")


def _png() -> bytes:
    from io import BytesIO

    from PIL import Image

    out = BytesIO()
    Image.new("RGB", (2, 2), (10, 200, 30)).save(out, format="PNG")
    return out.getvalue()


def test_a_model_is_read_once_per_content(tmp_path: Path) -> None:
    """The same bytes, at the same path or another, are the same model; changed bytes are
    read anew."""
    forget_models()  # another test may have read the same bytes under another name
    path = write_glb(tmp_path / "a.glb", [ModelSpec("Thing", wedge())])
    first = read_model(path)
    assert read_model(path) is first
    copy = tmp_path / "b.glb"
    copy.write_bytes(path.read_bytes())
    again = read_model(copy)
    assert again.path == copy and again.nodes is first.nodes  # shared, named by its own path
    write_glb(path, [ModelSpec("Other", wedge())])
    assert read_model(path).nodes[0].name == "Other"
