"""The release velocity of a thrown object, estimated from the controller's recent poses.

What the object gets (Karl Lewis's throw)
-----------------------------------------
A held object moves rigidly with the controller. If the controller's centre of mass moves with
linear velocity ``v`` and turns with angular velocity ``w``, a point at offset ``r`` from that
centre moves with ``v + w x r``. The object's centre of mass is such a point, so that is the
velocity it leaves the hand with, and ``w`` is its spin. Throwing with ``v`` alone loses most
of a wrist throw: an axe head 0.35 m beyond the controller, flicked about the wrist at
18 rad/s, leaves at 8 m/s while the controller's own centre moves at 2. ``v``, ``w`` and ``r``
must belong to the same point: ``positions`` are the controller's centre of mass and
``offset`` is measured from it.

Why a window, and why fit rather than average
---------------------------------------------
The release step alone is a poor witness: one finite difference of noisy poses is jittery, a
tracker that repeated a pose makes it zero, and a flick that stops at the instant of release
reports nothing. So the estimate comes from a window of recent fixed steps.

The source technique (:attr:`Estimator.AVERAGE_5`) averages the finite-difference velocities
of the last 5 steps. Each difference is the velocity at the middle of its step, so their mean
is the velocity of 2.5 steps ago, 28 ms at 90 Hz. A throw is all acceleration, so that is
slow (30-40 % slow on the benchmark's overhand and wrist throws); and a throw is made of
rotations (shoulder, elbow, wrist), which turn the hand's velocity at 10-20 rad/s, so the mean
also points behind where the hand was going (14 degrees on the overhand throw).

:attr:`Estimator.FITTED` fits the window and evaluates the fit at the newest sample instead: the
velocity of now, not of 28 ms ago. The model is constant acceleration, a least-squares line
through the steps' finite-difference rates (the derivative of a quadratic through the poses),
and it is fitted in the controller's own frame: each step's velocity and angular velocity is
first expressed in the controller's axes at the middle of that step, and the line's value at the
newest sample is turned back into the frame of the samples with the orientation there. A swing
about a shoulder, elbow or wrist carries the hand's velocity round with the hand, so in the
hand's frame it keeps its direction and only grows, which a line follows; in the world it turns
at 10-20 rad/s, which bends a quadratic fit of world positions by degrees (8 on a 16 rad/s swing
fitted over 8 samples). A hand that does not turn has the same axes throughout, and the fit is
the plain world-frame one. The price is paid by a hand that moves straight while it turns
(walking on while twirling the controller): its velocity turns in the hand's frame instead, and
comes out 1 % fast at 5 rad/s, 4 % at 10. ``python benchmarks/throw_accuracy.py`` measures the
difference: median landing errors 1.9 to 11 times smaller than the 5-step average's, the largest
gains on overhand and wrist throws.

Repeated samples (a tracker that missed an update reports the last pose again) are noise, not a
stop: a sample whose position and orientation are bit for bit those of the one before is left
out, and the step across the gap is one longer step. Only a lone repeat is left out: two or
more in a row are a hand held still (real tracking always jitters, scripted input does not),
which is a stop. Dropped samples need nothing: steps are divided by the sample times as they are.
A repeat that is the newest sample (a stale release) carries the orientation of the step before,
so the fits are read there with that orientation turned on by the fit's own spin over the gap:
read with the stale one, a swing at 17 rad/s and 90 Hz points 11 degrees behind the hand.

The flick gate
--------------
A flick ends with the hand stopping dead, often a step or two before the grip opens, so even the
fit at the newest sample is slow; a hesitant throw slows to half its speed over 45-70 ms before
the grip opens. In both the player meant the velocity of the peak, before the slowing. So the
same fit is also made as it would have been 1 to :data:`GATE_STEPS` steps earlier, and further
back while the candidate's end lies within :data:`GATE_SECONDS` (0.1 s) of the newest sample
and the samples given reach that far (over the window ending there, evaluated there), and the
object's speeds compared: when the newest is below :data:`GATE_RATIO` of the fastest, and the
fastest reaches :data:`GATE_MIN_SPEED`, the hand has lost more than 30 % of its speed within
the last 100 ms: it was stopping before the grip opened, not throwing, and the object is thrown
with the speed the hand peaked at, read as below. (With the 3 steps alone, a hesitant throw at
120 Hz was thrown at its slowed speed, 48 % off; ``python benchmarks/throw_accuracy.py``.)
A throw released while the hand still accelerates has its
fastest candidate at the newest sample, and slow motions (setting an object down) never
trigger the gate. The ratio stays below 1 / 1.35 because a line fitted across the sudden start
of a motion (scripted input goes from rest to full speed in one step) overshoots it by up to
35 %, and such a candidate must not make the correct newest fit look like a stop.

Reading the peak
----------------
Every fit is read at the end of its window: half a step past the middle of its newest step,
the newest moment its data witness. While the hand accelerates that is right: the hand is still
on its line there, and the half step is what makes the estimate current. A stop is the line
breaking, and a real hand's speed rounds over before it falls: its acceleration passes through
zero at the peak, while a line fitted to the rise keeps the rise's average slope to the end.
Carried half a step past its data, such a line overshoots the peak, by 8 to 9 % on the
benchmark's flick, which was all of that throw's error. So once the gate has fired, each
candidate is read at the middle of its newest step instead, with the orientation there (the
forearm turns the direction by 5 degrees in that half step at 16 rad/s), and the fastest
reading is thrown. No stopped fit is extrapolated, so a near-miss of the peak costs a little
speed rather than adding some. The price is paid by a hand that accelerates into an instant
stop, which only scripted input does: its peak is a corner, and the reading falls short of it
by half a step of acceleration (4 % on a ramp to 6 m/s over 13 steps).

Reported velocities
-------------------
Runtimes that track velocity (OpenXR's ``XrSpaceVelocity``) can pass ``reported = (v, w)`` for
the last sample; it must be the velocity of the controller's centre of mass, the point of
``positions`` (from a grip pose's velocity ``vg``, that is ``vg + w x (centre - grip)``).
:attr:`Estimator.FITTED` then uses it in place of its newest fit, as fresher and less noisy
than any fit of poses, still forms ``v + w x r`` and still applies the flick gate, because a
runtime reports a stopped hand as stopped. The two reference estimators reproduce their sources,
which know nothing of it, and ignore it.

Limits
------
``scale = (linear, angular)`` multiplies the object's linear velocity and its spin (per-object
``throw_scale``). Then the linear speed is clamped to ``max_speed`` (20 m/s by default) and the
angular speed to ``max_angular_speed`` (50 rad/s, 8 turns a second, well past a hard wrist
flick), keeping directions, so a tracking glitch cannot fire a missile.
"""

