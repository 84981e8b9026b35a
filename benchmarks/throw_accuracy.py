"""How well each throw estimator recovers the velocity a player meant to throw with.

Four synthetic throws at 90 Hz, each a rigid rotation about a pivot (shoulder, elbow or wrist)
that itself moves at constant velocity, so the intended release velocity is known in closed
form: with the angle's rate ``theta'`` about unit axis ``a`` and the object ``d`` from the
pivot, the object leaves at ``u + theta' a x d`` (pivot velocity ``u``).

- overhand: the arm swings forward over the shoulder, still accelerating at release (17 rad/s
  at its peak, 10 ms later) while the body steps in at 1.5 m/s; 13 m/s at release, about
  7 degrees above horizontal, from 2.2 m up.
- underhand: a pendulum swing that peaks at 7 rad/s at the release: 5 m/s, 35 degrees up.
- flick: the forearm flicks about the elbow to 16 rad/s and then stops dead over the last 2 to
  3 steps before release; the intended velocity is that of the peak, 6.3 m/s, before the stop.
- wrist: the controller turns about the wrist at 18 rad/s with the object (an axe, say) 0.35 m
  out along its -Z while the forearm pushes forward at 0.8 m/s: 8 m/s, of which the controller's
  own centre moves at 2.

The angular speeds rise and fall as bells (``1 / cosh^2``), as hand speeds do, and not as
polynomials, which a fit of the same order would recover exactly.

Each trial varies the angular speed by +-10 %, the release angle by +-5 degrees and the
heading at random, and adds tracking noise: 2.5 mm per axis on positions, 0.3 degrees RMS on
orientations, each sample repeating the one before with probability 4 % (a missed tracker
update) or missing with probability 3 % (a dropped step; the release sample is always there).

For each motion and estimator it prints the median and 90th percentile of the release speed
error (m/s and %), the direction error (degrees) and the landing error (m): where the object
lands on the floor y = 0 after a ballistic flight (g = 9.81) from the true release point,
against where the intended velocity lands it; and the estimator's median speed and landing
errors as multiples of the oracle's (below). Then the cost of one release with the default
estimator, and as the last line one JSON object with every figure (the multiples under
``ratio_to_oracle``).

The oracle
----------
The "oracle" row is the best any estimator could do from the same noisy samples: the motion's
own model fitted to them by weighted least squares. It is told all that the trials of a motion
share: the pivot's position at the release, the axis, the arm and the controller's orientation
at a reference angle, the object's offset, the bell's width, whether the motion ends in a stop,
and the trial's heading (the frame). It fits the six numbers a throw of that kind could still
vary by: the arm's angle at the release, the peak angular speed, the time of the peak from the
release (for the flick, minus the stop's length: the stop's onset is the peak) and the pivot's
velocity; the trials vary only the first three, but it is not told which. The residuals are
the positions' errors over their noise (2.5 mm) and the orientations' small-angle errors over
theirs, at all 24 samples the estimators are handed less exact repeats of the sample before
(missed tracker updates are not Gaussian noise, and the fitted estimator drops them too).
Levenberg-Marquardt minimises them from the motion's nominal parameters (the middle of what its
trials draw), and the fitted model's intended velocity is the oracle's answer. (Started from a
trial's true parameters instead, it reaches the same minimum, and its chi-squared per degree of
freedom is 1: the model and the noise weights are right.)

Why it is a floor: with Gaussian noise and the true model, the least-squares fit is the
maximum-likelihood estimate, unbiased and as precise as the Cramer-Rao bound allows to first
order in the noise, so no estimator working from the same samples is more accurate on average.
The real estimators know less (not the kind of throw, only its samples) and can only do worse;
one told more (the pivot's velocity, say) could do better, so this is the floor for knowing the
kind of throw but not this throw's numbers. A single trial can beat it by luck, a median should
not. The multiples say how much of an estimator's error is left to win, and where.

Run: ``python benchmarks/throw_accuracy.py`` (a few seconds); ``--sweep`` also prints the median
landing error of the fitted estimator for each window size, which is how the default was chosen.
"""

from __future__ import annotations

import json
import math
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from playspace import spatial as S
from playspace.spatial import FloatArray
from playspace.systems.interaction import DEFAULT_WINDOW, Estimator, release_velocity

