"""A game's world, composed: the default plugins, a world from a scene, the run's random
generator and what a scene spawned."""

from playspace.app import DefaultPlugins, RunRandom, ScenePlugin, build_world, load_target
from playspace.app.spawn import SpawnedScene

__all__ = [
    "DefaultPlugins",
    "RunRandom",
    "ScenePlugin",
    "SpawnedScene",
    "build_world",
    "load_target",
]
