"""The plugins a scene asks for besides its entities, added after the rig it needs.

A scene's ``[player]`` table turns movement providers on (jump, sprint, crouch, seated play;
climbing when anything is ``climbable``) and sets the rig's head radius and eye height; its
``[grab]`` table sets the grab; a prop's ``path``, ``lever``, ``button`` or ``dial`` needs the
plugin that runs it. The rig is built after the scene (it starts at the scene's
:class:`~playspace.components.scene.PlayerStart`), so these come after it; the default plugins
add them so. A plugin's module is imported only when the scene asks for it, so start-up pays for
nothing the scene does not use.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from playspace.app.spawn import SpawnedScene
from playspace.components.interaction import DistanceGrab, GrabSettings
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
from playspace.systems.interaction import GrabPlugin
from playspace.systems.player.players import local_rig, set_up_players

if TYPE_CHECKING:
    from playspace.systems.animation import AnimationPlugin
    from playspace.systems.interaction.interactables import InteractablesPlugin
    from playspace.systems.physics.movers import MoverPlugin
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
    and its holsters carried by the body of the player this process shows (the sockets spawned
    by :class:`~playspace.app.ScenePlugin`, found through the ``SpawnedScene`` resource). Add
    it after the rig."""

    def __init__(self, scene: Scene) -> None:
        self.scene = scene

    def build(self, world: World) -> None:
        rig = local_rig(world)
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


class DistanceHandsPlugin:
    """Every player's hands grab from a distance (``DistanceGrab``), as ``[grab]
    distance_grab`` asks. Add it after the GrabPlugin, which gives the hands their ``Hand``."""

    def build(self, world: World) -> None:
        if not world.has_plugin(GrabPlugin):
            raise PluginError("DistanceHandsPlugin needs the hands: add the GrabPlugin first")
        set_up_players(world, _distance_hands)


def _distance_hands(world: World, rig: Rig) -> None:
    """A player's hands pull what they aim at."""
    for entity in (rig.left_hand, rig.right_hand):
        world.add(entity, DistanceGrab())


def grab_plugins_for(scene: Scene) -> list[GrabPlugin | DistanceHandsPlugin]:
    """The GrabPlugin with the settings of the scene's ``[grab]`` table, and the
    DistanceHandsPlugin when it says ``distance_grab = true``."""
    grab = scene.grab
    settings = GrabSettings(
        distance_range=grab.distance_range,
        distance_angle=math.radians(grab.distance_angle),
        pull_time=grab.pull_time,
        grip_toggle=grab.grip_toggle,
        hand_collision=grab.hand_collision,
    )
    plugins: list[GrabPlugin | DistanceHandsPlugin] = [GrabPlugin(settings)]
    if grab.distance_grab:
        plugins.append(DistanceHandsPlugin())
    return plugins


def mover_plugins_for(scene: Scene) -> list[MoverPlugin]:
    """The MoverPlugin when a prop of `scene` has a ``path``."""
    if not any(p.path for p in scene.props):
        return []
    from playspace.systems.physics.movers import MoverPlugin

    return [MoverPlugin()]


def animation_plugins_for(scene: Scene) -> list[AnimationPlugin]:
    """The AnimationPlugin when a model of `scene` has animation clips."""
    if not any(placed.model.clips for placed in scene.models):
        return []
    from playspace.systems.animation import AnimationPlugin

    return [AnimationPlugin()]


def interactable_plugins_for(scene: Scene) -> list[InteractablesPlugin]:
    """The InteractablesPlugin when a prop of `scene` is a lever, a button or a dial."""
    if not any(p.lever or p.button or p.dial for p in scene.props):
        return []
    from playspace.systems.interaction.interactables import InteractablesPlugin

    return [InteractablesPlugin()]
