"""Mesh files (OBJ, glTF, GLB), read once for every use: a scene's static geometry, and a
mesh a game draws in place of an entity's colliders.

trimesh reads the files (a glTF scene's nodes are flattened with their transforms applied); it
is imported on first use, so validating or loading a scene of boxes, or a headless run, does
not pay for it. Everything is checked here, before anything is built from the file, and every
problem is a :class:`MeshFileError` naming the file in a level designer's words: a name that
is not a regular file of a sane size, a broken glTF, what trimesh could not read, a file
without triangles, a vertex that is not a finite number.

A glTF file also says how its surface looks: :func:`read_material` reads its material as an
:class:`~playspace.components.appearance.Appearance`, by reading the file's JSON itself
(trimesh decodes images and merges materials; an Appearance wants the factors as written and a
texture file's name). An embedded texture is written once to :data:`TEXTURE_CACHE`, named by
its content, since an Appearance names a texture by its file.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import os
import struct
import tempfile
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote

import numpy as np

if TYPE_CHECKING:
    import numpy.typing as npt

from playspace.components.appearance import Appearance
from playspace.formats.files import MB, input_problem
from playspace.formats.numbers import Number, parse_numbers
from playspace.spatial import FloatArray

SUFFIXES = (".obj", ".gltf", ".glb")
LARGEST_MESH = 512 * MB  # a level's collision mesh is a few megabytes
LARGEST_IMAGE = 256 * MB  # a 8192 x 8192 RGBA texture, uncompressed
# The two image formats glTF 2.0 allows, told by their first bytes as glTF viewers tell them
IMAGE_KINDS = {b"\x89PNG\r\n\x1a\n": ".png", b"\xff\xd8\xff": ".jpg"}
TEXTURE_CACHE = Path(tempfile.gettempdir()) / "playspace-textures"
_UNIT = Number(low=0.0, high=1.0)
_LIGHT = Number(low=0.0)
_STRENGTH = "KHR_materials_emissive_strength"
_GLB_MAGIC, _GLB_JSON, _GLB_BIN = b"glTF", 0x4E4F534A, 0x004E4942


class MeshFileError(ValueError):
    """A mesh file that cannot be used; the message names it and says why."""


@dataclass(frozen=True, slots=True, eq=False)
class MeshFile:
    """The triangles of a mesh file as written: `positions` ((N, 3), finite), `triangles`
    ((M, 3) indices into them, M >= 1) and `uvs` ((N, 2)) when the file has texture
    coordinates."""

    positions: FloatArray
    triangles: npt.NDArray[np.int64]
    uvs: FloatArray | None


def read_mesh(path: Path, merge: bool) -> MeshFile:
    """The mesh in the OBJ, glTF or GLB file at `path`. With `merge`, vertices that share a
    position are one (a collider wants one connected surface, whatever seams the file has for
    its textures); without, the file's vertices are kept, with the hard edges and uv seams a
    drawn mesh needs."""
    if path.suffix.lower() not in SUFFIXES:
        raise MeshFileError(
            f"{path}: expected an OBJ (.obj) or glTF (.gltf, .glb) file, "
            f"got {path.suffix or 'no suffix'}"
        )
    if not path.exists():
        raise MeshFileError(f"no such file: {path}")
    problem = input_problem(path, LARGEST_MESH)
    if problem is not None:
        raise MeshFileError(f"{path} {problem}")
    if path.suffix.lower() == ".gltf":
        _check_gltf_json(path)
    import trimesh  # here, not at the top: see the module docstring

    try:
        with warnings.catch_warnings():  # trimesh's numpy warnings on wild numbers: ours follow
            warnings.simplefilter("ignore", RuntimeWarning)
            mesh = trimesh.load(path, force="mesh", process=merge)
    except Exception as error:  # trimesh raises many kinds on a malformed file
        raise MeshFileError(f"cannot read {path}: {_why(error)}") from None
    if not isinstance(mesh, trimesh.Trimesh) or len(mesh.faces) == 0:
        raise MeshFileError(f"{path} has no triangles")
    positions = np.asarray(mesh.vertices, dtype=np.float64)
    if not np.isfinite(positions).all():  # merging drops them; a drawn mesh must not have them
        raise MeshFileError(f"{path}: the mesh has non-finite vertex positions")
    uv = getattr(mesh.visual, "uv", None)
    uvs = None if uv is None else np.asarray(uv, dtype=np.float64)
    return MeshFile(positions, np.asarray(mesh.faces, dtype=np.int64), uvs)


def _why(error: Exception) -> str:
    """What went wrong inside trimesh, in words: its own text is sometimes a bare file name."""
    text = str(error)
    if "charset_normalizer" in text or isinstance(error, UnicodeDecodeError):
        return "not UTF-8 text (OBJ and glTF files are text)"
    if isinstance(error, FileNotFoundError):
        return f"a file it names is missing ({text})"
    return f"malformed ({type(error).__name__}: {text})" if text else type(error).__name__


def _check_gltf_json(path: Path, text: bytes | None = None) -> dict[str, Any]:
    """A .gltf is JSON (`text`, else the file's): say where it is broken (trimesh reports a
    missing file instead)."""
    try:
        document = json.loads(path.read_bytes() if text is None else text)
    except (UnicodeDecodeError, RecursionError):
        raise MeshFileError(f"cannot read {path}: not glTF (JSON text)") from None
    except json.JSONDecodeError as error:
        where = f"line {error.lineno}, column {error.colno}"
        raise MeshFileError(f"cannot read {path}: not glTF: {error.msg} at {where}") from None
    if not isinstance(document, dict):
        raise MeshFileError(f"cannot read {path}: not glTF (expected a JSON object)")
    return document


def image_kind(head: bytes) -> str | None:
    """The suffix of the image format whose file starts with `head`, if glTF allows it."""
    return next((kind for magic, kind in IMAGE_KINDS.items() if head.startswith(magic)), None)


def image_problem(path: Path) -> str | None:
    """Why `path` is not a PNG or JPEG file the renderer can decode; None when it is one. Only
    its first bytes are read: decoding is the renderer's, when it first draws the texture."""
    problem = input_problem(path, LARGEST_IMAGE)
    if problem is not None:
        return problem
    with path.open("rb") as file:
        head = file.read(8)
    return None if image_kind(head) else "not a PNG or JPEG image"


