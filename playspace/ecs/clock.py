"""The fixed-step clock: integer nanoseconds, an accumulator, a clamp and a substep cap.

Physics and the throw's velocity history need the same step whatever the display does, so the
simulation advances in fixed steps (default 90 Hz, in VR the headset's rate or a multiple).
Time is kept in integer nanoseconds and step boundaries are computed from the step count, never
by adding a float step again and again: step ``k`` ends at exactly ``k / hz`` seconds, so a
90 Hz world is at 1 s after 90 steps, not 0.99999999. A frame longer than ``max_frame``
(default 0.25 s, a hitch or a breakpoint) is clamped, and at most ``max_substeps`` (default 8)
steps run in one frame; the debt beyond that is dropped. Both are counted, so a game can show
them, and neither becomes a spiral of slow frames or a burst that tunnels objects.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

NS_PER_S = 1_000_000_000


@dataclass(slots=True)
class Time:
    """The frame clock, a resource: what the last call to ``advance`` did."""

    frame: int = 0
    delta: float = 0.0
    raw_delta: float = 0.0
    elapsed: float = 0.0
    clamped_frames: int = 0
    capped_frames: int = 0
    dropped_steps: int = 0


@dataclass(slots=True)
class FixedTime:
    """The fixed-step clock, a resource.

    During FIXED, ``step`` is the index of the step being run (from 0) and ``elapsed`` the time
    that step brings the world to. During LATE and RENDER, ``step`` is the number of steps run
    and ``alpha`` how far the frame has gone past the last one, as a fraction of a step: draw
    ``lerp(previous, current, alpha)``.
    """

    hz: float = 90.0
    dt: float = 1.0 / 90.0
    step: int = 0
    elapsed: float = 0.0
    alpha: float = 0.0
    steps_this_frame: int = 0


def _rate(hz: float) -> Fraction:
    if isinstance(hz, bool) or not isinstance(hz, int | float) or not math.isfinite(hz) or hz <= 0:
        raise ValueError(f"fixed rate must be a finite number of steps per second > 0, got {hz!r}")
    return Fraction(hz).limit_denominator(1_000_000)


def frame_ns(seconds: float) -> int:
    """A frame time in nanoseconds, refusing what no real clock produces."""
    if isinstance(seconds, bool) or not isinstance(seconds, int | float):
        raise TypeError(f"frame time must be a number of seconds, got {seconds!r}")
    if not math.isfinite(seconds) or seconds < 0:
        raise ValueError(f"frame time must be finite and >= 0 seconds, got {seconds!r}")
    return round(seconds * NS_PER_S)


class FixedClock:
    """Decides how many fixed steps each frame runs; keeps no float that could drift."""

    def __init__(self, hz: float = 90.0, max_frame: float = 0.25, max_substeps: int = 8) -> None:
        if not isinstance(max_substeps, int) or max_substeps < 1:
            raise ValueError(f"max_substeps must be an integer >= 1, got {max_substeps!r}")
        max_frame_ns = frame_ns(max_frame)
        if max_frame_ns <= 0:
            raise ValueError(f"max_frame must be > 0 seconds, got {max_frame!r}")
        self.max_frame_ns = max_frame_ns
        self.max_substeps = max_substeps
        self.now_ns = 0
        self.steps = 0
        self._rate = _rate(hz)
        self._origin_ns = 0  # the boundary where the current rate took over
        self._origin_step = 0

    @property
    def hz(self) -> float:
        return float(self._rate)

    @property
    def dt(self) -> float:
        """The nominal step in seconds: what systems integrate with."""
        return float(1 / self._rate)

    def set_hz(self, hz: float) -> None:
        """Change the rate from the last step boundary on (the headset's refresh rate changed)."""
        rate = _rate(hz)
        self._origin_ns = self.boundary(self.steps)
        self._origin_step = self.steps
        self._rate = rate
        self.now_ns = min(self.now_ns, self.boundary(self.steps + 1) - 1)

    def boundary(self, step: int) -> int:
        """The time, in ns, at which `step` steps have been run."""
        n = step - self._origin_step
        return self._origin_ns + n * NS_PER_S * self._rate.denominator // self._rate.numerator

    def start_frame(self, seconds: float, time: Time) -> int:
        """Take a frame of `seconds`; return how many fixed steps it runs, updating `time`."""
        ns = frame_ns(seconds)
        time.raw_delta = seconds
        if ns > self.max_frame_ns:
            ns = self.max_frame_ns
            time.clamped_frames += 1
        self.now_ns += ns
        due = self._due()
        if due > self.max_substeps:
            time.capped_frames += 1
            time.dropped_steps += due - self.max_substeps
            due = self.max_substeps
            self.now_ns = self.boundary(self.steps + due)
        return self._finish_frame(ns, due, time)

    def start_exact_frame(self, time: Time) -> int:
        """Take a frame that ends exactly on the next step boundary: one step, alpha 0."""
        ns = self.boundary(self.steps + 1) - self.now_ns
        self.now_ns += ns
        time.raw_delta = ns / NS_PER_S
        return self._finish_frame(ns, 1, time)

    def alpha(self) -> float:
        """How far `now` is past the last step, as a fraction of the next step."""
        last = self.boundary(self.steps)
        return (self.now_ns - last) / (self.boundary(self.steps + 1) - last)

    def _due(self) -> int:
        """Steps whose end boundary is at or before now, not yet run."""
        span = NS_PER_S * self._rate.denominator
        elapsed = (self.now_ns - self._origin_ns) * self._rate.numerator // span
        k = max(self.steps, self._origin_step + elapsed)
        while self.boundary(k) > self.now_ns:
            k -= 1
        while self.boundary(k + 1) <= self.now_ns:
            k += 1
        return k - self.steps

    def _finish_frame(self, ns: int, due: int, time: Time) -> int:
        time.frame += 1
        time.delta = ns / NS_PER_S
        time.elapsed = self.now_ns / NS_PER_S
        return due
