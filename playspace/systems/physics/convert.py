"""Between playspace's plain data and Rapier's types: poses, shapes, surfaces, the physics
error."""

from __future__ import annotations

import logging
from collections.abc import Sequence

import numpy as np
import rapier3d as rp

from playspace.components.physics import (
    Box,
    Capsule,
    ConvexHull,
    Cylinder,
    Shape,
    Sphere,
    Surface,
    TriangleMesh,
)
from playspace.spatial import FloatArray, Quat, Vec3

log = logging.getLogger(__name__)


class PhysicsError(ValueError):
    """An entity cannot enter the physics world as it is; nothing of it was added."""


Isometry = tuple[tuple[float, float, float], tuple[float, float, float, float]]


def reach_below(shape: Shape) -> float:
    """How far `shape` reaches below its centre (metres): where it stands on what it rests on."""
    if isinstance(shape, Sphere):
        return shape.radius
    if isinstance(shape, Box):
        return shape.size[1] / 2
    if isinstance(shape, Capsule | Cylinder):
        return shape.height / 2
    points = shape.points if isinstance(shape, ConvexHull) else shape.vertices
    return max((-y for _, y, _ in points), default=0.0)


def isometry(position: Vec3, rotation: Quat) -> Isometry:
    """A pose as the (translation, rotation xyzw) tuples Rapier takes."""
    return (position.x, position.y, position.z), (rotation.x, rotation.y, rotation.z, rotation.w)


def _poses_as_bytes() -> bool:
    """Whether ``Isometry3.to_bytes`` is what rapier3d 0.36.1 writes: an 8-byte header, then
    the rotation (x, y, z, w) and the translation as little-endian float32.

    Reading ``position`` and its bytes (two calls a body, where ``translation``, ``rotation``
    and their ``to_tuple`` are four) takes half the time, and the poses of a whole step become
    one array without a Python number each. The bindings do not document the layout, so it is
    checked once against a pose whose values are known; a version that writes another layout,
    or has no such call, is read value by value instead, as exact and slower."""
    known = (0.5, -0.5, 0.5, 0.5, 1.0, -2.0, 3.0)
    try:
        blob = rp.Isometry3(known[4:], rp.Rotation3.from_tuple(known[:4])).to_bytes()
    except (AttributeError, TypeError, ValueError):
        blob = b""
    if len(blob) == 36 and tuple(np.frombuffer(blob, "<f4")[2:].tolist()) == known:
        return True
    log.warning("rapier3d writes poses in a layout playspace does not know: read one by one")
    return False


POSES_AS_BYTES = _poses_as_bytes()


def read_poses(bodies: Sequence[rp.RigidBody]) -> FloatArray:
    """The poses of ``bodies`` as (N, 7) rows: rotation x, y, z, w then translation x, y, z,
    exactly the float32 values ``to_tuple`` gives, widened."""
    if POSES_AS_BYTES:
        blob = b"".join([body.position.to_bytes() for body in bodies])
        return np.frombuffer(blob, "<f4").reshape(-1, 9)[:, 2:].astype(np.float64)
    rows = [[*body.rotation.to_tuple(), *body.translation.to_tuple()] for body in bodies]
    return np.array(rows, dtype=np.float64).reshape(-1, 7)


def shared_shape(shape: Shape) -> rp.SharedShape:
    """The Rapier shape of a playspace shape (full extents and total heights converted)."""
    if isinstance(shape, Sphere):
        return rp.SharedShape.ball(shape.radius)
    if isinstance(shape, Box):
        x, y, z = shape.size
        return rp.SharedShape.cuboid(x / 2, y / 2, z / 2)
    if isinstance(shape, Capsule):
        return rp.SharedShape.capsule_y(shape.height / 2 - shape.radius, shape.radius)
    if isinstance(shape, Cylinder):
        return rp.SharedShape.cylinder(shape.height / 2, shape.radius)
    if isinstance(shape, ConvexHull):
        hull = rp.SharedShape.convex_hull(list(shape.points))
        if hull is None:
            raise PhysicsError("convex hull points are all in a plane: no hull can be built")
        return hull
    if isinstance(shape, TriangleMesh):
        return rp.SharedShape.trimesh(list(shape.vertices), list(shape.triangles))
    raise PhysicsError(f"not a collider shape: {shape!r}")


def hull_surface(hull: rp.SharedShape) -> Surface:
    """The triangles of a hull Rapier built (:func:`shared_shape` of a ``ConvexHull``), read
    back from the engine so that what is drawn is what collides; counter-clockwise seen from
    outside, as Rapier winds them. Read-only: the same arrays are handed to every reader.

    These are Rapier's faces, which also give the hull's mass. Rapier merges a point that is
    nearly in a face into that face (a millimetre off a metre-wide hull), yet its ray casts
    and contacts still reach such a point, up to that far outside the faces drawn."""
    polyhedron = hull.as_convex_polyhedron()
    assert polyhedron is not None, "shared_shape builds every ConvexHull as a polyhedron"
    vertices, triangles = polyhedron.to_trimesh()
    surface = (np.asarray(vertices, dtype=np.float32), np.asarray(triangles, dtype=np.uint32))
    for array in surface:
        array.flags.writeable = False
    return surface
