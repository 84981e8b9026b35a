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
against where the intended velocity lands it. Then the cost of one release with the default
estimator, and as the last line one JSON object with every figure.

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
from playspace.systems.throw import DEFAULT_WINDOW, Estimator, release_velocity

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


def about_x(angle: float, v: tuple[float, float, float]) -> FloatArray:
    return S.rotate_many(S.from_axis_angle_many((1.0, 0.0, 0.0), angle), v)


def quat_x(angle: float) -> FloatArray:
    return S.from_axis_angle_many((1.0, 0.0, 0.0), angle)


FORWARD = np.array([-1.0, 0.0, 0.0])  # rotating about -X turns +Y toward -Z (forward)


def overhand(rng: np.random.Generator) -> Throw:
    up = math.radians(10.0 + rng.uniform(-5, 5))  # release the arm this far behind vertical
    return Throw(
        pivot=np.array([0.2, 1.5, 0.0]),
        pivot_velocity=np.array([0.0, 0.0, -1.5]),
        axis=FORWARD,
        arm=about_x(up, (0.0, 0.65, 0.0)),
        orientation=quat_x(up),
        offset=np.array([0.0, 0.05, -0.03]),
        profile=bell(17.0 * rng.uniform(0.9, 1.1), 0.06, at=0.01),
        intended_at=0.0,
    )


def underhand(rng: np.random.Generator) -> Throw:
    up = math.radians(35.0 + rng.uniform(-5, 5))  # the arm this far in front of hanging down
    return Throw(
        pivot=np.array([0.2, 1.4, 0.0]),
        pivot_velocity=np.array([0.0, 0.0, -0.3]),
        axis=-FORWARD,
        arm=about_x(up, (0.0, -0.65, 0.0)),
        orientation=quat_x(up),
        offset=np.array([0.0, -0.05, -0.02]),
        profile=bell(7.0 * rng.uniform(0.9, 1.1), 0.12),
        intended_at=0.0,
    )


def flick(rng: np.random.Generator) -> Throw:
    stop = rng.uniform(2.0, 3.0) * DT
    peak = 16.0 * rng.uniform(0.9, 1.1)
    # The forearm peaks 5 degrees behind vertical, then turns on through half the stop.
    at_release = math.radians(5.0 + rng.uniform(-5, 5)) - peak * stop / 2
    return Throw(
        pivot=np.array([0.25, 1.0, -0.2]),
        pivot_velocity=np.zeros(3),
        axis=FORWARD,
        arm=about_x(at_release, (0.0, 0.35, 0.0)),
        orientation=quat_x(at_release),
        offset=np.array([0.0, 0.04, -0.02]),
        profile=bell_then_stop(peak, 0.05, stop),
        intended_at=-stop,
    )


def wrist(rng: np.random.Generator) -> Throw:
    up = math.radians(15.0 + rng.uniform(-5, 5))
    # The controller points its -Z up the hand, so the axe head sits 0.35 m out along -Z.
    return Throw(
        pivot=np.array([0.25, 1.3, -0.3]),
        pivot_velocity=np.array([0.0, 0.0, -0.8]),
        axis=FORWARD,
        arm=about_x(up, (0.0, 0.07, 0.0)),
        orientation=S.multiply_many(quat_x(up), quat_x(math.pi / 2)),
        offset=np.array([0.0, 0.0, -0.35]),
        profile=bell(18.0 * rng.uniform(0.9, 1.1), 0.04, at=0.005),
        intended_at=0.0,
    )


MOTIONS: dict[str, Callable[[np.random.Generator], Throw]] = {
    "overhand": overhand,
    "underhand": underhand,
    "flick": flick,
    "wrist": wrist,
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


def trial(throw: Throw, rng: np.random.Generator) -> Trial:
    """Noisy samples of ``throw`` seen from a random heading (the estimator must not care)."""
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
    )


def landing(start: FloatArray, v: FloatArray) -> FloatArray:
    """Where a ballistic flight from ``start`` with velocity ``v`` meets the floor (x, z)."""
    flight = (v[1] + math.sqrt(v[1] ** 2 + 2 * G * start[1])) / G
    point: FloatArray = start[[0, 2]] + flight * v[[0, 2]]
    return point


def errors(trials: list[Trial], estimator: Estimator, window: int) -> dict[str, FloatArray]:
    """Per-trial errors of ``estimator`` against the intended velocity."""
    rows = []
    for tr in trials:
        v, _ = release_velocity(
            tr.times, tr.positions, tr.orientations, tr.offset, estimator=estimator, window=window
        )
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
    trials = {
        name: [trial(make(rng), rng) for _ in range(TRIALS)] for name, make in MOTIONS.items()
    }
    results = {
        name: {e.value: summary(errors(ts, e, DEFAULT_WINDOW)) for e in ORDER}
        for name, ts in trials.items()
    }
    header = (
        f"{'motion':<10} {'estimator':<15} {'speed err m/s':>14} {'speed err %':>12} "
        f"{'direction deg':>14} {'landing m':>12}"
    )
    print(f"{TRIALS} trials per motion, {RATE:.0f} Hz, window {DEFAULT_WINDOW}; median / p90")
    print(header)
    print("-" * len(header))
    for name, by_estimator in results.items():
        for e in ORDER:
            r = by_estimator[e.value]
            cells = [
                f"{r[f'{k}_median']:.2f} / {r[f'{k}_p90']:.2f}"
                for k in ("speed", "speed_pct", "direction_deg", "landing_m")
            ]
            print(
                f"{name:<10} {LABELS[e]:<15} {cells[0]:>14} {cells[1]:>12} {cells[2]:>14} "
                f"{cells[3]:>12}"
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
            sweep[window] = {
                name: round(float(np.median(errors(ts, Estimator.FITTED, window)["landing_m"])), 3)
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
        "landing_margin_vs_average_5": margins,
        "beats_average_5_everywhere": beats,
        "cost_ms_per_release": cost,
    }
    if sweep:
        figures["sweep_landing_median_m"] = sweep
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