RATE = 90.0
DT = 1.0 / RATE
HISTORY = 24  # samples handed to the estimator, ending at the release
TRIALS = 200
G = 9.81
POSITION_NOISE = 0.0025  # m, per axis
ORIENTATION_NOISE = math.radians(0.3) / math.sqrt(3.0)  # rad per axis: 0.3 degrees RMS
P_REPEAT = 0.04
P_DROP = 0.03
SEED = 20240611
ORDER = (Estimator.LAST_STEP, Estimator.AVERAGE_5, Estimator.FITTED)
LABELS = {
    Estimator.LAST_STEP: "release step",
    Estimator.AVERAGE_5: "5-step average",
    Estimator.FITTED: "fitted (ours)",
}


# --- angular-speed profiles: theta'(t) and theta(t) - theta(0), release at t = 0 -------------

Profile = Callable[[FloatArray], tuple[FloatArray, FloatArray]]


def bell(peak: float, width: float, at: float = 0.0) -> Profile:
    """theta' = peak / cosh^2((t - at) / width), whose integral is peak * width * tanh(...)."""

    def profile(t: FloatArray) -> tuple[FloatArray, FloatArray]:
        x = (t - at) / width
        return peak / np.cosh(x) ** 2, peak * width * (np.tanh(x) - math.tanh(-at / width))

    return profile


def bell_then_stop(peak: float, width: float, stop: float) -> Profile:
    """The rising half of a :func:`bell` that peaks ``stop`` seconds before the release, then
    a linear fall to rest at the release."""
    rise = bell(peak, width, at=-stop)
    at_peak = rise(np.array([-stop]))[1]

    def profile(t: FloatArray) -> tuple[FloatArray, FloatArray]:
        rate, angle = rise(np.minimum(t, -stop))
        u = np.clip(t + stop, 0.0, stop)  # time since the peak
        # The stop turns through peak * stop / 2; theta(0) = 0.
        angle = angle - at_peak + peak * (u - u**2 / (2 * stop) - stop / 2)
        return np.where(t > -stop, peak * (1.0 - u / stop), rate), angle

    return profile


# --- motions --------------------------------------------------------------------------------


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
    intended_at: float  # when the intended velocity is taken (the peak)

    def poses(self, t: FloatArray) -> tuple[FloatArray, FloatArray]:
        _, angle = self.profile(t)
        turn = S.from_axis_angle_many(np.broadcast_to(self.axis, (len(t), 3)), angle)
        positions = self.pivot + np.outer(t, self.pivot_velocity) + S.rotate_many(turn, self.arm)
        return positions, S.multiply_many(turn, self.orientation)

    def object_velocity(self, t: float) -> FloatArray:
        """``u + theta' a x d`` at time ``t``, ``d`` the object's centre from the pivot."""
        rate, _ = self.profile(np.array([t]))
        p, q = self.poses(np.array([t]))
        d = p[0] - self.pivot - t * self.pivot_velocity + S.rotate_many(q[0], self.offset)
        velocity: FloatArray = self.pivot_velocity + rate[0] * np.cross(self.axis, d)
        return velocity

    def release_point(self) -> FloatArray:
        p, q = self.poses(np.zeros(1))
        point: FloatArray = p[0] + S.rotate_many(q[0], self.offset)
        return point


def quat_x(angle: float) -> FloatArray:
    return S.from_axis_angle_many((1.0, 0.0, 0.0), angle)


FORWARD = np.array([-1.0, 0.0, 0.0])  # rotating about -X turns +Y toward -Z (forward)
IDENTITY = np.array([0.0, 0.0, 0.0, 1.0])
ANGLE, PEAK, PHASE = 0, 1, 2  # indices into a throw's parameters; 3:6 the pivot velocity


def params(
    angle: float, peak: float, phase: float, pivot_velocity: tuple[float, float, float]
) -> FloatArray:
    """One throw's numbers, as :class:`Motion` reads them."""
    return np.array([angle, peak, phase, *pivot_velocity])


