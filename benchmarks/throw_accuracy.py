"""How close each throw estimator gets to the velocity a player meant, on streams like a headset's.

The throws
----------
Five styles, each a rigid rotation about a pivot (shoulder, elbow or wrist) that itself moves at
constant velocity, so the velocity the player meant is known in closed form: with the angle's
rate ``theta'`` about unit axis ``a`` and the object ``d`` from the pivot, the object moves at
``u + theta' a x d`` (pivot velocity ``u``).

- overhand: the arm swings forward over the shoulder, still accelerating at the release (17 rad/s
  at its peak, 10 ms later) while the body steps in at 1.5 m/s: 13 m/s, from 2.2 m up.
- underhand: a pendulum swing that peaks at 7 rad/s at the release: 5 m/s, 35 degrees up.
- flick: the forearm flicks about the elbow to 16 rad/s and stops dead over 22 to 33 ms.
- wrist: the controller turns about the wrist at 18 rad/s with the object (an axe, say) 0.35 m
  out along its -Z while the forearm pushes forward at 0.8 m/s: 8 m/s.
- hesitant: an overhand swing to 13 rad/s whose arm then slows, over 45 to 70 ms, to 40-65 % of
  that before the grip opens: a player who lets go late.

Angular speeds rise and fall as bells (``1 / cosh^2``), as hand speeds do, not as polynomials,
which a fit of the same order would recover exactly. Each trial varies the peak angular speed by
+-10 %, the release angle by +-5 degrees, the heading at random, and the moment the grip opens by
up to 1.5 frames either way (the release timing of a real hand and a real grip).

What the player meant
---------------------
For the three swings, the object's velocity at the release: that is what a rigid hand gives it.
For the flick and the hesitant throw the hand had already slowed when the grip opened, and the
player meant the velocity of the peak, before the slowing (a hand that lost more than 30 % of its
speed in the last 100 ms before letting go was stopping, not throwing; the docs' glossary says
the same, and ``Estimator.FITTED``'s gate reads it so). Every estimator is measured against that.
Not every hesitant throw drawn meets that rule: one whose grip opens up to 1.5 frames early has
not finished slowing, and the body's step dilutes the arm's slowing in the object's speed, so
about 14 % of them at 72 Hz (7 % at 90, 4 % at 120) have lost less than 30 % by the release.
By the rule, those were thrown as they left the hand: their meant velocity is the release's
(``stopping`` reads the rule off each trial's own motion), for the floor as for every
estimator.

The tracker
-----------
Each style is streamed at 72, 90 and 120 Hz, ``HISTORY`` seconds up to the release, with what
real trackers do (each independently, per sample, except that the release sample is never
dropped):

- position jitter, per axis, drawn per trial between 0.5 and 2 mm;
- rotation jitter, RMS, drawn per trial between 0.05 and 0.3 degrees;
- timestamp jitter: each pose is true at its own instant, its timestamp off by 0.3 ms RMS;
- 3 % dropped frames (the sample is missing);
- 3 % stale frames: the previous pose again, bit for bit, with a new timestamp;
- 2 % duplicated timestamps: the same instant read again (same timestamp, fresh jitter).

The floor
---------
The model-knowing oracle of the first benchmark (a fit of each style's own model) is a floor no
estimator of real input can approach: it knows the kind of throw. The floor here is what a local
fit of the same samples reaches: a least-squares polynomial in time (degree 1 to 3) through the
object point (the controller's position plus its orientation applied to the object's offset,
whose derivative is ``v + w x r``), over a window of the most recent samples that may end a few
samples before the release, its derivative read at the moment the player's velocity belongs to.
Exact repeats (stale frames) are left out, as anything that knows trackers would. The window's
length, end and the degree are chosen with hindsight, knowing the true velocities: for each style
and rate, the choice with the smallest median error over that cell's trials. (Chosen per trial
it would be luck, not a floor: the smallest of hundreds of noisy readings.) Every estimator is
reported as a multiple of that median.

The estimators
--------------
- ``steamvr``: SteamVR Interaction System's ``VelocityEstimator`` on a ``Throwable``, what it
  uses without runtime velocities: the mean of the object's last 5 finite-difference velocities.
- ``xri``: Unity XR Interaction Toolkit's ``XRGrabInteractable`` throw smoothing at its defaults:
  the unweighted mean of the object's finite-difference velocities over the last 0.25 s.
- ``godot``: Godot XR Tools' ``XRToolsVelocityAveragerLinear`` over 5 frames: the pickup's
  (controller's) displacement over those frames divided by their time; no ``w x r``.
- ``average_5``, ``fitted``: the project's :class:`Estimator` members (the seed's 5-step
  average; the controller-frame line, or the peak of a flat top and braking line fitted to the
  last steps when its gate finds a stop: the default).

Each shipped estimator gets the samples as ``release_velocity`` takes them: in time order, of
equal times the last.

Output: the table (median relative error of the speed vector, ``|v - v_meant| / |v_meant|``, in
per cent, styles x rates x estimators, the floor and each estimator's multiple of it), the cost of
one release (the median over ten passes through 20 streams of each style and rate, held to the
1 ms budget; the mean, 99th percentile and worst beside it), and as the last line one JSON object
of every figure. Run:
``python benchmarks/throw_accuracy.py`` (about a minute); ``--trials N`` for fewer or more
trials a cell; ``--oracle`` to add the model-knowing oracle of each cell's first 40 trials.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from playspace import spatial as S
from playspace.spatial import FloatArray
from playspace.systems.interaction import Estimator, release_velocity
from playspace.systems.interaction.estimate import GATE_RATIO, GATE_SECONDS

RATES = (72.0, 90.0, 120.0)
HISTORY = 0.3  # s of samples handed to the estimators, ending at the release
TRIALS = 200
SEED = 20240611
POSITION_JITTER_MM = (0.5, 2.0)  # per axis, drawn per trial
ROTATION_JITTER_DEG = (0.05, 0.3)  # RMS, drawn per trial
TIMESTAMP_JITTER = 0.0003  # s RMS
P_DROP = 0.03
P_STALE = 0.03
P_DUPLICATE = 0.02
RELEASE_JITTER_FRAMES = 1.5
GOAL_FLOOR_RATIO = 1.5
COST_BUDGET_MS = 1.0  # a release, the median over every style and rate
ORACLE_TRIALS = 40
SHIPPED = ("steamvr", "xri", "godot", "average_5")
OURS = ("fitted",)
FLOOR_DEGREES = (1, 2, 3)
FLOOR_ENDS = 8  # the floor's window may end up to this many samples before the release
FLOOR_LONGEST = 0.15  # s: the longest window the floor tries


# --- angular-speed profiles: theta'(t) and theta(t) - theta(0), release at t = 0 -------------

Profile = Callable[[FloatArray], tuple[FloatArray, FloatArray]]


def bell(peak: float, width: float, at: float) -> Profile:
    """theta' = peak / cosh^2((t - at) / width), whose integral is peak * width * tanh(...)."""

    def profile(t: FloatArray) -> tuple[FloatArray, FloatArray]:
        x = (t - at) / width
        return peak / np.cosh(x) ** 2, peak * width * (np.tanh(x) - math.tanh(-at / width))

    return profile


