"""Scene files: static geometry, props, opponents, how they look and the player's start, in
TOML.

    scene = load_scene("examples/scenes/playground.toml")   # SceneError lists every problem
    world.add_plugin(physics_plugin_for(scene))              # its [physics] table
    spawned = spawn_scene(world, scene)                      # entities, and a PlayerStart
    second = player_start_for(scene, world.resource(PlayerStart), 1)  # its first [[spawn]]
    ball = spawned["ball"]
    world.add_plugin(RigPlugin(source))                      # then what [player] asks of it
    world.add_plugin(PlayerScenePlugin(scene))               # head radius, holsters
    for plugin in movement_plugins_for(scene):               # jump, sprint, crouch,
        world.add_plugin(plugin)
    for plugin in grab_plugins_for(scene):                   # GrabPlugin, as [grab] says
        world.add_plugin(plugin)
    for plugin in interactable_plugins_for(scene):           # its levers, buttons, dials
        world.add_plugin(plugin)
    for plugin in mover_plugins_for(scene):                  # its lifts
        world.add_plugin(plugin)

``docs/scene-format.md`` documents every table and key. The conventions are playspace's:
metres, kilograms, +Y up, -Z forward; the file gives angles in degrees (``yaw``, ``angle``,
``rotation``), the loaded scene turns them into radians and quaternions. A ``rotation`` of
``[x, y, z]`` degrees turns about z first, then about x, then about y, each about the world's
axes (Unity's and Godot's order; the same as intrinsic y, x', z''), so ``[0, y, 0]`` is a plain
heading and a tilt given in x and z is applied before it.

Loading checks everything before it builds anything, and collects all problems into one
:class:`SceneError`, so a bad file never half-enters the physics world.
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
from playspace.scene.interactables import interactable_plugins_for
from playspace.scene.player import PlayerScenePlugin, movement_plugins_for
from playspace.scene.props import DistanceHandsPlugin, grab_plugins_for, mover_plugins_for
from playspace.scene.spawn import (
    RAMP_THICKNESS,
    SpawnedScene,
    euler_rotation,
    physics_plugin_for,
    player_start_for,
    spawn_scene,
)

__all__ = [
    "RAMP_THICKNESS",
    "DistanceHandsPlugin",
    "PlayerScenePlugin",
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
    "SpawnedScene",
    "Viewpoint",
    "euler_rotation",
    "grab_plugins_for",
    "interactable_plugins_for",
    "load_scene",
    "movement_plugins_for",
    "mover_plugins_for",
    "physics_plugin_for",
    "player_start_for",
    "spawn_scene",
]