from __future__ import annotations

import enum
import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    import numpy.typing as npt

from playspace import spatial
from playspace.spatial import FloatArray

__all__ = [
    "AVERAGE_STEPS",
    "DEFAULT_MAX_ANGULAR_SPEED",
    "DEFAULT_MAX_SPEED",
    "DEFAULT_WINDOW",
    "GATE_MIN_SPEED",
    "GATE_RATIO",
    "GATE_SECONDS",
    "GATE_STEPS",
    "Estimator",
    "release_velocity",
]

#: Samples in the fitted window: 7 samples are 6 steps, 67 ms at 90 Hz. The best over all four
#: throws of ``python benchmarks/throw_accuracy.py --sweep``: fewer let tracking noise through,
#: more let the rise and turn of a fast throw bend the line.
DEFAULT_WINDOW = 7
DEFAULT_MAX_SPEED = 20.0
DEFAULT_MAX_ANGULAR_SPEED = 50.0
#: Steps the source technique averages over.
AVERAGE_STEPS = 5
#: How many steps back the flick gate looks for the speed the hand had before it stopped.
GATE_STEPS = 3
#: ... and, given the samples, as far back as this (s): a hesitant throw slows over 45-70 ms.
GATE_SECONDS = 0.1
#: The gate fires when the newest speed is below this fraction of the fastest candidate's ...
GATE_RATIO = 0.7
#: ... and the fastest candidate is at least this fast (m/s).
GATE_MIN_SPEED = 1.0

# Multiplying a unit quaternion by this gives its inverse; index arrays for the cross product.
_CONJUGATE = np.array([-1.0, -1.0, -1.0, 1.0])
_NEXT = np.array([1, 2, 0])
_AFTER = np.array([2, 0, 1])


class Estimator(enum.Enum):
    """How the controller's velocity is read from the window; the values name them in files."""

    #: A line fitted to the window's rates in the controller's frame, evaluated at the newest
    #: sample, with the flick gate. The default.
    FITTED = "fitted"
    #: The source technique: the plain mean of the last 5 steps' finite differences.
    AVERAGE_5 = "average_5"
    #: The finite difference of the release step alone, for comparison.
    LAST_STEP = "last_step"


