"""A game's world, composed: the default plugins, a world from a scene, the run's random
generator, what a scene spawned, and models spawned from code."""

from playspace.app import DefaultPlugins, RunRandom, ScenePlugin, build_world, load_target
from playspace.app.models import ModelKind, SpawnedModel, spawn_model
from playspace.app.spawn import SpawnedScene

__all__ = [
    "DefaultPlugins",
    "ModelKind",
    "RunRandom",
    "ScenePlugin",
    "SpawnedModel",
    "SpawnedScene",
    "build_world",
    "load_target",
    "spawn_model",
]