def bell_then_slow(peak: float, width: float, at: float, slow: float, keep: float) -> Profile:
    """The rising half of a :func:`bell` peaking at ``at``, then a linear fall over ``slow``
    seconds to ``keep`` times the peak, held from there (``keep`` 0: a stop)."""
    rise = bell(peak, width, at)
    fall = (1.0 - keep) / slow  # of the peak, per second

    def raw(t: FloatArray) -> tuple[FloatArray, FloatArray]:
        rate, angle = rise(np.minimum(t, at))
        u = np.maximum(t - at, 0.0)  # time since the peak
        s = np.minimum(u, slow)
        after = angle + peak * (u - fall * (s**2 / 2 + s * (u - s)))
        return np.where(t > at, peak * (1.0 - fall * s), rate), np.where(t > at, after, angle)

    at_release = float(raw(np.zeros(1))[1][0])

    def profile(t: FloatArray) -> tuple[FloatArray, FloatArray]:
        rate, angle = raw(t)
        return rate, angle - at_release

    return profile


# --- motions --------------------------------------------------------------------------------

FORWARD = np.array([-1.0, 0.0, 0.0])  # rotating about -X turns +Y toward -Z (forward)
IDENTITY = np.array([0.0, 0.0, 0.0, 1.0])
# Indices into a throw's parameters: the arm's angle at the release, the peak angular speed,
# the time of the peak, the pivot's velocity (3:6), the slowing's length and what it keeps.
ANGLE, PEAK, PHASE, SLOW, KEEP = 0, 1, 2, 6, 7


def quat_x(angle: float) -> FloatArray:
    return S.from_axis_angle_many((1.0, 0.0, 0.0), angle)