def release_velocity(
    times: npt.ArrayLike,
    positions: npt.ArrayLike,
    orientations: npt.ArrayLike,
    offset: npt.ArrayLike,
    *,
    estimator: Estimator = Estimator.FITTED,
    window: int = DEFAULT_WINDOW,
    max_speed: float = DEFAULT_MAX_SPEED,
    max_angular_speed: float = DEFAULT_MAX_ANGULAR_SPEED,
    scale: tuple[float, float] = (1.0, 1.0),
    reported: tuple[npt.ArrayLike, npt.ArrayLike] | None = None,
) -> tuple[FloatArray, FloatArray]:
    """The linear and angular velocity, each (3,), a released object leaves the hand with.

    ``times`` (N,) strictly increasing seconds, ``positions`` (N, 3) of the controller's centre
    of mass and ``orientations`` (N, 4, xyzw, any length) of the controller, all in one frame;
    ``offset`` (3,) the object's centre of mass minus the controller's, in the controller's
    frame at the last sample. The result is in the frame of the samples.

    ``window`` is the number of samples :attr:`Estimator.FITTED` fits; the reference estimators
    have theirs in their names. Pass ``window + GATE_STEPS`` samples for the full flick gate;
    older ones are ignored, and any N >= 2 works, a short grab using what it has. The module
    docstring explains the technique, ``reported``, ``scale`` and the speed limits.

    Samples are taken as a tracker gives them: out of order ones are put in order, and of
    samples with the same time (a tracker polled faster than it updates) the last stands; with
    fewer than two times left the result is zero. Raises ValueError, naming the input, for
    wrong shapes, N < 2, non-finite values, zero-length quaternions, and options out of range.
    """
    t, p, q, r = _validated(times, positions, orientations, offset)
    if len(t) < 2:  # every sample at one time: no motion to measure
        return np.zeros(3), np.zeros(3)
    estimator = Estimator(estimator)  # also takes the value, as a settings file names it
    if window < 2:
        raise ValueError(f"window must be at least 2 samples; got {window}")
    linear_scale, angular_scale = _scales(scale)
    if not (max_speed > 0.0 and max_angular_speed > 0.0):  # also rejects NaN
        raise ValueError(
            f"max_speed and max_angular_speed must be positive; got {max_speed}, "
            f"{max_angular_speed}"
        )
    if estimator is Estimator.FITTED:
        linear, angular = _fitted_throw(t, p, q, r, window, reported)
    else:
        keep = (AVERAGE_STEPS if estimator is Estimator.AVERAGE_5 else 1) + 1
        t, p, q = t[-keep:], p[-keep:], q[-keep:]
        mean = _rates(t, p, *_turns(q)).mean(axis=0)
        lever = spatial.rotate_many(q[-1:], r)
        linear, angular = mean[:3] + _cross(mean[None, 3:], lever)[0], mean[3:]
    return (
        _clamped(linear * linear_scale, max_speed),
        _clamped(angular * angular_scale, max_angular_speed),
    )


def _fitted_throw(
    t: FloatArray,
    p: FloatArray,
    q: FloatArray,
    r: FloatArray,
    window: int,
    reported: tuple[npt.ArrayLike, npt.ArrayLike] | None,
) -> tuple[FloatArray, FloatArray]:
    """:attr:`Estimator.FITTED`'s ``v + w x r`` and ``w`` (3,), the flick gate included."""
    # Candidate ends: the newest GATE_STEPS steps, and further back as long as they lie within
    # GATE_SECONDS of the release, when the samples reach that far.
    recent = np.flatnonzero(t >= t[-1] - GATE_SECONDS - 1e-9)
    first = min(len(t) - 1 - GATE_STEPS, int(recent[0]))
    keep = len(t) - max(first, 0) + window - 1
    t, p, q = t[-keep:], p[-keep:], q[-keep:]
    ends = np.arange(len(t) - 1, max(len(t) - 2 - (keep - window), 0), -1)
    lines = _fitted(t, p, q, ends, window)
    turns = _current(t, p, q, ends, lines)
    v, w = lines.read(t[ends] - t[-1], turns)
    if reported is not None:
        v[0], w[0] = _reported(reported)
    linear = v + _cross(w, spatial.rotate_many(turns, r))
    speeds = _lengths(linear)
    fastest = int(np.argmax(speeds))
    if speeds[fastest] < GATE_MIN_SPEED or speeds[0] >= GATE_RATIO * speeds[fastest]:
        return linear[0], w[0]
    # A stop: throw with the peak, each fit read where its data end (the module docstring).
    at, turns = lines.newest_middles()
    v, w = lines.read(at, turns)
    linear = v + _cross(w, spatial.rotate_many(turns, r))
    peak = int(np.argmax(_lengths(linear)))
    return linear[peak], w[peak]


