"""Mesh files written for a test: the smallest glTF, with a material and an embedded texture."""

from __future__ import annotations

import base64
import json
import struct
from pathlib import Path
from typing import Any

# One triangle, its positions in a data URI: the smallest glTF trimesh reads as a mesh
_TRIANGLE = struct.pack("<9f", 0, 0, 0, 1, 0, 0, 0, 0, -1)


def write_gltf(
    folder: Path,
    material: dict[str, Any] | None,
    extra: dict[str, Any] | None = None,
    image: bytes | None = None,
) -> Path:
    """A glTF of one triangle whose primitive uses `material` (none when None): a .gltf, its
    positions in a data URI; or, with `image`, a .glb whose binary chunk holds the positions
    and then `image`, as images[0] (an exporter's embedded texture)."""
    primitive: dict[str, Any] = {"attributes": {"POSITION": 0}}
    data = _TRIANGLE + (image or b"")
    buffer: dict[str, Any] = {"byteLength": len(data)}
    if image is None:
        buffer["uri"] = "data:application/octet-stream;base64," + base64.b64encode(data).decode()
    document: dict[str, Any] = {
        "asset": {"version": "2.0"},
        "scene": 0,
        "scenes": [{"nodes": [0]}],
        "nodes": [{"mesh": 0}],
        "meshes": [{"primitives": [primitive]}],
        "buffers": [buffer],
        "bufferViews": [
            {"buffer": 0, "byteLength": len(_TRIANGLE)},
            {"buffer": 0, "byteOffset": len(_TRIANGLE), "byteLength": len(image or b"")},
        ],
        "accessors": [
            {
                "bufferView": 0,
                "componentType": 5126,
                "count": 3,
                "type": "VEC3",
                "min": [0, 0, -1],
                "max": [1, 0, 0],
            }
        ],
        **(extra or {}),
    }
    if material is not None:
        primitive["material"] = 0
        document["materials"] = [material]
    if image is None:
        path = folder / "triangle.gltf"
        path.write_text(json.dumps(document))
        return path
    document |= {
        "textures": [{"source": 0}],
        "images": [{"bufferView": 1, "mimeType": "image/png"}],
    }
    text = json.dumps(document).encode()
    text += b" " * (-len(text) % 4)  # GLB chunks are padded to 4 bytes
    data += b"\0" * (-len(data) % 4)
    chunks = (
        struct.pack("<II", len(text), 0x4E4F534A)
        + text
        + struct.pack("<II", len(data), 0x004E4942)
        + data
    )
    path = folder / "triangle.glb"
    path.write_bytes(struct.pack("<4sII", b"glTF", 2, 12 + len(chunks)) + chunks)
    return path
