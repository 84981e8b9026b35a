"""A glTF 2.0 file (``.gltf`` or ``.glb``) as its JSON document and its binary data, read and
checked for what playspace takes from it: accessors as numpy arrays, materials as
:class:`~playspace.components.appearance.Appearance`.

Why a reader of our own, on :mod:`json` and numpy, rather than ``pygltflib``: pygltflib turns
the JSON into dataclasses and finds the buffers, but it checks nothing (an index past the end,
a buffer view past its buffer, a wrong component type all pass) and decodes no accessor, so
both would be ours anyway; it costs 156 ms to import (dataclasses-json, marshmallow) where
this costs nothing. ``trimesh`` flattens the node tree and drops extras, skins and animations.
Every problem here is a :class:`GltfError` naming the file and the item (``nodes[3].mesh``),
in the words of the glTF specification.
"""

from __future__ import annotations

import base64
import binascii
import json
import math
import struct
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import numpy as np
import numpy.typing as npt

from playspace.components.appearance import Appearance
from playspace.formats.files import MB, input_problem
from playspace.formats.images import ImageError, cached_image, image_problem
from playspace.formats.numbers import Number, parse_numbers

LARGEST_GLTF = 512 * MB  # a level's models are a few megabytes
_UNIT = Number(low=0.0, high=1.0)
_LIGHT = Number(low=0.0)
_ANY = Number()
_STRENGTH = "KHR_materials_emissive_strength"
_TRANSFORM = "KHR_texture_transform"
_GLB_MAGIC, _GLB_JSON, _GLB_BIN = b"glTF", 0x4E4F534A, 0x004E4942
# accessor componentType -> numpy type; type -> components per element
COMPONENTS = {
    5120: np.int8,
    5121: np.uint8,
    5122: np.int16,
    5123: np.uint16,
    5125: np.uint32,
    5126: np.float32,
}
WIDTHS = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4, "MAT2": 4, "MAT3": 9, "MAT4": 16}


class GltfError(ValueError):
    """A glTF file that cannot be used; the message names it, the item and why."""