def _current(
    t: FloatArray, p: FloatArray, q: FloatArray, ends: npt.NDArray[np.intp], lines: _Lines
) -> FloatArray:
    """The orientation (K, 4) at each end: the sample's own, or for a lone repeat (a stale
    pose, left out of the fit) the one before turned on by the fit's spin over the gap.

    Read with the stale orientation, a fit points where the hand went a step earlier: 11
    degrees off at 17 rad/s and 90 Hz, 18 % of the speed vector.
    """
    stale = np.ones(len(t), dtype=bool)
    stale[_fresh(p, q)] = False
    turns = q[ends]
    if stale[ends].any():
        gap = t[ends] - t[ends - 1]
        _, w = lines.read(t[ends - 1] - t[-1], q[ends - 1])
        spin = np.where(stale[ends, None], w * gap[:, None], 0.0)
        angles = _lengths(spin)
        axes = np.where(angles[:, None] > 0.0, spin, (0.0, 1.0, 0.0))
        turns = spatial.multiply_many(spatial.from_axis_angle_many(axes, angles), turns)
    return turns


def _turns(q: FloatArray) -> tuple[FloatArray, FloatArray]:
    """Each step's rotation ``q[i+1] q[i]^-1`` as unit axes (N-1, 3) and angles (N-1,).

    Taken the short way (``q`` and ``-q`` are one rotation), which allows up to half a turn a
    step: 280 rad/s at 90 Hz.
    """
    return spatial.to_axis_angle_many(spatial.multiply_many(q[1:], spatial.inverse_many(q[:-1])))


def _rates(t: FloatArray, p: FloatArray, axes: FloatArray, angles: FloatArray) -> FloatArray:
    """Each step's finite-difference velocity and angular velocity, side by side (N-1, 6)."""
    return np.hstack((p[1:] - p[:-1], axes * angles[:, None])) / (t[1:] - t[:-1])[:, None]


def _fresh(p: FloatArray, q: FloatArray) -> npt.NDArray[np.intp]:
    """Indices of the samples to fit: all but lone repeats of the previous pose."""
    repeat = np.zeros(len(p) + 2, dtype=bool)  # padded: repeat[i + 1] is sample i's
    repeat[2:-1] = (p[1:] == p[:-1]).all(axis=1) & (q[1:] == q[:-1]).all(axis=1)
    lone = repeat[1:-1] & ~repeat[:-2] & ~repeat[2:]
    return np.flatnonzero(~lone)


@dataclass(frozen=True, slots=True)
class _Lines:
    """Each candidate's least-squares line through the controller-frame rates of the steps in
    its window, (K, 6) rows; times are seconds from the newest sample."""

    mean: FloatArray  # (K, 6) the line's value at mean_time
    slope: FloatArray  # (K, 6) per second
    mean_time: FloatArray  # (K,)
    step_times: FloatArray  # (S,) the middle of each step
    step_turns: FloatArray  # (S, 4) the orientation there
    inside: npt.NDArray[np.bool_]  # (K, S) the steps in each candidate's window

    def read(self, at: FloatArray, turns: FloatArray) -> tuple[FloatArray, FloatArray]:
        """``v`` and ``w`` (K, 3) of each line at times ``at`` (K,), turned back into the frame
        of the samples with the orientations ``turns`` (K, 4) there."""
        value = self.mean + self.slope * (at - self.mean_time)[:, None]
        world = spatial.rotate_many(turns[:, None], value.reshape(-1, 2, 3))
        return world[:, 0], world[:, 1]

    def newest_middles(self) -> tuple[FloatArray, FloatArray]:
        """The middle of each window's newest step (K,), and the orientation there (K, 4).

        A window with no step gets the newest step's, where its zero line reads zero anyway.
        """
        newest = self.inside.shape[1] - 1 - np.argmax(self.inside[:, ::-1], axis=1)
        return self.step_times[newest], self.step_turns[newest]