@dataclass(frozen=True)
class Motion:
    """A kind of throw: what all its trials share, and how each draws the rest.

    A throw's parameters (:func:`params`) are the arm's angle about +X at the release, from
    ``arm`` and ``orientation`` at angle 0; the peak angular speed; the time of the peak from
    the release (for a motion that ``stops``, minus the stop's length); the pivot's velocity.
    """

    pivot: FloatArray  # at t = 0
    axis: FloatArray  # unit: +X or -X
    arm: tuple[float, float, float]  # controller centre of mass from the pivot at angle 0
    orientation: FloatArray  # the controller's at angle 0
    offset: FloatArray  # object centre of mass from the controller's, controller frame
    width: float  # of the angular-speed bell (s)
    stops: bool  # the bell's rising half, then a stop to rest at the release
    nominal: FloatArray  # the middle of what the trials draw
    draw: Callable[[np.random.Generator], FloatArray]

    def throw(self, x: FloatArray) -> Throw:
        turn = quat_x(float(x[ANGLE]))
        peak, phase = float(x[PEAK]), float(x[PHASE])
        return Throw(
            pivot=self.pivot,
            pivot_velocity=x[3:6],
            axis=self.axis,
            arm=S.rotate_many(turn, self.arm),
            orientation=S.multiply_many(turn, self.orientation),
            offset=self.offset,
            profile=(
                bell_then_stop(peak, self.width, -phase)
                if self.stops
                else bell(peak, self.width, at=phase)
            ),
            intended_at=phase if self.stops else 0.0,
        )


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
) -> Motion:
    """A swing whose trials vary the release angle by +-5 degrees and the peak by +-10 %."""

    def draw(rng: np.random.Generator) -> FloatArray:
        angle = math.radians(angle_deg + rng.uniform(-5, 5))
        return params(angle, peak * rng.uniform(0.9, 1.1), phase, pivot_velocity)

    return Motion(
        pivot=np.array(pivot),
        axis=axis,
        arm=arm,
        orientation=orientation,
        offset=np.array(offset),
        width=width,
        stops=False,
        nominal=params(math.radians(angle_deg), peak, phase, pivot_velocity),
        draw=draw,
    )


# overhand: the arm this far behind vertical at the release, the body stepping in.
OVERHAND = swing(
    pivot=(0.2, 1.5, 0.0),
    axis=FORWARD,
    arm=(0.0, 0.65, 0.0),
    offset=(0.0, 0.05, -0.03),
    width=0.06,
    angle_deg=10.0,
    peak=17.0,
    phase=0.01,
    pivot_velocity=(0.0, 0.0, -1.5),
)
# underhand: the arm this far in front of hanging down.
UNDERHAND = swing(
    pivot=(0.2, 1.4, 0.0),
    axis=-FORWARD,
    arm=(0.0, -0.65, 0.0),
    offset=(0.0, -0.05, -0.02),
    width=0.12,
    angle_deg=35.0,
    peak=7.0,
    phase=0.0,
    pivot_velocity=(0.0, 0.0, -0.3),
)
# wrist: the controller points its -Z up the hand, so the axe head sits 0.35 m out along -Z.
WRIST = swing(
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
)


def draw_flick(rng: np.random.Generator) -> FloatArray:
    stop = rng.uniform(2.0, 3.0) * DT
    peak = 16.0 * rng.uniform(0.9, 1.1)
    # The forearm peaks 5 degrees behind vertical, then turns on through half the stop.
    angle = math.radians(5.0 + rng.uniform(-5, 5)) - peak * stop / 2
    return params(angle, peak, -stop, (0.0, 0.0, 0.0))


FLICK = Motion(
    pivot=np.array([0.25, 1.0, -0.2]),
    axis=FORWARD,
    arm=(0.0, 0.35, 0.0),
    orientation=IDENTITY,
    offset=np.array([0.0, 0.04, -0.02]),
    width=0.05,
    stops=True,
    nominal=params(math.radians(5.0) - 16.0 * 2.5 * DT / 2, 16.0, -2.5 * DT, (0.0, 0.0, 0.0)),
    draw=draw_flick,
)

MOTIONS: dict[str, Motion] = {
    "overhand": OVERHAND,
    "underhand": UNDERHAND,
    "flick": FLICK,
    "wrist": WRIST,
}


# --- trials ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Trial:
    times: FloatArray
    positions: FloatArray
    orientations: FloatArray
    offset: FloatArray
    intended: FloatArray
    release_point: FloatArray
    motion: Motion  # what the oracle is told, with the heading
    heading: FloatArray


def trial(motion: Motion, rng: np.random.Generator) -> Trial:
    """Noisy samples of a throw of ``motion`` seen from a random heading (the estimator must
    not care)."""
    throw = motion.throw(motion.draw(rng))
    t = (np.arange(HISTORY) - (HISTORY - 1)) * DT
    t = t[np.append(rng.random(HISTORY - 1) >= P_DROP, True)]
    p, q = throw.poses(t)
    heading = S.from_axis_angle_many((0.0, 1.0, 0.0), rng.uniform(0.0, 2 * math.pi))
    p = S.rotate_many(heading, p) + rng.normal(0.0, POSITION_NOISE, p.shape)
    jitter = rng.normal(0.0, ORIENTATION_NOISE, (len(t), 3))
    angles = np.linalg.norm(jitter, axis=1)
    noise = S.from_axis_angle_many(jitter, angles)
    q = S.multiply_many(noise, S.multiply_many(heading, q))
    for i in np.flatnonzero(rng.random(len(t)) < P_REPEAT):
        if i > 0:
            p[i], q[i] = p[i - 1], q[i - 1]
    return Trial(
        t,
        p,
        q,
        throw.offset,
        S.rotate_many(heading, throw.object_velocity(throw.intended_at)),
        S.rotate_many(heading, throw.release_point()),
        motion,
        heading,
    )