@dataclass(frozen=True)
class Throw:
    """One trial's kinematics; the controller's pose at angle theta (from the release angle)
    is the pivot plus ``arm`` and ``orientation`` turned by theta about ``axis``."""

    pivot: FloatArray  # at t = 0
    pivot_velocity: FloatArray
    axis: FloatArray  # unit
    arm: FloatArray  # controller centre of mass from the pivot, at the release angle
    orientation: FloatArray  # the controller's, at the release angle
    offset: FloatArray  # object centre of mass from the controller's, controller frame
    profile: Profile
    meant_at: float  # when the velocity the player meant is taken: the release, or the peak

    def poses(self, t: FloatArray) -> tuple[FloatArray, FloatArray]:
        _, angle = self.profile(t)
        turn = S.from_axis_angle_many(np.broadcast_to(self.axis, (len(t), 3)), angle)
        positions = self.pivot + np.outer(t, self.pivot_velocity) + S.rotate_many(turn, self.arm)
        return positions, S.multiply_many(turn, self.orientation)

    def object_velocity(self, t: FloatArray) -> FloatArray:
        """``u + theta' a x d`` at each time of ``t`` (N, 3), ``d`` the object's centre from
        the pivot."""
        rate, _ = self.profile(t)
        p, q = self.poses(t)
        d = p - self.pivot - np.outer(t, self.pivot_velocity) + S.rotate_many(q, self.offset)
        velocity: FloatArray = self.pivot_velocity + rate[:, None] * np.cross(self.axis, d)
        return velocity


@dataclass(frozen=True)
class Style:
    """A kind of throw: what all its trials share, and how each draws the rest (its release
    moved by ``late`` seconds: the grip opening that much after the nominal moment)."""

    pivot: FloatArray
    axis: FloatArray
    arm: tuple[float, float, float]  # controller centre of mass from the pivot at angle 0
    orientation: FloatArray  # the controller's at angle 0
    offset: FloatArray  # object centre of mass from the controller's, controller frame
    width: float  # of the angular-speed bell (s)
    slows: bool  # the bell's rising half, then a slowing before the release
    nominal: FloatArray  # the middle of what the trials draw (release on time)
    draw: Callable[[np.random.Generator, float], FloatArray]

    def throw(self, x: FloatArray) -> Throw:
        turn = quat_x(float(x[ANGLE]))
        peak, phase = float(x[PEAK]), float(x[PHASE])
        drawn = Throw(
            pivot=self.pivot,
            pivot_velocity=x[3:6],
            axis=self.axis,
            arm=S.rotate_many(turn, self.arm),
            orientation=S.multiply_many(turn, self.orientation),
            offset=self.offset,
            profile=(
                bell_then_slow(peak, self.width, phase, float(x[SLOW]), float(x[KEEP]))
                if self.slows
                else bell(peak, self.width, phase)
            ),
            meant_at=phase if self.slows else 0.0,
        )
        return drawn if drawn.meant_at == 0.0 or stopping(drawn) else replace(drawn, meant_at=0.0)


def stopping(throw: Throw) -> bool:
    """Whether the object lost more than ``1 - GATE_RATIO`` of its speed in the last
    ``GATE_SECONDS`` before the grip opened: the glossary's rule for when the player meant the
    peak rather than the release (a grip that opened before the slowing was through, its loss
    diluted by the body's step, was a throw as it left the hand)."""
    speeds = np.linalg.norm(throw.object_velocity(np.linspace(-GATE_SECONDS, 0.0, 101)), axis=1)
    return bool(speeds[-1] < GATE_RATIO * speeds.max())


def params(
    angle: float,
    peak: float,
    phase: float,
    pivot_velocity: tuple[float, float, float],
    slow: float = 0.0,
    keep: float = 0.0,
) -> FloatArray:
    """One throw's numbers, as :class:`Style` reads them."""
    return np.array([angle, peak, phase, *pivot_velocity, slow, keep])


def swing(
    *,
    pivot: tuple[float, float, float],
    axis: FloatArray,
    arm: tuple[float, float, float],
    offset: tuple[float, float, float],
    width: float,
    angle_deg: float,
    peak: float,
    phase: float,
    pivot_velocity: tuple[float, float, float],
    orientation: FloatArray = IDENTITY,
) -> Style:
    """A swing released while the hand still goes at full speed."""

    def draw(rng: np.random.Generator, late: float) -> FloatArray:
        # Released ``late`` s after the nominal moment: the arm has turned on by then.
        angle = math.radians(angle_deg + rng.uniform(-5, 5))
        return params(angle, peak * rng.uniform(0.9, 1.1), phase - late, pivot_velocity)

    return Style(
        pivot=np.array(pivot),
        axis=axis,
        arm=arm,
        orientation=orientation,
        offset=np.array(offset),
        width=width,
        slows=False,
        nominal=params(math.radians(angle_deg), peak, phase, pivot_velocity),
        draw=draw,
    )


