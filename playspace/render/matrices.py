"""Instance matrices with numpy: poses in, OpenGL's column-major float matrices out.

Per entity a pose is PyGLM objects; per frame the renderer needs thousands of them as one
array. ``glm.array`` packs a list of PyGLM vectors or quaternions in C, and numpy reads that
buffer without a copy, so getting N poses into numpy costs one list comprehension a field.
Everything after that is whole-array arithmetic.
"""

from __future__ import annotations

import numpy as np

from playspace import spatial
from playspace.render.meshes import F32Array
from playspace.spatial import FloatArray

try:
    from pyglm import glm
except ImportError:  # PyGLM 2.7 has only the top-level module
    import glm  # type: ignore[no-redef]

NO_INSTANCES: F32Array = np.zeros((0, 16), dtype=np.float32)

# PyGLM stores a quaternion w first in memory; find the order once rather than assume it.
_PROBE = np.asarray(glm.array([spatial.quat(1.0, 2.0, 3.0, 4.0)]))[0]
_XYZW = [int(np.flatnonzero(value == _PROBE)[0]) for value in (1.0, 2.0, 3.0, 4.0)]


def column_major(matrices: FloatArray) -> F32Array:
    """(N, 4, 4) matrices as the (N, 16) float32 rows OpenGL reads (column after column)."""
    return np.ascontiguousarray(matrices.transpose(0, 2, 1), dtype=np.float32).reshape(-1, 16)


def scale_matrix(x: float, y: float, z: float) -> FloatArray:
    """The 4x4 scale along x, y and z."""
    return np.diag([x, y, z, 1.0])


def trs_many(
    positions: FloatArray, rotations: FloatArray, scales: FloatArray, out: FloatArray
) -> FloatArray:
    """Translate * rotate * scale matrices into `out` (N, 4, 4), *column-major* as OpenGL
    wants them (``out[n, c]`` is column ``c``). `rotations` are quaternions of any non-zero
    length, in PyGLM's memory order (as :func:`quaternions` reads them): each gives the
    rotation of ``q / |q|``, so an interpolated quaternion needs no normalising first."""
    x, y, z, w = (rotations[:, i] for i in _XYZW)
    k = 2.0 / np.einsum("ij,ij->i", rotations, rotations)
    x2, y2, z2 = x * k, y * k, z * k
    xx, yy, zz, xy, xz, yz = x * x2, y * y2, z * z2, x * y2, x * z2, y * z2
    wx, wy, wz = w * x2, w * y2, w * z2
    sx, sy, sz = scales[:, 0], scales[:, 1], scales[:, 2]
    out[:, 0, 0], out[:, 0, 1], out[:, 0, 2] = (1 - yy - zz) * sx, (xy + wz) * sx, (xz - wy) * sx
    out[:, 1, 0], out[:, 1, 1], out[:, 1, 2] = (xy - wz) * sy, (1 - xx - zz) * sy, (yz + wx) * sy
    out[:, 2, 0], out[:, 2, 1], out[:, 2, 2] = (xz + wy) * sz, (yz - wx) * sz, (1 - xx - yy) * sz
    out[:, :3, 3] = 0.0
    out[:, 3, :3] = positions
    out[:, 3, 3] = 1.0
    return out


def short_lerp(a: FloatArray, b: FloatArray, t: float) -> FloatArray:
    """Quaternions from `a` to `b` at `t` the short way round, not normalised (:func:`trs_many`
    normalises): normalised lerp, which engines use to draw between fixed steps. A body turns a
    few degrees in a step, where this and slerp differ by a few millionths of a radian (and
    not at all at t = 0.5), for a fifth of slerp's numpy calls. Any component order."""
    flip = np.copysign(t, np.einsum("ij,ij->i", a, b))[:, None]
    mixed: FloatArray = a * (1.0 - t) + b * flip
    return mixed


def vectors(values: list[spatial.Vec3]) -> FloatArray:
    """(N, 3) from PyGLM vectors in one copy (``glm.array`` packs them in C)."""
    return np.asarray(glm.array(values)) if values else np.zeros((0, 3))


def quaternions(values: list[spatial.Quat]) -> FloatArray:
    """(N, 4) from PyGLM quaternions in one copy, in PyGLM's memory order (w first): the
    matrices read the components through `_XYZW`, and lerp does not mind the order."""
    return np.asarray(glm.array(values)) if values else np.zeros((0, 4))