# --- the oracle -----------------------------------------------------------------------------

# Forward-difference steps for the oracle's Jacobian: angle (rad), peak (rad/s), phase (s) and
# pivot velocity (m/s), each far above rounding and far below what the noise can resolve.
DIFFERENCE_STEPS = np.array([1e-6, 1e-5, 1e-7, 1e-6, 1e-6, 1e-6])


def levenberg_marquardt(
    residuals: Callable[[FloatArray], FloatArray], x0: FloatArray, steps: FloatArray
) -> FloatArray:
    """The ``x`` near ``x0`` that minimises ``|residuals(x)|^2`` (numpy only, so the benchmark
    needs nothing beyond the project's dependencies): Gauss-Newton steps, damped towards
    gradient descent while they fail to lower the cost, with forward-difference Jacobians."""
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
    """The intended velocity of the trial's motion fitted to its samples by weighted least
    squares (the module docstring says what it is told, and why it is a floor)."""
    repeat = (tr.positions[1:] == tr.positions[:-1]).all(axis=1) & (
        tr.orientations[1:] == tr.orientations[:-1]
    ).all(axis=1)
    fresh = np.append(True, ~repeat)
    t = tr.times[fresh]
    back = S.inverse_many(tr.heading)  # into the motion's own frame, where it is modelled
    p = S.rotate_many(back, tr.positions[fresh])
    q = S.multiply_many(back, tr.orientations[fresh])

    def residuals(x: FloatArray) -> FloatArray:
        model_p, model_q = tr.motion.throw(x).poses(t)
        turn = S.multiply_many(q, S.inverse_many(model_q))
        small_angle = 2.0 * turn[:, :3] * np.sign(turn[:, 3:])  # the rotation vector, near 0
        return np.concatenate(
            (((p - model_p) / POSITION_NOISE).ravel(), (small_angle / ORIENTATION_NOISE).ravel())
        )

    fitted = tr.motion.throw(levenberg_marquardt(residuals, tr.motion.nominal, DIFFERENCE_STEPS))
    velocity: FloatArray = S.rotate_many(tr.heading, fitted.object_velocity(fitted.intended_at))
    return velocity


# --- errors ---------------------------------------------------------------------------------

Velocity = Callable[[Trial], FloatArray]


def estimated(estimator: Estimator, window: int = DEFAULT_WINDOW) -> Velocity:
    """The release velocity ``estimator`` gives a trial."""

    def velocity(tr: Trial) -> FloatArray:
        v, _ = release_velocity(
            tr.times, tr.positions, tr.orientations, tr.offset, estimator=estimator, window=window
        )
        return v

    return velocity


def landing(start: FloatArray, v: FloatArray) -> FloatArray:
    """Where a ballistic flight from ``start`` with velocity ``v`` meets the floor (x, z)."""
    flight = (v[1] + math.sqrt(v[1] ** 2 + 2 * G * start[1])) / G
    point: FloatArray = start[[0, 2]] + flight * v[[0, 2]]
    return point


def errors(trials: list[Trial], velocity: Velocity) -> dict[str, FloatArray]:
    """Per-trial errors of ``velocity`` against the intended velocity."""
    rows = []
    for tr in trials:
        v = velocity(tr)
        speed, intended = float(np.linalg.norm(v)), float(np.linalg.norm(tr.intended))
        cosine = float(v @ tr.intended) / max(speed * intended, 1e-12)
        miss = landing(tr.release_point, v) - landing(tr.release_point, tr.intended)
        rows.append(
            (
                abs(speed - intended),
                100 * abs(speed - intended) / intended,
                math.degrees(math.acos(min(1.0, max(-1.0, cosine)))),
                float(np.linalg.norm(miss)),
            )
        )
    columns = np.array(rows).T
    return dict(zip(("speed", "speed_pct", "direction_deg", "landing_m"), columns, strict=True))


def summary(values: dict[str, FloatArray]) -> dict[str, float]:
    out = {}
    for name, column in values.items():
        out[f"{name}_median"] = round(float(np.median(column)), 3)
        out[f"{name}_p90"] = round(float(np.percentile(column, 90)), 3)
    return out