def read_material(path: Path) -> Appearance | None:
    """How the glTF or GLB file at `path` says its surface looks: the material of its first
    primitive that has one (an Appearance is one material for a whole entity), with glTF's defaults
    for what the material leaves out (metallic and rough: 1). None for an OBJ file and for a
    glTF whose primitives name no material: the renderer's palette then draws it."""
    if path.suffix.lower() not in (".gltf", ".glb"):
        return None
    gltf = _Gltf.read(path)
    used = [
        primitive["material"]
        for mesh in gltf.items("meshes")
        for primitive in mesh.get("primitives", [])
        if isinstance(primitive, dict) and "material" in primitive
    ]
    if not used:
        return None
    where = f"materials[{used[0]}]"
    material = gltf.item("materials", used[0], "a primitive's material")
    pbr = material.get("pbrMetallicRoughness", {})
    if not isinstance(pbr, dict):
        raise MeshFileError(f"{path}: {where}.pbrMetallicRoughness: expected a JSON object")
    inside = f"{where}.pbrMetallicRoughness"
    r, g, b, a = gltf.factor(pbr, "baseColorFactor", (1.0, 1.0, 1.0, 1.0), inside)
    extensions = material.get("extensions")
    glow = extensions.get(_STRENGTH) if isinstance(extensions, dict) else None
    strength = 1.0
    if isinstance(glow, dict):  # lets a glTF surface glow brighter than its factor's 1
        strength = gltf.factor(
            glow, "emissiveStrength", (1.0,), f"{where}.extensions.{_STRENGTH}", _LIGHT
        )[0]
    er, eg, eb = (c * strength for c in gltf.factor(material, "emissiveFactor", (0.0,) * 3, where))
    texture = pbr.get("baseColorTexture")
    return Appearance(
        color=(r, g, b, a),
        roughness=gltf.factor(pbr, "roughnessFactor", (1.0,), inside)[0],
        metallic=gltf.factor(pbr, "metallicFactor", (1.0,), inside)[0],
        emissive=(er, eg, eb),
        texture=None if texture is None else gltf.texture(texture, where),
    )


