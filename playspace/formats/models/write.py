"""Writing a glTF 2.0 binary (``.glb``) of a node tree: what the project's asset scripts make
models with, and what a game exports. Each node may have a surface in a look (an Appearance:
base color, roughness, metallic, emissive, and a PNG or JPEG texture, embedded), children and
extras; the file may have animation clips. One buffer, little-endian, positions and times
with their bounds, as the specification asks.
"""

from __future__ import annotations

import json
import struct
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from playspace.components.animation import Clip
from playspace.components.appearance import Appearance
from playspace.components.visual import Surface
from playspace.formats.images import image_kind

_FLOAT, _USHORT, _UINT = 5126, 5123, 5125
_ARRAY_BUFFER, _ELEMENT_ARRAY_BUFFER = 34962, 34963
_MIME = {".png": "image/png", ".jpg": "image/jpeg"}


@dataclass(frozen=True, slots=True, eq=False)
class SkinSpec:
    """A skin to write: its `joints`, by the names of nodes in the file, and the inverse of each
    one's place in the model's frame when the surface was bound (J, 4, 4)."""

    joints: tuple[str, ...]
    inverse_binds: np.ndarray[Any, Any]


@dataclass(slots=True)
class ModelSpec:
    """One node to write: `name` (with its import hint: ``"Counter-col"``), where it sits in its
    parent (`rotation` as x, y, z, w), its surface and look, its children and its extras; a
    skinned surface with the `skin` that bends it."""

    name: str
    surface: Surface | None = None
    look: Appearance | None = None
    translation: tuple[float, float, float] = (0.0, 0.0, 0.0)
    rotation: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 1.0)
    scale: tuple[float, float, float] = (1.0, 1.0, 1.0)
    children: list[ModelSpec] = field(default_factory=list)
    extras: dict[str, Any] | None = None
    skin: SkinSpec | None = None


