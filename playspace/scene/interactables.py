"""What a scene's levers, buttons and dials ask of the world: the plugin that runs them.

A prop's ``joint`` needs nothing beyond physics (a door or a drawer is a hinge or a slider the
hands move through the grab), but a ``lever``, ``button`` or ``dial`` does nothing without
:class:`~playspace.systems.interaction.InteractablesPlugin`. As
:func:`~playspace.scene.movement_plugins_for` gives the movement providers a scene turns on,
this gives that plugin when the scene has any of them, to be added after the grab:

    world.add_plugin(GrabPlugin())
    for plugin in interactable_plugins_for(scene):
        world.add_plugin(plugin)

``playspace.app``'s default plugins add it so. The plugin's module is imported when a scene has
a lever, a button or a dial, not with this module: a scene without one does not load it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from playspace.formats.scene.model import Scene

if TYPE_CHECKING:
    from playspace.systems.interaction.interactables import InteractablesPlugin


def interactable_plugins_for(scene: Scene) -> list[InteractablesPlugin]:
    """The InteractablesPlugin when a prop of `scene` is a lever, a button or a dial."""
    if not any(p.lever or p.button or p.dial for p in scene.props):
        return []
    from playspace.systems.interaction.interactables import InteractablesPlugin

    return [InteractablesPlugin()]
