"""Instance matrices with numpy: poses as rows in, OpenGL's column-major float matrices out.

Per entity a pose is PyGLM objects; per frame the renderer needs thousands of them as one
array (``spatial.vec3_rows`` and ``quat_rows`` read them in one copy a field, and LATE's
``DrawnPoses`` already holds them so). Everything here is whole-array arithmetic.
"""

from __future__ import annotations

from typing import TypeVar

import numpy as np

from playspace.render.meshes import F32Array
from playspace.spatial import FloatArray

NO_INSTANCES: F32Array = np.zeros((0, 16), dtype=np.float32)
Matrices = TypeVar("Matrices", FloatArray, F32Array)


def column_major(matrices: FloatArray) -> F32Array:
    """(N, 4, 4) matrices as the (N, 16) float32 rows OpenGL reads (column after column)."""
    return np.ascontiguousarray(matrices.transpose(0, 2, 1), dtype=np.float32).reshape(-1, 16)


def scale_matrix(x: float, y: float, z: float) -> FloatArray:
    """The 4x4 scale along x, y and z."""
    return np.diag([x, y, z, 1.0])


def trs_many(
    positions: FloatArray, rotations: FloatArray, scales: FloatArray, out: Matrices
) -> Matrices:
    """Translate * rotate * scale matrices into `out` (N, 4, 4), *column-major* as OpenGL
    wants them (``out[n, c]`` is column ``c``), worked out in float64 and stored in `out`'s
    precision (float32: the instances uploaded as they are). `rotations` are ``xyzw``
    quaternions of any non-zero length: each gives the rotation of ``q / |q|``, so an
    interpolated quaternion needs no normalising first."""
    x, y, z, w = (rotations[:, i] for i in range(4))
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
