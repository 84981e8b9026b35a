"""The directional light's shadow map: where the light's box goes, and the depth drawn from it.

The sun is far away, so its shadow map is an orthographic box along the light. The box is
fitted to what is drawn (every instance's bounding sphere, so whatever could cast a shadow
is inside it), cut across to `distance` metres around the eye so a big world keeps its
texels near the player, and kept whole along the light (a caster behind the eye's box
still shadows what is in it). The sides are rounded out to half a metre: as the eye moves
the box jumps rarely instead of creeping, and shadow edges do not crawl.

Acne (a surface shadowing itself in stripes) is kept off twice: the map is drawn with a
slope-scaled polygon offset, and surfaces look themselves up a texel or so off the surface
along their normal (``u_normal_offset`` in the surface shader). Each lookup compares four
texels in hardware (a 2x2 percentage-closer filter); the high preset takes four such taps.
"""

from __future__ import annotations

import math

import moderngl
import numpy as np

from playspace.render.materials import RGB
from playspace.render.meshes import F32Array
from playspace.spatial import FloatArray

SNAP = 0.5  # metres: the box's sides move in steps this size
SQRT3 = 3.0**0.5  # a 3x3 matrix's columns are at most this times its largest entry long
# Clip space [-1, 1] to texture space [0, 1] on every axis.
TO_TEXTURE = np.array(
    [[0.5, 0, 0, 0.5], [0, 0.5, 0, 0.5], [0, 0, 0.5, 0.5], [0, 0, 0, 1.0]], dtype=np.float64
)


def light_basis(towards_light: RGB) -> FloatArray:
    """Rows right, up and back of a camera looking along the light (3, 3)."""
    forward = -np.asarray(towards_light, dtype=np.float64)
    helper = np.array([0.0, 0.0, 1.0]) if abs(forward[1]) > 0.99 else np.array([0.0, 1.0, 0.0])
    right = np.cross(forward, helper)
    right /= np.linalg.norm(right)
    up = np.cross(right, forward)
    return np.stack([right, up, -forward])


def instance_bounds(
    rows: F32Array, radius: float, basis: FloatArray, *, exact: bool = True
) -> FloatArray:
    """The light-space box (2, 3: low, high) around instances given as column-major model
    matrices (N, 16) of a mesh whose vertices lie within `radius` of its origin. `exact`
    sizes each instance by its own scale; otherwise every instance gets the batch's largest
    possible one (sqrt(3) times its largest matrix entry: a looser box, at a tenth of the cost,
    for what moves and is fitted every frame)."""
    # (3, N): numpy reduces each contiguous row fast, where (N, 3) along axis 0 is slow; in
    # the rows' own precision, as the GPU places them (a float64 product converts them first)
    centres = basis.astype(rows.dtype) @ rows[:, 12:15].T
    if exact:
        matrices = rows.reshape(-1, 4, 4)
        scale = np.sqrt(np.einsum("nij,nij->ni", matrices[:, :3, :3], matrices[:, :3, :3]))
        reach = scale.max(axis=1) * radius
        return np.array([(centres - reach).min(axis=1), (centres + reach).max(axis=1)])
    # the first three columns; their fourth entries are zeros
    largest = SQRT3 * float(np.abs(rows[:, :12]).max()) * radius
    return np.array([centres.min(axis=1) - largest, centres.max(axis=1) + largest])


def fit(bounds: FloatArray, basis: FloatArray, eye: FloatArray, distance: float) -> FloatArray:
    """The light's clip matrix (world to clip, 4x4) for the scene's light-space `bounds`
    (2, 3), its sides cut to `distance` around the `eye` (world position) and snapped.
    Worked out in Python floats: a frame's dozens of numpy calls on three numbers cost four
    times as much."""
    low, high = bounds.tolist()
    at = (basis @ eye).tolist()
    for i in (0, 1):  # across the light
        low[i], high[i] = max(low[i], at[i] - distance), min(high[i], at[i] + distance)
        if low[i] >= high[i]:  # nothing drawn near the eye: the box around the eye itself
            low[i], high[i] = at[i] - distance, at[i] + distance
    low = [math.floor(v / SNAP) * SNAP for v in low]
    high = [math.ceil(v / SNAP) * SNAP for v in high]
    high[2] += SNAP  # never a flat box
    (lx, ly, lz), (hx, hy, hz) = low, high
    # back (z) grows towards the light: the nearest to the light is the largest z, depth -1
    clip = np.array(
        [
            [2.0 / (hx - lx), 0.0, 0.0, -(hx + lx) / (hx - lx)],
            [0.0, 2.0 / (hy - ly), 0.0, -(hy + ly) / (hy - ly)],
            [0.0, 0.0, -2.0 / (hz - lz), (hz + lz) / (hz - lz)],
            [0.0, 0.0, 0.0, 1.0],
        ]
    )
    clip[:3, :3] = clip[:3, :3] @ basis  # into the light's frame first
    return clip


def texel_metres(clip: FloatArray, size: int) -> float:
    """How wide one texel of a `size` map is on the ground, at most, in metres."""
    across = min(_length(clip[0, :3]), _length(clip[1, :3]))  # 2 / width
    return 2.0 / across / size


def _length(vector: FloatArray) -> float:
    """The length of a 3-vector, in Python floats (numpy's norm costs four times as much)."""
    x, y, z = vector.tolist()
    return math.sqrt(x * x + y * y + z * z)


class ShadowMap:
    """A square depth texture the light's view is drawn into, sampled with comparison."""

    def __init__(self, ctx: moderngl.Context, size: int) -> None:
        self.size = size
        self.texture = ctx.depth_texture((size, size))
        self.texture.compare_func = "<="
        self.texture.filter = (moderngl.LINEAR, moderngl.LINEAR)
        self.texture.repeat_x = self.texture.repeat_y = False
        self.framebuffer = ctx.framebuffer(depth_attachment=self.texture)
        self.clip = np.eye(4)

    @property
    def lookup(self) -> FloatArray:
        """World to shadow-map texture space (xy the texel, z the depth to compare)."""
        lookup: FloatArray = TO_TEXTURE @ self.clip
        return lookup

    def normal_offset(self) -> float:
        """How far off the surface, in metres, surfaces look themselves up."""
        return 1.5 * texel_metres(self.clip, self.size)

    def release(self) -> None:
        self.framebuffer.release()
        self.texture.release()