def _fitted(
    t: FloatArray, p: FloatArray, q: FloatArray, ends: npt.NDArray[np.intp], window: int
) -> _Lines:
    """The lines of the ``window`` samples up to each end.

    Each step's rates are taken into the controller's frame at the middle of the step (halfway
    along the slerp between its samples), and every candidate fits its own least-squares line
    through the steps inside its window (masks, no loop). A window holding one step gives that
    step's rates; one holding none (two samples, the second a repeat) gives zero.
    """
    fresh = _fresh(p, q)
    axes, angles = _turns(q[fresh])
    rates = _rates(t[fresh], p[fresh], axes, angles)
    middles = spatial.slerp_many(q[fresh[:-1]], q[fresh[1:]], 0.5)
    body = spatial.rotate_many((middles * _CONJUGATE)[:, None], rates.reshape(-1, 2, 3))
    body = body.reshape(-1, 6)

    # Times from the newest sample, so that large clock values lose no precision.
    mid_times = (t[fresh[1:]] + t[fresh[:-1]]) / 2 - t[-1]
    starts = np.maximum(ends - window + 1, 0)
    inside = (fresh[:-1] >= starts[:, None]) & (fresh[1:] <= ends[:, None])
    weights = inside / np.maximum(inside.sum(axis=1, keepdims=True), 1)  # rows of means
    mean_time = weights @ mid_times
    deviation = mid_times - mean_time[:, None]
    variance = np.einsum("km,km->k", weights * deviation, deviation)
    slope = ((weights * deviation) @ body) / np.where(variance > 0.0, variance, np.inf)[:, None]
    return _Lines(weights @ body, slope, mean_time, mid_times, middles, inside)


def _lengths(a: FloatArray) -> FloatArray:
    """Row-wise lengths of a (K, 3) array."""
    lengths: FloatArray = np.sqrt(np.einsum("ij,ij->i", a, a))
    return lengths


def _cross(a: FloatArray, b: FloatArray) -> FloatArray:
    """Row-wise cross products of (K, 3) arrays (``np.cross`` costs far more at this size)."""
    return a[:, _NEXT] * b[:, _AFTER] - a[:, _AFTER] * b[:, _NEXT]


def _clamped(x: FloatArray, limit: float) -> FloatArray:
    """``x`` shortened to length ``limit`` if longer, direction kept."""
    n = math.sqrt(float(x @ x))
    return x * (limit / n) if n > limit else x


def _validated(
    times: npt.ArrayLike,
    positions: npt.ArrayLike,
    orientations: npt.ArrayLike,
    offset: npt.ArrayLike,
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
    """The inputs as float64 arrays with unit quaternions, or a ValueError naming the culprit."""
    t = _finite(times, "times")
    if t.ndim != 1 or len(t) < 2:
        raise ValueError(f"times must have shape (N,) with N >= 2 samples; got {t.shape}")
    n = len(t)
    p = _finite(positions, "positions")
    if p.shape != (n, 3):
        raise ValueError(f"positions must have shape ({n}, 3) to match times; got {p.shape}")
    q = _finite(orientations, "orientations")
    if q.shape != (n, 4):
        raise ValueError(f"orientations must have shape ({n}, 4) to match times; got {q.shape}")
    try:
        q = spatial.normalize_many(q)
    except ValueError as error:  # only zero length is left to find
        raise ValueError(f"orientations: {error}") from None
    order = np.argsort(t, kind="stable")  # in time order, equal times as they came
    t, p, q = t[order], p[order], q[order]
    last = np.append(np.diff(t) > 0.0, True)  # the last sample of each time
    return t[last], p[last], q[last], _vector(offset, "offset")


def _finite(a: npt.ArrayLike, name: str) -> FloatArray:
    """``a`` as float64; a ValueError naming ``name`` and the first non-finite index."""
    try:
        arr = np.asarray(a, dtype=np.float64)
    except (TypeError, ValueError) as error:
        raise ValueError(f"{name} must be an array of numbers: {error}") from None
    bad = np.argwhere(~np.isfinite(arr))
    if len(bad):
        index = tuple(int(i) for i in bad[0])
        raise ValueError(f"{name} has a non-finite value at index {index}")
    return arr


def _vector(a: npt.ArrayLike, name: str) -> FloatArray:
    """A finite (3,) float64 vector, or a ValueError naming ``name``."""
    x = _finite(a, name)
    if x.shape != (3,):
        raise ValueError(f"{name} must have shape (3,); got {x.shape}")
    return x


def _reported(reported: tuple[npt.ArrayLike, npt.ArrayLike]) -> tuple[FloatArray, FloatArray]:
    """The runtime's ``(v, w)``, checked."""
    if len(reported) != 2:
        raise ValueError(f"reported must be a pair (v, w); got {len(reported)} items")
    return _vector(reported[0], "reported v"), _vector(reported[1], "reported w")


def _scales(scale: tuple[float, float]) -> tuple[float, float]:
    """``(linear, angular)`` as two finite non-negative floats, or a ValueError."""
    linear, angular = (float(x) for x in scale)
    if not (0.0 <= linear < math.inf and 0.0 <= angular < math.inf):
        raise ValueError(f"scale must be two finite non-negative factors; got {scale}")
    return linear, angular
