"""The composition root: a world built from a scene and plugins, driven by an input source.

A game embeds playspace through these functions or builds the same thing itself: the world,
the physics from the scene's ``[physics]`` table, the scene's entities, the rig driven by an
input source, and whatever plugins and systems the game adds. What drives a world (a headless
replay, the preview window, a headset) is kept apart, in :mod:`playspace.loops`.

Importing this module loads the world and the example loader only. The scene format and the
systems (physics, the player, the hands) are imported where they are first needed: the scene
by :func:`load_target`, the systems by :class:`DefaultPlugins` when a world is made, and a
system the scene does not ask for (climbing, levers, movers...) not at all. So what imports
this without making a world (a tool, a test, a command that stops on a bad argument) does not
pay for the physics; a run pays the rest within its first :func:`build_world`, less the
systems its scene does not use (``python benchmarks/startup.py`` shows both).
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from playspace.app.game import Example, load_example
from playspace.app.game import TargetError as TargetError  # the CLI's and run_vr's error
from playspace.ecs import WORLDS_LOCK, Plugin, PluginError, World

if TYPE_CHECKING:
    from playspace.app.spawn import SpawnedScene
    from playspace.components.input import InputSource
    from playspace.formats.scene.model import Scene


@dataclass(slots=True)
class RunRandom:
    """The run's random generator, a resource: systems that need chance draw from it, so a
    replay with the same seed is the same run."""

    rng: random.Random


class ScenePlugin:
    """The scene's entities and its player start; what they became is the ``SpawnedScene``
    resource (entities by name and kind)."""

    def __init__(self, scene: Scene) -> None:
        self.scene = scene

    def build(self, world: World) -> None:
        from playspace.app.spawn import spawn_scene

        world.insert_resource(spawn_scene(world, self.scene))


class DefaultPlugins:
    """The plugins a world is made of, in the order they are added: physics (as the scene's
    ``[physics]`` table says), the scene's entities, the player on an input source, what the
    scene's ``[player]`` asks of it (its head radius, its holsters, and the movement providers
    it turns on: jump, sprint, crouch, seated play; climbing when anything is climbable), grab
    (as its ``[grab]`` table says), the throw, the levers, buttons and dials of the scene's
    props (when it has any), what moves its props along their paths (when any has one), the
    animation of its models (when any has clips), the hands' fingers, haptic feedback, and
    late placement of what is drawn.

    As with Bevy's ``DefaultPlugins``, a game changes one's settings by giving its own
    (``.set(GrabPlugin(GrabSettings(reach=0.12)))``) or leaves one out
    (``.disable(HapticsPlugin)``); a plugin that needs one left out says so when it is added.
    Haptics are in every world, so a game's pulses work in the preview and in replays too:
    only a headset plays them, and elsewhere the queue keeps at most one per hand.

    The plugins' modules are imported here, when a world is made, not with this module.
    """

    def __init__(self, scene: Scene, source: InputSource) -> None:
        from playspace.app.scene_plugins import (
            PlayerScenePlugin,
            animation_plugins_for,
            grab_plugins_for,
            interactable_plugins_for,
            movement_plugins_for,
            mover_plugins_for,
        )
        from playspace.app.spawn import physics_plugin_for
        from playspace.systems.animation.hands import HandPosePlugin
        from playspace.systems.drawn import DrawnPlugin
        from playspace.systems.interaction import ThrowPlugin
        from playspace.systems.interaction.events import GRAB_EVENTS
        from playspace.systems.interaction.haptics import HapticsPlugin
        from playspace.systems.player import RigPlugin

        self.plugins: list[Plugin] = [
            physics_plugin_for(scene),
            ScenePlugin(scene),
            RigPlugin(source),
            PlayerScenePlugin(scene),
            *movement_plugins_for(scene),
            *grab_plugins_for(scene),
            ThrowPlugin(),
            *interactable_plugins_for(scene),
            *mover_plugins_for(scene),
            *animation_plugins_for(scene),
            HandPosePlugin(),
            HapticsPlugin(GRAB_EVENTS),
            DrawnPlugin(),
        ]

    def _index(self, kind: type) -> int:
        for index, plugin in enumerate(self.plugins):
            if type(plugin) is kind:
                return index
        names = ", ".join(type(p).__name__ for p in self.plugins)
        raise PluginError(f"{kind.__name__} is not one of the default plugins ({names})")

    def set(self, plugin: Plugin) -> DefaultPlugins:
        """Use `plugin` in place of the default of its class."""
        self.plugins[self._index(type(plugin))] = plugin
        return self

    def disable(self, kind: type) -> DefaultPlugins:
        """Leave the plugin of class `kind` out."""
        del self.plugins[self._index(kind)]
        return self

    def build(self, world: World) -> None:
        for plugin in self.plugins:
            world.add_plugin(plugin)


def build_world(
    scene: Scene,
    source: InputSource,
    fixed_hz: float = 90.0,
    seed: int = 0,
    plugins: Iterable[object] = (),
    defaults: DefaultPlugins | None = None,
) -> tuple[World, SpawnedScene]:
    """A world of the default plugins (`defaults`, else :class:`DefaultPlugins` of `scene` on
    `source`), then the game's `plugins`; and what the scene's entities became.

    Built while no other world of the process runs a frame (:data:`WORLDS_LOCK`): a player's
    world built beside a host stepping in another thread would otherwise spawn into the
    host's world, or the host read the player's."""
    from playspace.app.spawn import SpawnedScene

    with WORLDS_LOCK:
        world = World(fixed_hz=fixed_hz)
        world.insert_resource(RunRandom(random.Random(seed)))
        world.add_plugin(defaults or DefaultPlugins(scene, source))
        for plugin in plugins:
            world.add_plugin(plugin)  # type: ignore[arg-type]
        spawned = world.try_resource(SpawnedScene)
    return world, spawned or SpawnedScene({}, (), (), ())


def telemetry_events() -> tuple[type, ...]:
    """The events telemetry records by default: the rig's, the hands', physics' quarantines."""
    from playspace.systems.interaction import TELEMETRY_EVENTS
    from playspace.systems.physics.events import Quarantined
    from playspace.systems.player.events import RIG_EVENTS

    return (*RIG_EVENTS, *TELEMETRY_EVENTS, Quarantined)


def load_target(path: Path) -> tuple[Scene, Example | None]:
    """The scene to run, and the example module around it when `path` is one."""
    from playspace.formats.scene.load import load_scene

    if path.suffix == ".py":
        example = load_example(path)
        return load_scene(example.scene), example
    if path.suffix != ".toml":
        raise TargetError(
            f"{path}: neither a scene (.toml) nor an example module (.py); "
            f"see docs/scene-format.md and examples/"
        )
    return load_scene(path), None
