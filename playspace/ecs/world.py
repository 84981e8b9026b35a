"""The world: entities and components on esper, resources, events, systems and the clock.

esper keeps its entities in module-level contexts and acts on the *current* one. Each
:class:`World` owns a context of its own and switches to it before every call into esper
(about 0.1 µs when it is already current), so several worlds in one process, or a system of one
world that reads another, never share or leak state. One entity's components (``get``,
``try_get``, ``has``, ``exists``: some seventy calls a step in a game's systems) are read from
the context's own entities and despawned set, kept from its making: esper switches contexts by
rebinding its module's names to each context's dict and set, never by replacing them, so they
stay the context's, and a lookup costs what esper's own ``component_for_entity`` does (55 ns,
``benchmarks/ecs_overhead.py``), where switching first and calling it cost 2.7 times that.

Storage and queries are esper's. Mind its cost model: any structural change (spawn, despawn,
adding or removing a component) rebuilds *every* query cache of the world. Keep per-frame state
in fields (``held_by``, ``ghost``), never in tag components added and removed every frame.
Query results are esper's cached lists: read them, never sort, pop or keep them.

A component is a plain dataclass, so the world cannot see its fields written: a system that
changes one others must notice (a body's kind, its colliders, a joint) asks for it with
:meth:`World.get_mut`, and the readers ask :meth:`World.changed` (``playspace.ecs.changes``).
"""

from __future__ import annotations

import inspect
import itertools
import logging
import os
import threading
import traceback
import weakref
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass, field
from time import perf_counter_ns
from typing import Any, Protocol, TypeVar, overload

import esper

from playspace.ecs.changes import ChangeLog
from playspace.ecs.clock import NS_PER_S, FixedClock, FixedTime, Time
from playspace.ecs.errors import (
    ComponentError,
    MissingComponent,
    MissingResource,
    PluginError,
    SystemFailed,
)
from playspace.ecs.events import EventQueue, Events
from playspace.ecs.profile import Profile
from playspace.ecs.schedule import Declaration, Phase, Schedule, SystemSet, SystemSpec

C = TypeVar("C")
C1 = TypeVar("C1")
C2 = TypeVar("C2")
C3 = TypeVar("C3")
C4 = TypeVar("C4")
E = TypeVar("E")
R = TypeVar("R")

log = logging.getLogger(__name__)
_world_numbers = itertools.count(1)
# esper keeps one current world for the whole process, and every World switches to its own
# before each call: two worlds used in two threads (a host's and a player's, in one process)
# would read each other's components between the switch and the call. So a frame holds this
# lock from its first system to its last, and so does the building of a world
# (``build_world``); a thread that uses a world outside those while another world steps
# holds it too. Uncontended it costs a fraction of a microsecond a frame.
WORLDS_LOCK = threading.RLock()
_EVERYONES = (Time, FixedTime)  # the clock's resources: only the world writes them


@dataclass(frozen=True, slots=True)
class Despawned:
    """Sent when an entity is gone, with the components it had (the physics system frees its
    engine bodies from here)."""

    entity: int
    components: dict[type, object] = field(default_factory=dict)


class Plugin(Protocol):
    """A bundle of systems, resources and defaults; added to a world once."""

    def build(self, world: World) -> None: ...


def _delete_context(name: str) -> None:
    if esper.current_world == name:
        esper.switch_world("default")
    if name in esper.list_worlds():
        esper.delete_world(name)


def _check_instance(item: object, what: str, where: str) -> None:
    if isinstance(item, type):
        raise ComponentError(
            f"{what} {item.__qualname__} {where} is a class, not an instance: "
            f"write {item.__qualname__}(...)"
        )
    if item is None or type(item).__module__ == "builtins":
        raise ComponentError(
            f"{what} {item!r} {where} is not an instance of a {what} class: wrap it in a "
            f"dataclass so it has a type of its own"
        )


def _misread(queue: EventQueue[Any], spec: SystemSpec, reader: Hashable) -> None:
    """A system declared it reads `queue`'s events and reads them as another reader: the
    declared cursor, never moved, would keep every event the queue is sent until its cap.
    It is dropped (the events are kept for the reader that reads), with a warning once."""
    if queue.forget(spec.source):
        log.warning(
            "system %s declares it reads %s but reads them as %r: read them with "
            "reader=the system itself; its declared cursor is dropped",
            spec.name,
            queue.kind.__name__,
            reader,
        )


