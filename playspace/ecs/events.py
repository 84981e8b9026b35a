"""Buffered, typed event queues with one cursor per reader.

A system may run zero, one or several times in a frame (FIXED runs 0..n times), so events
cannot live for "one frame" or "one step": a fixed-step reader would miss what INPUT wrote in a
frame with no step, or see it twice in a frame with two. Each reader keeps its own cursor into
the queue instead: a read returns everything written since that reader last read, in order, and
nothing twice. Events stay until every known reader has passed them, and at least until the end
of the frame after the one they were sent in (Bevy's rule), so a reader that starts late still
sees what happened just before it. A system that names an event type in its ``reads`` is known
from the moment it is added, so it misses nothing even if it first runs frames later (a FIXED
system in frames with no step). A hard cap bounds a queue whose reader stopped reading.

Readers are identified by a hashable key, normally the system itself. References are strong:
there are no weak handlers that vanish silently.
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Callable, Hashable
from itertools import islice
from typing import Generic, TypeVar

E = TypeVar("E")

log = logging.getLogger(__name__)

DEFAULT_CAPACITY = 65_536


class EventQueue(Generic[E]):
    """The events of one type, numbered from 0 in the order they were sent."""

    __slots__ = (
        "_base",
        "_cursors",
        "_events",
        "_frame_marks",
        "_seen",
        "capacity",
        "dropped",
        "kind",
    )

    def __init__(self, kind: type[E], capacity: int = DEFAULT_CAPACITY) -> None:
        self.kind = kind
        self.capacity = capacity
        self.dropped = 0
        self._events: deque[E] = deque()
        self._base = 0  # sequence number of self._events[0]
        self._cursors: dict[Hashable, int] = {}
        self._frame_marks: deque[int] = deque(maxlen=2)
        self._seen: dict[Hashable, int] = {}  # what each watcher had seen sent (no events kept)

    def __len__(self) -> int:
        return len(self._events)

    @property
    def sent(self) -> int:
        """How many events were ever sent to this queue."""
        return self._base + len(self._events)

    def news(self, watcher: Hashable) -> bool:
        """Whether an event was sent since `watcher` last asked (a run condition's question).
        It keeps a count, not a cursor: no event is held back for a watcher."""
        sent = self.sent
        fresh = sent > self._seen.get(watcher, 0)
        self._seen[watcher] = sent
        return fresh

    def send(self, event: E) -> None:
        self._events.append(event)
        if len(self._events) > self.capacity:
            self._events.popleft()
            self._base += 1
            self.dropped += 1
            if self.dropped == 1:
                log.warning(
                    "event queue %s is over its capacity of %d: a reader has stopped reading; "
                    "dropping the oldest events",
                    self.kind.__name__,
                    self.capacity,
                )

    def read(self, reader: Hashable) -> list[E]:
        """Return what was sent since `reader` last read (all retained events the first time)."""
        start = self._cursors.get(reader, self._base)
        end = self._base + len(self._events)
        self._cursors[reader] = end
        if start >= end:
            return []
        return list(islice(self._events, max(start - self._base, 0), None))

    def pass_over(self, reader: Hashable) -> None:
        """Move a known `reader` past everything sent (a system skipped by its run condition):
        the queue does not keep events for a reader that is not reading."""
        if reader in self._cursors:
            self._cursors[reader] = self._base + len(self._events)

    def forget(self, reader: Hashable) -> bool:
        """Stop keeping events for `reader` (its system was removed); whether it was kept."""
        return self._cursors.pop(reader, None) is not None

    def subscribe(self, reader: Hashable) -> None:
        """Keep events for `reader` from now on, before it first reads (a declared reader)."""
        self._cursors.setdefault(reader, self._base)

    def end_frame(self) -> None:
        """Drop events that every reader has passed and that are two frames old."""
        self._frame_marks.append(self._base + len(self._events))
        if not self._events or len(self._frame_marks) < 2:
            return
        keep_from = min([self._frame_marks[0], *self._cursors.values()])
        while self._base < keep_from and self._events:
            self._events.popleft()
            self._base += 1


class Events:
    """All event queues of a world, one per event type."""

    __slots__ = ("_queues",)

    def __init__(self) -> None:
        self._queues: dict[type, EventQueue[object]] = {}

    def add(self, kind: type[E], capacity: int = DEFAULT_CAPACITY) -> EventQueue[E]:
        if not isinstance(kind, type):
            raise TypeError(f"an event type must be a class, got {kind!r}")
        queue = self._queues.get(kind)
        if queue is None:
            queue = EventQueue(kind, capacity)
            self._queues[kind] = queue
        return queue  # type: ignore[return-value]

    def queue(self, kind: type[E]) -> EventQueue[E]:
        try:
            return self._queues[kind]  # type: ignore[return-value]
        except KeyError:
            raise LookupError(
                f"no event queue for {kind.__name__}: register it with world.add_event("
                f"{kind.__name__}) (a plugin usually does this in build)"
            ) from None

    def has(self, kind: type) -> bool:
        return kind in self._queues

    def kinds(self) -> list[type]:
        """The event types that have a queue (an inspector reads them all)."""
        return list(self._queues)

    def retype(self, old: type, new: type, convert: Callable[[object], object]) -> None:
        """Move the queue of `old` (a class a reloaded module replaced) to `new`, its waiting
        events converted and every reader's cursor kept."""
        queue = self._queues.pop(old)
        queue.kind = new
        queue._events = deque(convert(event) for event in queue._events)
        self._queues[new] = queue

    def held(self) -> int:
        """Events held in every queue now: what a long session must keep bounded."""
        return sum(len(queue) for queue in self._queues.values())

    def forget(self, reader: Hashable) -> None:
        for queue in self._queues.values():
            queue.forget(reader)

    def news(self, kind: type, watcher: Hashable) -> bool:
        """Whether an event of `kind` was sent since `watcher` last asked (False for a type
        without a queue); the count seen is the world's, since each world has its queues."""
        queue = self._queues.get(kind)
        return queue is not None and queue.news(watcher)

    def pass_over(self, reader: Hashable, kinds: tuple[type, ...]) -> None:
        """Move `reader` past what was sent of those of `kinds` that are event types."""
        for kind in kinds:
            queue = self._queues.get(kind)
            if queue is not None:
                queue.pass_over(reader)

    def subscribe(self, reader: Hashable, kinds: tuple[type, ...]) -> None:
        """Make `reader` known to the queues of those of `kinds` that are event types."""
        for kind in kinds:
            queue = self._queues.get(kind)
            if queue is not None:
                queue.subscribe(reader)

    def end_frame(self) -> None:
        for queue in self._queues.values():
            queue.end_frame()
