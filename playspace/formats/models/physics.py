"""Physics a glTF file states itself, by the Khronos extension (``KHR_physics_rigid_bodies``
with ``KHR_implicit_shapes``) or its predecessor (``OMI_physics_body`` with
``OMI_physics_shape``), read as one description per node: a motion (a dynamic or kinematic
body and its mass), a collider and a trigger, each a primitive or a node's mesh (as triangles,
or their convex hull), with a surface's friction and restitution.

A file with these is taken at its word, as Godot's and Babylon's importers take it: a node
with a motion is a body (as a ``-rigid`` name hint), a collider under it is part of its
compound, a collider anywhere else is static, a trigger is a sensor.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from playspace.components.physics import Box, Capsule, Cylinder, Shape, Sphere
from playspace.components.visual import Surface
from playspace.formats.gltf import GltfFile
from playspace.formats.models.model import Geometry, ModelError, NodePhysics

KHR, KHR_SHAPES = "KHR_physics_rigid_bodies", "KHR_implicit_shapes"
OMI, OMI_SHAPES = "OMI_physics_body", "OMI_physics_shape"


MeshParts = Callable[[object, str], tuple[Surface, ...]]  # a mesh index: its surfaces


def node_physics(
    gltf: GltfFile, node: dict[str, Any], where: str, meshes: MeshParts
) -> NodePhysics | None:
    """What `node` says of its physics by either extension; None when it says nothing."""
    extensions = node.get("extensions")
    if not isinstance(extensions, dict):
        return None
    if isinstance(extensions.get(KHR), dict):
        return _khr(gltf, extensions[KHR], f"{where}.extensions.{KHR}", meshes)
    if isinstance(extensions.get(OMI), dict):
        return _omi(gltf, extensions[OMI], f"{where}.extensions.{OMI}", meshes)
    return None


def _khr(gltf: GltfFile, body: dict[str, Any], where: str, meshes: MeshParts) -> NodePhysics:
    motion = body.get("motion")
    mass = None
    if isinstance(motion, dict) and "mass" in motion:
        given = _number(gltf, motion["mass"], f"{where}.motion.mass")
        mass = None if given == 0 else given  # 0 stands for infinite: a kinematic body
    return NodePhysics(
        motion=isinstance(motion, dict),
        kinematic=isinstance(motion, dict) and bool(motion.get("isKinematic", False)),
        mass=mass,
        collider=_khr_geometry(gltf, body.get("collider"), f"{where}.collider", meshes),
        trigger=_khr_geometry(gltf, body.get("trigger"), f"{where}.trigger", meshes),
    )


def _khr_geometry(gltf: GltfFile, holder: object, where: str, meshes: MeshParts) -> Geometry | None:
    if not isinstance(holder, dict):
        return None
    geometry = holder.get("geometry")
    if not isinstance(geometry, dict):
        raise ModelError(f"{gltf.path}: {where}.geometry: expected a shape or a node")
    surface = _material(gltf, holder.get("physicsMaterial"))
    convex = bool(geometry.get("convexHull", False))
    if "shape" in geometry:
        shapes = _document_list(gltf, KHR_SHAPES, "shapes")
        shape = _shape(gltf, shapes, geometry["shape"], f"{where}.geometry.shape", khr=True)
        return Geometry(shape, (), convex, *surface)
    node = gltf.item("nodes", geometry.get("node"), f"{where}.geometry.node")
    if "mesh" not in node:
        raise ModelError(f"{gltf.path}: {where}.geometry.node: a node without a mesh")
    return Geometry(None, meshes(node["mesh"], f"{where}.geometry"), convex, *surface)


def _omi(gltf: GltfFile, body: dict[str, Any], where: str, meshes: MeshParts) -> NodePhysics:
    motion = body.get("motion")
    kind = motion.get("type", "static") if isinstance(motion, dict) else "static"
    mass = None
    if isinstance(motion, dict) and "mass" in motion:
        mass = _number(gltf, motion["mass"], f"{where}.motion.mass")
    shapes = _document_list(gltf, OMI_SHAPES, "shapes")
    parts: list[Geometry | None] = []
    for key in ("collider", "trigger"):
        holder = body.get(key)
        if not isinstance(holder, dict):
            parts.append(None)
            continue
        index, here = holder.get("shape"), f"{where}.{key}.shape"
        if type(index) is not int or not 0 <= index < len(shapes):
            raise ModelError(
                f"{gltf.path}: {here}: expected one of the file's shapes, got {index!r}"
            )
        shape = shapes[index]
        if shape.get("type") in ("convex", "trimesh"):
            mesh = shape.get(shape["type"], {}).get("mesh")
            surfaces = meshes(mesh, f"{here} ({shape['type']})")
            parts.append(Geometry(None, surfaces, shape["type"] == "convex"))
        else:
            parts.append(Geometry(_shape(gltf, shapes, index, here, khr=False)))
    return NodePhysics(kind in ("dynamic", "kinematic"), kind == "kinematic", mass, *parts)


def _shape(
    gltf: GltfFile, shapes: list[dict[str, Any]], index: object, where: str, khr: bool
) -> Shape:
    """A primitive of the document's shapes; a capsule's `height` is its straight part's in
    KHR_implicit_shapes and the whole capsule's in OMI_physics_shape."""
    if type(index) is not int or not 0 <= index < len(shapes):
        raise ModelError(f"{gltf.path}: {where}: expected one of the file's shapes, got {index!r}")
    shape = shapes[index]
    kind = shape.get("type")
    values = shape.get(kind, {}) if isinstance(kind, str) else {}
    try:
        if kind == "box":
            x, y, z = (float(v) for v in values.get("size", (1.0, 1.0, 1.0)))
            return Box((x, y, z))
        if kind == "sphere":
            return Sphere(float(values.get("radius", 0.5)))
        radius = float(values.get("radiusBottom", values.get("radius", 0.5)))
        height = float(values.get("height", 2.0 if kind == "capsule" else 1.0))
        if kind == "capsule":
            return Capsule(radius, height + 2 * radius if khr else height)
        if kind == "cylinder":
            return Cylinder(radius, height)
    except (TypeError, ValueError) as error:
        raise ModelError(f"{gltf.path}: {where}: shape {index} ({kind}): {error}") from None
    raise ModelError(
        f"{gltf.path}: {where}: shape {index} is a {kind!r}, not a primitive read here"
    )


def _material(gltf: GltfFile, index: object) -> tuple[float | None, float | None]:
    if index is None:
        return None, None
    materials = _document_list(gltf, KHR, "physicsMaterials")
    if type(index) is not int or not 0 <= index < len(materials):
        raise ModelError(f"{gltf.path}: a collider's physicsMaterial {index!r} is not in the file")
    material = materials[index]
    friction = material.get("dynamicFriction", material.get("staticFriction"))
    restitution = material.get("restitution")
    return (
        None if friction is None else _number(gltf, friction, "physicsMaterial friction"),
        None if restitution is None else _number(gltf, restitution, "physicsMaterial restitution"),
    )


def _document_list(gltf: GltfFile, extension: str, key: str) -> list[dict[str, Any]]:
    extensions = gltf.document.get("extensions")
    holder = extensions.get(extension) if isinstance(extensions, dict) else None
    found = holder.get(key, []) if isinstance(holder, dict) else []
    return [item for item in found if isinstance(item, dict)] if isinstance(found, list) else []


def _number(gltf: GltfFile, value: object, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not value >= 0:
        raise ModelError(f"{gltf.path}: {where}: expected a number >= 0, got {value!r}")
    return float(value)
