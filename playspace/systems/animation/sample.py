"""A channel's value at a time, as the glTF specification interpolates keyframes: the last
keyframe's for STEP, straight lines (rotations along the sphere) for LINEAR, and Hermite
splines through the keyframes with their tangents for CUBICSPLINE. Before the first keyframe
a channel holds it; after the last, the last."""

from __future__ import annotations

import numpy as np

from playspace.components.animation import Channel, F32Array, Interpolation


def sample(channel: Channel, time: float) -> F32Array:
    """`channel`'s value at `time` seconds (a rotation as a unit x, y, z, w quaternion)."""
    times, values = channel.times, channel.values
    cubic = channel.interpolation is Interpolation.CUBICSPLINE

    def key(k: int) -> F32Array:
        row: F32Array = values[3 * k + 1] if cubic else values[k]
        return row

    if time <= times[0] or len(times) == 1:
        return np.array(key(0), dtype=np.float32)
    if time >= times[-1]:
        return np.array(key(len(times) - 1), dtype=np.float32)
    k = int(np.searchsorted(times, time, side="right")) - 1
    if channel.interpolation is Interpolation.STEP:
        return np.array(key(k), dtype=np.float32)
    span = float(times[k + 1] - times[k])
    s = (time - float(times[k])) / span
    if cubic:
        value = (
            (2 * s**3 - 3 * s**2 + 1) * values[3 * k + 1]
            + (s**3 - 2 * s**2 + s) * span * values[3 * k + 2]  # out-tangent of k
            + (-2 * s**3 + 3 * s**2) * values[3 * k + 4]
            + (s**3 - s**2) * span * values[3 * k + 3]  # in-tangent of k + 1
        )
    elif channel.path == "rotation":
        value = slerp(values[k], values[k + 1], s)
    else:
        value = values[k] + (values[k + 1] - values[k]) * s
    if channel.path == "rotation":
        value = value / max(float(np.linalg.norm(value)), 1e-12)
    return np.asarray(value, dtype=np.float32)


def slerp(a: F32Array, b: F32Array, s: float) -> F32Array:
    """The rotation `s` of the way from `a` to `b` (x, y, z, w), the short way round."""
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    dot = float(np.dot(a64, b64))
    if dot < 0:
        b64, dot = -b64, -dot
    if dot > 0.9995:  # nearly the same: a straight line is as good, and stable
        out = a64 + (b64 - a64) * s
        return (out / np.linalg.norm(out)).astype(np.float32)
    angle = float(np.arccos(dot))
    out = (np.sin((1 - s) * angle) * a64 + np.sin(s * angle) * b64) / np.sin(angle)
    result: F32Array = out.astype(np.float32)
    return result