def slowing(
    *,
    pivot: tuple[float, float, float],
    arm: tuple[float, float, float],
    offset: tuple[float, float, float],
    width: float,
    angle_deg: float,
    peak: float,
    slow: tuple[float, float],
    keep: tuple[float, float],
    pivot_velocity: tuple[float, float, float],
) -> Style:
    """A swing about -X that peaks, then slows for ``slow`` s to ``keep`` of its peak before
    the grip opens: the flick (``keep`` 0) and the hesitant throw."""

    def draw(rng: np.random.Generator, late: float) -> FloatArray:
        length = rng.uniform(*slow)
        fraction = rng.uniform(*keep)
        top = peak * rng.uniform(0.9, 1.1)
        # The arm peaks ``angle_deg`` behind vertical, then turns on through the slowing.
        angle = math.radians(angle_deg + rng.uniform(-5, 5)) - top * length * (1 + fraction) / 2
        return params(angle, top, -length - late, pivot_velocity, length, fraction)

    middle_slow, middle_keep = sum(slow) / 2, sum(keep) / 2
    return Style(
        pivot=np.array(pivot),
        axis=FORWARD,
        arm=arm,
        orientation=IDENTITY,
        offset=np.array(offset),
        width=width,
        slows=True,
        nominal=params(
            math.radians(angle_deg) - peak * middle_slow * (1 + middle_keep) / 2,
            peak,
            -middle_slow,
            pivot_velocity,
            middle_slow,
            middle_keep,
        ),
        draw=draw,
    )


STYLES: dict[str, Style] = {
    # overhand: the arm 10 degrees behind vertical at the release, the body stepping in.
    "overhand": swing(
        pivot=(0.2, 1.5, 0.0),
        axis=FORWARD,
        arm=(0.0, 0.65, 0.0),
        offset=(0.0, 0.05, -0.03),
        width=0.06,
        angle_deg=10.0,
        peak=17.0,
        phase=0.01,
        pivot_velocity=(0.0, 0.0, -1.5),
    ),
    # underhand: the arm 35 degrees in front of hanging down.
    "underhand": swing(
        pivot=(0.2, 1.4, 0.0),
        axis=-FORWARD,
        arm=(0.0, -0.65, 0.0),
        offset=(0.0, -0.05, -0.02),
        width=0.12,
        angle_deg=35.0,
        peak=7.0,
        phase=0.0,
        pivot_velocity=(0.0, 0.0, -0.3),
    ),
    "flick": slowing(
        pivot=(0.25, 1.0, -0.2),
        arm=(0.0, 0.35, 0.0),
        offset=(0.0, 0.04, -0.02),
        width=0.05,
        angle_deg=5.0,
        peak=16.0,
        slow=(0.022, 0.033),
        keep=(0.0, 0.0),
        pivot_velocity=(0.0, 0.0, 0.0),
    ),
    # wrist: the controller points its -Z up the hand, so the axe head sits 0.35 m out along -Z.
    "wrist": swing(
        pivot=(0.25, 1.3, -0.3),
        axis=FORWARD,
        arm=(0.0, 0.07, 0.0),
        offset=(0.0, 0.0, -0.35),
        width=0.04,
        angle_deg=15.0,
        peak=18.0,
        phase=0.005,
        pivot_velocity=(0.0, 0.0, -0.8),
        orientation=quat_x(math.pi / 2),
    ),
    "hesitant": slowing(
        pivot=(0.2, 1.5, 0.0),
        arm=(0.0, 0.65, 0.0),
        offset=(0.0, 0.05, -0.03),
        width=0.07,
        angle_deg=10.0,
        peak=13.0,
        slow=(0.045, 0.07),
        keep=(0.4, 0.65),
        pivot_velocity=(0.0, 0.0, -1.0),
    ),
}


# --- streams --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Artefacts:
    """What the tracker does to a stream; :data:`HEADSET` is all of it."""

    position_mm: tuple[float, float] = (0.0, 0.0)
    rotation_deg: tuple[float, float] = (0.0, 0.0)
    timestamp_s: float = 0.0
    p_drop: float = 0.0
    p_stale: float = 0.0
    p_duplicate: float = 0.0
    release_frames: float = 0.0


