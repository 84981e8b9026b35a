"""The headless loop: a scene or an example replayed from a trace, step by step, with no window.

The deterministic way to run a world: every frame is exactly one fixed step, so the same scene,
trace, rate and seed write the same telemetry byte for byte, whether or not a capture watches.
What is replayed (the world, its trace, its length) is :mod:`playspace.app.replay`'s.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from playspace.app import telemetry_events
from playspace.app.game import Example
from playspace.app.replay import prepare_replay
from playspace.components.debug import PhysicsDebug
from playspace.ecs import World
from playspace.loops.outputs import WaveStream
from playspace.systems.audio import AudioPlugin, render
from playspace.systems.audio.engine import RATE
from playspace.systems.drawn import place_drawn
from playspace.systems.telemetry import Lines, Tally, TallyPlugin, TelemetryPlugin


def show_physics_debug(world: World) -> None:
    """A plugin: the physics debug view shown from the start (``--debug-physics``)."""
    debug = world.try_resource(PhysicsDebug) or world.insert_resource(PhysicsDebug())
    debug.shown = True


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

    @property
    def tally(self) -> Tally:
        """What happened, by event kind (:class:`~playspace.systems.telemetry.Tally`)."""
        return self.world.resource(Tally)

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
    debug_physics: bool = False,
    audio: WaveStream | None = None,
) -> Replayed:
    """Replay `trace` through a scene or an example (its own trace by default) for the trace's
    length (or `seconds`), at `fixed_hz` (default: the rate the trace was recorded at, else
    90 Hz). Deterministic: the same inputs write the same telemetry, whether or not
    `after_step` watches. `stop` is asked after each step; when it says so, the run ends
    there, `interrupted`. `debug_physics` shows the physics debug view from the start (for
    captures to draw). What happened is counted as it happens (:attr:`Replayed.tally`).
    `audio` receives the run's sound, mixed step by step from the world's own events: the
    same inputs give the same samples."""
    replay = prepare_replay(target, trace, seconds, fixed_hz, seed)
    events = telemetry_events()
    plugins: list[object] = [TallyPlugin(events)]
    if telemetry is not None:  # a kept span's from where it began: the rest brought it there
        kept_from = replay.trace.kept_from if replay.trace is not None else 0
        plugins.append(TelemetryPlugin(telemetry, events, kept_from))
    if audio is not None:
        plugins.append(AudioPlugin(output="memory"))
    world = replay.world(plugins)
    if debug_physics:
        show_physics_debug(world)
    steps, example = replay.steps, replay.example
    for done in range(1, steps + 1):
        replay.step(world)
        if audio is not None:  # the samples up to this step's end, counted from the start
            mixed = round(done * RATE / world.fixed_time.hz)
            audio.write(render(world, mixed - audio.frames), RATE)
        if after_step is not None:
            place_drawn(world, alpha=1.0)  # the state telemetry reports for this step
            after_step(world, done, done == steps)
        if stop is not None and stop():
            return Replayed(world, done, example, interrupted=True)
    return Replayed(world, steps, example)
