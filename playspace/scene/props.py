"""What a scene's ``[grab]`` table and its moving props ask of the world: the grab's settings,
hands that grab from a distance, and the plugin that moves props along their paths.

As :func:`~playspace.scene.movement_plugins_for` gives the movement providers a scene turns on,
these give the rest, the grab's after the rig:

    world.add_plugin(RigPlugin(source))
    for plugin in grab_plugins_for(scene):                  # GrabPlugin with [grab]'s settings
        world.add_plugin(plugin)
    for plugin in mover_plugins_for(scene):                 # when a prop has a path
        world.add_plugin(plugin)

``playspace.app``'s default plugins add them so. The MoverPlugin's module is imported when a
prop has a path, not with this module, so a scene without one does not load it at start-up.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from playspace.components.interaction import GrabSettings, Hand
from playspace.components.rig import Rig
from playspace.ecs import PluginError, World
from playspace.formats.scene.model import Scene
from playspace.systems.interaction import GrabPlugin

if TYPE_CHECKING:
    from playspace.systems.movers import MoverPlugin


class DistanceHandsPlugin:
    """Both hands grab from a distance (``Hand.distance_grab``), as ``[grab] distance_grab``
    asks. Add it after the GrabPlugin, which gives the hands their ``Hand``."""

    def build(self, world: World) -> None:
        rig = world.try_resource(Rig)
        if rig is None or world.try_get(rig.left_hand, Hand) is None:
            raise PluginError("DistanceHandsPlugin needs the hands: add the GrabPlugin first")
        for entity in (rig.left_hand, rig.right_hand):
            world.get(entity, Hand).distance_grab = True


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
    from playspace.systems.movers import MoverPlugin

    return [MoverPlugin()]