HEADSET = Artefacts(
    POSITION_JITTER_MM,
    ROTATION_JITTER_DEG,
    TIMESTAMP_JITTER,
    P_DROP,
    P_STALE,
    P_DUPLICATE,
    RELEASE_JITTER_FRAMES,
)


@dataclass(frozen=True)
class Trial:
    times: FloatArray
    positions: FloatArray
    orientations: FloatArray
    offset: FloatArray
    meant: FloatArray  # the velocity the player meant, world frame
    meant_at: float  # and when, on the stream's clock
    style: Style  # what the oracle is told, with the heading and the noise
    heading: FloatArray
    position_noise: float
    rotation_noise: float  # rad per axis


def jittered(
    rng: np.random.Generator, p: FloatArray, q: FloatArray, position: float, rotation: float
) -> tuple[FloatArray, FloatArray]:
    """Poses with Gaussian position jitter (m per axis) and rotation jitter (rad per axis)."""
    turn = rng.normal(0.0, rotation, (len(q), 3))
    angles = np.linalg.norm(turn, axis=1)
    safe = np.where(angles[:, None] > 0.0, turn, (0.0, 1.0, 0.0))
    return p + rng.normal(0.0, position, p.shape), S.multiply_many(
        S.from_axis_angle_many(safe, angles), q
    )


def trial(style: Style, rate: float, rng: np.random.Generator, art: Artefacts = HEADSET) -> Trial:
    """A stream of one throw of ``style`` at ``rate`` as a tracker delivers it (the module
    docstring lists what it does), seen from a random heading (the estimator must not care)."""
    dt = 1.0 / rate
    late = rng.uniform(-art.release_frames, art.release_frames) * dt
    throw = style.throw(style.draw(rng, late))
    n = int(HISTORY * rate) + 1
    true_t = np.asarray((np.arange(n) - (n - 1)) * dt, dtype=np.float64)
    heading = S.from_axis_angle_many((0.0, 1.0, 0.0), rng.uniform(0.0, 2 * math.pi))
    position = rng.uniform(*art.position_mm) / 1e3
    rotation = math.radians(rng.uniform(*art.rotation_deg)) / math.sqrt(3.0)
    p, q = throw.poses(true_t)
    p, q = S.rotate_many(heading, p), S.multiply_many(heading, q)
    stamps = true_t + rng.normal(0.0, art.timestamp_s, n) if art.timestamp_s else true_t
    times: list[float] = []
    positions: list[FloatArray] = []
    orientations: list[FloatArray] = []
    for i in range(n):
        if i < n - 1 and rng.random() < art.p_drop:
            continue
        if positions and rng.random() < art.p_stale:
            pose = positions[-1], orientations[-1]
        else:
            noisy_p, noisy_q = jittered(rng, p[i : i + 1], q[i : i + 1], position, rotation)
            pose = noisy_p[0], noisy_q[0]
        times.append(stamps[i])
        positions.append(pose[0])
        orientations.append(pose[1])
        if rng.random() < art.p_duplicate:  # the same instant read again
            again_p, again_q = jittered(rng, p[i : i + 1], q[i : i + 1], position, rotation)
            times.append(stamps[i])
            positions.append(again_p[0])
            orientations.append(again_q[0])
    return Trial(
        np.array(times),
        np.array(positions),
        np.array(orientations),
        throw.offset,
        S.rotate_many(heading, throw.object_velocity(np.array([throw.meant_at]))[0]),
        stamps[-1] + throw.meant_at,
        style,
        heading,
        position,
        rotation,
    )


# --- the shipped estimators -----------------------------------------------------------------


def as_given(tr: Trial) -> tuple[FloatArray, FloatArray, FloatArray]:
    """The samples as ``release_velocity`` takes them: time order, of equal times the last."""
    order = np.argsort(tr.times, kind="stable")
    t, p, q = tr.times[order], tr.positions[order], tr.orientations[order]
    last = np.append(np.diff(t) > 0.0, True)
    return t[last], p[last], q[last]


def object_rates(tr: Trial) -> tuple[FloatArray, FloatArray]:
    """The object point's finite-difference velocities (N-1, 3) and their steps' end times."""
    t, p, q = as_given(tr)
    point = p + S.rotate_many(q, tr.offset)
    return np.diff(point, axis=0) / np.diff(t)[:, None], t[1:]


def steamvr(tr: Trial) -> FloatArray:
    """SteamVR's VelocityEstimator: the mean of the object's last 5 frame velocities."""
    rates, _ = object_rates(tr)
    mean: FloatArray = rates[-5:].mean(axis=0)
    return mean