@dataclass(frozen=True, slots=True)
class _Gltf:
    """A glTF file's JSON document and, for a GLB, its binary chunk, read for its materials."""

    path: Path
    document: dict[str, Any]
    binary: bytes | None

    @classmethod
    def read(cls, path: Path) -> _Gltf:
        problem = input_problem(path, LARGEST_MESH)
        if problem is not None:
            raise MeshFileError(f"{path} {problem}")
        data = path.read_bytes()
        if path.suffix.lower() == ".gltf":
            return cls(path, _check_gltf_json(path, data), None)
        chunks: dict[int, bytes] = {}
        if len(data) < 12 or data[:4] != _GLB_MAGIC:
            raise MeshFileError(f"cannot read {path}: not a GLB file (no glTF header)")
        offset = 12
        while offset + 8 <= len(data):
            length, kind = struct.unpack_from("<II", data, offset)
            chunks.setdefault(kind, data[offset + 8 : offset + 8 + length])
            offset += 8 + length
        if _GLB_JSON not in chunks:
            raise MeshFileError(f"cannot read {path}: a GLB file without its JSON chunk")
        return cls(path, _check_gltf_json(path, chunks[_GLB_JSON]), chunks.get(_GLB_BIN))

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
            raise MeshFileError(
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
            bounds = "in [0, 1]" if number is _UNIT else ">= 0"
            raise MeshFileError(
                f"{self.path}: {where}.{key}: expected {amount} {bounds}, got {holder[key]!r}"
            )
        return parsed

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
                raise MeshFileError(f"{self.path}: the texture of {where}: {file}: {problem}")
            return file
        data = self._data(uri) if isinstance(uri, str) else self._view(image.get("bufferView"))
        return self._cached(data, where)

    def _data(self, uri: str) -> bytes:
        """The bytes of a ``data:...;base64,...`` URI."""
        header, _, text = uri.partition(",")
        try:
            if not header.endswith(";base64"):
                raise ValueError("not base64")
            return base64.b64decode(text, validate=True)
        except (ValueError, binascii.Error):
            raise MeshFileError(f"{self.path}: a data URI that is not base64 data") from None

    def _view(self, index: object) -> bytes:
        """The bytes of bufferViews[`index`], from the GLB's chunk, a data URI or a file."""
        view = self.item("bufferViews", index, "an image's bufferView")
        buffer = self.item("buffers", view.get("buffer"), f"bufferViews[{index}].buffer")
        uri = buffer.get("uri")
        if uri is None:
            data = self.binary if view.get("buffer") == 0 else None
            if data is None:
                raise MeshFileError(f"{self.path}: bufferViews[{index}]'s buffer has no data")
        elif isinstance(uri, str) and uri.startswith("data:"):
            data = self._data(uri)
        else:
            file = self.path.parent / unquote(str(uri))
            problem = input_problem(file, LARGEST_MESH)
            if problem is not None:
                raise MeshFileError(f"{self.path}: its buffer {file} {problem}")
            data = file.read_bytes()
        start, length = view.get("byteOffset", 0), view.get("byteLength")
        if (
            type(start) is not int
            or type(length) is not int
            or not 0 <= start <= start + length <= len(data)
        ):
            raise MeshFileError(f"{self.path}: bufferViews[{index}] reaches past its buffer")
        return data[start : start + length]

    def _cached(self, data: bytes, where: str) -> Path:
        """An embedded image as a file of the texture cache, written once, named by content."""
        kind = image_kind(data[:8])
        if kind is None:
            raise MeshFileError(f"{self.path}: the texture of {where} is not a PNG or JPEG image")
        target = TEXTURE_CACHE / f"{hashlib.sha256(data).hexdigest()[:32]}{kind}"
        if target.is_file() and target.stat().st_size == len(data):
            return target
        part = target.with_name(f"{target.name}.{os.getpid()}.part")
        try:
            TEXTURE_CACHE.mkdir(parents=True, exist_ok=True)
            part.write_bytes(data)
            os.replace(part, target)  # whole or not at all, for any other reader
        except OSError as error:
            raise MeshFileError(
                f"{self.path}: cannot write its embedded texture to {target}: {error.strerror}"
            ) from None
        return target