class _Writer:
    def __init__(self) -> None:
        self.blob = bytearray()
        self.doc: dict[str, Any] = {
            "asset": {"version": "2.0", "generator": "playspace"},
            "nodes": [],
            "meshes": [],
            "materials": [],
            "accessors": [],
            "bufferViews": [],
        }
        self.looks: dict[Appearance, int] = {}
        self.skinned: list[tuple[dict[str, Any], SkinSpec]] = []

    def view(self, data: bytes, target: int | None) -> int:
        while len(self.blob) % 4:
            self.blob.append(0)
        view: dict[str, Any] = {"buffer": 0, "byteOffset": len(self.blob), "byteLength": len(data)}
        if target is not None:
            view["target"] = target
        self.blob.extend(data)
        self.doc["bufferViews"].append(view)
        return len(self.doc["bufferViews"]) - 1

    def accessor(
        self, array: np.ndarray[Any, Any], kind: int, shape: str, target: int | None
    ) -> int:
        stored = {_FLOAT: "<f4", _USHORT: "<u2", _UINT: "<u4"}[kind]
        data = np.ascontiguousarray(array).astype(stored).tobytes()
        accessor: dict[str, Any] = {
            "bufferView": self.view(data, target),
            "componentType": kind,
            "count": len(array),
            "type": shape,
        }
        if shape == "SCALAR" and kind == _FLOAT:  # an animation's times: glTF asks their bounds
            accessor["min"], accessor["max"] = [float(array.min())], [float(array.max())]
        if shape == "VEC3" and kind == _FLOAT:
            accessor["min"] = [float(v) for v in array.min(axis=0)]
            accessor["max"] = [float(v) for v in array.max(axis=0)]
        self.doc["accessors"].append(accessor)
        return len(self.doc["accessors"]) - 1

    def material(self, look: Appearance) -> int:
        if look in self.looks:
            return self.looks[look]
        pbr: dict[str, Any] = {
            "baseColorFactor": list(look.color),
            "metallicFactor": look.metallic,
            "roughnessFactor": look.roughness,
        }
        material: dict[str, Any] = {"pbrMetallicRoughness": pbr}
        strength = max(look.emissive)
        if strength > 0:
            scale = max(strength, 1.0)
            material["emissiveFactor"] = [c / scale for c in look.emissive]
            if scale > 1.0:
                material["extensions"] = {
                    "KHR_materials_emissive_strength": {"emissiveStrength": scale}
                }
                self.doc.setdefault("extensionsUsed", []).append("KHR_materials_emissive_strength")
        if look.texture is not None:
            data = look.texture.read_bytes()
            kind = image_kind(data[:8])
            if kind is None:
                raise ValueError(f"{look.texture}: not a PNG or JPEG image")
            image = {"bufferView": self.view(data, None), "mimeType": _MIME[kind]}
            self.doc.setdefault("images", []).append(image)
            self.doc.setdefault("textures", []).append({"source": len(self.doc["images"]) - 1})
            pbr["baseColorTexture"] = {"index": len(self.doc["textures"]) - 1}
        self.doc["materials"].append(material)
        self.looks[look] = len(self.doc["materials"]) - 1
        return self.looks[look]

    def animation(self, clip: Clip) -> dict[str, Any]:
        samplers, channels = [], []
        for channel in clip.channels:
            shape = "VEC4" if channel.path == "rotation" else "VEC3"
            samplers.append(
                {
                    "input": self.accessor(channel.times.reshape(-1, 1), _FLOAT, "SCALAR", None),
                    "output": self.accessor(channel.values, _FLOAT, shape, None),
                    "interpolation": channel.interpolation.value,
                }
            )
            target = {"node": channel.node, "path": channel.path}
            channels.append({"sampler": len(samplers) - 1, "target": target})
        return {"name": clip.name, "samplers": samplers, "channels": channels}

    def skins(self) -> None:
        """Each skin, its joints found by name now that every node has its index."""
        index = {node["name"]: number for number, node in enumerate(self.doc["nodes"])}
        skins = self.doc["skins"] = []
        for node, skin in self.skinned:
            missing = [name for name in skin.joints if name not in index]
            if missing:
                raise ValueError(f"node {node['name']}: its skin names no node {missing[0]!r}")
            binds = np.asarray(skin.inverse_binds, dtype=np.float64).transpose(0, 2, 1)
            skins.append(
                {
                    "joints": [index[name] for name in skin.joints],
                    "inverseBindMatrices": self.accessor(
                        binds.reshape(-1, 16), _FLOAT, "MAT4", None
                    ),
                }
            )
            node["skin"] = len(skins) - 1

    def node(self, spec: ModelSpec) -> int:
        node: dict[str, Any] = {"name": spec.name}
        if spec.translation != (0.0, 0.0, 0.0):
            node["translation"] = list(spec.translation)
        if spec.rotation != (0.0, 0.0, 0.0, 1.0):
            node["rotation"] = list(spec.rotation)
        if spec.scale != (1.0, 1.0, 1.0):
            node["scale"] = list(spec.scale)
        if spec.extras:
            node["extras"] = spec.extras
        if spec.surface is not None:
            surface = spec.surface
            primitive: dict[str, Any] = {
                "attributes": {
                    "POSITION": self.accessor(surface.positions, _FLOAT, "VEC3", _ARRAY_BUFFER),
                    "NORMAL": self.accessor(surface.normals, _FLOAT, "VEC3", _ARRAY_BUFFER),
                    "TEXCOORD_0": self.accessor(surface.uvs, _FLOAT, "VEC2", _ARRAY_BUFFER),
                },
                "indices": self.accessor(
                    surface.triangles.reshape(-1), _UINT, "SCALAR", _ELEMENT_ARRAY_BUFFER
                ),
            }
            if surface.joints is not None and surface.weights is not None:
                attributes = primitive["attributes"]
                attributes["JOINTS_0"] = self.accessor(
                    surface.joints, _USHORT, "VEC4", _ARRAY_BUFFER
                )
                attributes["WEIGHTS_0"] = self.accessor(
                    surface.weights, _FLOAT, "VEC4", _ARRAY_BUFFER
                )
            if spec.look is not None:
                primitive["material"] = self.material(spec.look)
            self.doc["meshes"].append({"name": spec.name, "primitives": [primitive]})
            node["mesh"] = len(self.doc["meshes"]) - 1
        if spec.skin is not None:
            self.skinned.append((node, spec.skin))
        self.doc["nodes"].append(node)
        index = len(self.doc["nodes"]) - 1
        if spec.children:
            node["children"] = [self.node(child) for child in spec.children]
        return index


def write_glb(path: Path, roots: Sequence[ModelSpec], clips: Sequence[Clip] = ()) -> Path:
    """Write `roots` (and everything under them) as one scene to the GLB file `path`, with
    `clips` as its animations (a channel's node is its index in the file: the roots and
    their children in order, each node before its children)."""
    writer = _Writer()
    writer.doc["scenes"] = [{"nodes": [writer.node(root) for root in roots]}]
    writer.doc["scene"] = 0
    if clips:
        writer.doc["animations"] = [writer.animation(clip) for clip in clips]
    if writer.skinned:
        writer.skins()
    for empty in ("meshes", "materials", "accessors", "bufferViews"):
        if not writer.doc[empty]:
            del writer.doc[empty]
    while len(writer.blob) % 4:
        writer.blob.append(0)
    if writer.blob:
        writer.doc["buffers"] = [{"byteLength": len(writer.blob)}]
    text = json.dumps(writer.doc, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 4)
    chunks = struct.pack("<II", len(text), 0x4E4F534A) + text
    if writer.blob:
        chunks += struct.pack("<II", len(writer.blob), 0x004E4942) + bytes(writer.blob)
    path.write_bytes(struct.pack("<4sII", b"glTF", 2, 12 + len(chunks)) + chunks)
    return path