def xri(tr: Trial) -> FloatArray:
    """XRI's throw smoothing at its defaults: the mean of the object's frame velocities over the
    last 0.25 s (the frames within it and the first beyond, a flat weighting curve)."""
    rates, ends = object_rates(tr)
    inside = np.flatnonzero(ends[-1] - ends <= 0.25)
    first = max(int(inside[0]) - 1, 0)
    mean: FloatArray = rates[first:].mean(axis=0)
    return mean


def godot(tr: Trial) -> FloatArray:
    """Godot XR Tools' linear velocity averager over 5 frames: the controller's displacement
    over the frames divided by their time, given to the object as it is (no ``w x r``)."""
    t, p, _ = as_given(tr)
    k = min(5, len(t) - 1)
    velocity: FloatArray = (p[-1] - p[-1 - k]) / (t[-1] - t[-1 - k])
    return velocity


Velocity = Callable[[Trial], FloatArray]


def ours(estimator: Estimator) -> Velocity:
    """The release velocity ``estimator`` gives a trial."""

    def velocity(tr: Trial) -> FloatArray:
        v, _ = release_velocity(
            tr.times, tr.positions, tr.orientations, tr.offset, estimator=estimator
        )
        return v

    return velocity


ESTIMATORS: dict[str, Velocity] = {
    "steamvr": steamvr,
    "xri": xri,
    "godot": godot,
    "average_5": ours(Estimator.AVERAGE_5),
} | {name: ours(Estimator(name)) for name in OURS}


# --- the floor --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Window:
    """A local fit: the ``length`` newest fresh samples up to ``end`` before the newest."""

    length: int
    end: int
    degree: int


def floor_readings(tr: Trial, windows: list[Window]) -> FloatArray:
    """The object point's velocity (W, 3) read at the moment the player's velocity belongs to
    from a least-squares polynomial through each window's samples (exact repeats left out).

    Normal equations from running sums: every window of one degree is one batched solve.
    """
    fresh = np.append(True, ~(np.diff(tr.positions, axis=0) == 0.0).all(axis=1))
    order = np.argsort(tr.times[fresh], kind="stable")
    t = tr.times[fresh][order]
    p, q = tr.positions[fresh][order], tr.orientations[fresh][order]
    point = p + S.rotate_many(q, tr.offset)
    scale = 0.01  # s: times in centiseconds keep the normal equations well conditioned
    x = (t - tr.meant_at) / scale
    out = np.empty((len(windows), 3))
    for degree in FLOOR_DEGREES:
        chosen = [i for i, w in enumerate(windows) if w.degree == degree]
        powers = x[:, None] ** np.arange(degree + 1)  # (N, d+1)
        outer = np.concatenate(
            (
                np.zeros((1, degree + 1, degree + 1)),
                np.cumsum(powers[:, :, None] * powers[:, None], 0),
            )
        )
        right = np.concatenate(
            (np.zeros((1, degree + 1, 3)), np.cumsum(powers[:, :, None] * point[:, None], 0))
        )
        stop = np.array([len(t) - windows[i].end for i in chosen])
        start = np.maximum(stop - np.array([windows[i].length for i in chosen]), 0)
        a = outer[stop] - outer[start]
        b = right[stop] - right[start]
        a += np.eye(degree + 1) * 1e-12  # a window too short for its degree reads nonsense
        coefficients = np.linalg.solve(a, b)
        out[chosen] = coefficients[:, 1] / scale  # the derivative at the meant moment
    return out


def floor_windows(rate: float) -> list[Window]:
    """Every window the floor tries at ``rate``: up to :data:`FLOOR_LONGEST` s long."""
    longest = int(FLOOR_LONGEST * rate) + 1
    return [
        Window(length, end, degree)
        for degree in FLOOR_DEGREES
        for end in range(FLOOR_ENDS + 1)
        for length in range(degree + 2, longest + 1)
    ]


def floor_errors(trials: list[Trial], rate: float) -> tuple[FloatArray, Window]:
    """The per-trial relative errors of the best window for these trials, and the window."""
    windows = floor_windows(rate)
    errors = np.array(
        [
            np.linalg.norm(floor_readings(tr, windows) - tr.meant, axis=1)
            / np.linalg.norm(tr.meant)
            for tr in trials
        ]
    )
    best = int(np.argmin(np.median(errors, axis=0)))
    return errors[:, best], windows[best]


# --- the oracle -------------------------------------------------------------------------------

