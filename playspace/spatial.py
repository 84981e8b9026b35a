"""Poses and quaternions: the maths every system shares, with no state of its own.

Conventions
-----------
Right-handed, +Y up, -Z forward, radians, metres: OpenXR and OpenGL agree on all of these, so
tracked poses go straight into the world without a flip.

Quaternions are written ``(x, y, z, w)`` (vector part first), as OpenXR's ``XrQuaternionf``
writes them; numpy arrays of quaternions, instance buffers and scene files use the same order.
PyGLM's constructor is the odd one out: ``glm.dquat(w, x, y, z)`` takes the scalar first, and so
does its ``repr``. Never call it directly; build quaternions with :func:`quat` or
:func:`quat_from_xyzw` and read them with :func:`quat_to_xyzw`, so the order is decided here
once.

Two forms of every operation
----------------------------
Per entity, values are PyGLM double-precision objects (:data:`Vec3` = ``glm.dvec3``, :data:`Quat`
= ``glm.dquat``). PyGLM is C-backed: a rotation or a product costs well under 100 ns a call,
where numpy on a single vector costs microseconds (dispatch and allocation dominate; one
rotation written with ``np.cross`` is about 50 us). ``python benchmarks/spatial.py`` prints the
figures. Doubles keep positions far from the origin, and long chains of composed poses (rig
origin, tracking space, hand, held object), precise: float32 resolves only about 0.1 mm a
kilometre out, and loses more with each composition. Convert to float32 at the render boundary.
These functions call glm directly and check nothing they need not, so they suit inner loops.

In batches (instance buffers, velocity-history windows, bulk sync with the physics engine) the
``*_many`` functions take numpy ``float64`` arrays of shape ``(N, 3)`` for vectors and
``(N, 4)`` ``xyzw`` for quaternions, and work column by column with no Python loop over N: tens
of nanoseconds per element at N = 10,000. Their fixed cost is 10-20 us a call, so below a few
hundred rows a Python loop over the per-entity form is faster. They accept any array-like,
broadcast like numpy (a single ``(4,)`` quaternion against ``(N, 3)`` vectors, say) and always
return new ``float64`` arrays.

Both forms agree to rounding (the tests check every pair), so a system may move between them
freely.

Unit quaternions and validation
-------------------------------
Rotations are unit quaternions; ``q`` and ``-q`` are the same rotation. Functions that only
rotate (:func:`rotate`, :func:`yaw`, :func:`slerp`, ...) assume unit input and do not check it.
:func:`normalize` is the validation point for data from outside (tracking, scene files,
network): it raises :class:`ValueError` on a zero-length or non-finite quaternion, as a tracker
reports when it loses a device, instead of letting NaN spread through the world.

PyGLM objects are mutable. Nothing here mutates its arguments, and every result is a fresh
object, so values can be shared; do not mutate a :class:`Pose`'s fields in place.

Yaw
---
:func:`yaw` is the heading of a rotation's forward (-Z) direction about +Y: 0 looking down -Z,
positive turning left (counter-clockwise seen from above, -Z toward -X), in ``[-pi, pi]``. A
head looking straight up or down has no horizontal forward, so the heading is taken from the
horizontal parts of forward and up together: with ``f`` and ``u`` the rotated -Z and +Y,
``h = f - f.y * u`` and ``yaw = atan2(-h.x, -h.z)``. For rotations without roll and pitch within
+-90 degrees this is exactly the heading, and it stays continuous through straight up and down,
which is what snap turning and the rig's facing need.

>>> import math
>>> q = multiply(yaw_rotation(0.7), from_axis_angle(vec3(1, 0, 0), -math.pi / 2))
>>> round(yaw(q), 12)  # looking straight down, still facing 0.7 rad left of -Z
0.7
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeAlias

import numpy as np

try:
    from pyglm import glm
except ImportError:  # PyGLM 2.7, which pyproject allows, has only the top-level module
    import glm  # type: ignore[no-redef]

Vec3: TypeAlias = glm.dvec3
Quat: TypeAlias = glm.dquat
if TYPE_CHECKING:
    import numpy.typing as npt

    FloatArray: TypeAlias = npt.NDArray[np.float64]
    FloatSequence: TypeAlias = Sequence[float] | npt.NDArray[Any]
else:  # at run time an alias is only a name, and numpy.typing costs 15 ms of every start
    FloatArray = np.ndarray
    FloatSequence = Sequence[float] | np.ndarray

__all__ = [
    "FloatArray",
    "FloatSequence",
    "Pose",
    "Quat",
    "Vec3",
    "compose",
    "compose_many",
    "from_axis_angle",
    "from_axis_angle_many",
    "identity",
    "inverse",
    "inverse_many",
    "invert",
    "invert_many",
    "lerp_pose",
    "look_rotation",
    "look_rotation_many",
    "multiply",
    "multiply_many",
    "normalize",
    "normalize_many",
    "quat",
    "quat_from_xyzw",
    "quat_to_xyzw",
    "rotate",
    "rotate_many",
    "slerp",
    "slerp_many",
    "to_axis_angle",
    "to_axis_angle_many",
    "transform_direction",
    "transform_directions_many",
    "transform_point",
    "transform_points_many",
    "vec3",
    "vec3_from",
    "yaw",
    "yaw_many",
    "yaw_rotation",
]

# Lengths outside (_TINY, _HUGE) are rescaled before normalising, so squaring neither underflows
# nor overflows; only exact zeros and non-finite values are rejected.
_TINY = 1e-150
_HUGE = 1e150
# Below this sine of the angle between `up` and `forward`, look_rotation treats them as parallel.
_PARALLEL = 1e-9
# slerp falls back to normalised lerp when the quaternions' dot product exceeds this; the two
# differ there by far less than rounding.
_NLERP_DOT = 1.0 - 1e-9

# PyGLM's stubs give several double-precision operations the types of their single-precision or
# matrix twins (glm.inverse, glm.slerp, glm.cross, `dquat * dvec3`, ...) or leave them out
# (glm.length, `dquat / float`). These private names are the same callables with their true
# types, so the code below type-checks without casts and calls cost what glm's own calls cost.
_untyped_glm: Any = glm
_length: Callable[[Vec3 | Quat], float] = _untyped_glm.length
_inverse: Callable[[Quat], Quat] = _untyped_glm.inverse
_slerp: Callable[[Quat, Quat, float], Quat] = _untyped_glm.slerp
_angle_axis: Callable[[float, Vec3], Quat] = _untyped_glm.angleAxis
_cross: Callable[[Vec3, Vec3], Vec3] = _untyped_glm.cross
_mix: Callable[[Vec3, Vec3, float], Vec3] = _untyped_glm.mix
_basis: Callable[[Vec3, Vec3, Vec3], glm.dmat3] = _untyped_glm.dmat3
_rotate: Callable[[Quat, Vec3], Vec3] = operator.mul
_quat_div: Callable[[Quat, float], Quat] = operator.truediv
_quat_between: Callable[[Vec3, Vec3], Quat] = _untyped_glm.dquat

# Private operands, never returned, so their mutability cannot leak.
_FORWARD = glm.dvec3(0.0, 0.0, -1.0)
_UP = glm.dvec3(0.0, 1.0, 0.0)
_RIGHT = glm.dvec3(1.0, 0.0, 0.0)
_BACK = glm.dvec3(0.0, 0.0, 1.0)
_UP_ROW = (0.0, 1.0, 0.0)


# --- construction --------------------------------------------------------------------------


def vec3(x: float, y: float, z: float) -> Vec3:
    """A double-precision vector."""
    return glm.dvec3(x, y, z)


def vec3_from(seq: FloatSequence) -> Vec3:
    """A vector from any 3-sequence (tuple, list, numpy row); other lengths raise ValueError."""
    x, y, z = seq
    return glm.dvec3(x, y, z)


def quat(x: float, y: float, z: float, w: float) -> Quat:
    """A quaternion from components in OpenXR order (not glm's w-first order); not normalised."""
    return glm.dquat(w, x, y, z)


def quat_from_xyzw(seq: FloatSequence) -> Quat:
    """A quaternion from an ``(x, y, z, w)`` sequence such as an OpenXR pose or a numpy row."""
    x, y, z, w = seq
    return glm.dquat(w, x, y, z)


def quat_to_xyzw(q: Quat) -> tuple[float, float, float, float]:
    """The components in OpenXR order, for numpy, JSON and the XR layer."""
    return (q.x, q.y, q.z, q.w)


def identity() -> Quat:
    """A fresh no-rotation quaternion (a function, not a constant, because glm objects mutate)."""
    return glm.dquat()


# --- quaternions, per entity ---------------------------------------------------------------


def multiply(a: Quat, b: Quat) -> Quat:
    """The Hamilton product ``a * b``: the rotation that applies ``b`` first, then ``a``."""
    return a * b


def inverse(q: Quat) -> Quat:
    """The rotation that undoes ``q``: the conjugate for unit ``q``, divided by ``|q|^2`` else."""
    return _inverse(q)


def rotate(q: Quat, v: Vec3) -> Vec3:
    """``v`` rotated by unit ``q``."""
    return _rotate(q, v)


def length(v: Vec3) -> float:
    """The length of a vector."""
    return _length(v)


def cross(a: Vec3, b: Vec3) -> Vec3:
    """The cross product a x b (the point velocity w x r, for one)."""
    return _cross(a, b)


def rotation_between(a: Vec3, b: Vec3) -> Quat:
    """The shortest rotation that turns direction `a` onto direction `b` (neither zero)."""
    la, lb = _length(a), _length(b)
    if not (la > 0 and lb > 0 and math.isfinite(la) and math.isfinite(lb)):
        raise ValueError(f"rotation_between needs two non-zero finite vectors, got {a}, {b}")
    return _quat_between(a / la, b / lb)


def normalize(q: Quat) -> Quat:
    """``q`` scaled to unit length; the place to validate quaternions from outside.

    Raises ValueError when ``q`` is all zeros or has a NaN or infinite component, which is what
    trackers report for a lost device. Very small or very large finite quaternions are fine.
    """
    n = _length(q)
    if not _TINY < n < _HUGE:  # also NaN
        q = _quat_div(q, _largest_component(quat_to_xyzw(q), "quaternion (x, y, z, w)"))
        n = _length(q)
    return _quat_div(q, n)


def _unit(v: Vec3, what: str) -> Vec3:
    """``v`` scaled to unit length; ValueError naming ``what`` when zero or non-finite."""
    n = _length(v)
    if not _TINY < n < _HUGE:  # also NaN
        v = v / _largest_component((v.x, v.y, v.z), what)
        n = _length(v)
    return v / n


def _largest_component(components: tuple[float, ...], what: str) -> float:
    """The largest magnitude, to rescale by; ValueError when non-finite or all zero."""
    if not all(map(math.isfinite, components)):
        raise ValueError(f"{what} {components} has non-finite components")
    biggest = max(map(abs, components))
    if biggest == 0.0:
        raise ValueError(f"{what} {components} has zero length")
    return biggest


def from_axis_angle(axis: Vec3, angle: float) -> Quat:
    """The rotation by ``angle`` radians about ``axis`` (any length), right-hand rule.

    Raises ValueError for a zero or non-finite axis.
    """
    return _angle_axis(angle, _unit(axis, "rotation axis"))


def to_axis_angle(q: Quat) -> tuple[Vec3, float]:
    """The unit axis and angle in ``[0, pi]`` of ``q`` (any length).

    ``q`` and ``-q`` give the same answer. With no rotation the axis is +Y, the yaw axis.
    """
    x, y, z, w = q.x, q.y, q.z, q.w
    if w < 0.0:
        x, y, z, w = -x, -y, -z, -w
    s = math.sqrt(x * x + y * y + z * z)
    if s <= _TINY:
        return glm.dvec3(0.0, 1.0, 0.0), 2.0 * math.atan2(s, w)
    return glm.dvec3(x / s, y / s, z / s), 2.0 * math.atan2(s, w)


def yaw(q: Quat) -> float:
    """Heading about +Y in ``[-pi, pi]``, positive to the left; see the module docstring."""
    f = _rotate(q, _FORWARD)
    h = f - f.y * _rotate(q, _UP)
    return math.atan2(-h.x, -h.z)


def yaw_rotation(angle: float) -> Quat:
    """The rotation about +Y by ``angle``: a turn to the left for positive angles."""
    return _angle_axis(angle, _UP)


def slerp(a: Quat, b: Quat, t: float) -> Quat:
    """Constant-speed interpolation from unit ``a`` (t=0) to unit ``b`` (t=1), the short way.

    At t=1 the result may be ``-b``, the same rotation.
    """
    return _slerp(a, b, t)


def _fallback_right(back: Vec3) -> Vec3:
    """A unit vector perpendicular to unit ``back``: world +X made perpendicular, or +Z."""
    axis = _RIGHT if abs(back.x) < 0.9 else _BACK
    r = axis - glm.dot(axis, back) * back
    return r / _length(r)


def look_rotation(forward: Vec3, up: Vec3 | None = None) -> Quat:
    """The rotation whose -Z axis points along ``forward`` and whose +Y is as near ``up`` as it
    can be (world +Y when ``up`` is None).

    When ``forward`` is parallel to ``up``, or ``up`` has no usable direction (zero, not finite,
    or a length outside 1e-150..1e150), the result's +X is world +X made perpendicular to
    ``forward`` (world +Z when ``forward`` lies along X), so looking straight up or down gives a
    plain pitch. Raises ValueError for a zero or non-finite ``forward``.
    """
    back = -_unit(forward, "forward")
    if up is None:
        up = _UP
    up_length = _length(up)
    if _TINY < up_length < _HUGE:
        right = _cross(up / up_length, back)  # its length is the sine of the angle between
        r = _length(right)
        right = right / r if r > _PARALLEL else _fallback_right(back)
    else:
        right = _fallback_right(back)
    return glm.dquat(_basis(right, _cross(back, right), back))


# --- poses, per entity ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Pose:
    """A position and an orientation: where a frame sits in its parent, and how it is turned.

    As a transform it maps points from its own frame into its parent's: rotate, then translate.
    """

    position: Vec3
    rotation: Quat

    @classmethod
    def identity(cls) -> Pose:
        """A fresh pose at the origin with no rotation."""
        return cls(glm.dvec3(), glm.dquat())


def compose(a: Pose, b: Pose) -> Pose:
    """``a`` after ``b``: with ``b`` given in ``a``'s frame, ``b`` in ``a``'s parent frame.

    For example ``compose(origin, head)`` takes the tracked head from tracking space to world.
    """
    return Pose(a.position + _rotate(a.rotation, b.position), a.rotation * b.rotation)


def invert(pose: Pose) -> Pose:
    """The pose that undoes ``pose``: ``compose(invert(p), p)`` is the identity."""
    q = _inverse(pose.rotation)
    return Pose(-_rotate(q, pose.position), q)


def transform_point(pose: Pose, p: Vec3) -> Vec3:
    """Point ``p`` in ``pose``'s frame, expressed in the parent frame."""
    return pose.position + _rotate(pose.rotation, p)


def transform_direction(pose: Pose, d: Vec3) -> Vec3:
    """Direction ``d`` in ``pose``'s frame, in the parent frame: rotated, not translated."""
    return _rotate(pose.rotation, d)


def lerp_pose(a: Pose, b: Pose, t: float) -> Pose:
    """Between ``a`` (t=0) and ``b`` (t=1): linear position, slerped rotation.

    Renders the state between two fixed steps with ``t`` the step's overstep fraction.
    """
    return Pose(_mix(a.position, b.position, t), _slerp(a.rotation, b.rotation, t))


# --- batches -------------------------------------------------------------------------------
#
# Each function splits its inputs into (N,) columns (views, no copies), computes on those and
# stacks the result once. Besides being the natural way to write the formulas, this keeps
# temporaries few and small: glibc hands freed memory above 128 KiB back to the system (an
# (N, 4) float64 array passes that at N = 4,096) and page-faults it in again on the next
# allocation, which costs more than the arithmetic (see benchmarks/spatial.py).

_Columns: TypeAlias = tuple[FloatArray, ...]


def _columns(a: npt.ArrayLike, width: int, what: str) -> _Columns:
    """The columns of ``a`` as float64, or a ValueError when its last axis is not ``width``."""
    arr = np.asarray(a, dtype=np.float64)
    if arr.ndim == 0 or arr.shape[-1] != width:
        raise ValueError(f"{what} must have shape (..., {width}); got {arr.shape}")
    return tuple(arr[..., i] for i in range(width))


def _stack(*columns: FloatArray | float) -> FloatArray:
    """Columns (broadcast together) as the last axis of one new array."""
    out = np.empty((*np.broadcast(*columns).shape, len(columns)))
    for i, column in enumerate(columns):
        out[..., i] = column
    return out


def _inverse_lengths(columns: _Columns, what: str) -> FloatArray:
    """``1 / |row|`` for each row; ValueError naming the first zero or non-finite row.

    Rows too small or large to square safely are measured after dividing by their largest
    component, as :func:`normalize` does.
    """
    with np.errstate(over="ignore", under="ignore"):  # such rows are handled below
        n = np.sqrt(sum(c * c for c in columns))
    ok = (n > _TINY) & (n < _HUGE)
    if ok.all():
        return 1.0 / n
    rows = _stack(*columns)
    biggest = np.max(np.abs(rows), axis=-1)
    bad = ~np.isfinite(rows).all(axis=-1) | (biggest == 0.0)
    if bad.any():
        row = int(np.flatnonzero(bad)[0])
        values = tuple(float(c) for c in rows.reshape(-1, len(columns))[row])
        why = "has zero length" if np.isfinite(values).all() else "has non-finite components"
        raise ValueError(f"{what} at row {row} {why}: {values}")
    scale = np.where(ok, 1.0, biggest)
    return 1.0 / (scale * np.sqrt(sum((c / scale) ** 2 for c in columns)))


def _rotate_columns(q: _Columns, v: _Columns) -> _Columns:
    """Columns of vectors ``v`` rotated by unit quaternions ``q``."""
    x, y, z, w = q
    vx, vy, vz = v
    # v' = v + 2w(u x v) + 2u x (u x v), written as v + w t + u x t with t = 2(u x v).
    tx = 2.0 * (y * vz - z * vy)
    ty = 2.0 * (z * vx - x * vz)
    tz = 2.0 * (x * vy - y * vx)
    return (
        vx + w * tx + (y * tz - z * ty),
        vy + w * ty + (z * tx - x * tz),
        vz + w * tz + (x * ty - y * tx),
    )


def _multiply_columns(a: _Columns, b: _Columns) -> _Columns:
    ax, ay, az, aw = a
    bx, by, bz, bw = b
    return (
        aw * bx + ax * bw + ay * bz - az * by,
        aw * by - ax * bz + ay * bw + az * bx,
        aw * bz + ax * by - ay * bx + az * bw,
        aw * bw - ax * bx - ay * by - az * bz,
    )


def _inverse_columns(q: _Columns) -> _Columns:
    x, y, z, w = q
    inv = 1.0 / (x * x + y * y + z * z + w * w)
    return (-x * inv, -y * inv, -z * inv, w * inv)


def multiply_many(a: npt.ArrayLike, b: npt.ArrayLike) -> FloatArray:
    """Row-wise Hamilton products ``a * b`` (``b`` applied first) of xyzw quaternions."""
    return _stack(*_multiply_columns(_columns(a, 4, "a"), _columns(b, 4, "b")))


def inverse_many(q: npt.ArrayLike) -> FloatArray:
    """Row-wise inverses: conjugates divided by squared length (rows must be nonzero)."""
    return _stack(*_inverse_columns(_columns(q, 4, "q")))


def rotate_many(q: npt.ArrayLike, v: npt.ArrayLike) -> FloatArray:
    """Vectors ``v`` (N, 3) rotated by unit quaternions ``q`` (N, 4), or by one (4,) for all."""
    return _stack(*_rotate_columns(_columns(q, 4, "q"), _columns(v, 3, "v")))


def normalize_many(q: npt.ArrayLike) -> FloatArray:
    """Rows scaled to unit length; ValueError naming the first zero or non-finite row."""
    columns = _columns(q, 4, "q")
    inv = _inverse_lengths(columns, "quaternion")
    return _stack(*(c * inv for c in columns))


def from_axis_angle_many(axes: npt.ArrayLike, angles: npt.ArrayLike) -> FloatArray:
    """Rotations by ``angles`` (N,) about ``axes`` (N, 3, any length); ValueError on zero axes."""
    ax, ay, az = _columns(axes, 3, "axes")
    half = 0.5 * np.asarray(angles, dtype=np.float64)
    s = np.sin(half) * _inverse_lengths((ax, ay, az), "rotation axis")
    return _stack(ax * s, ay * s, az * s, np.cos(half))


def to_axis_angle_many(q: npt.ArrayLike) -> tuple[FloatArray, FloatArray]:
    """Unit axes (N, 3) and angles (N,) in ``[0, pi]``; no rotation gives axis +Y."""
    x, y, z, w = _columns(q, 4, "q")
    s = np.sqrt(x * x + y * y + z * z)
    angles = 2.0 * np.arctan2(s, np.abs(w))
    tiny = s <= _TINY
    # Dividing by -s where w < 0 takes the representative with w >= 0, so angles stay <= pi.
    inv = np.where(w < 0.0, -1.0, 1.0) / np.where(tiny, 1.0, s)
    axes = _stack(x * inv, y * inv, z * inv)
    if tiny.any():
        axes[tiny] = (0.0, 1.0, 0.0)
    return axes, angles


def yaw_many(q: npt.ArrayLike) -> FloatArray:
    """Headings about +Y, as :func:`yaw` defines them, of unit quaternions."""
    x, y, z, w = _columns(q, 4, "q")
    # Columns of the rotation matrix: u = image of +Y, b = image of +Z (forward is -b).
    ux = 2.0 * (x * y - w * z)
    uz = 2.0 * (y * z + w * x)
    bx = 2.0 * (x * z + w * y)
    by = 2.0 * (y * z - w * x)
    bz = 1.0 - 2.0 * (x * x + y * y)
    # h = f - f.y u with f = -b; yaw = atan2(-h.x, -h.z).
    return np.arctan2(bx - by * ux, bz - by * uz)


def slerp_many(a: npt.ArrayLike, b: npt.ArrayLike, t: npt.ArrayLike) -> FloatArray:
    """Row-wise :func:`slerp` of unit quaternions, ``t`` a scalar or (N,); the short way."""
    qa, qb = _columns(a, 4, "a"), _columns(b, 4, "b")
    t = np.asarray(t, dtype=np.float64)
    d = sum(ca * cb for ca, cb in zip(qa, qb, strict=True))
    sign = np.where(d < 0.0, -1.0, 1.0)  # -b is the same rotation, and the shorter way round
    d = np.minimum(np.abs(d), 1.0)
    near = d > _NLERP_DOT
    theta = np.arccos(d)
    sin_theta = np.where(near, 1.0, np.sqrt((1.0 - d) * (1.0 + d)))
    wa = np.where(near, 1.0 - t, np.sin((1.0 - t) * theta) / sin_theta)
    wb = np.where(near, t, np.sin(t * theta) / sin_theta) * sign
    out = tuple(wa * ca + wb * cb for ca, cb in zip(qa, qb, strict=True))
    # Exact slerp of unit quaternions is unit; this removes rounding and finishes the nlerp.
    inv = 1.0 / np.sqrt(sum(c * c for c in out))
    return _stack(*(c * inv for c in out))


def compose_many(
    pa: npt.ArrayLike, qa: npt.ArrayLike, pb: npt.ArrayLike, qb: npt.ArrayLike
) -> tuple[FloatArray, FloatArray]:
    """Row-wise :func:`compose`: positions and rotations of ``a`` after ``b``."""
    rotation_a = _columns(qa, 4, "qa")
    return (
        _translated(_columns(pa, 3, "pa"), _rotate_columns(rotation_a, _columns(pb, 3, "pb"))),
        _stack(*_multiply_columns(rotation_a, _columns(qb, 4, "qb"))),
    )


def invert_many(p: npt.ArrayLike, q: npt.ArrayLike) -> tuple[FloatArray, FloatArray]:
    """Row-wise :func:`invert`: the positions and rotations that undo each pose."""
    qi = _inverse_columns(_columns(q, 4, "q"))
    return _stack(*(-c for c in _rotate_columns(qi, _columns(p, 3, "p")))), _stack(*qi)


def transform_points_many(p: npt.ArrayLike, q: npt.ArrayLike, points: npt.ArrayLike) -> FloatArray:
    """Points in poses' frames (position ``p``, rotation ``q``) expressed in the parent frame."""
    rotated = _rotate_columns(_columns(q, 4, "q"), _columns(points, 3, "points"))
    return _translated(_columns(p, 3, "p"), rotated)


def _translated(p: _Columns, v: _Columns) -> FloatArray:
    return _stack(*(cp + cv for cp, cv in zip(p, v, strict=True)))


def transform_directions_many(q: npt.ArrayLike, dirs: npt.ArrayLike) -> FloatArray:
    """Directions in poses' frames, in the parent frame: rotated, not translated."""
    return _stack(*_rotate_columns(_columns(q, 4, "q"), _columns(dirs, 3, "dirs")))


def look_rotation_many(forward: npt.ArrayLike, up: npt.ArrayLike | None = None) -> FloatArray:
    """Row-wise :func:`look_rotation`: -Z along ``forward``, +Y near ``up`` (default +Y)."""
    f = _columns(forward, 3, "forward")
    inv = -_inverse_lengths(f, "forward")
    bx, by, bz = (c * inv for c in f)  # the result's +Z axis
    ux, uy, uz = _columns(_UP_ROW if up is None else up, 3, "up")
    with np.errstate(over="ignore", under="ignore", invalid="ignore"):
        up_length = np.sqrt(ux * ux + uy * uy + uz * uz)
    usable = (up_length > _TINY) & (up_length < _HUGE)
    inv_up = np.where(usable, 1.0, 0.0) / np.where(usable, up_length, 1.0)
    ux, uy, uz = ux * inv_up, uy * inv_up, uz * inv_up  # unit, or zero when unusable
    rx, ry, rz = uy * bz - uz * by, uz * bx - ux * bz, ux * by - uy * bx
    r = np.sqrt(rx * rx + ry * ry + rz * rz)
    parallel = ~(r > _PARALLEL)
    if parallel.any():  # as _fallback_right: world +X made perpendicular to back, or +Z
        use_x = np.abs(bx) < 0.9
        along = np.where(use_x, bx, bz)
        rx = np.where(parallel, np.where(use_x, 1.0, 0.0) - along * bx, rx)
        ry = np.where(parallel, -along * by, ry)
        rz = np.where(parallel, np.where(use_x, 0.0, 1.0) - along * bz, rz)
        r = np.sqrt(rx * rx + ry * ry + rz * rz)
    rx, ry, rz = rx / r, ry / r, rz / r
    return _quat_from_basis(
        (rx, ry, rz), (by * rz - bz * ry, bz * rx - bx * rz, bx * ry - by * rx), (bx, by, bz)
    )


def _quat_from_basis(x_axis: _Columns, y_axis: _Columns, z_axis: _Columns) -> FloatArray:
    """Unit xyzw quaternions of the rotation matrices with these columns (Shepperd's method).

    With ``m`` the matrix, ``P[i][j] = 4 q_i q_j`` is linear in ``m``. Dividing the row of ``P``
    with the largest diagonal entry ``4 q_k^2`` by ``2 |q_k|`` gives ``q`` (with ``q_k > 0``),
    well conditioned because ``|q_k| >= 1/2``.
    """
    (m00, m10, m20), (m01, m11, m21), (m02, m12, m22) = x_axis, y_axis, z_axis
    xx = 1.0 + m00 - m11 - m22
    yy = 1.0 - m00 + m11 - m22
    zz = 1.0 - m00 - m11 + m22
    ww = 1.0 + m00 + m11 + m22
    xy, xz, yz = m01 + m10, m02 + m20, m12 + m21
    xw, yw, zw = m21 - m12, m02 - m20, m10 - m01
    # Pick the largest of xx, yy, zz, ww (masks and where beat argmax over a stacked axis).
    use_x = (xx >= yy) & (xx >= zz) & (xx >= ww)
    use_y = ~use_x & (yy >= zz) & (yy >= ww)
    use_z = ~use_x & ~use_y & (zz >= ww)

    def pick(cx: FloatArray, cy: FloatArray, cz: FloatArray, cw: FloatArray) -> FloatArray:
        return np.where(use_x, cx, np.where(use_y, cy, np.where(use_z, cz, cw)))

    inv = 0.5 / np.sqrt(pick(xx, yy, zz, ww))
    return _stack(
        pick(xx, xy, xz, xw) * inv,
        pick(xy, yy, yz, yw) * inv,
        pick(xz, yz, zz, zw) * inv,
        pick(xw, yw, zw, ww) * inv,
    )


# --- between PyGLM objects and rows -------------------------------------------------------
#
# ``glm.array`` packs a list of PyGLM vectors or quaternions in C, and numpy reads that buffer
# without a copy, so getting N poses into numpy costs one list comprehension a field. PyGLM
# stores a quaternion w first in memory: the order is found once, not assumed.

_PROBE = np.asarray(glm.array([glm.dquat(4.0, 1.0, 2.0, 3.0)]))[0]  # x, y, z, w = 1, 2, 3, 4
_MEMORY_TO_XYZW = np.array([np.flatnonzero(value == _PROBE)[0] for value in (1.0, 2.0, 3.0, 4.0)])
_XYZW_TO_MEMORY = np.argsort(_MEMORY_TO_XYZW)


def trs_matrix(
    translation: npt.ArrayLike, rotation: npt.ArrayLike, scale: npt.ArrayLike
) -> FloatArray:
    """The 4x4 matrix (acting on column vectors) of translate x rotate (a unit ``xyzw``
    quaternion) x scale: glTF's node transform, and a pose's with a scale of 1. Worked out in
    Python's floats and made an array once: a view's matrix is one of these, every frame."""
    x, y, z, w = np.asarray(rotation, dtype=np.float64).tolist()
    sx, sy, sz = np.asarray(scale, dtype=np.float64).tolist()
    tx, ty, tz = np.asarray(translation, dtype=np.float64).tolist()
    return np.array(
        [
            [
                (1 - 2 * (y * y + z * z)) * sx,
                2 * (x * y - w * z) * sy,
                2 * (x * z + w * y) * sz,
                tx,
            ],
            [
                2 * (x * y + w * z) * sx,
                (1 - 2 * (x * x + z * z)) * sy,
                2 * (y * z - w * x) * sz,
                ty,
            ],
            [
                2 * (x * z - w * y) * sx,
                2 * (y * z + w * x) * sy,
                (1 - 2 * (x * x + y * y)) * sz,
                tz,
            ],
            [0.0, 0.0, 0.0, 1.0],
        ]
    )


def pose_matrix(pose: Pose) -> FloatArray:
    """The 4x4 matrix of `pose`: from the pose's frame into its parent's."""
    p = pose.position
    return trs_matrix((p.x, p.y, p.z), quat_to_xyzw(pose.rotation), (1.0, 1.0, 1.0))


def matrix_pose(matrix: FloatArray) -> Pose:
    """The pose of a 4x4 matrix of a rotation and a translation: :func:`pose_matrix`'s way
    back (a hand joint's, a model node's)."""
    columns = np.asarray(matrix, dtype=np.float64)[:3, :3].T.flatten()
    turn = glm.normalize(glm.dquat(glm.dmat3(*(float(v) for v in columns))))
    x, y, z = (float(v) for v in matrix[:3, 3])
    return Pose(glm.dvec3(x, y, z), turn)


def pose_matrices(positions: npt.ArrayLike, rotations: npt.ArrayLike) -> FloatArray:
    """(N, 4, 4) matrices of poses given as (N, 3) positions and (N, 4) unit ``xyzw``
    rotations: :func:`pose_matrix` over many at once."""
    x, y, z, w = _columns(rotations, 4, "rotations")
    m = np.zeros((len(x), 4, 4))
    m[:, 0, 0], m[:, 0, 1], m[:, 0, 2] = (
        1 - 2 * (y * y + z * z),
        2 * (x * y - w * z),
        2 * (x * z + w * y),
    )
    m[:, 1, 0], m[:, 1, 1], m[:, 1, 2] = (
        2 * (x * y + w * z),
        1 - 2 * (x * x + z * z),
        2 * (y * z - w * x),
    )
    m[:, 2, 0], m[:, 2, 1], m[:, 2, 2] = (
        2 * (x * z - w * y),
        2 * (y * z + w * x),
        1 - 2 * (x * x + y * y),
    )
    m[:, :3, 3] = positions
    m[:, 3, 3] = 1.0
    return m


def vec3_rows(values: Sequence[Vec3]) -> FloatArray:
    """(N, 3) from PyGLM vectors, in one copy."""
    return np.asarray(glm.array(list(values))) if values else np.zeros((0, 3))


def quat_rows(values: Sequence[Quat]) -> FloatArray:
    """(N, 4) ``xyzw`` from PyGLM quaternions."""
    if not values:
        return np.zeros((0, 4))
    return np.asarray(glm.array(list(values))).take(_MEMORY_TO_XYZW, axis=1)  # [:, x] costs 3x


def vec3s_from_rows(rows: FloatArray) -> list[Vec3]:
    """PyGLM vectors from (N, 3) rows, made in C: the way back from :func:`vec3_rows`, at a
    tenth of the cost of one ``Vec3(x, y, z)`` a row."""
    packed = np.ascontiguousarray(rows, dtype=np.float64).tobytes()
    return list(glm.array.from_bytes(packed, glm.dvec3)) if packed else []


def quats_from_rows(rows: FloatArray) -> list[Quat]:
    """PyGLM quaternions from (N, 4) ``xyzw`` rows: the way back from :func:`quat_rows`."""
    packed = np.ascontiguousarray(rows.take(_XYZW_TO_MEMORY, axis=1), dtype=np.float64).tobytes()
    return list(glm.array.from_bytes(packed, glm.dquat)) if packed else []


def nlerp_many(a: FloatArray, b: FloatArray, t: float) -> FloatArray:
    """Quaternion rows from `a` to `b` at `t` the short way round, *not* normalised: normalised
    lerp, which engines use to draw between fixed steps (normalise, or use a consumer that
    does, such as a rotation matrix divided by the squared length). A body turns a few degrees
    in a step, where this and slerp differ by a few millionths of a radian (and not at all at
    t = 0.5), for a fifth of slerp's numpy calls."""
    flip = np.copysign(t, np.einsum("ij,ij->i", a, b))[:, None]
    mixed: FloatArray = a * (1.0 - t) + b * flip
    return mixed


def nlerp_unit_many(a: FloatArray, b: FloatArray, t: float) -> FloatArray:
    """Unit quaternion rows from unit rows `a` to `b` at `t`: :func:`nlerp_many`, normalised.

    The short way round, ``|mixed|^2 = (1-t)^2 + t^2 + 2t(1-t)|a.b| >= 1/2``: no row can be
    zero, so one einsum normalises them all, where :func:`normalize_many`'s checks and column
    arithmetic cost three times as much on the few rows a frame draws between steps."""
    mixed = nlerp_many(a, b, t)
    mixed *= (1.0 / np.sqrt(np.einsum("ij,ij->i", mixed, mixed)))[:, None]
    return mixed
