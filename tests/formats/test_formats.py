"""What the formats share: one judge of numbers, one telemetry reader, one mesh file reader
(and its glTF materials, read as the Appearance component they become)."""

from __future__ import annotations

import base64
import math
import os
import re
from pathlib import Path
from typing import Any

import pytest

import playspace.formats.images
from playspace.components import Appearance
from playspace.formats.meshes import MeshFileError, read_material, read_mesh
from playspace.formats.numbers import Number, as_floats, parse_numbers
from playspace.formats.scene.meshes import load_mesh
from playspace.formats.telemetry import TelemetryError, parse_telemetry
from playspace.render import AssetError, load_mesh_file
from tests.mesh_helpers import write_gltf

HEADER = '{"format": "playspace-telemetry", "version": 1, "fixed_hz": 90}\n'
POSES = '"head": {"p": [0, 1.6, 0]}, "body": {"p": [0, 0, 0]}, "origin": {"p": [0, 0, 0]}'
# A unit cube written as OBJ files are: each face with its own four corners (24 vertices), so
# a renderer can give every face its own normal and uvs.
CUBE_OBJ = "".join(
    f"v {' '.join(str(c) for c in corner)}\n"
    for axis in range(3)
    for side in (0, 1)
    for corner in [
        tuple(side if k == axis else (u if k == (axis + 1) % 3 else v) for k in range(3))
        for u, v in ((0, 0), (1, 0), (1, 1), (0, 1))
    ]
) + "".join(f"f {4 * f + 1} {4 * f + 2} {4 * f + 3}\nf {4 * f + 1} {4 * f + 3} {4 * f + 4}\n"
            for f in range(6))  # fmt: skip


@pytest.mark.parametrize(
    ("value", "counts", "expected"),
    [
        (1, None, (1.0,)),
        (True, None, None),  # a parser's true is an int, never a number
        (10**400, None, None),  # no float holds it
        ([1, 2.5, -3], (3,), (1.0, 2.5, -3.0)),
        ([1, 2], (3,), None),
        ([1, 2], (2, 3), (1.0, 2.0)),
        ([1, "2", 3], (3,), None),
        (1, (1,), None),  # a list was asked for
    ],
)
def test_what_counts_as_a_number(
    value: object, counts: tuple[int, ...] | None, expected: tuple[float, ...] | None
) -> None:
    assert as_floats(value, counts) == expected


def test_not_finite_is_a_number_a_field_refuses() -> None:
    parsed = as_floats(math.nan, None)
    assert parsed is not None and math.isnan(parsed[0])  # a trace takes it as tracking lost
    assert parse_numbers(math.nan, None, Number()) is None
    assert parse_numbers(math.inf, None, Number()) is None
    assert parse_numbers([0, 1], (2,), Number(low=0.0, exclusive=True)) is None
    assert parse_numbers(2.5, None, Number(whole=True)) is None
    assert parse_numbers(7, None, Number(low=1, high=10, whole=True)) == (7.0,)


@pytest.mark.parametrize(
    ("t", "message"),
    [("true", "t: expected a number"), ("1" + "0" * 400, "t: expected a number")],
)
def test_telemetry_judges_numbers_as_scenes_and_traces_do(t: str, message: str) -> None:
    with pytest.raises(TelemetryError, match=f"run:2: {message}"):
        parse_telemetry(HEADER + '{"t": ' + t + ", " + POSES + "}\n", "run")


def test_telemetry_read_from_a_string_fills_in_what_a_step_may_leave_out(
    caplog: pytest.LogCaptureFixture,
) -> None:
    step = '{"t": 0.011111, ' + POSES + "}\n"
    header, steps = parse_telemetry(HEADER + step + step[:20])
    assert header["fixed_hz"] == 90 and len(steps) == 1
    assert steps[0]["objects"] == [] and steps[0]["events"] == []
    assert "<telemetry>:3: cut short; read up to line 2" in caplog.text


def test_a_collider_merges_what_a_drawn_mesh_keeps_apart(tmp_path: Path) -> None:
    cube = tmp_path / "cube.obj"
    cube.write_text(CUBE_OBJ)
    assert len(read_mesh(cube, merge=False).positions) == 24
    assert len(read_mesh(cube, merge=True).positions) == 8
    assert len(load_mesh(cube, 2.0).vertices) == 8  # the scene's collider
    assert len(load_mesh_file(cube).vertices) == 24  # the renderer's mesh, one normal a face