# Forward-difference steps for the oracle's Jacobian: angle (rad), peak (rad/s), phase (s),
# pivot velocity (m/s), slowing (s) and what it keeps, far above rounding, below the noise.
DIFFERENCE_STEPS = np.array([1e-6, 1e-5, 1e-7, 1e-6, 1e-6, 1e-6, 1e-7, 1e-6])


def levenberg_marquardt(
    residuals: Callable[[FloatArray], FloatArray], x0: FloatArray, steps: FloatArray
) -> FloatArray:
    """The ``x`` near ``x0`` that minimises ``|residuals(x)|^2``: Gauss-Newton steps, damped
    towards gradient descent while they fail to lower the cost, forward-difference Jacobians."""
    x, r = x0, residuals(x0)
    cost, damping = float(r @ r), 1e-3
    for _ in range(100):
        jacobian = np.column_stack(
            [(residuals(x + h * e) - r) / h for e, h in zip(np.eye(len(x)), steps, strict=True)]
        )
        normal, gradient = jacobian.T @ jacobian, jacobian.T @ r
        while True:
            step = np.linalg.solve(normal + damping * np.diag(np.diag(normal)), -gradient)
            r_new = residuals(x + step)
            cost_new = float(r_new @ r_new)
            if cost_new < cost:
                break
            damping *= 10.0
            if damping > 1e12:  # no step lowers the cost: a minimum
                return x
        done = cost - cost_new < 1e-12 * cost
        x, r, cost, damping = x + step, r_new, cost_new, max(damping / 10.0, 1e-12)
        if done:
            break
    return x


def oracle(tr: Trial) -> FloatArray:
    """The meant velocity of the trial's style fitted to its samples by weighted least squares:
    told the style, the heading and the noise, it fits the angle, peak, phase and pivot velocity
    (and the slowing's length and what it keeps) from the style's nominal numbers."""
    fresh = np.append(True, ~(np.diff(tr.positions, axis=0) == 0.0).all(axis=1))
    t = tr.times[fresh] - tr.times[-1]
    back = S.inverse_many(tr.heading)  # into the style's own frame, where it is modelled
    p = S.rotate_many(back, tr.positions[fresh])
    q = S.multiply_many(back, tr.orientations[fresh])
    free = 8 if tr.style.slows else 6

    def residuals(x: FloatArray) -> FloatArray:
        model_p, model_q = tr.style.throw(np.concatenate((x, tr.style.nominal[free:]))).poses(t)
        turn = S.multiply_many(q, S.inverse_many(model_q))
        small_angle = 2.0 * turn[:, :3] * np.sign(turn[:, 3:])
        return np.concatenate(
            (
                ((p - model_p) / tr.position_noise).ravel(),
                (small_angle / max(tr.rotation_noise, 1e-6)).ravel(),
            )
        )

    x = levenberg_marquardt(residuals, tr.style.nominal[:free], DIFFERENCE_STEPS[:free])
    fitted = tr.style.throw(np.concatenate((x, tr.style.nominal[free:])))
    velocity: FloatArray = S.rotate_many(
        tr.heading, fitted.object_velocity(np.array([fitted.meant_at]))[0]
    )
    return velocity


# --- the run ----------------------------------------------------------------------------------


def relative_errors(trials: list[Trial], velocity: Velocity) -> FloatArray:
    """``|v - v_meant| / |v_meant|`` of each trial."""
    return np.array(
        [float(np.linalg.norm(velocity(tr) - tr.meant) / np.linalg.norm(tr.meant)) for tr in trials]
    )


def cost_ms(trials: list[Trial], estimator: Estimator, rounds: int = 10) -> dict[str, float]:
    """Wall time of one release (ms) over ``rounds`` passes through ``trials`` (every style and
    rate), after one pass to warm up: the median, which the budget is held to (a shared
    machine's other work lands in the tail, not in it), the mean, the 99th percentile and the
    worst."""
    args = [(tr.times, tr.positions, tr.orientations, tr.offset) for tr in trials]
    for a in args:
        release_velocity(*a, estimator=estimator)
    spent = np.empty(rounds * len(args))
    for i in range(len(spent)):
        a = args[i % len(args)]
        start = time.perf_counter()
        release_velocity(*a, estimator=estimator)
        spent[i] = time.perf_counter() - start
    spent *= 1e3
    return {
        "median": round(float(np.median(spent)), 4),
        "mean": round(float(spent.mean()), 4),
        "p99": round(float(np.percentile(spent, 99)), 4),
        "max": round(float(spent.max()), 4),
        "releases": len(spent),
    }