def ratios(by_estimator: dict[str, dict[str, float]]) -> dict[str, dict[str, float]]:
    """Each estimator's median speed and landing errors as multiples of the oracle's."""
    floor = by_estimator["oracle"]
    return {
        e.value: {
            key: round(by_estimator[e.value][f"{column}_median"] / floor[f"{column}_median"], 2)
            for key, column in (("speed", "speed"), ("landing", "landing_m"))
        }
        for e in ORDER
    }


def cost_ms(trials: list[Trial], calls: int = 4000) -> dict[str, float]:
    """Wall time of one default release (ms): mean, 99th percentile and worst of ``calls``."""
    args = [(tr.times, tr.positions, tr.orientations, tr.offset) for tr in trials]
    spent = np.empty(calls)
    for i in range(calls):
        start = time.perf_counter()
        release_velocity(*args[i % len(args)])
        spent[i] = time.perf_counter() - start
    spent *= 1e3
    return {
        "mean": round(float(spent.mean()), 4),
        "p99": round(float(np.percentile(spent, 99)), 4),
        "max": round(float(spent.max()), 4),
    }


def main() -> None:
    rng = np.random.default_rng(SEED)
    trials = {name: [trial(motion, rng) for _ in range(TRIALS)] for name, motion in MOTIONS.items()}
    results = {
        name: {e.value: summary(errors(ts, estimated(e))) for e in ORDER}
        | {"oracle": summary(errors(ts, oracle))}
        for name, ts in trials.items()
    }
    ratio_to_oracle = {name: ratios(r) for name, r in results.items()}
    header = (
        f"{'motion':<10} {'estimator':<15} {'speed err m/s':>14} {'speed err %':>12} "
        f"{'direction deg':>14} {'landing m':>12} {'x oracle':>12}"
    )
    print(f"{TRIALS} trials per motion, {RATE:.0f} Hz, window {DEFAULT_WINDOW}; median / p90")
    print(header)
    print("-" * len(header))
    for name, by_estimator in results.items():
        for key, label in [(e.value, LABELS[e]) for e in ORDER] + [("oracle", "oracle")]:
            r = by_estimator[key]
            cells = [
                f"{r[f'{k}_median']:.2f} / {r[f'{k}_p90']:.2f}"
                for k in ("speed", "speed_pct", "direction_deg", "landing_m")
            ]
            multiple = ratio_to_oracle[name].get(key, {"speed": 1.0, "landing": 1.0})
            cells.append(f"{multiple['speed']:.1f} / {multiple['landing']:.1f}")
            print(
                f"{name:<10} {label:<15} {cells[0]:>14} {cells[1]:>12} {cells[2]:>14} "
                f"{cells[3]:>12} {cells[4]:>12}"
            )
    print(
        "x oracle: median speed / landing error as multiples of the oracle's, a least-squares "
        "fit of the motion's own model (the floor)"
    )
    margins = {
        name: round(r["average_5"]["landing_m_median"] / r["fitted"]["landing_m_median"], 2)
        for name, r in results.items()
    }
    print(
        "median landing error, 5-step average / ours: "
        + ", ".join(f"{name} {m:.1f}x" for name, m in margins.items())
    )
    beats = all(
        r["fitted"]["landing_m_median"] < r["average_5"]["landing_m_median"]
        for r in results.values()
    )
    print(f"ours beats the 5-step average on every motion: {'yes' if beats else 'NO'}")
    cost = cost_ms([tr for ts in trials.values() for tr in ts])
    print(
        f"cost per release (fitted, {HISTORY} samples): mean {cost['mean']:.3f} ms, "
        f"p99 {cost['p99']:.3f} ms, worst {cost['max']:.3f} ms (budget 1 ms)"
    )
    sweep = {}
    if "--sweep" in sys.argv:
        print("median landing error (m) of the fitted estimator by window (samples):")
        for window in range(3, 15):
            fitted = estimated(Estimator.FITTED, window)
            sweep[window] = {
                name: round(float(np.median(errors(ts, fitted)["landing_m"])), 3)
                for name, ts in trials.items()
            }
            print(f"  {window:2d}: " + "  ".join(f"{k} {v:.3f}" for k, v in sweep[window].items()))
    figures = {
        "trials": TRIALS,
        "rate_hz": RATE,
        "window": DEFAULT_WINDOW,
        "noise": {
            "position_m_per_axis": POSITION_NOISE,
            "orientation_deg_rms": 0.3,
            "p_repeat": P_REPEAT,
            "p_drop": P_DROP,
        },
        "results": results,
        "ratio_to_oracle": ratio_to_oracle,
        "landing_margin_vs_average_5": margins,
        "beats_average_5_everywhere": beats,
        "cost_ms_per_release": cost,
    }
    if sweep:
        figures["sweep_landing_median_m"] = sweep
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