def test_a_mesh_to_draw_is_refused_as_a_scenes_is(tmp_path: Path) -> None:
    """A pipe would wait for a writer for ever; before, a drawn mesh's loader waited."""
    fifo = tmp_path / "mesh.obj"
    os.mkfifo(fifo)
    with pytest.raises(MeshFileError, match="is a pipe"):
        read_mesh(fifo, merge=True)
    with pytest.raises(AssetError, match=r"mesh\.obj is a pipe"):
        load_mesh_file(fifo)
    broken = tmp_path / "room.gltf"
    broken.write_text('{"asset": ')
    with pytest.raises(AssetError, match="not glTF: Expecting value at line 1"):
        load_mesh_file(broken)


# --- looks: the component, and glTF materials ---------------------------------------------


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"color": (1.0, 1.0, 1.0)}, r"color must be four numbers \(linear RGBA\) in \[0, 1\]"),
        ({"color": (1.0, 1.2, 1.0, 1.0)}, r"color must be .*, got \(1.0, 1.2, 1.0, 1.0\)"),
        ({"color": (1.0, math.nan, 1.0, 1.0)}, "color must be"),
        ({"color": (1.0, True, 1.0, 1.0)}, "color must be"),
        ({"roughness": -0.1}, r"roughness must be a number in \[0, 1\], got -0.1"),
        ({"roughness": math.inf}, "roughness must be a number in \\[0, 1\\], got inf"),
        ({"metallic": 1.5}, r"metallic must be a number in \[0, 1\], got 1.5"),
        ({"metallic": "1"}, "metallic must be a number"),
        ({"emissive": (0.0, -1.0, 0.0)}, r"emissive must be three numbers \(linear RGB\), 0 or"),
        ({"emissive": (0.0, math.inf, 0.0)}, "emissive must be"),
        ({"emissive": (1.0, 1.0)}, "emissive must be"),
    ],
)
def test_a_look_with_a_value_out_of_range_is_refused_where_it_is_made(
    fields: dict[str, Any], message: str
) -> None:
    with pytest.raises(ValueError, match=f"^Appearance {message}"):
        Appearance(**fields)


def test_a_look_takes_what_gltf_allows() -> None:
    look = Appearance((0.0, 1.0, 0.5, 0.0), roughness=0.0, metallic=1.0, emissive=(4.0, 0.0, 0.0))
    assert look.emissive == (4.0, 0.0, 0.0)  # emissive light may be brighter than 1
    assert Appearance(texture=Path("wood.png")).texture == Path("wood.png")
    with pytest.raises(TypeError, match=r"texture must be a pathlib\.Path or None, got str"):
        Appearance(texture="wood.png")  # type: ignore[arg-type]


def test_a_gltf_material_becomes_a_look_with_gltfs_defaults(tmp_path: Path) -> None:
    bare = write_gltf(tmp_path, {})
    assert read_mesh(bare, merge=True).triangles.shape == (1, 3)  # a mesh trimesh reads
    assert read_material(bare) == Appearance(
        color=(1.0, 1.0, 1.0, 1.0), roughness=1.0, metallic=1.0
    )
    glowing = {
        "pbrMetallicRoughness": {
            "baseColorFactor": [0.2, 0.4, 0.6, 0.5],
            "metallicFactor": 0.25,
            "roughnessFactor": 0.75,
        },
        "emissiveFactor": [0.5, 0.25, 0.0],
        "extensions": {"KHR_materials_emissive_strength": {"emissiveStrength": 4}},
    }
    assert read_material(write_gltf(tmp_path, glowing)) == Appearance(
        color=(0.2, 0.4, 0.6, 0.5), roughness=0.75, metallic=0.25, emissive=(2.0, 1.0, 0.0)
    )
    assert read_material(write_gltf(tmp_path, None)) is None  # no material: the palette's
    cube = tmp_path / "cube.obj"
    cube.write_text(CUBE_OBJ)
    assert read_material(cube) is None


def test_a_gltf_texture_beside_the_file_is_named_as_it_is(tmp_path: Path) -> None:
    from PIL import Image

    Image.new("RGB", (2, 2), (200, 100, 50)).save(tmp_path / "oak grain.png")
    textured = {"pbrMetallicRoughness": {"baseColorTexture": {"index": 0}}}
    images = {"textures": [{"source": 0}], "images": [{"uri": "oak%20grain.png"}]}
    look = read_material(write_gltf(tmp_path, textured, images))
    assert look is not None and look.texture == tmp_path / "oak grain.png"


