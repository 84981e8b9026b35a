"""The fixed-step clock, driven through a world as a game drives it."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from playspace.ecs import FixedClock, Phase, Time, World


class StepLog:
    """Records the FixedTime a FIXED system sees and the alpha LATE sees."""

    def __init__(self, world: World) -> None:
        self.steps: list[tuple[int, float]] = []
        self.alphas: list[float] = []
        world.add_system(self.fixed, phase=Phase.FIXED, name="log_fixed")
        world.add_system(self.late, phase=Phase.LATE, name="log_late")

    def fixed(self, world: World) -> None:
        self.steps.append((world.fixed_time.step, world.fixed_time.elapsed))

    def late(self, world: World) -> None:
        self.alphas.append(world.fixed_time.alpha)


def test_ninety_steps_are_exactly_one_second() -> None:
    world = World(fixed_hz=90)
    log = StepLog(world)
    world.step(90)
    assert world.clock.now_ns == 1_000_000_000
    assert log.steps[-1] == (89, 1.0)
    assert [s for s, _ in log.steps] == list(range(90))


def test_irregular_frames_run_the_steps_that_are_due() -> None:
    world = World(fixed_hz=90)
    log = StepLog(world)
    frames = [0.004, 0.004, 0.004, 0.020, 0.0, 0.011, 0.013]
    counts = [world.advance(f) for f in frames]
    assert counts == [0, 0, 1, 1, 0, 1, 2]
    total = sum(frames)
    assert len(log.steps) == math.floor(total * 90 + 1e-9)
    # alpha is how far past the last step the frame ended, as a fraction of a step
    expected = (total - len(log.steps) / 90) * 90
    assert log.alphas[-1] == pytest.approx(expected, abs=1e-6)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.floats(min_value=0.0, max_value=0.05), min_size=1, max_size=200),
    st.sampled_from([72, 90, 120, 144]),
)
def test_steps_never_drift_and_alpha_stays_in_range(frames: list[float], hz: int) -> None:
    clock = FixedClock(hz=hz)
    time = Time()
    total_ns = 0
    for seconds in frames:
        total_ns += round(seconds * 1e9)
        clock.steps += clock.start_frame(seconds, time)
        assert 0.0 <= clock.alpha() < 1.0
    assert clock.steps == total_ns * hz // 1_000_000_000
    assert time.clamped_frames == time.capped_frames == 0


def test_a_long_frame_is_clamped_and_counted() -> None:
    world = World(fixed_hz=90, max_frame=0.25, max_substeps=100)
    steps = world.advance(3.0)
    assert world.time.clamped_frames == 1
    assert world.time.raw_delta == 3.0
    assert world.time.delta == 0.25
    assert steps == 22  # floor(0.25 * 90)


def test_substeps_are_capped_and_the_debt_dropped() -> None:
    world = World(fixed_hz=90, max_substeps=8)
    log = StepLog(world)
    steps = world.advance(0.2)  # 18 steps due
    assert steps == 8
    assert len(log.steps) == 8
    assert world.time.capped_frames == 1
    assert world.time.dropped_steps == 10
    assert world.fixed_time.alpha == 0.0  # no burst carried into the next frame
    assert world.advance(0.012) == 1


def test_cap_allows_exactly_max_substeps_not_one_more() -> None:
    world = World(fixed_hz=100, max_substeps=4)
    assert world.advance(0.04) == 4
    assert world.time.capped_frames == 0
    assert world.advance(0.05) == 4
    assert world.time.capped_frames == 1


@pytest.mark.parametrize("bad", [-0.001, math.nan, math.inf, -math.inf])
def test_a_frame_time_that_no_clock_produces_is_an_error(bad: float) -> None:
    world = World()
    with pytest.raises(ValueError, match="frame time must be finite and >= 0"):
        world.advance(bad)
    assert world.time.frame == 0


def test_a_frame_time_that_is_not_a_number_is_an_error() -> None:
    with pytest.raises(TypeError, match="frame time must be a number"):
        World().advance("0.01")  # type: ignore[arg-type]


@pytest.mark.parametrize("hz", [0, -90, math.nan, math.inf])
def test_a_bad_rate_is_an_error(hz: float) -> None:
    with pytest.raises(ValueError, match="fixed rate"):
        World(fixed_hz=hz)


def test_step_runs_exactly_n_steps_even_after_a_partial_frame() -> None:
    world = World(fixed_hz=90)
    log = StepLog(world)
    world.advance(0.5 / 90)
    world.step(3)
    assert len(log.steps) == 3
    assert world.fixed_time.alpha == 0.0
    assert world.time.frame == 4


def test_rate_can_follow_the_headset_without_losing_time() -> None:
    world = World(fixed_hz=90)
    world.step(45)  # 0.5 s
    world.clock.set_hz(120)
    world.step(60)  # 0.5 s more
    assert world.clock.now_ns == 1_000_000_000
    assert world.fixed_time.hz == 120
    assert world.fixed_time.dt == pytest.approx(1 / 120)


def test_fixed_dt_is_nominal_and_constant() -> None:
    world = World(fixed_hz=90)
    dts: set[float] = set()
    world.add_system(lambda w: dts.add(w.fixed_time.dt), phase=Phase.FIXED, name="dt")
    for seconds in (0.013, 0.007, 0.031, 0.011):
        world.advance(seconds)
    assert dts == {1 / 90}
