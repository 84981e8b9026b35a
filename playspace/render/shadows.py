"""The directional light's shadow map: where the light's box goes, and the depth drawn from it.

The sun is far away, so its shadow map is an orthographic box along the light. The box is
fitted to what is drawn (each piece of scenery by its own box, turned as it is; what moves
by a looser sphere: whatever could cast a shadow is inside it), cut across to `distance`
metres around the eye so a big world keeps its texels near the player, and kept whole along
the light (a caster behind the eye's box still shadows what is in it). The sides are rounded
out to half a metre: as the eye moves the box jumps rarely instead of creeping, and shadow
edges do not crawl.

Acne (a surface shadowing itself in stripes) is kept off twice: the map is drawn with a
slope-scaled polygon offset, and surfaces look themselves up a texel or so off the surface
along their normal (``u_normal_offset`` in the surface shader). Each lookup compares four
texels in hardware (a 2x2 percentage-closer filter); the high preset takes four such taps.

The scenery does not move, so its depth is drawn once into a map of its own and copied in
at the start of every frame; only what moves (props, bodies, hands) is drawn each frame on top.
Depth testing keeps the nearest of everything drawn whatever the order, so the map is the
same to the texel as one drawn whole: the copy costs what clearing did (1.2 ms for a 2048
map on llvmpipe), and the scenery's draws are saved. The scenery is drawn again when the
layout or the light's box changes (the box moves in half-metre steps, so rarely).
"""

from __future__ import annotations

import math
import struct
from collections.abc import Callable
from dataclasses import dataclass

import moderngl
import numpy as np

from playspace.render.materials import RGB
from playspace.render.meshes import F32Array
from playspace.spatial import FloatArray

SNAP = 0.5  # metres: the box's sides move in steps this size
SQRT3 = 3.0**0.5  # a 3x3 matrix's columns are at most this times its largest entry long
Vector = tuple[float, float, float]
Row = tuple[float, float, float, float]
Box = list[list[float]]  # a light-space box: its low corner, then its high one


def light_basis(towards_light: RGB) -> FloatArray:
    """Rows right, up and back of a camera looking along the light (3, 3)."""
    forward = -np.asarray(towards_light, dtype=np.float64)
    helper = np.array([0.0, 0.0, 1.0]) if abs(forward[1]) > 0.99 else np.array([0.0, 1.0, 0.0])
    right = np.cross(forward, helper)
    right /= np.linalg.norm(right)
    up = np.cross(right, forward)
    return np.stack([right, up, -forward])


@dataclass(frozen=True, slots=True)
class Extent:
    """Where a mesh's vertices lie in its own frame: the box around them (`low` and `high`
    corners) and the `radius` of the sphere around its origin that holds them."""

    low: Vector
    high: Vector
    radius: float

    @classmethod
    def of(cls, points: F32Array) -> Extent:
        """The extent of `points` (N, 3)."""
        low, high = points.min(axis=0).tolist(), points.max(axis=0).tolist()
        radius = float(np.linalg.norm(points, axis=1).max())
        return cls((low[0], low[1], low[2]), (high[0], high[1], high[2]), radius)


def scenery_bounds(rows: F32Array, extent: Extent, basis: FloatArray) -> FloatArray:
    """The light-space box (2, 3: low, high) around instances given as column-major model
    matrices (N, 16) of a mesh of `extent`: around each instance's own box, turned and scaled
    as the instance is, so an 8 m floor reaches 8 m across the light, not the 14 m of the
    sphere around it (the map's texels are spread over the scenery there is). Worked out
    when the scenery or the light changes, not every frame."""
    columns = rows.reshape(-1, 4, 4)[:, :3, :3].astype(np.float64)  # [instance, axis, xyz]
    low, high = np.asarray(extent.low), np.asarray(extent.high)
    centres = rows[:, 12:15] + np.einsum("j,njr->nr", (low + high) / 2, columns)
    along = np.abs(columns @ basis.T)  # each axis's length along the light's axes
    reach = np.einsum("nji,j->ni", along, (high - low) / 2)
    in_light = centres @ basis.T
    return np.array([(in_light - reach).min(axis=0), (in_light + reach).max(axis=0)])


def moving_bounds(rows: F32Array, radius: float, basis: FloatArray) -> FloatArray:
    """The light-space box (2, 3: low, high) around instances given as column-major model
    matrices (N, 16) of meshes whose vertices lie within `radius` of their origins, every one
    given the rows' largest possible scale (sqrt(3) times their largest matrix entry): a loose
    box, never too small, at a tenth of the cost of sizing each, for what moves and is fitted
    every frame."""
    # (3, N): numpy reduces each contiguous row fast, where (N, 3) along axis 0 is slow; in
    # the rows' own precision, as the GPU places them (a float64 product converts them first)
    centres = basis.astype(rows.dtype) @ rows[:, 12:15].T
    # the first three columns; their fourth entries are zeros
    largest = SQRT3 * float(np.abs(rows[:, :12]).max()) * radius
    return np.array([centres.min(axis=1) - largest, centres.max(axis=1) + largest])


def union(boxes: list[Box]) -> tuple[Vector, Vector]:
    """The light-space box around `boxes` (low, high); around the origin when there are none."""
    if not boxes:
        return (0.0, 0.0, 0.0), (0.0, 0.0, 0.0)
    lows, highs = [low for low, _ in boxes], [high for _, high in boxes]
    low = (min(v[0] for v in lows), min(v[1] for v in lows), min(v[2] for v in lows))
    return low, (max(v[0] for v in highs), max(v[1] for v in highs), max(v[2] for v in highs))


