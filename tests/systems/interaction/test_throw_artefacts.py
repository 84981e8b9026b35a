"""The fitted throw on streams as a headset delivers them: each tracker artefact alone, then all.

Each test draws seeded streams of a swing about a shoulder (the hand's angular speed a bell, as
in ``benchmarks/throw_accuracy.py``), damages them the way one artefact does, and checks the
median relative error of the speed vector against the velocity the player meant. Each also runs a
control that the same bound rejects (the release step alone, or a look-back too short for the
throw), so a bound that passes is a bound that can fail.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
import pytest

from playspace import spatial
from playspace.systems.interaction import Estimator, release_velocity

Array = npt.NDArray[np.float64]
RATE = 90.0
DT = 1.0 / RATE
N = 28  # 0.3 s of samples
AXIS = np.array([-1.0, 0.0, 0.0])  # turns +Y toward -Z: forward
PIVOT = np.array([0.2, 1.5, 0.0])
ARM = np.array([0.0, 0.65, 0.0])
OFFSET = np.array([0.0, 0.05, -0.03])
TRIALS = 30


@dataclass(frozen=True)
class Artefacts:
    """What the tracker does; zero is a clean stream."""

    position: float = 0.0  # m per axis
    rotation_deg: float = 0.0  # RMS
    timestamp: float = 0.0  # s RMS
    p_drop: float = 0.0
    p_stale: float = 0.0
    p_duplicate: float = 0.0
    release_frames: float = 0.0
    stale_release: bool = False  # the release sample repeats the pose before it


ALL = Artefacts(0.002, 0.3, 0.0003, 0.03, 0.03, 0.02, 1.5)


def swing_angle(t: Array, peak: float, slow: float, keep: float) -> tuple[Array, float]:
    """The swing's angle at times ``t`` (release at 0) and when its speed peaks: a bell of
    width 60 ms rising to ``peak`` rad/s, then falling over ``slow`` s to ``keep`` of it (no
    slowing when ``slow`` is 0: the bell peaks 10 ms after the release)."""
    width = 0.06
    if slow == 0.0:
        return peak * width * np.tanh((t - 0.01) / width), 0.0
    at = -slow
    rise = peak * width * np.tanh((np.minimum(t, at) - at) / width)
    u = np.clip(t - at, 0.0, slow)
    fall = (1.0 - keep) / slow
    return rise + peak * (u - fall * u**2 / 2) + peak * keep * np.maximum(t, 0.0), at


def stream(
    art: Artefacts, rng: np.random.Generator, slow: float = 0.0, keep: float = 1.0
) -> tuple[Array, Array, Array, Array]:
    """Times, positions, orientations of one damaged stream, and the velocity meant."""
    late = rng.uniform(-art.release_frames, art.release_frames) * DT
    peak = 17.0 * rng.uniform(0.9, 1.1)
    true_t = np.asarray((np.arange(N) - (N - 1)) * DT + late, dtype=np.float64)

    def pose(t: Array) -> tuple[Array, Array]:
        angle, _ = swing_angle(t, peak, slow, keep)
        q = spatial.from_axis_angle_many(np.broadcast_to(AXIS, (len(t), 3)), angle)
        return PIVOT + spatial.rotate_many(q, ARM), q

    _, meant_at = swing_angle(np.zeros(1), peak, slow, keep)
    meant_at = late if slow == 0.0 else meant_at
    h = 1e-6  # the meant velocity of the object point, by central difference of the model
    (p0, p1), (q0, q1) = pose(np.array([meant_at - h, meant_at + h]))
    meant = (p1 + spatial.rotate_many(q1, OFFSET) - p0 - spatial.rotate_many(q0, OFFSET)) / (2 * h)

    p, q = pose(true_t)
    p = p + rng.normal(0.0, art.position, p.shape) if art.position else p
    if art.rotation_deg:
        jitter = rng.normal(0.0, math.radians(art.rotation_deg) / math.sqrt(3.0), (N, 3))
        noise = spatial.from_axis_angle_many(jitter, np.linalg.norm(jitter, axis=1))
        q = spatial.multiply_many(noise, q)
    stamps = (np.arange(N) - (N - 1)) * DT + rng.normal(0.0, art.timestamp, N) * (art.timestamp > 0)
    times: list[float] = []
    positions: list[Array] = []
    orientations: list[Array] = []
    for i in range(N):
        if i < N - 1 and rng.random() < art.p_drop:
            continue
        stale = positions and (rng.random() < art.p_stale or (art.stale_release and i == N - 1))
        pi, qi = (positions[-1], orientations[-1]) if stale else (p[i], q[i])
        copies = 2 if rng.random() < art.p_duplicate else 1
        times += [stamps[i]] * copies
        positions += [pi] * copies
        orientations += [qi] * copies
    return np.array(times), np.array(positions), np.array(orientations), meant


Velocity = Callable[[Array, Array, Array], Array]


def fitted(t: Array, p: Array, q: Array) -> Array:
    return release_velocity(t, p, q, OFFSET)[0]


def release_step(t: Array, p: Array, q: Array) -> Array:
    return release_velocity(t, p, q, OFFSET, estimator=Estimator.LAST_STEP)[0]


def median_error(art: Artefacts, velocity: Velocity, slow: float = 0.0, keep: float = 1.0) -> float:
    rng = np.random.default_rng(38)
    errors = []
    for _ in range(TRIALS):
        t, p, q, meant = stream(art, rng, slow, keep)
        errors.append(float(np.linalg.norm(velocity(t, p, q) - meant) / np.linalg.norm(meant)))
    return float(np.median(errors))


@pytest.mark.parametrize(
    ("art", "bound"),
    [
        (Artefacts(), 0.035),
        (Artefacts(position=0.002), 0.05),
        (Artefacts(rotation_deg=0.3), 0.05),
        (Artefacts(timestamp=0.0003), 0.05),
        (Artefacts(p_drop=0.1), 0.05),
        (Artefacts(p_stale=0.1), 0.05),
        (Artefacts(p_duplicate=0.1), 0.05),
        (Artefacts(release_frames=1.5), 0.05),
        (Artefacts(position=0.001, stale_release=True), 0.05),
        (ALL, 0.06),
    ],
    ids=[
        "clean",
        "position",
        "rotation",
        "timestamp",
        "drop",
        "stale",
        "duplicate",
        "release-timing",
        "stale-release",
        "all",
    ],
)
def test_each_artefact_alone_and_all_together(art: Artefacts, bound: float) -> None:
    """Clean, the fit is 3 % off (a bell is no line in the hand's frame); no artefact alone,
    and not all of them together, moves it much. A stale release sample (the pose before again,
    with the release's timestamp) is stepped over and read with the orientation turned on."""
    assert median_error(art, fitted) < bound
    # The control: the release step alone, on the same streams, fails the same bound (a stale
    # release makes it a zero step).
    assert median_error(art, release_step) > bound


@pytest.mark.parametrize(("slow", "keep"), [(0.05, 0.6), (0.06, 0.5), (0.07, 0.4)])
def test_a_hesitant_throw_is_thrown_with_the_velocity_the_player_meant(
    slow: float, keep: float
) -> None:
    """The arm slows, over 50 to 70 ms, to 60 to 40 % of its peak before the grip opens, on
    streams with every artefact. The gate finds the braking in the flat top and braking line
    fitted to the last steps and throws their peak, read with the orientation of its own
    moment: 4 to 6 % off (a 60 ms bell is no parabola). The reading this replaced, the fastest
    candidate line read at its newest step, was 8 to 9 % off on the same streams. The control,
    the release step, throws the slowed hand and misses by more than half."""
    assert median_error(ALL, fitted, slow, keep) < 0.065
    assert median_error(ALL, release_step, slow, keep) > 0.5