def test_an_embedded_texture_is_written_once_to_the_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from PIL import Image

    cache = tmp_path / "cache"
    monkeypatch.setattr(playspace.formats.images, "TEXTURE_CACHE", cache)
    Image.new("RGB", (4, 4), (200, 100, 50)).save(tmp_path / "oak.png")
    textured = {"pbrMetallicRoughness": {"baseColorTexture": {"index": 0}}}
    path = write_gltf(tmp_path, textured, image=(tmp_path / "oak.png").read_bytes())
    assert read_mesh(path, merge=True).triangles.shape == (1, 3)  # a GLB trimesh reads
    look = read_material(path)
    assert look is not None and look.texture is not None
    assert look.texture.parent == cache and look.texture.suffix == ".png"
    with Image.open(look.texture) as written:
        assert written.convert("RGB").getpixel((1, 1)) == (200, 100, 50)
    written_at = look.texture.stat().st_mtime_ns
    assert read_material(path) == look and look.texture.stat().st_mtime_ns == written_at
    assert sorted(p.name for p in cache.iterdir()) == [look.texture.name]  # no part files left


@pytest.mark.parametrize(
    ("material", "extra", "message"),
    [
        (
            {"pbrMetallicRoughness": {"roughnessFactor": 2}},
            {},
            r"materials\[0\]\.pbrMetallicRoughness\.roughnessFactor: expected a number in "
            r"\[0, 1\], got 2",
        ),
        (
            {"pbrMetallicRoughness": {"baseColorFactor": [1, 1, 1]}},
            {},
            r"materials\[0\]\.pbrMetallicRoughness\.baseColorFactor: "
            r"expected 4 numbers in \[0, 1\], got \[1, 1, 1\]",
        ),
        (
            {"extensions": {"KHR_materials_emissive_strength": {"emissiveStrength": -1}}},
            {},
            r"materials\[0\]\.extensions\.KHR_materials_emissive_strength\.emissiveStrength: "
            r"expected a number >= 0, got -1",
        ),
        (
            {"pbrMetallicRoughness": {"baseColorTexture": {"index": 3}}},
            {},
            r"materials\[0\]\.pbrMetallicRoughness\.baseColorTexture\.index is 3, "
            r"but the file has no textures\[3\]",
        ),
        (
            {"pbrMetallicRoughness": {"baseColorTexture": {"index": 0}}},
            {"textures": [{"source": 0}], "images": [{"uri": "missing.png"}]},
            r"the texture of materials\[0\]: .*missing\.png: "
            r"cannot read the file: No such file or directory",
        ),
        (
            {"pbrMetallicRoughness": {"baseColorTexture": {"index": 0}}},
            {
                "textures": [{"source": 0}],
                "images": [
                    {"uri": "data:image/png;base64," + base64.b64encode(b"GIF89a").decode()}
                ],
            },
            r"the texture of materials\[0\] is not a PNG or JPEG image",
        ),
    ],
    ids=["rough", "color", "strength", "no-texture", "missing-image", "embedded-gif"],
)
def test_a_bad_gltf_material_is_named_with_the_file_and_where_in_it(
    tmp_path: Path, material: dict[str, Any], extra: dict[str, Any], message: str
) -> None:
    path = write_gltf(tmp_path, material, extra)
    with pytest.raises(MeshFileError, match=f"^{re.escape(str(path))}: {message}$"):
        read_material(path)


def test_a_version_1_file_is_read_with_the_events_named_as_version_2_names_them() -> None:
    step = '{"t": 0.1, "head": {"p": [0, 1.7, 0]}, "body": {"p": [0, 0, 0]}, ' + (
        '"origin": {"p": [0, 0, 0]}, "events": [{"type": "floor_snap", "dy": 0.2}, '
        '{"type": "turn", "angle": 0.5}, {"type": "hit"}]}\n'
    )
    old = parse_telemetry(HEADER + step)
    assert [e["type"] for e in old.steps[0]["events"]] == ["floor_snapped", "turned", "hit"]
    now = parse_telemetry(HEADER.replace('"version": 1', '"version": 2') + step)
    assert [e["type"] for e in now.steps[0]["events"]] == ["floor_snap", "turn", "hit"]
    with pytest.raises(TelemetryError, match="telemetry version 3; expected 1 or 2"):
        parse_telemetry(HEADER.replace('"version": 1', '"version": 3') + step)
