"""The colliders of a model's nodes: what a node's name hint asks for (its triangles, their
hull, or a primitive fitted around it) and what a physics extension states (a primitive scaled
by its node, a mesh, a trigger as a sensor), each placed in its entity's frame.

A node's collider is made once per placement and kept (:data:`KEPT_SHAPES`), so a level
reloaded or a prop spawned again shares its shapes, and what physics built of them. A body
cannot carry triangles (they have no inside): under one, a ``-col`` collides as its hull, as
Godot's importer makes it convex there.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from playspace import spatial
from playspace.components.physics import (
    Box,
    Capsule,
    Collider,
    ConvexHull,
    Cylinder,
    Shape,
    Sphere,
    TriangleMesh,
)
from playspace.components.visual import Surface
from playspace.formats.models import Hint, ModelNode
from playspace.formats.models.model import Geometry, Matrix, taken_apart, transformed
from playspace.spatial import Pose

ENVIRONMENT = "environment"
KEPT_SHAPES = 4096  # colliders kept made, by node and placement
_SHAPES: dict[tuple[object, ...], tuple[Shape, Pose]] = {}


def collides(node: ModelNode) -> bool:
    """Whether `node` has a collider of its own: by its name's hint or its physics extension."""
    stated = node.physics
    return node.hint.collides or (
        stated is not None and (stated.collider is not None or stated.trigger is not None)
    )


def colliders_of(
    node: ModelNode, relative: Matrix, surfaces: list[Surface], movable: bool
) -> list[Collider]:
    """`node`'s colliders, where `relative` puts it in its entity: its hint's, and what its
    physics extension states (a trigger as a sensor); for a body, triangles made hulls."""
    found = []
    if node.hint.collides:
        shape, offset = _collider_of(node, relative, surfaces)
        found.append(Collider(_movable(shape) if movable else shape, offset, ENVIRONMENT))
    stated = node.physics
    if stated is None:
        return found
    for geometry, sensor in ((stated.collider, False), (stated.trigger, True)):
        if geometry is None:
            continue
        shape, offset = _stated_shape(geometry, relative)
        collider = Collider(_movable(shape) if movable else shape, offset, ENVIRONMENT, sensor)
        if geometry.friction is not None:
            collider = replace(collider, friction=geometry.friction)
        if geometry.restitution is not None:
            collider = replace(collider, restitution=geometry.restitution)
        found.append(collider)
    return found


def _stated_shape(geometry: Geometry, relative: Matrix) -> tuple[Shape, Pose]:
    """A physics extension's geometry placed by `relative`: a primitive scaled by its node's
    scale (its size, whatever the sign, as the extension says), or the mesh's triangles."""
    translation, rotation, scale = taken_apart(relative)
    offset = Pose(spatial.vec3(*translation), spatial.quat_from_xyzw(rotation))
    sx, sy, sz = (abs(v) for v in scale)
    shape = geometry.shape
    if isinstance(shape, Box):
        x, y, z = shape.size
        return Box((x * sx, y * sy, z * sz)), offset
    if isinstance(shape, Sphere):
        return Sphere(shape.radius * max(sx, sy, sz)), offset
    if isinstance(shape, Capsule):
        return Capsule(shape.radius * max(sx, sz), shape.height * sy), offset
    if isinstance(shape, Cylinder):
        return Cylinder(shape.radius * max(sx, sz), shape.height * sy), offset
    baked = [transformed(surface, relative) for surface in geometry.surfaces]
    return _mesh_shape(baked, geometry.convex), Pose.identity()


def _collider_of(node: ModelNode, relative: Matrix, surfaces: list[Surface]) -> tuple[Shape, Pose]:
    """The collider a hinted node asks for, made once per node and placement: a model spawned
    again (a level reloaded, a prop spawned many times) shares its shapes, and what physics
    built of them."""
    key = (node.parts, node.hint, relative.tobytes())
    made = _SHAPES.pop(key, None) or _shape(node, surfaces)
    _SHAPES[key] = made
    while len(_SHAPES) > KEPT_SHAPES:
        del _SHAPES[next(iter(_SHAPES))]
    return made


def _shape(node: ModelNode, surfaces: list[Surface]) -> tuple[Shape, Pose]:
    """The collider a hinted node asks for, from its surfaces as placed in its entity (the
    reader made sure it has some)."""
    if node.hint in (Hint.COLLIDER, Hint.COLLIDER_ONLY, Hint.CONVEX, Hint.CONVEX_ONLY):
        convex = node.hint in (Hint.CONVEX, Hint.CONVEX_ONLY)
        return _mesh_shape(surfaces, convex), Pose.identity()
    points = np.concatenate([s.positions for s in surfaces]).astype(np.float64)
    low, high = points.min(axis=0), points.max(axis=0)
    centre = Pose(spatial.vec3(*((low + high) / 2)), spatial.identity())
    size = np.maximum(high - low, 1e-3)
    if node.hint is Hint.BOX:
        return Box((float(size[0]), float(size[1]), float(size[2]))), centre
    if node.hint is Hint.SPHERE:
        return Sphere(float(size.max()) / 2), centre
    radius = float(max(size[0], size[2])) / 2
    return Capsule(radius, max(float(size[1]), 2 * radius + 1e-3)), centre


def _mesh_shape(surfaces: list[Surface], convex: bool) -> Shape:
    """`surfaces` as one collider: their triangles, or the convex hull of their points."""
    points = np.concatenate([s.positions for s in surfaces]).astype(np.float64)
    vertices = tuple(map(tuple, points.tolist()))
    if convex:
        return ConvexHull(vertices)
    triangles, offset = [], 0
    for surface in surfaces:
        triangles.append(surface.triangles.astype(np.int64) + offset)
        offset += len(surface.positions)
    faces = np.concatenate(triangles).tolist()
    return TriangleMesh(vertices, tuple((int(a), int(b), int(c)) for a, b, c in faces))


def _movable(shape: Shape) -> Shape:
    """A shape a dynamic body may carry: triangles have no inside, so a ``-col`` under a
    ``-rigid`` collides as its hull (as Godot's importer makes it convex there)."""
    if isinstance(shape, TriangleMesh):
        return ConvexHull(shape.vertices)
    return shape
