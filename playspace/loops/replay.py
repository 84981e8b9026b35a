"""The headless loop: a scene or an example replayed from a trace, step by step, with no window.

The deterministic way to run a world: every frame is exactly one fixed step, so the same scene,
trace, rate and seed write the same telemetry byte for byte, whether or not a capture watches.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from playspace.app import build_world, load_target, telemetry_events
from playspace.ecs import World
from playspace.example import Example
from playspace.systems.drawn import place_drawn
from playspace.systems.input import InputSource, ReplaySource, ScriptedSource, load_trace, standing
from playspace.systems.telemetry import Lines, TelemetryPlugin

DEFAULT_HZ = 90.0  # fixed steps a second when neither the caller nor the trace says


def replay_source(trace: Path | None) -> InputSource:
    """The recorded trace, or a player standing still at the start when there is none."""
    if trace is None:
        return ScriptedSource(lambda t: standing())
    return ReplaySource(load_trace(trace))


def replay_rate(source: InputSource, fixed_hz: float | None = None) -> float:
    """`fixed_hz` when given, else the rate the trace was recorded at, else 90 Hz."""
    if fixed_hz is not None:
        return fixed_hz
    recorded = source.trace.fixed_hz if isinstance(source, ReplaySource) else None
    return recorded or DEFAULT_HZ


AfterStep = Callable[[World, int, bool], None]
"""Called after each fixed step of a headless run with the world (what is drawn placed at the
end of that step), the number of steps run so far and whether that was the last one: how
captures draw a step."""


@dataclass(slots=True)
class Replayed:
    """A headless run: the world as it ended, how many fixed steps ran, the example if any."""

    world: World
    steps: int
    example: Example | None
    interrupted: bool = False  # stopped before the end (Ctrl-C, SIGTERM, SIGHUP)

    @property
    def fixed_hz(self) -> float:
        return self.world.clock.hz

    def summary(self) -> str | None:
        """The example's own line on what happened, when it has one."""
        if self.example is None or self.example.summary is None:
            return None
        return self.example.summary(self.world)


def run_headless(
    target: Path,
    trace: Path | None,
    telemetry: Lines | None,
    seconds: float | None = None,
    fixed_hz: float | None = None,
    seed: int = 0,
    after_step: AfterStep | None = None,
    stop: Callable[[], bool] | None = None,
) -> Replayed:
    """Replay `trace` through a scene or an example (its own trace by default) for the trace's
    length (or `seconds`), at `fixed_hz` (default: the rate the trace was recorded at, else
    90 Hz). Deterministic: the same inputs write the same telemetry, whether or not
    `after_step` watches. `stop` is asked after each step; when it says so, the run ends
    there, `interrupted`."""
    scene, example = load_target(target)
    if trace is None and example is not None:
        trace = example.trace
    source = replay_source(trace)
    hz = replay_rate(source, fixed_hz)
    events = telemetry_events()
    plugins: list[object] = [TelemetryPlugin(telemetry, events)] if telemetry is not None else []
    if example is not None:
        plugins.append(example.build)
    world, _ = build_world(scene, source, hz, seed, plugins)
    length = seconds if seconds is not None else (source.duration or 0.0)
    steps = max(1, math.ceil(length * hz - 1e-9))
    for done in range(1, steps + 1):
        world.step(1)
        if after_step is not None:
            place_drawn(world, alpha=1.0)  # the state telemetry reports for this step
            after_step(world, done, done == steps)
        if stop is not None and stop():
            return Replayed(world, done, example, interrupted=True)
    return Replayed(world, steps, example)
