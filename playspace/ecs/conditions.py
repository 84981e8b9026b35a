"""Run conditions: when a system has nothing to do, it does not run (Bevy's ``run_if``).

A system called with nothing to do still pays for being called: its queries, its resource
look-ups, its loop over nothing. Most of a level's systems are idle most of the time (no
socket has anything near, no panel is shown, no lever moves), so a condition that answers in a
dictionary look-up or two saves most of that. A condition is a plain function of the world
returning a bool, given as ``run_if=`` to :func:`~playspace.ecs.system` or
``World.add_system``; these make the usual ones, named as Bevy names them::

    @system(Phase.FIXED, run_if=any_with(Socket))
    def sockets(world: World) -> None: ...

    @system(Phase.LATE, run_if=any_of(on_event(Grabbed), on_event(LetGo)))
    def grab_sounds(world: World) -> None: ...

A system its condition skips passes over the events it declared it reads (they are not kept
for it: a queue keeps an event until every known reader passed it), and its stats count the
skip (``SystemStats.skipped``); :meth:`World.ran` says which systems ran in the last frame.
A condition must not change the world: it decides, the system does.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from playspace.ecs.world import World

Condition = Callable[["World"], bool]


def any_with(*kinds: type) -> Condition:
    """True while some entity has all of `kinds` (Bevy's ``any_with_component``): esper's
    cached query, a look-up while the world's structure stays as it is."""
    if not kinds:
        raise ValueError("any_with needs at least one component type")

    def condition(world: World) -> bool:
        return bool(world.query(*kinds))

    condition.__qualname__ = f"any_with({', '.join(kind.__name__ for kind in kinds)})"
    return condition


def resource_exists(kind: type) -> Condition:
    """True while the world holds a resource of type `kind`."""

    def condition(world: World) -> bool:
        return world.try_resource(kind) is not None

    condition.__qualname__ = f"resource_exists({kind.__name__})"
    return condition


def on_event(kind: type) -> Condition:
    """True when an event of type `kind` was sent since this condition last looked (Bevy's
    ``on_event``). The queue counts what the condition saw, so it takes no event from the
    system and keeps none in the queue, and the count is per world (a system's condition is
    one object however many worlds run the system): three dictionary operations, where a
    weak dictionary of worlds took about a microsecond."""
    watcher = object()

    def condition(world: World) -> bool:
        return world.events.news(kind, watcher)

    condition.__qualname__ = f"on_event({kind.__name__})"
    return condition


def any_changed(kind: type) -> Condition:
    """True when some entity's `kind` was changed through ``World.get_mut`` or
    ``World.set_changed`` since this condition last looked (Bevy's ``Changed<T>`` as a
    condition): only for components every writer marks."""
    reader = object()

    def condition(world: World) -> bool:
        return bool(world.changed(kind, reader))

    condition.__qualname__ = f"any_changed({kind.__name__})"
    return condition


def any_of(*conditions: Condition) -> Condition:
    """True when one of `conditions` is; every one is asked, so each keeps its own count of
    what it saw (a short cut would let one miss the events another answered for)."""

    def condition(world: World) -> bool:
        return any(_answers(conditions, world))

    condition.__qualname__ = f"any_of({', '.join(c.__qualname__ for c in conditions)})"
    return condition


def all_of(*conditions: Condition) -> Condition:
    """True when every one of `conditions` is (each is asked, as in :func:`any_of`)."""

    def condition(world: World) -> bool:
        return all(_answers(conditions, world))

    condition.__qualname__ = f"all_of({', '.join(c.__qualname__ for c in conditions)})"
    return condition


def _answers(conditions: tuple[Condition, ...], world: World) -> list[bool]:
    return [asked(world) for asked in conditions]


def not_(asked: Condition) -> Condition:
    """True when `asked` is not."""

    def condition(world: World) -> bool:
        return not asked(world)

    condition.__qualname__ = f"not_({asked.__qualname__})"
    return condition


__all__ = [
    "Condition",
    "all_of",
    "any_changed",
    "any_of",
    "any_with",
    "not_",
    "on_event",
    "resource_exists",
]
