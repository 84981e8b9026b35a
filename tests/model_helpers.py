"""Surfaces and model files made for a test, from the renderer's unit primitives."""

from __future__ import annotations

import json
import struct
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from playspace.components.visual import Surface
from playspace.formats.models import smooth_normals
from playspace.render import meshes

Triple = tuple[float, float, float]


def surface(
    kind: str = "box", size: Triple = (1.0, 1.0, 1.0), centre: Triple = (0, 0, 0)
) -> Surface:
    """The renderer's unit box (full extents 1), sphere (radius 1) or cylinder (radius 1,
    height 1), scaled by `size` and moved to `centre`."""
    mesh = {"box": meshes.box, "sphere": meshes.sphere, "cylinder": meshes.cylinder}[kind]()
    return meshes.surface_of(mesh, size, centre)


def triangles(points: Sequence[Triple], faces: Sequence[tuple[int, int, int]]) -> Surface:
    """A surface of `faces` over `points`, smooth-shaded, without uvs."""
    positions = np.asarray(points, dtype=np.float32)
    tris = np.asarray(faces, dtype=np.uint32)
    uvs = np.zeros((len(positions), 2), dtype=np.float32)
    return Surface(positions, smooth_normals(positions, tris), uvs, tris)


def wedge(length: float = 2.0, width: float = 1.0, height: float = 1.0) -> Surface:
    """A ramp: 0 high at x = -length/2, `height` at +length/2, on y = 0, across z."""
    x, z = length / 2, width / 2
    points = [(-x, 0, -z), (x, 0, -z), (x, height, -z), (-x, 0, z), (x, 0, z), (x, height, z)]
    faces = [
        (0, 2, 1), (3, 4, 5),  # the two ends
        (0, 3, 5), (0, 5, 2),  # the slope
        (1, 2, 5), (1, 5, 4),  # the high side
        (0, 1, 4), (0, 4, 3),  # the bottom
    ]  # fmt: skip
    return triangles(points, faces)


def glb_json(path: Path) -> dict[str, Any]:
    data = path.read_bytes()
    length = struct.unpack_from("<I", data, 12)[0]
    document: dict[str, Any] = json.loads(data[20 : 20 + length])
    return document


def rewritten(path: Path, document: dict[str, Any]) -> Path:
    """`path` with its JSON chunk replaced by `document`, its binary chunk kept."""
    data = path.read_bytes()
    length = struct.unpack_from("<I", data, 12)[0]
    binary = data[20 + length :]
    text = json.dumps(document).encode()
    text += b" " * (-len(text) % 4)
    chunks = struct.pack("<II", len(text), 0x4E4F534A) + text + binary
    path.write_bytes(struct.pack("<4sII", b"glTF", 2, 12 + len(chunks)) + chunks)
    return path
