"""Reading a glTF 2.0 model: the default scene's node tree, each node's transform (TRS, or a
matrix taken apart into them), its mesh's triangle primitives with their materials, its import
hint and its extras.

What cannot be drawn or collided with (points, lines) is left out and said in
:attr:`Model.unused`; what is broken (an index past the end, a node with two parents, a
rotation of length 0) is a :class:`ModelError` naming the item. A node with two parents is
the only way to a loop in the tree, so refusing it refuses loops too.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from playspace.components.animation import PATHS, Channel, Clip, Interpolation
from playspace.components.visual import Surface
from playspace.formats.gltf import GltfError, GltfFile
from playspace.formats.models.hints import Hint, split_hint
from playspace.formats.models.joints import node_joint
from playspace.formats.models.model import (
    BodyExtras,
    Model,
    ModelError,
    ModelNode,
    ModelPart,
    ModelSkin,
    Quad,
    SocketExtras,
    Triple,
    forget_surfaces,
    taken_apart,
)
from playspace.formats.models.physics import node_physics
from playspace.formats.models.skins import node_skin, skinning, unskinned
from playspace.formats.numbers import Number

if TYPE_CHECKING:
    from typing_extensions import TypeIs

TRIANGLES = 4  # a primitive's mode
_ANY = Number()
MODEL_SUFFIXES = (".gltf", ".glb")
KEPT = 32  # models kept read, by content: a level's pieces, a game's props
_READ: dict[str, Model] = {}


def read_model(path: Path) -> Model:
    """The model in the glTF or GLB file at `path`: read once per content (the file's bytes,
    and a ``.gltf``'s buffer files'), then handed out again while it stays the same."""
    if path.suffix.lower() not in MODEL_SUFFIXES:
        raise ModelError(
            f"{path}: expected a glTF model (.gltf, .glb), got {path.suffix or 'no suffix'}"
        )
    if not path.exists():
        raise ModelError(f"no such file: {path}")
    try:
        gltf = GltfFile.read(path)
        key = _content_hash(gltf)
        known = _READ.pop(key, None)
        model = known if known is not None else _Reader(gltf).model()
    except GltfError as error:
        raise ModelError(str(error)) from None
    _READ[key] = model  # the newest last: the oldest goes first
    while len(_READ) > KEPT:
        del _READ[next(iter(_READ))]
    return model if model.path == path else replace(model, path=path)


def forget_models() -> None:
    """Drop every model read so far, and the surfaces placed from them: the next read and
    spawn of each is cold."""
    _READ.clear()
    forget_surfaces()


def _content_hash(gltf: GltfFile) -> str:
    """What a model is read from: the file's bytes, and those of each buffer file it names."""
    digest = hashlib.sha256(gltf.raw)
    for buffer in gltf.items("buffers"):
        uri = buffer.get("uri")
        if isinstance(uri, str) and not uri.startswith("data:"):
            digest.update(gltf.buffer_bytes(uri))
    return digest.hexdigest()


