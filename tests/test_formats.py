"""What the formats share: one judge of numbers, one telemetry reader, one mesh file reader."""

from __future__ import annotations

import math
import os
from pathlib import Path

import pytest

from playspace.formats.meshes import MeshFileError, read_mesh
from playspace.formats.numbers import Number, as_floats, parse_numbers
from playspace.formats.scene.meshes import load_mesh
from playspace.formats.telemetry import TelemetryError, parse_telemetry
from playspace.render import AssetError, load_mesh_file

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
