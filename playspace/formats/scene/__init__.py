"""Scene files (TOML), read and checked: every table and key of ``docs/scene-format.md``.

    scene = load_scene("examples/scenes/playground.toml")   # SceneError lists every problem

What a scene becomes in a world (its entities, its physics, the plugins it asks for) is
:mod:`playspace.app`'s.
"""

from playspace.formats.scene.load import load_scene
from playspace.formats.scene.model import (
    Scene,
    SceneAttach,
    SceneBox,
    SceneButton,
    SceneClimb,
    SceneDial,
    SceneError,
    SceneGrab,
    SceneJoint,
    SceneLever,
    SceneMesh,
    SceneModel,
    SceneOpponent,
    ScenePath,
    ScenePhysics,
    ScenePlayer,
    SceneProp,
    SceneRamp,
    SceneSocket,
    SceneSpawn,
    SceneSpring,
    SceneStairs,
    Viewpoint,
)

__all__ = [
    "Scene",
    "SceneAttach",
    "SceneBox",
    "SceneButton",
    "SceneClimb",
    "SceneDial",
    "SceneError",
    "SceneGrab",
    "SceneJoint",
    "SceneLever",
    "SceneMesh",
    "SceneModel",
    "SceneOpponent",
    "ScenePath",
    "ScenePhysics",
    "ScenePlayer",
    "SceneProp",
    "SceneRamp",
    "SceneSocket",
    "SceneSpawn",
    "SceneSpring",
    "SceneStairs",
    "Viewpoint",
    "load_scene",
]
