"""What a scene's ``[player]`` table and its holsters ask of the player, once the rig exists.

A scene turns movement providers on (``jump``, ``sprint``, ``crouch``, climbing when anything
is ``climbable``, seated play) and changes the rig's ``head_radius`` and ``eye_height``; a
``[[socket]]`` with ``carried_by = "body"`` rides on the player's body. None
of this can be done when the scene is spawned: the rig is built after the scene (it starts at
the scene's :class:`~playspace.components.scene.PlayerStart`). So, as
:func:`~playspace.scene.physics_plugin_for` gives the physics a scene asks for, these give the
rest, to be added after the rig:

    world.add_plugin(RigPlugin(source))
    world.add_plugin(PlayerScenePlugin(scene))
    for plugin in movement_plugins_for(scene):
        world.add_plugin(plugin)

``playspace.app``'s default plugins add them so. Each provider's module is imported when a
scene turns it on, not with this module: a world whose scene asks for none of them does not pay
for loading them at start-up.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from playspace.components.locomotion import (
    ClimbSettings,
    CrouchSettings,
    JumpSettings,
    SprintSettings,
)
from playspace.components.rig import Rig, RigSettings
from playspace.components.sockets import Socket
from playspace.ecs import PluginError, World
from playspace.formats.scene.model import Scene
from playspace.scene.spawn import SpawnedScene

if TYPE_CHECKING:
    from playspace.systems.player.climb import ClimbPlugin
    from playspace.systems.player.movement import CrouchPlugin, JumpPlugin, SprintPlugin
    from playspace.systems.player.seated import SeatedPlugin

    MovementPlugin = JumpPlugin | SprintPlugin | CrouchPlugin | ClimbPlugin | SeatedPlugin


def movement_plugins_for(scene: Scene) -> list[MovementPlugin]:
    """The movement providers the scene's ``[player]`` table turns on, with its settings; the
    ClimbPlugin, with the ``[climb]`` table's, when anything of the scene is climbable."""
    player = scene.player
    plugins: list[MovementPlugin] = []
    if player.jump or player.sprint or player.crouch:
        from playspace.systems.player.movement import CrouchPlugin, JumpPlugin, SprintPlugin
    if player.jump:
        plugins.append(JumpPlugin(JumpSettings(speed=player.jump_speed)))
    if player.sprint:
        settings = SprintSettings(multiplier=player.sprint_multiplier, toggle=player.sprint_toggle)
        plugins.append(SprintPlugin(settings))
    if player.crouch:
        plugins.append(CrouchPlugin(CrouchSettings(lowered=player.crouch_lowered)))
    if scene.climbable:
        from playspace.systems.player.climb import ClimbPlugin

        climb = scene.climb
        plugins.append(ClimbPlugin(ClimbSettings(climb.reach, climb.grip_on, climb.grip_off)))
    if player.seated:
        from playspace.systems.player.seated import SeatedPlugin

        plugins.append(SeatedPlugin())  # at PlayerScenePlugin's eye height
    return plugins


class PlayerScenePlugin:
    """The scene's ``head_radius`` and a seated player's ``eye_height`` on the rig's settings,
    and its holsters carried by the player's body (the sockets spawned by
    :class:`~playspace.app.ScenePlugin`, found through the ``SpawnedScene`` resource). Add it
    after the rig."""

    def __init__(self, scene: Scene) -> None:
        self.scene = scene

    def build(self, world: World) -> None:
        rig = world.try_resource(Rig)
        if rig is None:
            raise PluginError("PlayerScenePlugin needs the player's rig: add the RigPlugin first")
        if self.scene.player.head_radius is not None:
            world.resource(RigSettings).head_radius = self.scene.player.head_radius
        if self.scene.player.seated:
            world.resource(RigSettings).eye_height = self.scene.player.eye_height
        holsters = [s.name for s in self.scene.sockets if s.carried_by == "body"]
        if not holsters:
            return
        spawned = world.try_resource(SpawnedScene)
        if spawned is None:
            raise PluginError(
                "PlayerScenePlugin needs the scene's entities (the SpawnedScene resource) to "
                f"carry its holsters ({', '.join(holsters)}): add the ScenePlugin first"
            )
        for name in holsters:
            world.get(spawned[name], Socket).carried_by = rig.body
