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
recent steps are also fitted with the shape of a peak followed by braking (below): when the
braking has brought the object's speed at the newest sample below :data:`GATE_RATIO` of the
peak's, and the peak reaches :data:`GATE_MIN_SPEED`, the hand has lost more than 30 % of its
speed within the last :data:`GATE_SECONDS` (0.1 s): it was stopping before the grip opened, not
throwing, and the object is thrown with the velocity of the peak. A throw released while the
hand still accelerates, or at its peak, has nothing braked at the newest sample, and slow
motions (setting an object down) never trigger the gate. Peak and braking come from one fit of
the same steps, so the gate compares like with like: it used to compare the newest 6-step line
with the same line fitted earlier, and the newest line, which averages the slowing in with the
peak, looked no more than 30 % slower in a fifth of the benchmark's hesitant throws at 72 Hz,
which were then thrown late and slow.

Reading the peak
----------------
Every line is read at the end of its window: half a step past the middle of its newest step,
the newest moment its data witness. While the hand accelerates that is right: the hand is still
on its line there, and the half step is what makes the estimate current. A stop is the line
breaking, and a real hand's speed rounds over before it falls: its acceleration passes through
zero at the peak, while a line fitted to the rise keeps the rise's average slope to the end
and overshoots the peak (by 8 to 9 % on the benchmark's flick). So the peak is fitted with the
shape it has. The same line is fitted as it would have been 1 to :data:`GATE_STEPS` steps
earlier, and further back while the candidate's end lies within :data:`GATE_SECONDS` of the
newest sample and the samples given reach that far; read at the middle of its newest step, the
fastest candidate is near the top of the rise. From :data:`PEAK_RISE_SECONDS` (45 ms) before
it to the newest sample, the steps' rates in the controller's frame are fitted with a flat top
meeting a braking line at a knot ``h``: ``c + b (t - h)^2`` before it, ``c + e (t - h)`` after,
each channel with its own ``c``, ``b`` and ``e`` and one ``h`` for all, tried every
:data:`PEAK_GRID_SECONDS` and kept where the object point's velocity is fitted best. The top is
flat at ``h``, as a hand's speed is at its peak, and the braking line places ``h`` where the
speed breaks downward, the sharpest thing the samples show; ``c`` is the peak and ``c - e h``
where the braking had brought the hand at the newest sample, for the gate. The peak is turned
back with the orientation at ``h`` (between samples: the one before turned on at its step's
spin), as a swing at 16 rad/s turns the direction by a degree a millisecond. The price is paid
by clean input: a bell-shaped rise falls away faster than a parabola over 45 ms, so a flick of
a 50 ms bell is thrown 4 % under its peak, and a ramp into a sharp corner, which only scripted
input makes, 7 % under. On the benchmark's headset-like streams the hesitant throw went from
2.1-3.1 times the least-squares floor to 1.1-1.3 times (measured against the glossary's meant
velocity: a throw that lost under 30 % by the release meant its release velocity), and the flick
from 0.9-1.0 to 0.5-0.7.

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

Cost
----
A release costs under 1 ms of Python: ``python benchmarks/throw_accuracy.py`` prints the median
over every style and rate (0.7 ms on a shared two-core machine). numpy on arrays of 10 to 40
rows spends its time on each call, not on the arithmetic, so the steps are worked in few calls:
quaternion products and rotation matrices are each one matrix product on outer products, and
the peak's normal equations are solved in closed form for every knot at once.
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
#: How many steps back, at least, the flick gate looks for the peak the hand had before it
#: slowed ...
GATE_STEPS = 3
#: ... and, given the samples, as far back as this (s): a hesitant throw slows over 45-70 ms.
GATE_SECONDS = 0.1
#: The gate fires when braking has brought the speed at the newest sample below this fraction
#: of the peak's ...
GATE_RATIO = 0.7
#: ... and the peak is at least this fast (m/s).
GATE_MIN_SPEED = 1.0
#: The peak's fit starts this long (s) before the fastest candidate's newest step: the top of
#: a hand's rise, where a parabola still follows it; longer bends the top, shorter lets noise in.
PEAK_RISE_SECONDS = 0.045
#: ... and tries knots this far apart (s): half a degree of a 16 rad/s swing.
PEAK_GRID_SECONDS = 0.0005

# Multiplying a unit quaternion by this gives its inverse; index arrays for the cross product.
_CONJUGATE = np.array([-1.0, -1.0, -1.0, 1.0])
_IDENTITY = np.array([0.0, 0.0, 0.0, 1.0])
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
    """:attr:`Estimator.FITTED`'s ``v + w x r`` and ``w`` (3,), the flick gate included.

    Everything is worked in the controller's frame, where the object point's velocity is
    ``v + w x r`` with a constant ``r``; lengths do not change on the way back to the frame of
    the samples, so the gate compares speeds there and only the result is turned back.
    """
    # Candidate ends: the newest GATE_STEPS steps, and further back as long as they lie within
    # GATE_SECONDS of the release, when the samples reach that far.
    recent = int(np.searchsorted(t, t[-1] - GATE_SECONDS - 1e-9))
    first = max(min(len(t) - 1 - GATE_STEPS, recent), 0)
    keep = len(t) - first + window - 1
    t, p, q = t[-keep:], p[-keep:], q[-keep:]
    ends = np.arange(len(t) - 1, max(len(t) - 2 - (keep - window), 0), -1)
    steps = _Steps.of(t, p, q, r)
    lines = _Lines.of(steps, ends, window)
    if reported is not None:
        v, w = _reported(reported)
        linear = v + _cross(w[None], (_matrix(steps.newest(lines)) @ r)[None])[0]
    if len(steps.middles) >= 3:  # fewer steps cannot tell a rise, a peak and a braking apart
        at, peak, braked = _peak(steps, lines.fastest_middle())
        top = math.sqrt(float(peak[:3] @ peak[:3]))
        now = linear if reported is not None else braked[:3]
        if top >= GATE_MIN_SPEED and math.sqrt(float(now @ now)) < GATE_RATIO * top:
            return _turned_back(steps.orientation_at(at), peak)  # a stop: the peak is thrown
    if reported is not None:
        return linear, w
    return _turned_back(steps.newest(lines), lines.newest())


@dataclass(frozen=True, slots=True)
class _Steps:
    """The steps between consecutive fitted samples, in the controller's frame at each step's
    middle (halfway along the short rotation between its samples); times are seconds from the
    newest sample."""

    fresh: npt.NDArray[np.intp]  # (S + 1,) the samples fitted: all but lone repeats
    times: FloatArray  # (S + 1,) theirs
    orientations: FloatArray  # (S + 1, 4) theirs
    middles: FloatArray  # (S,) the middle of each step
    rates: FloatArray  # (S, 6) the object point's velocity v + w x r, and w

    @staticmethod
    def of(t: FloatArray, p: FloatArray, q: FloatArray, r: FloatArray) -> _Steps:
        """Each step's finite-difference rates, taken into the controller's frame at its middle.

        The turn ``q[i]^-1 q[i+1]`` is measured in the controller's own frame, where its axis
        is the same at both ends and the middle, so its axis times angle over the step is the
        angular velocity there as it is; the half turn (the unit quaternion halfway from 1 to
        it, ``normalise(turn + 1)``) gives the middle's orientation for the linear velocity.
        """
        fresh = _fresh(p, q)
        t = t - t[-1]
        if len(fresh) < len(t):
            t, p, q = t[fresh], p[fresh], q[fresh]
        turn = _multiply(q[:-1] * _CONJUGATE, q[1:])
        turn *= np.copysign(1.0, turn[:, 3:])  # the short way: w >= 0
        half = turn + _IDENTITY
        half /= np.sqrt(np.einsum("ij,ij->i", half, half))[:, None]
        middle = _rotation_matrices(_multiply(q[:-1], half))
        dt = (t[1:] - t[:-1])[:, None]
        rates = np.empty((len(dt), 6))
        rates[:, 3:] = _rotation_vectors(turn) / dt
        v = (p[1:] - p[:-1])[:, None, :] @ middle  # rows times R: R^T v, into the middle's frame
        rates[:, :3] = v[:, 0] / dt + rates[:, 3:] @ _skew(r)
        return _Steps(fresh, t, q, (t[1:] + t[:-1]) / 2, rates)

    def orientation_at(self, at: float) -> FloatArray:
        """The orientation (4,) at time ``at``: the sample's before it, turned on at the
        angular velocity of the step that follows it."""
        i = min(max(int(np.searchsorted(self.times, at)) - 1, 0), len(self.middles) - 1)
        return _turned(self.orientations[i], self.rates[i, 3:] * (at - self.times[i]))

    def newest(self, lines: _Lines) -> FloatArray:
        """The orientation (4,) at the newest sample: its own, or for a lone repeat (a stale
        pose, left out of the fit) the one before turned on by the newest fit's spin over the
        gap.

        Read with the stale orientation, a fit points where the hand went a step earlier: 11
        degrees off at 17 rad/s and 90 Hz, 18 % of the speed vector.
        """
        if self.times[-1] == 0.0:  # times are from the newest sample: it was fitted
            own: FloatArray = self.orientations[-1]
            return own
        spin = lines.read(self.times[-1:])[0, 3:] * -self.times[-1]
        return _turned(self.orientations[-1], spin)


@dataclass(frozen=True, slots=True)
class _Lines:
    """Each candidate's least-squares line through the rates of the steps in its window, (K, 6)
    rows; times are seconds from the newest sample."""

    mean: FloatArray  # (K, 6) the line's value at mean_time
    slope: FloatArray  # (K, 6) per second
    mean_time: FloatArray  # (K,)
    middles: FloatArray  # (S,) the middle of each step
    inside: npt.NDArray[np.bool_]  # (K, S) the steps in each candidate's window

    @staticmethod
    def of(steps: _Steps, ends: npt.NDArray[np.intp], window: int) -> _Lines:
        """The lines of the ``window`` samples up to each end (masks, no loop). A window
        holding one step gives that step's rates; one holding none (two samples, the second a
        repeat) gives zero."""
        fresh = steps.fresh
        starts = np.maximum(ends - window + 1, 0)
        inside = (fresh[:-1] >= starts[:, None]) & (fresh[1:] <= ends[:, None])
        weights = inside / np.maximum(inside.sum(axis=1, keepdims=True), 1)  # rows of means
        mean_time = weights @ steps.middles
        deviation = weights * (steps.middles - mean_time[:, None])
        variance = deviation @ steps.middles  # sum of w (t - mean) t = sum of w (t - mean)^2
        slope = (deviation @ steps.rates) / np.where(variance > 0.0, variance, np.inf)[:, None]
        return _Lines(weights @ steps.rates, slope, mean_time, steps.middles, inside)

    def read(self, at: FloatArray) -> FloatArray:
        """Each line's value (K, 6) at times ``at`` (K,)."""
        value: FloatArray = self.mean + self.slope * (at - self.mean_time)[:, None]
        return value

    def newest(self) -> FloatArray:
        """The newest line's value (6,) at the newest sample: the throw, unless it stopped."""
        value: FloatArray = self.mean[0] - self.slope[0] * self.mean_time[0]
        return value

    def fastest_middle(self) -> float:
        """The middle of the newest step of the candidate whose line is fastest there: where
        the peak's fit looks for the top of the rise.

        A window with no step is read at the newest step, where its zero line reads zero.
        """
        newest = self.inside.shape[1] - 1 - np.argmax(self.inside[:, ::-1], axis=1)
        middles = self.middles[newest]
        readings = self.read(middles)[:, :3]
        return float(middles[np.argmax(np.einsum("ij,ij->i", readings, readings))])


def _peak(steps: _Steps, guess: float) -> tuple[float, FloatArray, FloatArray]:
    """When the hand's speed peaked, the rates (6,) there, and the rates the braking had
    brought it to at the newest sample.

    The steps from :data:`PEAK_RISE_SECONDS` before ``guess`` to the release are fitted with a
    flat top and a braking line that meet at a knot ``h``: ``c + b (t - h)^2`` up to it and
    ``c + e (t - h)`` after it, each channel its own ``c, b, e``. ``h`` is tried every
    :data:`PEAK_GRID_SECONDS` and kept where the object point's velocity is fitted best; ``c``
    there is the peak.

    The normal equations are [[n, s_top, s_brake], [s_top, q_top, 0], [s_brake, 0, q_brake]]
    with right side [sum y, p_top, p_brake]: s are the sums of the two shapes' basis functions
    over the steps, q their sums of squares (the shapes share no step) and p their products
    with the rates y. The last two rows give ``b = (p_top - s_top c) / q_top`` and ``e``
    likewise, and the first then gives ``c``, for every knot at once. A shape with no step has
    s = q = p = 0, and the tiny q added keeps its terms zero.
    """
    first = max(
        min(int(np.searchsorted(steps.middles, guess - PEAK_RISE_SECONDS)), len(steps.middles) - 4),
        0,
    )
    middles = steps.middles[first:] / 0.01  # centiseconds keep the sums well scaled
    knots = np.arange(middles[0], middles[-1] + 1e-7, PEAK_GRID_SECONDS / 0.01)
    h, n = len(knots), len(middles)
    d = middles - knots[:, None]  # (H, S)
    basis = np.empty((2 * h, n))  # the top's (t - h)^2 for each knot, then the braking's t - h
    np.square(np.minimum(d, 0.0), out=basis[:h])
    np.maximum(d, 0.0, out=basis[h:])
    rates = np.empty((n, 7))  # a column of ones for the sums, then the rates
    rates[:, 0] = 1.0
    rates[:, 1:] = steps.rates[first:]
    # The search fits the object point's velocity alone: s and p for its three channels.
    sp = basis @ rates[:, :4]  # (2H, 4)
    squares = np.einsum("ks,ks->k", basis, basis) + 1e-300
    share = sp / squares[:, None]  # s / q, then p / q
    total = rates[:, 1:].sum(axis=0)
    weighted = (sp[:, :1] * share).reshape(2, h, 4)  # s^2 / q, then s p / q
    c = (total[:3] - weighted[0, :, 1:] - weighted[1, :, 1:]) / (
        n - weighted[0, :, :1] - weighted[1, :, :1]
    )
    # Least squares minimises |y|^2 - (fit . right side), and |y|^2 is the same for every
    # knot: the fit explains c . sum y + sum over both shapes of (p - s c) . p / q.
    p = sp[:, 1:].reshape(2, h, 3)
    explained = c @ total[:3] + np.einsum(
        "khc,khc->h", p - sp[:, :1].reshape(2, h, 1) * c, share[:, 1:].reshape(2, h, 3)
    )
    best = int(np.argmax(explained))
    # All six channels at the best knot.
    top, brake = basis[best], basis[h + best]
    s_top, s_brake = top.sum(), brake.sum()
    q_top, q_brake = squares[best], squares[h + best]
    p_top, p_brake = top @ rates[:, 1:], brake @ rates[:, 1:]
    peak = (total - s_top / q_top * p_top - s_brake / q_brake * p_brake) / (
        n - s_top * s_top / q_top - s_brake * s_brake / q_brake
    )
    slope = (p_brake - s_brake * peak) / q_brake  # e, per centisecond
    return float(knots[best]) * 0.01, peak, peak - slope * knots[best]


def _turned_back(q: FloatArray, rates: FloatArray) -> tuple[FloatArray, FloatArray]:
    """``v + w x r`` and ``w`` (3,) of controller-frame ``rates`` (6,), in the frame of the
    samples, the controller turned by ``q`` (4,)."""
    world = rates.reshape(2, 3) @ _matrix(q).T
    return world[0], world[1]


# Products of xyzw quaternions and their rotation matrices as constant matrices acting on the
# outer product of the factors, so that a batch of either is one matrix product rather than
# dozens of array operations on columns.
def _product_matrix() -> FloatArray:
    """(16, 4): ``(a * b) = (a outer b).ravel() @ this``."""
    basis = np.eye(4)
    return np.array([spatial.multiply_many(a, b) for a in basis for b in basis])


def _rotation_matrix_matrix() -> FloatArray:
    """(16, 9): ``R(q).ravel() = (q outer q).ravel() @ this`` for unit ``q``.

    ``R`` is quadratic in ``q``: the coefficient of ``q_i q_j`` is read off ``R`` at the
    basis quaternions and their sums, and split evenly between ``ij`` and ``ji``.
    """
    basis = np.eye(4)
    single = [_matrix(e).ravel() for e in basis]
    return np.array(
        [
            single[i]
            if i == j
            else (_matrix(basis[i] + basis[j]).ravel() - single[i] - single[j]) / 2
            for i in range(4)
            for j in range(4)
        ]
    )


def _matrix(q: FloatArray) -> FloatArray:
    """The rotation matrix (3, 3) of one unit quaternion (4,), by the textbook formula (it is
    quadratic in ``q`` for any ``q``, which :func:`_rotation_matrix_matrix` relies on)."""
    x, y, z, w = q.tolist()
    return np.array(
        [
            [w * w + x * x - y * y - z * z, 2 * (x * y - w * z), 2 * (x * z + w * y)],
            [2 * (x * y + w * z), w * w - x * x + y * y - z * z, 2 * (y * z - w * x)],
            [2 * (x * z - w * y), 2 * (y * z + w * x), w * w - x * x - y * y + z * z],
        ]
    )


_PRODUCT = _product_matrix()
_ROTATION_MATRIX = _rotation_matrix_matrix()


def _outer(a: FloatArray, b: FloatArray) -> FloatArray:
    """Row-wise outer products of (K, 4) arrays, flattened to (K, 16)."""
    return (a[:, :, None] * b[:, None, :]).reshape(len(a), 16)


def _multiply(a: FloatArray, b: FloatArray) -> FloatArray:
    """Row-wise Hamilton products ``a * b`` of (K, 4) quaternions."""
    product: FloatArray = _outer(a, b) @ _PRODUCT
    return product


def _rotation_matrices(q: FloatArray) -> FloatArray:
    """The rotation matrices (K, 3, 3) of unit quaternions (K, 4)."""
    matrices: FloatArray = (_outer(q, q) @ _ROTATION_MATRIX).reshape(len(q), 3, 3)
    return matrices


def _rotation_vectors(q: FloatArray) -> FloatArray:
    """Axis times angle (K, 3) of unit quaternions with ``w >= 0`` (turns up to half a turn).

    ``2 atan2(s, w) / s`` tends to ``2 / w`` as the sine ``s`` does to zero, and at zero the
    vector part it scales is zero too.
    """
    s = np.sqrt(np.einsum("ij,ij->i", q[:, :3], q[:, :3]))
    scale = 2.0 * np.arctan2(s, q[:, 3]) / np.maximum(s, 1e-300)
    vectors: FloatArray = q[:, :3] * scale[:, None]
    return vectors


def _turned(q: FloatArray, spin: FloatArray) -> FloatArray:
    """Unit quaternion ``q`` (4,) turned on by ``spin`` (3,), axis times angle in its own
    frame: ``q * exp(spin / 2)``."""
    sx, sy, sz = spin.tolist()
    angle = math.sqrt(sx * sx + sy * sy + sz * sz)
    s = math.sin(angle / 2) / angle if angle > 0.0 else 0.5
    turned: FloatArray = _multiply(
        q[None], np.array([[sx * s, sy * s, sz * s, math.cos(angle / 2)]])
    )[0]
    return turned


def _skew(r: FloatArray) -> FloatArray:
    """The matrix ``K`` with ``w @ K = w x r`` for row vectors ``w``."""
    x, y, z = r.tolist()
    return np.array([[0.0, -z, y], [z, 0.0, -x], [-y, x, 0.0]])


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
    same = (p[1:] == p[:-1]).all(axis=1)
    if not same.any():  # the usual case, and a repeat must repeat the position too
        return np.arange(len(p))
    same &= (q[1:] == q[:-1]).all(axis=1)
    repeat = np.zeros(len(p) + 2, dtype=bool)  # padded: repeat[i + 1] is sample i's
    repeat[2:-1] = same
    lone = repeat[1:-1] & ~repeat[:-2] & ~repeat[2:]
    return np.flatnonzero(~lone)


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
    lengths = np.sqrt(np.einsum("ij,ij->i", q, q))
    if lengths.min() > 1e-150 and lengths.max() < 1e150:  # safe to square: a plain division
        q = q / lengths[:, None]
    else:
        try:  # rescales tiny and huge rows, and names a zero one
            q = spatial.normalize_many(q)
        except ValueError as error:
            raise ValueError(f"orientations: {error}") from None
    increasing = t[1:] > t[:-1]
    if not increasing.all():  # in time order, and of equal times the last as they came
        order = np.argsort(t, kind="stable")
        t, p, q = t[order], p[order], q[order]
        last = np.ones(len(t), dtype=bool)
        last[:-1] = t[1:] > t[:-1]
        t, p, q = t[last], p[last], q[last]
    return t, p, q, _vector(offset, "offset")


def _finite(a: npt.ArrayLike, name: str) -> FloatArray:
    """``a`` as float64; a ValueError naming ``name`` and the first non-finite index."""
    try:
        arr = np.asarray(a, dtype=np.float64)
    except (TypeError, ValueError) as error:
        raise ValueError(f"{name} must be an array of numbers: {error}") from None
    if not np.isfinite(arr).all():
        index = tuple(int(i) for i in np.argwhere(~np.isfinite(arr))[0])
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