def pct(errors: FloatArray) -> float:
    return round(100.0 * float(np.median(errors)), 2)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--trials", type=int, default=TRIALS, help="throws per style and rate")
    parser.add_argument("--oracle", action="store_true", help="add the model-knowing oracle")
    args = parser.parse_args()
    rng = np.random.default_rng(SEED)
    median_pct: dict[str, dict[str, dict[str, float]]] = {}
    ratio_to_floor: dict[str, dict[str, dict[str, float]]] = {}
    floor_window: dict[str, dict[str, dict[str, int]]] = {}
    streams: list[Trial] = []
    names = list(ESTIMATORS)
    header = f"{'style':<10} {'Hz':>4} {'floor %':>8} " + " ".join(f"{n:>15}" for n in names)
    print(
        f"{args.trials} throws per style and rate; median relative error of the speed vector, "
        "% (x the floor)"
    )
    print(header)
    print("-" * len(header))
    for style_name, style in STYLES.items():
        median_pct[style_name], ratio_to_floor[style_name] = {}, {}
        floor_window[style_name] = {}
        for rate in RATES:
            trials = [trial(style, rate, rng) for _ in range(args.trials)]
            streams += trials[:20]
            key = f"{rate:.0f}"
            floor, window = floor_errors(trials, rate)
            cell = {"floor": pct(floor)} | {
                name: pct(relative_errors(trials, velocity))
                for name, velocity in ESTIMATORS.items()
            }
            if args.oracle:
                cell["oracle"] = pct(relative_errors(trials[:ORACLE_TRIALS], oracle))
            median_pct[style_name][key] = cell
            ratio_to_floor[style_name][key] = {
                name: round(cell[name] / cell["floor"], 2) for name in names
            }
            floor_window[style_name][key] = {
                "samples": window.length,
                "ends_before_release": window.end,
                "degree": window.degree,
            }
            cells = " ".join(
                f"{f'{cell[n]:.1f} ({ratio_to_floor[style_name][key][n]:.1f}x)':>15}" for n in names
            )
            print(f"{style_name:<10} {key:>4} {cell['floor']:>8.2f} {cells}")
            if args.oracle:
                print(f"{'':<10} {'':>4} oracle {cell['oracle']:.2f} % (first {ORACLE_TRIALS})")
    print(
        "floor: a least-squares polynomial through the object point over the window (length, "
        "end, degree) chosen with hindsight for each style and rate"
    )
    goals = {}
    for name in OURS:
        near = all(
            ratio_to_floor[s][r][name] <= GOAL_FLOOR_RATIO
            for s in STYLES
            for r in ratio_to_floor[s]
        )
        ahead = all(
            median_pct[s][r][name] < min(median_pct[s][r][shipped] for shipped in SHIPPED)
            for s in STYLES
            for r in median_pct[s]
        )
        goals[name] = {"within_1_5x_floor_everywhere": near, "ahead_of_shipped_everywhere": ahead}
        print(
            f"{name}: within {GOAL_FLOOR_RATIO}x the floor everywhere: {'yes' if near else 'NO'}; "
            f"ahead of every shipped estimator everywhere: {'yes' if ahead else 'NO'}"
        )
    cost = {name: cost_ms(streams, Estimator(name)) for name in OURS}
    for name, c in cost.items():
        goals[name]["median_cost_under_1_ms"] = c["median"] < COST_BUDGET_MS
        print(
            f"cost per release ({name}, {HISTORY * 1e3:.0f} ms of samples, {c['releases']:.0f} "
            f"releases): median {c['median']:.3f} ms (budget {COST_BUDGET_MS:g} ms), mean "
            f"{c['mean']:.3f} ms, p99 {c['p99']:.3f} ms, worst {c['max']:.3f} ms"
        )
    figures = {
        "trials": args.trials,
        "rates_hz": list(RATES),
        "history_s": HISTORY,
        "artefacts": {
            "position_jitter_mm": list(POSITION_JITTER_MM),
            "rotation_jitter_deg_rms": list(ROTATION_JITTER_DEG),
            "timestamp_jitter_s": TIMESTAMP_JITTER,
            "p_drop": P_DROP,
            "p_stale": P_STALE,
            "p_duplicate": P_DUPLICATE,
            "release_jitter_frames": RELEASE_JITTER_FRAMES,
        },
        "median_error_pct": median_pct,
        "ratio_to_floor": ratio_to_floor,
        "floor_window": floor_window,
        "goals": goals,
        "cost_ms_per_release": cost,
    }
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
