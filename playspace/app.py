"""The composition root: a world built from a scene and plugins, an input source, a loop.

A game embeds playspace through these functions or builds the same thing itself: the world,
the physics from the scene's ``[physics]`` table, the scene's entities, the rig driven by an
input source, and whatever plugins and systems the game adds. The loop that drives a world
(headless here; a window or a headset elsewhere) is kept apart from the world itself.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from playspace.ecs import World
from playspace.example import Example, load_example
from playspace.example import TargetError as TargetError  # the CLI's and run_vr's error
from playspace.scene import Scene, SpawnedScene, load_scene, physics_plugin_for, spawn_scene
from playspace.systems.grab import TELEMETRY_EVENTS, GrabPlugin
from playspace.systems.input import InputSource, ReplaySource, ScriptedSource, load_trace, standing
from playspace.systems.rig import RigPlugin
from playspace.systems.rig.events import RIG_EVENTS
from playspace.systems.telemetry import TelemetryPlugin


@dataclass(slots=True)
class Seed:
    """The run's random generator, a resource: systems that need chance draw from it, so a
    replay with the same seed is the same run."""

    rng: random.Random


def build_world(
    scene: Scene,
    source: InputSource,
    fixed_hz: float = 90.0,
    seed: int = 0,
    plugins: Iterable[object] = (),
) -> tuple[World, SpawnedScene]:
    """A world with the scene's physics and entities, the rig on `source`, grab and throw,
    then `plugins`."""
    world = World(fixed_hz=fixed_hz)
    world.insert_resource(Seed(random.Random(seed)))
    world.add_plugin(physics_plugin_for(scene))
    spawned = spawn_scene(world, scene)
    world.add_plugin(RigPlugin(source))
    world.add_plugin(GrabPlugin())
    for plugin in plugins:
        world.add_plugin(plugin)  # type: ignore[arg-type]
    return world, spawned


def replay_source(trace: Path | None) -> InputSource:
    """The recorded trace, or a player standing still at the start when there is none."""
    if trace is None:
        return ScriptedSource(lambda t: standing())
    return ReplaySource(load_trace(trace))


AfterStep = Callable[[World, int, bool], None]
"""Called after each fixed step of a headless run with the world, the number of steps run so
far and whether that was the last one: how captures draw the end of a step."""


def load_target(path: Path) -> tuple[Scene, Example | None]:
    """The scene to run, and the example module around it when `path` is one."""
    if path.suffix == ".py":
        example = load_example(path)
        return load_scene(example.scene), example
    if path.suffix != ".toml":
        raise TargetError(
            f"{path}: neither a scene (.toml) nor an example module (.py); "
            f"see docs/scene-format.md and examples/"
        )
    return load_scene(path), None


@dataclass(slots=True)
class Replayed:
    """A headless run: the world as it ended, how many fixed steps ran, the example if any."""

    world: World
    steps: int
    example: Example | None

    def summary(self) -> str | None:
        """The example's own line on what happened, when it has one."""
        if self.example is None or self.example.summary is None:
            return None
        return self.example.summary(self.world)


def run_headless(
    target: Path,
    trace: Path | None,
    telemetry: IO[str] | None,
    seconds: float | None = None,
    fixed_hz: float = 90.0,
    seed: int = 0,
    after_step: AfterStep | None = None,
) -> Replayed:
    """Replay `trace` through a scene or an example (its own trace by default) for the trace's
    length (or `seconds`). Deterministic: the same inputs write the same telemetry, whether
    or not `after_step` watches."""
    scene, example = load_target(target)
    if trace is None and example is not None:
        trace = example.trace
    source = replay_source(trace)
    events = (*RIG_EVENTS, *TELEMETRY_EVENTS)
    plugins: list[object] = [TelemetryPlugin(telemetry, events)] if telemetry is not None else []
    if example is not None:
        plugins.append(example.build)
    world, _ = build_world(scene, source, fixed_hz, seed, plugins)
    length = seconds if seconds is not None else (source.duration or 0.0)
    steps = max(1, math.ceil(length * fixed_hz - 1e-9))
    for done in range(1, steps + 1):
        world.step(1)
        if after_step is not None:
            after_step(world, done, done == steps)
    return Replayed(world, steps, example)
