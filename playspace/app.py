"""The composition root: a world built from a scene and plugins, driven by an input source.

A game embeds playspace through these functions or builds the same thing itself: the world,
the physics from the scene's ``[physics]`` table, the scene's entities, the rig driven by an
input source, and whatever plugins and systems the game adds. What drives a world (a headless
replay, the preview window, a headset) is kept apart, in :mod:`playspace.loops`.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from playspace.ecs import World
from playspace.example import Example, load_example
from playspace.example import TargetError as TargetError  # the CLI's and run_vr's error
from playspace.scene import Scene, SpawnedScene, load_scene, physics_plugin_for, spawn_scene
from playspace.systems.drawn import DrawnPlugin
from playspace.systems.grab import TELEMETRY_EVENTS, GrabPlugin
from playspace.systems.grab.events import GRAB_EVENTS
from playspace.systems.haptics import HapticsPlugin
from playspace.systems.input import InputSource
from playspace.systems.physics.events import Quarantined
from playspace.systems.player import RigPlugin
from playspace.systems.player.events import RIG_EVENTS


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
    haptic feedback, late placement of what is drawn, then `plugins`.

    Haptics are in every world, so a game's pulses (sent to the ``HapticQueue`` resource) work
    in the preview and in replays too: only a headset plays them, and elsewhere the queue keeps
    at most one per hand, which the next replaces."""
    world = World(fixed_hz=fixed_hz)
    world.insert_resource(Seed(random.Random(seed)))
    world.add_plugin(physics_plugin_for(scene))
    spawned = spawn_scene(world, scene)
    world.add_plugin(RigPlugin(source))
    world.add_plugin(GrabPlugin())
    world.add_plugin(HapticsPlugin(GRAB_EVENTS))  # a headset plays them; elsewhere dropped
    world.add_plugin(DrawnPlugin())
    for plugin in plugins:
        world.add_plugin(plugin)  # type: ignore[arg-type]
    return world, spawned


def telemetry_events() -> tuple[type, ...]:
    """The events telemetry records by default: the rig's, the hands', physics' quarantines."""
    return (*RIG_EVENTS, *TELEMETRY_EVENTS, Quarantined)


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