def finite_bounds(rows: F32Array, bounds: Callable[[F32Array], FloatArray]) -> Box | None:
    """`bounds` of `rows` (:func:`scenery_bounds` or :func:`moving_bounds`) as a :data:`Box`
    for :func:`union`, without the instances at a NaN or infinite place (a game's bad value),
    so the rest keep their shadows; None when none is left. Such a value is expected here, so
    numpy is not let to warn of it (once per run, from deep inside the renderer, naming
    nothing the game wrote)."""
    with np.errstate(invalid="ignore", over="ignore"):
        box = bounds(rows)
    if not math.isfinite(float(box.sum())):
        finite = rows[np.isfinite(rows).all(axis=1)]
        if not len(finite):
            return None
        box = bounds(finite)
    corners: Box = box.tolist()
    return corners


@dataclass(frozen=True, slots=True)
class LightBox:
    """The light's box for a frame: the first three rows of its world-to-clip matrix (the
    fourth is 0, 0, 0, 1: an orthographic box) and its larger side across the light, in
    metres. Python floats: a frame's light matrices are a handful of numbers, where each
    numpy call would cost more than the arithmetic (and several times that after a frame
    drawn on the CPU has left the caches cold)."""

    rows: tuple[Row, Row, Row]
    across: float

    def clip_bytes(self) -> bytes:
        """World to the light's clip space, as the column-major float32 a uniform takes."""
        return _column_major(self.rows)

    def lookup_bytes(self) -> bytes:
        """World to shadow-map texture space (xy the texel, z the depth to compare): clip
        space's [-1, 1] halved into [0, 1] on every axis."""
        x, y, z = ((a / 2, b / 2, c / 2, d / 2 + 0.5) for a, b, c, d in self.rows)
        return _column_major((x, y, z))

    def texel_metres(self, size: int) -> float:
        """How wide one texel of a `size` map is on the ground, at most, in metres."""
        return self.across / size


UNIT_BOX = LightBox(((1.0, 0.0, 0.0, 0.0), (0.0, 1.0, 0.0, 0.0), (0.0, 0.0, 1.0, 0.0)), 2.0)


def fit(low: Vector, high: Vector, basis: FloatArray, eye: Vector, distance: float) -> LightBox:
    """The light's box for the scene's light-space box (`low`, `high`), its sides cut to
    `distance` around the `eye` (world position) and snapped."""
    rows = basis.tolist()
    at = [r[0] * eye[0] + r[1] * eye[1] + r[2] * eye[2] for r in rows]
    lows, highs = list(low), list(high)
    for i in (0, 1):  # across the light
        lows[i], highs[i] = max(low[i], at[i] - distance), min(high[i], at[i] + distance)
        if lows[i] >= highs[i]:  # nothing drawn near the eye: the box around the eye itself
            lows[i], highs[i] = at[i] - distance, at[i] + distance
    lows = [math.floor(v / SNAP) * SNAP for v in lows]
    highs = [math.ceil(v / SNAP) * SNAP for v in highs]
    highs[2] += SNAP  # never a flat box
    # back (z) grows towards the light: the nearest to the light is the largest z, depth -1;
    # each row is the light's axis scaled into [-1, 1], so world points go straight in
    made = []
    for axis, (lo, hi, sign) in enumerate(zip(lows, highs, (1.0, 1.0, -1.0), strict=True)):
        scale = sign * 2.0 / (hi - lo)
        x, y, z = rows[axis]
        made.append((scale * x, scale * y, scale * z, -sign * (hi + lo) / (hi - lo)))
    return LightBox((made[0], made[1], made[2]), max(highs[0] - lows[0], highs[1] - lows[1]))


def _column_major(rows: tuple[Row, Row, Row]) -> bytes:
    """A 4x4 matrix given by its first three rows (the fourth 0, 0, 0, 1) as column-major
    float32 bytes."""
    (a, b, c, d), (e, f, g, h), (i, j, k, m) = rows
    return struct.pack("16f", a, e, i, 0.0, b, f, j, 0.0, c, g, k, 0.0, d, h, m, 1.0)


class ShadowMap:
    """A square depth texture the light's view is drawn into, sampled with comparison, and
    the scenery's depth alone (`scenery`) as drawn for `scenery_key` (the layout and the
    light's box), copied into the map at the start of a frame."""

    def __init__(self, ctx: moderngl.Context, size: int) -> None:
        self.size = size
        self.texture = ctx.depth_texture((size, size))
        self.texture.compare_func = "<="
        self.texture.filter = (moderngl.LINEAR, moderngl.LINEAR)
        self.texture.repeat_x = self.texture.repeat_y = False
        self.framebuffer = ctx.framebuffer(depth_attachment=self.texture)
        self._scenery_depth = ctx.depth_texture((size, size))
        self.scenery = ctx.framebuffer(depth_attachment=self._scenery_depth)
        self.scenery_key: object = None
        self.box = UNIT_BOX

    def normal_offset(self) -> float:
        """How far off the surface, in metres, surfaces look themselves up."""
        return 1.5 * self.box.texel_metres(self.size)

    def release(self) -> None:
        for owned in (self.framebuffer, self.texture, self.scenery, self._scenery_depth):
            owned.release()