@dataclass(frozen=True, slots=True)
class TextureTransform:
    """``KHR_texture_transform`` of a texture: uvs are scaled, turned (radians), then offset."""

    offset: tuple[float, float] = (0.0, 0.0)
    rotation: float = 0.0
    scale: tuple[float, float] = (1.0, 1.0)

    def apply(self, uvs: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
        """`uvs` (N, 2) as the extension's matrix (translation x rotation x scale) moves them."""
        cos, sin = math.cos(self.rotation), math.sin(self.rotation)
        scaled = uvs * np.asarray(self.scale, dtype=np.float32)
        u = cos * scaled[:, 0] + sin * scaled[:, 1] + self.offset[0]
        v = -sin * scaled[:, 0] + cos * scaled[:, 1] + self.offset[1]
        return np.stack([u, v], axis=1).astype(np.float32)


@dataclass(frozen=True, slots=True)
class GltfFile:
    """A glTF file's JSON document and, for a GLB, its binary chunk."""

    path: Path
    document: dict[str, Any]
    binary: bytes | None
    raw: bytes  # the file as read

    @classmethod
    def read(cls, path: Path) -> GltfFile:
        problem = input_problem(path, LARGEST_GLTF)
        if problem is not None:
            raise GltfError(f"{path} {problem}")
        data = path.read_bytes()
        if path.suffix.lower() == ".gltf":
            return cls(path, json_document(path, data), None, data)
        chunks: dict[int, bytes] = {}
        if len(data) < 12 or data[:4] != _GLB_MAGIC:
            raise GltfError(f"cannot read {path}: not a GLB file (no glTF header)")
        offset = 12
        while offset + 8 <= len(data):
            length, kind = struct.unpack_from("<II", data, offset)
            chunks.setdefault(kind, data[offset + 8 : offset + 8 + length])
            offset += 8 + length
        if _GLB_JSON not in chunks:
            raise GltfError(f"cannot read {path}: a GLB file without its JSON chunk")
        return cls(path, json_document(path, chunks[_GLB_JSON]), chunks.get(_GLB_BIN), data)

    def items(self, kind: str) -> list[dict[str, Any]]:
        found = self.document.get(kind, [])
        return [i for i in found if isinstance(i, dict)] if isinstance(found, list) else []

    def item(self, kind: str, index: object, named_by: str) -> dict[str, Any]:
        """`kind`[`index`] of the document, which `named_by` names; an error if it lacks it."""
        found = self.document.get(kind)
        if (
            type(index) is not int
            or not isinstance(found, list)
            or not 0 <= index < len(found)
            or not isinstance(found[index], dict)
        ):
            raise GltfError(
                f"{self.path}: {named_by} is {index!r}, but the file has no {kind}[{index!r}]"
            )
        item: dict[str, Any] = found[index]
        return item

    def factor(
        self,
        holder: dict[str, Any],
        key: str,
        default: tuple[float, ...],
        where: str,
        number: Number = _UNIT,
    ) -> tuple[float, ...]:
        """`key` of `holder`: as many numbers as `default` has, which it is when left out."""
        if key not in holder:
            return default
        count = len(default)
        parsed = parse_numbers(holder[key], (count,) if count > 1 else None, number)
        if parsed is None:
            amount = "a number" if count == 1 else f"{count} numbers"
            bounds = " in [0, 1]" if number is _UNIT else " >= 0" if number is _LIGHT else ""
            raise GltfError(
                f"{self.path}: {where}.{key}: expected {amount}{bounds}, got {holder[key]!r}"
            )
        return parsed

    def accessor(self, index: object, named_by: str, width: int) -> npt.NDArray[Any]:
        """accessors[`index`] as an (count, `width`) array (a scalar's as (count,)), its
        normalized integers as floats in [0, 1] or [-1, 1]; every number checked finite."""
        where = f"accessors[{index}]"
        accessor = self.item("accessors", index, named_by)
        kind, shape = accessor.get("componentType"), accessor.get("type")
        count = accessor.get("count")
        if kind not in COMPONENTS or not isinstance(shape, str) or WIDTHS.get(shape) != width:
            raise GltfError(
                f"{self.path}: {where}: expected {width} numbers an element of a glTF "
                f"componentType, got type {shape!r} of componentType {kind!r}"
            )
        if type(count) is not int or count < 1:
            raise GltfError(f"{self.path}: {where}.count: expected a whole number >= 1")
        if "sparse" in accessor:
            raise GltfError(f"{self.path}: {where}: sparse accessors are not read")
        dtype = np.dtype(COMPONENTS[kind]).newbyteorder("<")
        if "bufferView" not in accessor:
            values = np.zeros((count, width), dtype=dtype)  # the specification's zeros
        else:
            view = self.item("bufferViews", accessor["bufferView"], f"{where}.bufferView")
            data = self.view(accessor["bufferView"])
            start = accessor.get("byteOffset", 0)
            element = dtype.itemsize * width
            stride = view.get("byteStride", element)
            if type(start) is not int or type(stride) is not int or start < 0 or stride < element:
                raise GltfError(f"{self.path}: {where}: a byteOffset or byteStride out of range")
            if start + stride * (count - 1) + element > len(data):
                raise GltfError(f"{self.path}: {where} reaches past its bufferView")
            raw = np.frombuffer(data, dtype=np.uint8)[start:]
            rows = np.lib.stride_tricks.as_strided(raw, (count, element), (stride, 1))
            values = np.ascontiguousarray(rows).view(dtype).reshape(count, width)
        out: npt.NDArray[Any] = values
        if accessor.get("normalized") and dtype.kind in "iu":
            top = float(2 ** (8 * dtype.itemsize - (1 if dtype.kind == "i" else 0)) - 1)
            out = np.maximum(values.astype(np.float32) / top, -1.0)
        elif dtype.kind == "f" and not np.isfinite(values).all():
            raise GltfError(f"{self.path}: {where} holds a number that is not finite")
        return out[:, 0] if width == 1 else out

    def look(self, index: object, named_by: str) -> tuple[Appearance, TextureTransform | None]:
        """materials[`index`] as an Appearance, with glTF's defaults for what it leaves out
        (metallic and rough: 1), and its base color texture's transform, if it has one."""
        where = f"materials[{index}]"
        material = self.item("materials", index, named_by)
        pbr = material.get("pbrMetallicRoughness", {})
        if not isinstance(pbr, dict):
            raise GltfError(f"{self.path}: {where}.pbrMetallicRoughness: expected a JSON object")
        inside = f"{where}.pbrMetallicRoughness"
        r, g, b, a = self.factor(pbr, "baseColorFactor", (1.0, 1.0, 1.0, 1.0), inside)
        extensions = material.get("extensions")
        glow = extensions.get(_STRENGTH) if isinstance(extensions, dict) else None
        strength = 1.0
        if isinstance(glow, dict):  # lets a glTF surface glow brighter than its factor's 1
            strength = self.factor(
                glow, "emissiveStrength", (1.0,), f"{where}.extensions.{_STRENGTH}", _LIGHT
            )[0]
        emissive = self.factor(material, "emissiveFactor", (0.0,) * 3, where)
        texture = pbr.get("baseColorTexture")
        transform = None if texture is None else self._transform(texture, inside)
        look = Appearance(
            color=(r, g, b, a),
            roughness=self.factor(pbr, "roughnessFactor", (1.0,), inside)[0],
            metallic=self.factor(pbr, "metallicFactor", (1.0,), inside)[0],
            emissive=(emissive[0] * strength, emissive[1] * strength, emissive[2] * strength),
            texture=None if texture is None else self.texture(texture, where),
        )
        return look, transform

    def _transform(self, info: object, where: str) -> TextureTransform | None:
        extensions = info.get("extensions") if isinstance(info, dict) else None
        found = extensions.get(_TRANSFORM) if isinstance(extensions, dict) else None
        if not isinstance(found, dict):
            return None
        inside = f"{where}.baseColorTexture.extensions.{_TRANSFORM}"
        offset = self.factor(found, "offset", (0.0, 0.0), inside, _ANY)
        scale = self.factor(found, "scale", (1.0, 1.0), inside, _ANY)
        rotation = self.factor(found, "rotation", (0.0,), inside, _ANY)[0]
        return TextureTransform((offset[0], offset[1]), rotation, (scale[0], scale[1]))

    def texture(self, info: object, where: str) -> Path | None:
        """The image file of a material's base color texture: the file beside the glTF, or
        the embedded image written to the cache. None for one that only an extension (KTX2,
        WebP) supplies: the renderer draws such a surface in the color alone."""
        named_by = f"{where}.pbrMetallicRoughness.baseColorTexture.index"
        index = info.get("index") if isinstance(info, dict) else None
        texture = self.item("textures", index, named_by)
        if "source" not in texture:
            return None
        image = self.item("images", texture["source"], f"textures[{index}].source")
        uri = image.get("uri")
        if isinstance(uri, str) and not uri.startswith("data:"):
            file = self.path.parent / unquote(uri)
            problem = image_problem(file)
            if problem is not None:
                raise GltfError(f"{self.path}: the texture of {where}: {file}: {problem}")
            return file
        data = self._data(uri) if isinstance(uri, str) else self.view(image.get("bufferView"))
        try:
            return cached_image(data, f"the texture of {where}")
        except ImageError as error:
            raise GltfError(f"{self.path}: {error}") from None

    def _data(self, uri: str) -> bytes:
        """The bytes of a ``data:...;base64,...`` URI."""
        header, _, text = uri.partition(",")
        try:
            if not header.endswith(";base64"):
                raise ValueError("not base64")
            return base64.b64decode(text, validate=True)
        except (ValueError, binascii.Error):
            raise GltfError(f"{self.path}: a data URI that is not base64 data") from None

    def buffer_bytes(self, uri: str) -> bytes:
        """The bytes of a buffer file the glTF names (beside it)."""
        file = self.path.parent / unquote(uri)
        problem = input_problem(file, LARGEST_GLTF)
        if problem is not None:
            raise GltfError(f"{self.path}: its buffer {file} {problem}")
        return file.read_bytes()

    def view(self, index: object) -> bytes:
        """The bytes of bufferViews[`index`], from the GLB's chunk, a data URI or a file."""
        view = self.item("bufferViews", index, "a bufferView")
        buffer = self.item("buffers", view.get("buffer"), f"bufferViews[{index}].buffer")
        uri = buffer.get("uri")
        if uri is None:
            data = self.binary if view.get("buffer") == 0 else None
            if data is None:
                raise GltfError(f"{self.path}: bufferViews[{index}]'s buffer has no data")
        elif isinstance(uri, str) and uri.startswith("data:"):
            data = self._data(uri)
        else:
            data = self.buffer_bytes(str(uri))
        start, length = view.get("byteOffset", 0), view.get("byteLength")
        if (
            type(start) is not int
            or type(length) is not int
            or not 0 <= start <= start + length <= len(data)
        ):
            raise GltfError(f"{self.path}: bufferViews[{index}] reaches past its buffer")
        return data[start : start + length]


def json_document(path: Path, text: bytes | None = None) -> dict[str, Any]:
    """A .gltf is JSON (`text`, else the file's): say where it is broken."""
    try:
        document = json.loads(path.read_bytes() if text is None else text)
    except (UnicodeDecodeError, RecursionError):
        raise GltfError(f"cannot read {path}: not glTF (JSON text)") from None
    except json.JSONDecodeError as error:
        where = f"line {error.lineno}, column {error.colno}"
        raise GltfError(f"cannot read {path}: not glTF: {error.msg} at {where}") from None
    if not isinstance(document, dict):
        raise GltfError(f"cannot read {path}: not glTF (expected a JSON object)")
    return document