class _Reader:
    def __init__(self, gltf: GltfFile) -> None:
        self.gltf = gltf
        self.meshes: dict[int, tuple[ModelPart, ...]] = {}
        self.skins: dict[int, ModelSkin] = {}
        self.unused: list[str] = []

    def model(self) -> Model:
        document, path = self.gltf.document, self.gltf.path
        raw = document.get("nodes", [])
        if not isinstance(raw, list) or not all(isinstance(n, dict) for n in raw):
            raise ModelError(f"{path}: nodes: expected a list of JSON objects")
        parents: dict[int, int] = {}
        for index, node in enumerate(raw):
            for child in self._children(node, index, len(raw)):
                if child in parents:
                    raise ModelError(
                        f"{path}: nodes[{child}] is a child of both nodes[{parents[child]}] and "
                        f"nodes[{index}]; a node has one parent"
                    )
                parents[child] = index
        roots = self._roots(len(raw), parents)
        nodes = tuple(self._node(node, index, parents.get(index)) for index, node in enumerate(raw))
        nodes = self._joints(raw, nodes)
        clips = tuple(self._clips(len(raw)))
        model = Model(path, nodes, roots, tuple(self.unused), clips)
        for node in model.walk():
            moves = node.physics is not None and node.physics.motion
            if (node.hint is Hint.RIGID or moves) and not _draws_or_collides(model, node):
                raise ModelError(
                    f"{path}: nodes[{node.index}] ({node.name}): a body with nothing under it to "
                    "draw or collide"
                )
        return model

    def _clips(self, count: int) -> list[Clip]:
        """The file's animations as clips (named ``clip N`` when the file names none)."""
        clips = []
        for number, animation in enumerate(self.gltf.items("animations")):
            where = f"animations[{number}]"
            name = animation.get("name") or f"clip {number}"
            samplers = animation.get("samplers", [])
            channels = []
            for index, channel in enumerate(animation.get("channels", [])):
                made = self._channel(channel, samplers, f"{where}.channels[{index}]", count)
                if made is not None:
                    channels.append(made)
            if channels:
                clips.append(Clip(str(name), tuple(channels)))
        return clips

    def _channel(self, channel: object, samplers: object, where: str, count: int) -> Channel | None:
        path = self.gltf.path
        target = channel.get("target") if isinstance(channel, dict) else None
        if not isinstance(target, dict) or not isinstance(samplers, list):
            raise ModelError(f"{path}: {where}: expected a target and the animation's samplers")
        node, kind = target.get("node"), target.get("path")
        if kind not in PATHS:
            self.unused.append(f"{where}: path {kind!r} (morph weights) is not played")
            return None
        if type(node) is not int or not 0 <= node < count:
            raise ModelError(f"{path}: {where}.target.node: expected a node, got {node!r}")
        index = channel.get("sampler") if isinstance(channel, dict) else None
        if type(index) is not int or not 0 <= index < len(samplers):
            raise ModelError(f"{path}: {where}.sampler: expected a sampler, got {index!r}")
        sampler = samplers[index]
        if not isinstance(sampler, dict):
            raise ModelError(f"{path}: {where}: its sampler is not a JSON object")
        mode = sampler.get("interpolation", "LINEAR")
        if mode not in ("STEP", "LINEAR", "CUBICSPLINE"):
            raise ModelError(f"{path}: {where}: interpolation {mode!r} is not glTF's")
        times = self.gltf.accessor(sampler.get("input"), f"{where} sampler input", 1)
        values = self.gltf.accessor(sampler.get("output"), f"{where} sampler output", PATHS[kind])
        try:
            return Channel(
                node,
                kind,
                Interpolation(mode),
                times.astype(np.float32),
                values.astype(np.float32),
            )
        except ValueError as error:
            raise ModelError(f"{path}: {where}: {error}") from None

    def _children(self, node: dict[str, Any], index: int, count: int) -> tuple[int, ...]:
        children = node.get("children", [])
        if not isinstance(children, list) or not all(
            type(c) is int and 0 <= c < count and c != index for c in children
        ):
            raise ModelError(
                f"{self.gltf.path}: nodes[{index}].children: expected indices of other nodes "
                f"(0 to {count - 1}), got {children!r}"
            )
        return tuple(children)

    def _roots(self, count: int, parents: dict[int, int]) -> tuple[int, ...]:
        """The default scene's nodes (``scene``, else the first scene), or every node without a
        parent in a file without scenes."""
        scenes = self.gltf.items("scenes")
        if not scenes:
            return tuple(i for i in range(count) if i not in parents)
        chosen = self.gltf.document.get("scene", 0)
        scene = self.gltf.item("scenes", chosen, "scene")
        roots = scene.get("nodes", [])
        if not isinstance(roots, list) or not all(
            type(r) is int and 0 <= r < count and r not in parents for r in roots
        ):
            raise ModelError(
                f"{self.gltf.path}: scenes[{chosen}].nodes: expected indices of nodes without a "
                f"parent, got {roots!r}"
            )
        return tuple(roots)

    def _node(self, node: dict[str, Any], index: int, parent: int | None) -> ModelNode:
        where = f"nodes[{index}]"
        name = node.get("name", f"node {index}")
        if not isinstance(name, str) or not name:
            raise ModelError(f"{self.gltf.path}: {where}.name: expected a name, got {name!r}")
        base, hint = split_hint(name)
        translation, rotation, scale = self._transform(node, where)
        extras = node.get("extras", {})
        if not isinstance(extras, dict):
            raise ModelError(f"{self.gltf.path}: {where}.extras: expected a JSON object")
        parts: tuple[ModelPart, ...] = ()
        if "mesh" in node:
            mesh = node["mesh"]
            self.gltf.item("meshes", mesh, f"{where}.mesh")
            parts = self.meshes.get(mesh) or self.meshes.setdefault(mesh, self._mesh(mesh))
        children = tuple(node.get("children", []))
        if hint.collides and not parts:
            raise ModelError(
                f"{self.gltf.path}: {where} ({name}): a collision hint (-{hint.value}) on a node "
                "with no triangles to collide"
            )
        body = _body_extras(extras, f"{self.gltf.path}: {where} ({base})")
        physics = node_physics(self.gltf, node, where, self._surfaces)
        skin = None
        if "skin" in node:
            skin = node_skin(self.gltf, node["skin"], f"{where}.skin", parts, self.skins)
        elif any(part.surface.skinned for part in parts):
            self.unused.append(f"{where}: its mesh has joints but the node no skin: drawn unbent")
            parts = tuple(unskinned(part) for part in parts)
        return ModelNode(
            index,
            base,
            hint,
            parent,
            children,
            translation,
            rotation,
            scale,
            parts,
            extras,
            body,
            physics,
            skin,
        )

    def _joints(
        self, raw: list[dict[str, Any]], nodes: tuple[ModelNode, ...]
    ) -> tuple[ModelNode, ...]:
        """The nodes with the joints they state (read once every node has its name)."""
        names = {node.name: node.index for node in reversed(nodes)}  # the first of a name
        made = []
        for node, given in zip(nodes, raw, strict=True):
            joint = node_joint(self.gltf, given, f"nodes[{node.index}]", names)
            if isinstance(joint, str):
                self.unused.append(joint)
                joint = None
            made.append(node if joint is None else replace(node, joint=joint))
        return tuple(made)

    def _surfaces(self, mesh: object, named_by: str) -> tuple[Surface, ...]:
        """The surfaces of meshes[`mesh`], read once however many refer to it."""
        self.gltf.item("meshes", mesh, named_by)
        assert isinstance(mesh, int)  # checked by item
        parts = self.meshes.get(mesh) or self.meshes.setdefault(mesh, self._mesh(mesh))
        return tuple(part.surface for part in parts)

    def _transform(self, node: dict[str, Any], where: str) -> tuple[Triple, Quad, Triple]:
        gltf = self.gltf
        if "matrix" in node:
            values = gltf.factor(node, "matrix", (0.0,) * 16, where, _ANY)
            return _decomposed(values, f"{gltf.path}: {where}.matrix")
        t = gltf.factor(node, "translation", (0.0, 0.0, 0.0), where, _ANY)
        x, y, z, w = gltf.factor(node, "rotation", (0.0, 0.0, 0.0, 1.0), where, _ANY)
        length = math.sqrt(x * x + y * y + z * z + w * w)
        if not 1e-6 < length < 1e6:
            raise ModelError(f"{gltf.path}: {where}.rotation: expected a unit quaternion")
        s = gltf.factor(node, "scale", (1.0, 1.0, 1.0), where, _ANY)
        if any(abs(v) < 1e-9 for v in s):
            raise ModelError(f"{gltf.path}: {where}.scale: expected no 0 (a node squashed flat)")
        rotation = (x / length, y / length, z / length, w / length)
        return (t[0], t[1], t[2]), rotation, (s[0], s[1], s[2])

    def _mesh(self, index: int) -> tuple[ModelPart, ...]:
        mesh = self.gltf.item("meshes", index, "a node's mesh")
        primitives = mesh.get("primitives", [])
        if not isinstance(primitives, list):
            raise ModelError(f"{self.gltf.path}: meshes[{index}].primitives: expected a list")
        parts = []
        for number, primitive in enumerate(primitives):
            where = f"meshes[{index}].primitives[{number}]"
            if not isinstance(primitive, dict):
                raise ModelError(f"{self.gltf.path}: {where}: expected a JSON object")
            mode = primitive.get("mode", TRIANGLES)
            if mode != TRIANGLES:
                self.unused.append(f"{where}: mode {mode!r} (points or lines) is not drawn")
                continue
            parts.append(self._primitive(primitive, where))
        return tuple(parts)

    def _primitive(self, primitive: dict[str, Any], where: str) -> ModelPart:
        gltf = self.gltf
        attributes = primitive.get("attributes", {})
        if not isinstance(attributes, dict) or "POSITION" not in attributes:
            raise ModelError(f"{gltf.path}: {where}.attributes: expected a POSITION accessor")
        positions = gltf.accessor(attributes["POSITION"], f"{where}.attributes.POSITION", 3)
        positions = positions.astype(np.float32)
        count = len(positions)
        if "indices" in primitive:
            indices = gltf.accessor(primitive["indices"], f"{where}.indices", 1)
            if indices.dtype.kind != "u":
                raise ModelError(f"{gltf.path}: {where}.indices: expected unsigned integers")
        else:
            indices = np.arange(count, dtype=np.uint32)
        if len(indices) % 3 or len(indices) == 0 or int(indices.max()) >= count:
            raise ModelError(
                f"{gltf.path}: {where}.indices: expected whole triangles of vertices 0 to "
                f"{count - 1}"
            )
        triangles = indices.astype(np.uint32).reshape(-1, 3)
        if "NORMAL" in attributes:
            normals = gltf.accessor(attributes["NORMAL"], f"{where}.attributes.NORMAL", 3)
            normals = _unit(normals.astype(np.float32))
        else:
            normals = smooth_normals(positions, triangles)
        uvs = np.zeros((count, 2), dtype=np.float32)
        if "TEXCOORD_0" in attributes:
            uvs = gltf.accessor(attributes["TEXCOORD_0"], f"{where}.attributes.TEXCOORD_0", 2)
            uvs = uvs.astype(np.float32)
        look = None
        if "material" in primitive:
            look, transform = gltf.look(primitive["material"], f"{where}.material")
            if transform is not None:
                uvs = transform.apply(uvs)
        joints, weights = skinning(self.gltf, attributes, where)
        for name, array in (
            ("NORMAL", normals),
            ("TEXCOORD_0", uvs),
            ("JOINTS_0", joints),
            ("WEIGHTS_0", weights),
        ):
            if array is not None and len(array) != count:
                raise ModelError(
                    f"{gltf.path}: {where}.attributes.{name}: expected {count} elements, as "
                    f"POSITION has, got {len(array)}"
                )
        return ModelPart(Surface(positions, normals, uvs, triangles, joints, weights), look)


