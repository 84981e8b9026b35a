"""A game's changed ``build(world)`` run again, for the systems it now adds or no longer adds.

``build`` made the world once; running it again as it is would insert its resources a second
time and spawn what it spawned again. So it runs against a stand-in for the world that reads
from the real one and notes what the build adds: a system whose name the world has already
stays (its code was swapped in place), a new one is added where its declaration puts it, and
a system of the module's that the build no longer adds is taken out. A resource the world
already has is kept (its state is the game's), a new one inserted; a plugin the world has is
not built again. A build that spawns entities, or that refuses to run twice (a locomotion
provider added again), is not run again: the reload says so, and a restart runs it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, cast

from playspace.ecs import ScheduleError, World
from playspace.ecs.schedule import DECLARATION, Declaration, system_name


class BuildRefused(Exception):
    """The build did something only a fresh world can take."""


class _Staging:
    """The world as a build running again sees it: reads are the world's; what it adds is
    noted (systems) or kept only when new (resources, plugins)."""

    def __init__(self, world: World) -> None:
        self._world = world
        self.systems: list[tuple[object, dict[str, Any]]] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self._world, name)

    def add_system(self, item: object, **keywords: Any) -> None:
        self.systems.append((item, keywords))

    def add_systems(self, *items: object) -> None:
        self.systems.extend((item, {}) for item in items)

    def insert_resource(self, resource: object) -> object:
        kept = self._world.try_resource(type(resource))
        return kept if kept is not None else self._world.insert_resource(resource)

    def add_plugin(self, plugin: Any) -> None:
        if self._world.has_plugin(plugin):
            return
        build = getattr(plugin, "build", None)
        (build or plugin)(self)

    def spawn(self, *components: object) -> int:
        raise BuildRefused("it spawns entities (put them in the scene, which reloads)")


def run_build_again(
    world: World, build: Callable[[World], None], module: str, before: Iterable[str]
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Run `build` against a stand-in for `world`; add the systems it adds that the world
    lacks and remove the systems of `module` (named in `before`) it no longer adds. Returns
    (added, removed) by name; raises :class:`BuildRefused`, the systems as they were."""
    staging = _Staging(world)
    try:
        build(cast(World, staging))
    except BuildRefused:
        raise
    except Exception as error:
        raise BuildRefused(f"{type(error).__name__}: {error}") from None
    named = [(_name(item, keywords), item, keywords) for item, keywords in staging.systems]
    added = [(name, item, kw) for name, item, kw in named if name not in world.schedule]
    kept = {name for name, _, _ in named}
    gone = [name for name in before if name not in kept and _owned(world, name, module)]
    for _, item, keywords in added:
        world.add_system(item, **keywords)
    for name in gone:
        try:
            world.remove_system(name)
        except ScheduleError as error:
            raise BuildRefused(str(error)) from None
    return tuple(name for name, _, _ in added), tuple(gone)


def _name(item: object, keywords: dict[str, Any]) -> str:
    given = keywords.get("name")
    if isinstance(given, str):
        return given
    declared = getattr(item, DECLARATION, None)
    if isinstance(declared, Declaration) and declared.name:
        return declared.name
    return system_name(item)


def _owned(world: World, name: str, module: str) -> bool:
    """Whether the world's system `name` is a function or object of `module`."""
    if name not in world.schedule:
        return False
    source = world.schedule.get(name).source
    holder = source if callable(source) and not hasattr(source, "run") else type(source)
    return getattr(holder, "__module__", None) == module
