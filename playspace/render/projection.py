"""Projection and view matrices: numpy ``float64`` in the usual mathematical layout.

``clip = projection @ view @ world``, column vectors; OpenGL's conventions (the camera looks
down -Z with +Y up; depth maps the near plane to -1 and the far plane to +1). The renderer and
the OpenXR layer both build their matrices here, so a headset eye and the preview agree; each
converts to what it uploads (OpenGL's column-major order, float32) at its own edge.
"""

from __future__ import annotations

import math

import numpy as np

from playspace import spatial
from playspace.spatial import FloatArray, Pose

NEAR = 0.05  # metres: close enough for a hand held to the face
FAR = 200.0


def perspective(fovy: float, aspect: float, near: float = NEAR, far: float = FAR) -> FloatArray:
    """A symmetric perspective projection: vertical field of view `fovy` (radians), `aspect`
    the width over the height. The desktop preview uses this."""
    if not 0 < fovy < math.pi:
        raise ValueError(f"vertical field of view must be in (0, pi) radians, got {fovy!r}")
    if not aspect > 0:
        raise ValueError(f"aspect ratio must be > 0, got {aspect!r}")
    t = math.tan(fovy / 2)
    return frustum(-t * aspect, t * aspect, -t, t, near, far)


def fov_projection(
    angle_left: float,
    angle_right: float,
    angle_up: float,
    angle_down: float,
    near: float = NEAR,
    far: float = FAR,
) -> FloatArray:
    """The projection of one headset eye from OpenXR's four angles (radians; left and down are
    negative for an ordinary eye), built from their tangents.

    Headset eyes look off-centre (each sees more to its own side than towards the nose), so the
    frustum is asymmetric. pyopenxr's ``projection_from_fovf`` gets that case wrong (the
    frustum's edges do not land on +-1); this builds the matrix from the tangents directly.
    """
    return frustum(
        math.tan(angle_left),
        math.tan(angle_right),
        math.tan(angle_down),
        math.tan(angle_up),
        near,
        far,
    )


def frustum(
    left: float, right: float, down: float, up: float, near: float, far: float
) -> FloatArray:
    """The projection whose frustum passes through the tangents ``left..right`` across and
    ``down..up`` vertically at unit distance; the two functions above are both this one."""
    if not (right > left and up > down):
        raise ValueError(
            f"frustum needs right > left and up > down, got tangents {left, right, down, up}"
        )
    if not 0 < near < far:
        raise ValueError(f"clip planes need 0 < near < far, got near={near!r}, far={far!r}")
    return np.array(
        [
            [2 / (right - left), 0.0, (right + left) / (right - left), 0.0],
            [0.0, 2 / (up - down), (up + down) / (up - down), 0.0],
            [0.0, 0.0, -(far + near) / (far - near), -2 * far * near / (far - near)],
            [0.0, 0.0, -1.0, 0.0],
        ]
    )


def view_matrix(pose: Pose) -> FloatArray:
    """The view matrix of a camera at `pose` (world space): world into the camera's frame."""
    return spatial.pose_matrix(spatial.invert(pose))