def _decomposed(values: tuple[float, ...], where: str) -> tuple[Triple, Quad, Triple]:
    """A column-major 4x4 matrix as translation, rotation and scale (glTF forbids shear)."""
    try:
        return taken_apart(np.asarray(values, dtype=np.float64).reshape(4, 4).T)
    except ValueError:
        raise ModelError(f"{where}: expected a matrix of translation, rotation and scale") from None


def _unit(vectors: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    lengths = np.linalg.norm(vectors, axis=1, keepdims=True)
    unit: npt.NDArray[np.float32] = np.divide(
        vectors, lengths, out=np.zeros_like(vectors), where=lengths > 0
    )
    return unit


def smooth_normals(positions: npt.ArrayLike, faces: npt.ArrayLike) -> npt.NDArray[np.float32]:
    """Per-vertex normals: the sum of the adjacent faces' area-weighted normals, unit length
    (what a file that gives none is drawn with)."""
    points = np.asarray(positions, dtype=np.float64)
    tris = np.asarray(faces, dtype=np.int64).reshape(-1, 3)
    corners = points[tris]
    weighted = np.cross(corners[:, 1] - corners[:, 0], corners[:, 2] - corners[:, 0])
    normals = np.zeros_like(points)
    for k in range(3):
        np.add.at(normals, tris[:, k], weighted)
    return _unit(normals.astype(np.float32))


def _body_extras(extras: Mapping[str, object], where: str) -> BodyExtras:
    """What a node's extras say of it as a body, checked (other keys are other tools')."""
    grabbable, mass = extras.get("grabbable"), extras.get("mass")
    layer, tags = extras.get("layer"), extras.get("tags")
    if grabbable is not None and not isinstance(grabbable, bool):
        raise ModelError(f"{where}: extras.grabbable: expected true or false, got {grabbable!r}")
    if mass is not None and not (_number(mass) and 0 < mass < 1e5):
        raise ModelError(f"{where}: extras.mass: expected kilograms > 0 and < 100000, got {mass!r}")
    if layer is not None and not (isinstance(layer, str) and layer):
        raise ModelError(f"{where}: extras.layer: expected a layer's name, got {layer!r}")
    if tags is not None and not (
        isinstance(tags, list) and all(isinstance(t, str) and t for t in tags)
    ):
        raise ModelError(f"{where}: extras.tags: expected a list of names, got {tags!r}")
    attach = extras.get("attach")
    if attach is not None and attach not in ("left", "right", "second"):
        raise ModelError(f"{where}: extras.attach: expected left, right or second, got {attach!r}")
    return BodyExtras(
        grabbable,
        None if mass is None else float(mass),
        layer,
        None if tags is None else tuple(tags),
        attach,
        _socket(extras.get("socket"), where),
    )


def _socket(given: object, where: str) -> SocketExtras | None:
    """A node's ``socket`` extras, checked."""
    if given is None:
        return None
    key = f"{where}: extras.socket"
    if not isinstance(given, dict):
        raise ModelError(f"{key}: expected an object (radius, accepts, return_after)")
    radius, accepts = given.get("radius", 0.1), given.get("accepts", [])
    back = given.get("return_after")
    if not (_number(radius) and 0 < radius < 100):
        raise ModelError(f"{key}.radius: expected metres > 0 and < 100, got {radius!r}")
    if not (isinstance(accepts, list) and all(isinstance(t, str) and t for t in accepts)):
        raise ModelError(f"{key}.accepts: expected a list of tags, got {accepts!r}")
    if back is not None and not (_number(back) and 0 <= back < 1e5):
        raise ModelError(f"{key}.return_after: expected seconds >= 0, got {back!r}")
    return SocketExtras(float(radius), tuple(accepts), None if back is None else float(back))


def _number(value: object) -> TypeIs[float]:
    """Whether `value` is a finite JSON number (not a boolean)."""
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _draws_or_collides(model: Model, node: ModelNode) -> bool:
    """Whether `node` or a node under it (not left out) has triangles."""
    if node.hint is Hint.NO_IMPORT:
        return False
    stated = node.physics
    if stated is not None and (stated.collider is not None or stated.trigger is not None):
        return True
    return bool(node.parts) or any(
        _draws_or_collides(model, model.nodes[child]) for child in node.children
    )
