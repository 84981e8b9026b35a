"""Views: a camera pose plus a projection, the one thing a draw needs to know about the eye.

The preview draws one view; a headset draws one per eye, each with the asymmetric field of
view OpenXR reports as four angles (`XrFovf`). Matrices here are numpy ``float64`` arrays in
the usual mathematical layout (``clip = projection @ view @ world``, column vectors); the
renderer transposes them into OpenGL's column-major order at upload, and only there.

Projections follow OpenGL's conventions: the camera looks down -Z with +Y up, and depth maps
the near plane to -1 and the far plane to +1 in normalised device coordinates.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from playspace import spatial
from playspace.spatial import FloatArray, Pose

PREVIEW_FOVY = math.radians(90.0)  # vertical field of view of the preview and of captures
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


def pose_matrix(pose: Pose) -> FloatArray:
    """The 4x4 matrix of `pose`: from the pose's frame into its parent's."""
    x, y, z, w = spatial.quat_to_xyzw(pose.rotation)
    p = pose.position
    return np.array(
        [
            [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y), p.x],
            [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x), p.y],
            [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y), p.z],
            [0.0, 0.0, 0.0, 1.0],
        ]
    )


def view_matrix(pose: Pose) -> FloatArray:
    """The view matrix of a camera at `pose` (world space): world into the camera's frame."""
    return pose_matrix(spatial.invert(pose))


@dataclass(frozen=True, slots=True)
class View:
    """One eye: where it is in the world (`pose`, looking down its -Z) and its `projection`."""

    pose: Pose
    projection: FloatArray

    def view_projection(self) -> FloatArray:
        """World space straight to clip space."""
        return self.projection @ view_matrix(self.pose)

    def centre(self) -> tuple[float, float]:
        """Where the eye's straight-ahead direction lands in normalised device coordinates:
        (0, 0) for a symmetric projection, off-centre for a headset eye. The vignette is drawn
        around this point, so it closes in on what the eye looks at."""
        p = self.projection
        return (-float(p[0, 2]), -float(p[1, 2]))


def preview_view(head: Pose, aspect: float, fovy: float = PREVIEW_FOVY) -> View:
    """The desktop preview's (and headless captures') view: the head's pose, a symmetric
    projection of `fovy` (90 degrees vertically by default)."""
    return View(head, perspective(fovy, aspect))