def _where(spec: SystemSpec, error: BaseException) -> str | None:
    """``FILE:LINE`` of the deepest frame of `error`'s traceback in the file that defines the
    system (the game's own line, not the runtime's below it); FILE relative to the working
    folder when it is inside it. None when the traceback never passed through that file."""
    source = spec.source
    try:
        defined = inspect.getsourcefile(source if inspect.isroutine(source) else type(source))
    except TypeError:  # a builtin, or a class defined in no file
        return None
    if defined is None:
        return None
    home = os.path.realpath(defined)
    lines = [
        frame.lineno
        for frame in traceback.extract_tb(error.__traceback__)
        if os.path.realpath(frame.filename) == home
    ]
    if not lines:
        return None
    try:
        shown = os.path.relpath(home)
    except ValueError:  # Windows: another drive than the working folder's
        shown = home
    return f"{home if shown.startswith('..') else shown}:{lines[-1]}"


class World:
    """One simulation: entities, components, resources, events, systems and a fixed clock.

    Several worlds may live in one process (a host and a player, a test's twins) and step in
    several threads: their frames take turns (:data:`WORLDS_LOCK`), as esper has one current
    world a process. Outside a frame, use a world from the thread that steps it, or hold
    ``WORLDS_LOCK`` while you do.

    A system that raises ends the frame there with :class:`SystemFailed`, which names the
    system, its line and the step (its own exception the cause): a game's bug is then one
    line to its author, not a traceback through the loop that stepped the world."""

    def __init__(self, fixed_hz: float = 90.0, max_frame: float = 0.25, max_substeps: int = 8):
        self.name = f"playspace-{next(_world_numbers)}"
        esper.switch_world(self.name)
        self._finalizer = weakref.finalize(self, _delete_context, self.name)
        self._entities: dict[int, dict[type, Any]] = esper._entities  # this context's
        self._despawning: set[int] = esper._dead_entities  # ...and its despawns not yet done
        self.clock = FixedClock(fixed_hz, max_frame, max_substeps)
        self.schedule = Schedule()
        self.events = Events()
        self._resources: dict[type, object] = {}
        self._plugins: set[object] = set()
        self._dead: list[tuple[int, dict[type, object]]] = []
        self.time = self.insert_resource(Time())
        self.fixed_time = self.insert_resource(FixedTime(hz=self.clock.hz, dt=self.clock.dt))
        self._despawned = self.add_event(Despawned)
        self._running: SystemSpec | None = None
        self._audit: dict[str, set[type]] | None = None
        self._changes: dict[type, ChangeLog] = {}
        self._change_count = 0

    def _use(self) -> None:
        if esper.current_world is not self.name:
            esper.switch_world(self.name)
            # a new context, if a closed world is used again
            self._entities, self._despawning = esper._entities, esper._dead_entities

    def close(self) -> None:
        """Free this world's esper context (also done when the world is garbage collected)."""
        self._finalizer()
        self._entities, self._despawning = {}, set()

    def __enter__(self) -> World:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # Entities and components -------------------------------------------------------------

    def spawn(self, *components: object) -> int:
        """Create an entity with these components and return its id."""
        for component in components:
            _check_instance(component, "component", "given to spawn")
            if self._audit is not None:
                self._touch(type(component))
        self._use()
        return esper.create_entity(*components)

    def despawn(self, entity: int) -> None:
        """Remove an entity once the running system returns (outside a frame: when the next
        frame starts); it no longer ``exists`` from now on.

        A :class:`Despawned` event carries its components to whoever must free what it owned.
        """
        self._use()
        if not esper.entity_exists(entity):
            raise MissingComponent(f"cannot despawn entity {entity}: it does not exist")
        components: tuple[object, ...] = esper.components_for_entity(entity)
        self._dead.append((entity, {type(c): c for c in components}))
        esper.delete_entity(entity)

    def exists(self, entity: int) -> bool:
        return entity in self._entities and entity not in self._despawning

    def add(self, entity: int, *components: object) -> None:
        """Add (or replace) components on an entity: a structural change, so not every frame."""
        self._use()
        if not esper.entity_exists(entity):
            raise MissingComponent(f"cannot add components to entity {entity}: it does not exist")
        for component in components:
            _check_instance(component, "component", f"added to entity {entity}")
        for component in components:
            if self._audit is not None:
                self._touch(type(component))
            esper.add_component(entity, component)

    def remove(self, entity: int, kind: type[C]) -> C:
        if self._audit is not None:
            self._touch(kind)
        self._use()
        removed = esper.try_remove_component(entity, kind)
        if removed is None:
            raise MissingComponent(f"entity {entity} has no {kind.__qualname__} to remove")
        return removed

    def get(self, entity: int, kind: type[C]) -> C:
        """The entity's component of type `kind`; a clear error when it has none."""
        if self._audit is not None:
            self._touch(kind)
        try:
            return self._entities[entity][kind]  # type: ignore[no-any-return]
        except KeyError:
            state = "has no" if self.exists(entity) else "does not exist, so no"
            raise MissingComponent(f"entity {entity} {state} {kind.__qualname__}") from None

    def get_mut(self, entity: int, kind: type[C]) -> C:
        """The entity's component of type `kind`, to change: the world records the change
        for whoever reads changes of `kind` (physics, the renderer), as Bevy's ``Mut<T>``.
        Change a body's components, a joint or a grabbable's opt-ins through this."""
        found = self.get(entity, kind)
        self.set_changed(entity, kind)
        return found

    def set_changed(self, entity: int, kind: type) -> None:
        """Record that the entity's component of type `kind` changed (one got from a query
        and changed in place)."""
        if self._audit is not None:
            self._touch(kind)
        log = self._changes.get(kind)
        if log is None:
            log = self._changes[kind] = ChangeLog()
        self._change_count += 1
        log.mark(entity, self._change_count)

    def changed(self, kind: type, reader: Hashable) -> list[int]:
        """The entities whose component of type `kind` changed since `reader` last asked
        (every one recorded, the first time), each once, oldest change first; Bevy's
        ``Changed<T>``. A despawned entity is forgotten once it is gone (the frame's next
        system)."""
        if self._audit is not None:
            self._touch(kind)
        log = self._changes.get(kind)
        if log is None:
            log = self._changes[kind] = ChangeLog()
        return log.read(reader, self._change_count)

    def try_get(self, entity: int, kind: type[C]) -> C | None:
        if self._audit is not None:
            self._touch(kind)
        components = self._entities.get(entity)
        return None if components is None else components.get(kind)

    def has(self, entity: int, *kinds: type) -> bool:
        components = self._entities.get(entity)
        if components is None or entity in self._despawning:
            return False
        for kind in kinds:  # noqa: SIM110 (a loop: all() costs three times as much)
            if kind not in components:
                return False
        return True

    def components_of(self, entity: int) -> tuple[object, ...]:
        self._use()
        return esper.components_for_entity(entity)

    def each(self, kind: type[C]) -> list[tuple[int, C]]:
        """Every (entity, component) of one type: esper's cached list, read-only."""
        if self._audit is not None:
            self._touch(kind)
        if esper.current_world is not self.name:  # checked here: calling _use costs a third of each
            self._use()
        return esper.get_component(kind)

    @overload
    def query(self, c1: type[C1], /) -> list[tuple[int, tuple[C1]]]: ...
    @overload
    def query(self, c1: type[C1], c2: type[C2], /) -> list[tuple[int, tuple[C1, C2]]]: ...
    @overload
    def query(
        self, c1: type[C1], c2: type[C2], c3: type[C3], /
    ) -> list[tuple[int, tuple[C1, C2, C3]]]: ...
    @overload
    def query(
        self, c1: type[C1], c2: type[C2], c3: type[C3], c4: type[C4], /
    ) -> list[tuple[int, tuple[C1, C2, C3, C4]]]: ...
    def query(self, *kinds: type) -> list[tuple[int, tuple[Any, ...]]]:
        """Entities with all of these components: esper's cached list, read-only."""
        if self._audit is not None:
            self._touch(*kinds)
        if esper.current_world is not self.name:
            self._use()
        return esper.get_components(*kinds)

    def entity_count(self) -> int:
        self._use()
        return sum(1 for _ in esper.get_entities())

    def component_kinds(self) -> list[type]:
        """The component types some entity of the world has now (an inspector finds names by
        the types that carry one, not entity by entity)."""
        self._use()
        return [kind for kind, held in esper._components.items() if held]

    def entities(self) -> list[int]:
        """Every entity of the world, in the order they were made (an inspector lists them)."""
        self._use()
        return list(esper.get_entities())

    # Resources ---------------------------------------------------------------------------

    def insert_resource(self, resource: R) -> R:
        """Store the one instance of its type (replacing an earlier one) and return it."""
        _check_instance(resource, "resource", "given to insert_resource")
        self._resources[type(resource)] = resource
        return resource

    def resource(self, kind: type[R]) -> R:
        if self._audit is not None:
            self._touch(kind)
        try:
            return self._resources[kind]  # type: ignore[return-value]
        except KeyError:
            raise MissingResource(
                f"no {kind.__qualname__} resource in this world: insert_resource("
                f"{kind.__qualname__}(...)) or add the plugin that provides it"
            ) from None

    def try_resource(self, kind: type[R]) -> R | None:
        if self._audit is not None:
            self._touch(kind)
        return self._resources.get(kind)  # type: ignore[return-value]

    def remove_resource(self, kind: type[R]) -> R:
        found = self.resource(kind)
        del self._resources[kind]
        return found

    # Events ------------------------------------------------------------------------------

    def add_event(self, kind: type[E]) -> EventQueue[E]:
        """Register an event type (again is harmless) and return its queue."""
        return self.events.add(kind)

    def send(self, event: object) -> None:
        if self._audit is not None:
            self._touch(type(event))
        self.events.queue(type(event)).send(event)

    def read_events(self, kind: type[E], reader: Hashable) -> list[E]:
        """Events of `kind` sent since `reader` (normally the calling system) last read."""
        if self._audit is not None:
            self._touch(kind)
        queue = self.events.queue(kind)
        spec = self._running
        if spec is not None and reader != spec.source and kind in spec.reads:
            _misread(queue, spec, reader)
        return queue.read(reader)

    # Systems and plugins -----------------------------------------------------------------

    def add_system(
        self,
        item: object,
        *,
        phase: Phase | str | None = None,
        before: Iterable[object] = (),
        after: Iterable[object] = (),
        reads: Iterable[type] = (),
        writes: Iterable[type] = (),
        run_if: Callable[[World], bool] | None = None,
        name: str | None = None,
        in_set: SystemSet | str | None = None,
    ) -> None:
        """Add one system; keywords add to (or stand in for) what its decorator declared.

        An event type in `reads` makes the system a known reader of it from now on.
        """
        overrides = Declaration(
            phase, tuple(before), tuple(after), tuple(reads), tuple(writes), run_if, name, in_set
        )
        self._subscribe(self.schedule.add([item], overrides))

    def add_systems(self, *items: object) -> None:
        """Add several declared systems at once; they may order against each other."""
        self._subscribe(self.schedule.add(items))

    def declare(self, ref: object, reads: Iterable[type] = (), writes: Iterable[type] = ()) -> None:
        """Widen what a system already added reads and writes; an event type in `reads` makes
        it a known reader of that event from now on."""
        self._subscribe([self.schedule.declare(ref, reads, writes)])

    def redeclare_systems(self, changed: dict[str, object]) -> None:
        """Take what the systems named in `changed` declare again from their new items (a
        reloaded module's), each where it was in the order; all or nothing
        (:meth:`Schedule.redeclare`)."""
        self._subscribe(self.schedule.redeclare(changed))

    def _subscribe(self, specs: list[SystemSpec]) -> None:
        for spec in specs:
            self.events.subscribe(spec.source, spec.reads)

    def remove_system(self, ref: object) -> None:
        spec = self.schedule.remove(ref)
        self.events.forget(spec.source)

    def add_plugin(self, plugin: Plugin | Callable[[World], None]) -> None:
        """Build a plugin (an object with ``build(world)``, or a plain function) once.

        A second plugin of the same class is refused, as a second physics or rig would be a
        bug; a plugin class that may be added more than once (two telemetry streams, a
        spawner per prop kind) says so with a class attribute ``unique = False``."""
        key = plugin if not hasattr(plugin, "build") else type(plugin)
        label = getattr(key, "__qualname__", repr(key))
        if key in self._plugins and getattr(plugin, "unique", True):
            raise PluginError(f"plugin {label} was already added to this world")
        build = getattr(plugin, "build", None)
        if build is None and not callable(plugin):
            raise PluginError(f"{plugin!r} is not a plugin: give it a build(world) method")
        self._plugins.add(key)
        if build is not None:
            build(self)
        else:
            plugin(self)  # type: ignore[operator]

    def has_plugin(self, plugin: object) -> bool:
        return plugin in self._plugins or type(plugin) in self._plugins

    def audit_access(self) -> dict[str, set[type]]:
        """Note from now on, by system name, the component, resource and event types each
        system touches without declaring them (in ``reads`` or ``writes``); the dict returned
        fills as systems run. The schedule finds unordered writers of the same data from what
        systems declare: a test that audits a running world holds those declarations true."""
        self._audit = {}
        return self._audit

    def _touch(self, *kinds: type) -> None:
        spec, audit = self._running, self._audit
        if spec is None or audit is None:
            return
        for kind in kinds:
            if kind not in spec.reads and kind not in spec.writes and kind not in _EVERYONES:
                audit.setdefault(spec.name, set()).add(kind)

    # Running -----------------------------------------------------------------------------

    def advance(self, frame_seconds: float) -> int:
        """Run one frame of `frame_seconds`: INPUT, FIXED 0..n times, LATE, RENDER.

        Returns how many fixed steps ran. The frame is clamped and the steps capped as the
        clock says; ``Time`` counts both.
        """
        with WORLDS_LOCK:
            self._flush()
            steps = self.clock.start_frame(frame_seconds, self.time)
            self._frame(steps)
        return steps

    def step(self, n: int = 1) -> None:
        """Run exactly `n` frames of one fixed step each, aligned on step boundaries.

        The deterministic way to drive a world from a test or a headless replay.
        """
        if not isinstance(n, int) or n < 0:
            raise ValueError(f"step count must be an integer >= 0, got {n!r}")
        for _ in range(n):
            with WORLDS_LOCK:
                self._flush()
                self._frame(self.clock.start_exact_frame(self.time))

    def run_phase(self, phase: Phase) -> None:
        """Run the systems of one phase in order (the frame loop calls this)."""
        for spec in self.schedule.phase(phase):
            if spec.run_if is not None and not spec.run_if(self):
                spec.stats.skipped += 1
                self.events.pass_over(spec.source, spec.reads)
                if Profile.active is not None:
                    Profile.active.skip(spec.name)
                continue
            self._run(spec)

    def ran(self) -> list[str]:
        """The systems that ran in the last frame, in the order they ran (a FIXED system ran
        if any of the frame's steps ran it); the rest were skipped by their run conditions,
        or their phase did not run (a frame with no fixed step)."""
        frame = self.time.frame
        return [spec.name for spec in self.schedule.all() if spec.stats.frame == frame]

    def _run(self, spec: SystemSpec) -> None:
        self._running = spec
        start = perf_counter_ns()
        try:
            spec.run(self)
        except SystemFailed:
            raise  # a world stepped inside this system said which of its systems failed
        except Exception as error:
            step = self.clock.steps
            raise SystemFailed(
                spec.name, spec.phase.value, step, _where(spec, error), error
            ) from error
        finally:
            self._running = None
        took = perf_counter_ns() - start
        profile = Profile.active
        if profile is not None:
            profile.span(spec.name, "system", start, start + took, phase=spec.phase.value)
        stats = spec.stats
        stats.calls += 1
        stats.frame = self.time.frame
        stats.last_ns = took
        stats.total_ns += took
        if took > stats.max_ns:
            stats.max_ns = took
        if self._dead:
            self._flush()

    def _frame(self, steps: int) -> None:
        clock, fixed = self.clock, self.fixed_time
        profile, began = Profile.active, perf_counter_ns()
        fixed.steps_this_frame = steps
        fixed.hz, fixed.dt = clock.hz, clock.dt
        self.run_phase(Phase.INPUT)
        for _ in range(steps):
            fixed.step = clock.steps
            fixed.elapsed = clock.boundary(clock.steps + 1) / NS_PER_S
            start = perf_counter_ns()
            self.run_phase(Phase.FIXED)
            if profile is not None:
                profile.span("fixed step", "step", start, perf_counter_ns(), step=clock.steps)
            clock.steps += 1
        fixed.step = clock.steps
        fixed.alpha = clock.alpha()
        self.run_phase(Phase.LATE)
        self.run_phase(Phase.RENDER)
        self.events.end_frame()
        if profile is not None:
            profile.span("frame", "frame", began, perf_counter_ns(), steps=steps)
            profile.flush()

    def _flush(self) -> None:
        """Finish deferred despawns and tell readers what went."""
        if not self._dead:
            return
        self._use()
        esper.clear_dead_entities()
        dead, self._dead = self._dead, []
        for entity, components in dead:
            for log in self._changes.values():
                log.forget(entity)
            self._despawned.send(Despawned(entity, components))
