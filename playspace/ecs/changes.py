"""Change detection kept by the world (Bevy's ``Changed<T>`` and ``Mut<T>``), per world.

A component is a plain dataclass: nothing in it can see a field being written. So the world
records a change where a system asks for a component to change it (``World.get_mut``) or says
it changed one it already holds (``World.set_changed``), and a reader asks which entities'
components of a type changed since it last asked (``World.changed``), with a cursor of its own,
as events have: a system that runs zero or several times a frame sees each change once, and
two readers never take changes from each other.

Each change takes the next number of the world's count; per type, the entities are kept in
the order of their last change with its number, so a reader walks back only over what changed
since its cursor, never over every entity that has the type. An entity is recorded once
whatever the number of its changes, and forgotten when it is despawned: what is kept is
bounded by the entities there are.
"""

from __future__ import annotations

from collections.abc import Hashable


class ChangeLog:
    """The changes of one component type: entity -> the number of its last change, oldest
    first, and the number each reader has seen up to."""

    __slots__ = ("_cursors", "_last")

    def __init__(self) -> None:
        self._last: dict[int, int] = {}
        self._cursors: dict[Hashable, int] = {}

    def mark(self, entity: int, number: int) -> None:
        last = self._last
        last.pop(entity, None)  # moved to the end: the newest change
        last[entity] = number

    def read(self, reader: Hashable, now: int) -> list[int]:
        """The entities changed since `reader` last read (every one recorded, the first time),
        in the order of their last change."""
        seen = self._cursors.get(reader, 0)
        self._cursors[reader] = now
        found = []
        for entity, number in reversed(self._last.items()):
            if number <= seen:
                break
            found.append(entity)
        found.reverse()
        return found

    def forget(self, entity: int) -> None:
        self._last.pop(entity, None)
