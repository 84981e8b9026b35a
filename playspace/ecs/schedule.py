"""Phases, system declarations and the order they run in.

Every frame has four phases, each with one job:

- ``INPUT``: poll the input source once a frame (poses, buttons, the display time).
- ``FIXED``: advance the simulation by one fixed step; runs 0..n times a frame.
- ``LATE``: once a frame after the steps: interpolate what is drawn, place cameras and hands
  from the freshest tracked poses.
- ``RENDER``: once a frame: draw each view.

Inside a phase, systems sit in *sets*, members of an :class:`~enum.Enum` a plugin declares (the
fixed step's are ``playspace.systems.sets.FixedSet``), which run in the order the phase was
given them: that is how plugins order against each other without naming each other's systems.
Within a plugin, a system may also run ``before`` or ``after`` another (the system itself). The
schedule is a stable topological order: constraints first, then the order in which systems
were added, so game systems added after the built-in ones run after them. It is computed when
systems change, never per frame. Bare integer priorities are deliberately absent: they do not
compose across plugins.

A system is a function ``f(world)`` or an object with a ``run(world)`` method, declared with
:func:`system`::

    @system(Phase.FIXED, after=(tracking_system,), writes=(Transform,))
    def rig_system(world: World) -> None: ...
"""

from __future__ import annotations

import heapq
import itertools
import sys
import warnings
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import TYPE_CHECKING, TypeAlias, TypeVar

from playspace.ecs.errors import ScheduleError

if TYPE_CHECKING:
    from playspace.ecs.world import World

T = TypeVar("T")

DECLARATION = "__playspace_system__"


class Phase(Enum):
    """When in the frame a system runs; see the module docstring for each phase's job."""

    INPUT = "input"
    FIXED = "fixed"
    LATE = "late"
    RENDER = "render"


PHASES: tuple[Phase, ...] = tuple(Phase)

SystemSet: TypeAlias = Enum
"""A set is a member of an Enum: typed, so a misspelt set is an AttributeError where it is
written, and its class says whose it is."""


@dataclass(frozen=True, slots=True)
class Declaration:
    """What a system says about itself: its phase, order and the data it touches."""

    phase: Phase | str | None = None
    before: tuple[object, ...] = ()
    after: tuple[object, ...] = ()
    reads: tuple[type, ...] = ()
    writes: tuple[type, ...] = ()
    run_if: Callable[[World], bool] | None = None
    name: str | None = None
    in_set: SystemSet | str | None = None


def system(
    phase: Phase | str,
    *,
    before: Iterable[object] = (),
    after: Iterable[object] = (),
    reads: Iterable[type] = (),
    writes: Iterable[type] = (),
    run_if: Callable[[World], bool] | None = None,
    name: str | None = None,
    in_set: SystemSet | str | None = None,
) -> Callable[[T], T]:
    """Declare a function or a class as a system of `phase`.

    `in_set` puts it in a set of its phase (a member of the Enum that declares the sets): sets
    run in the order :meth:`Schedule.add_sets` gave them, which is how plugins order against
    each other without naming each other's systems. `before`/`after` order it against other
    systems of its own plugin (the function or object). `run_if` is a run condition, kept apart
    from ordering: the system is skipped while it returns False. `reads`/`writes` name component
    or resource types; :meth:`Schedule.ambiguities` uses them to flag writers of the same data
    that have no order between them. A set given by its value as a string (``"game"``) is found
    and warned about: the string form is deprecated.
    """
    declaration = Declaration(
        phase, tuple(before), tuple(after), tuple(reads), tuple(writes), run_if, name, in_set
    )

    def mark(target: T) -> T:
        setattr(target, DECLARATION, declaration)
        return target

    return mark


@dataclass(slots=True)
class SystemStats:
    """How long a system took (the game's overlay shows the slowest, the inspector each one),
    how often its run condition skipped it, and the frame it last ran in (``Time.frame``)."""

    calls: int = 0
    skipped: int = 0
    frame: int = -1
    last_ns: int = 0
    total_ns: int = 0
    max_ns: int = 0


@dataclass(frozen=True, slots=True)
class SystemSpec:
    """A system resolved and validated: a name unique in its world and a callable."""

    name: str
    phase: Phase
    run: Callable[[World], None]
    source: object
    before: tuple[str, ...]
    after: tuple[str, ...]
    reads: tuple[type, ...]
    writes: tuple[type, ...]
    run_if: Callable[[World], bool] | None
    in_set: SystemSet | None = None
    stats: SystemStats = field(default_factory=SystemStats, compare=False)
    overrides: Declaration | None = None  # what adding it said beside its decorator


def system_name(item: object) -> str:
    """The default name of a system: its function's or class's qualified name, without the
    ``<locals>`` of the function that defined it."""
    declared = getattr(item, DECLARATION, None)
    if isinstance(declared, Declaration) and declared.name:
        return declared.name
    qualname = getattr(item, "__qualname__", None)
    if not (isinstance(qualname, str) and callable(item) and not isinstance(item, type)):
        qualname = type(item).__qualname__
    return qualname.rsplit("<locals>.", 1)[-1]


def _phase(value: object, name: str) -> Phase:
    if isinstance(value, Phase):
        return value
    if isinstance(value, str):
        for phase in PHASES:
            if value.lower() == phase.value:
                return phase
    expected = ", ".join(p.name for p in PHASES)
    if value is None:
        raise ScheduleError(
            f"system {name!r} declares no phase: decorate it with @system(Phase.FIXED) or "
            f"pass phase= when adding it (one of {expected})"
        )
    raise ScheduleError(f"system {name!r} has unknown phase {value!r}; expected one of {expected}")


def _runner(item: object, name: str) -> Callable[[World], None]:
    if isinstance(item, type):
        raise ScheduleError(f"system {name!r} is a class, not an instance: add {name}() instead")
    run: object = getattr(item, "run", None)
    if callable(run):
        return run
    if callable(item):
        return item
    raise ScheduleError(
        f"system {name!r} is neither a function nor an object with a run(world) method"
    )


class Schedule:
    """The systems of a world and the order each phase runs them in."""

    def __init__(self) -> None:
        self._systems: dict[str, SystemSpec] = {}
        self._names_by_source: dict[object, str] = {}
        self._order: dict[Phase, tuple[SystemSpec, ...]] = {p: () for p in PHASES}
        self._sets: dict[Phase, list[SystemSet]] = {p: [] for p in PHASES}
        self._default_sets: dict[Phase, SystemSet] = {}

    def set_default_set(self, phase: Phase, default: SystemSet) -> None:
        """Where a system of `phase` added with neither a set nor a ``before``/``after`` goes:
        a game system then runs at a documented point of the step, not wherever the order of
        adding happened to put it."""
        found = self._set_of(default, phase, f"(default of {phase.name})")
        assert found is not None
        self._default_sets[phase] = found

    def add_sets(self, phase: Phase, *sets: SystemSet) -> None:
        """Append sets to `phase`, in this order; sets already there keep their place.

        Every system of a set runs before every system of a later set of the same phase.
        """
        for given in sets:
            if not isinstance(given, Enum):
                raise ScheduleError(
                    f"set {given!r} of {phase.name} is not a member of an Enum: declare a "
                    f"plugin's sets as an Enum (class MySet(Enum): ...)"
                )
        known = self._sets[phase]
        ranks = [known.index(s) for s in sets if s in known]
        if ranks != sorted(ranks):
            shown = ", ".join(map(str, known))
            raise ScheduleError(
                f"sets {', '.join(map(str, sets))} contradict the order of {phase.name}'s sets "
                f"({shown})"
            )
        known.extend(s for s in sets if s not in known)
        self._order = _order(self._systems, self._sets)

    def sets(self, phase: Phase) -> tuple[SystemSet, ...]:
        return tuple(self._sets[phase])

    def __contains__(self, ref: object) -> bool:
        return self._lookup(ref) is not None

    def __len__(self) -> int:
        return len(self._systems)

    def phase(self, phase: Phase) -> tuple[SystemSpec, ...]:
        """The systems of `phase` in the order they run."""
        return self._order[phase]

    def get(self, ref: object) -> SystemSpec:
        found = self._lookup(ref)
        if found is None:
            raise ScheduleError(f"no system {self._describe(ref)} in this world")
        return found

    def all(self) -> tuple[SystemSpec, ...]:
        return tuple(spec for phase in PHASES for spec in self._order[phase])

    def add(
        self, items: Iterable[object], overrides: Declaration | None = None
    ) -> list[SystemSpec]:
        """Add systems as one batch: they may order against each other and earlier systems.

        Nothing changes when any of them is invalid.
        """
        batch: list[tuple[object, Declaration]] = []
        names: dict[str, object] = {}
        for item in items:
            declared = getattr(item, DECLARATION, None)
            declaration = declared if isinstance(declared, Declaration) else Declaration()
            if overrides is not None:
                declaration = _merge(declaration, overrides)
            name = declaration.name or system_name(item)
            if name in self._systems or name in names:
                raise ScheduleError(
                    f"a system named {name!r} is already in this world; give the second one "
                    f"another name with name="
                )
            names[name] = item
            batch.append((item, declaration))

        specs = [
            replace(self._resolve(item, decl, names), overrides=overrides) for item, decl in batch
        ]
        systems = dict(self._systems)
        systems.update((spec.name, spec) for spec in specs)
        order = _order(systems, self._sets)
        self._systems = systems
        self._order = order
        for spec in specs:
            self._names_by_source[_key(spec.source)] = spec.name
        return specs

    def declare(
        self, ref: object, reads: Iterable[type] = (), writes: Iterable[type] = ()
    ) -> SystemSpec:
        """Widen what a system added earlier says it reads and writes (a telemetry writer told
        to record another event type); returns the system as it is now."""
        spec = self.get(ref)
        wider = replace(
            spec,
            reads=spec.reads + tuple(k for k in reads if k not in spec.reads),
            writes=spec.writes + tuple(k for k in writes if k not in spec.writes),
        )
        self._systems[spec.name] = wider
        self._order = _order(self._systems, self._sets)
        return wider

    def redeclare(self, changed: dict[str, object]) -> list[SystemSpec]:
        """Resolve the systems named in `changed` again from their new items (a reloaded
        module's functions: what their decorators say now, with what adding them said), each
        keeping its name and its place in the order of adding; all or nothing."""
        resolved: list[SystemSpec] = []
        for name, item in changed.items():
            old = self.get(name)
            declared = getattr(item, DECLARATION, None)
            declaration = declared if isinstance(declared, Declaration) else Declaration()
            if old.overrides is not None:
                declaration = _merge(declaration, old.overrides)
            declaration = replace(declaration, name=name)
            spec = self._resolve(item, declaration, {name: item})
            resolved.append(replace(spec, overrides=old.overrides, stats=old.stats))
        systems = dict(self._systems)
        systems.update((spec.name, spec) for spec in resolved)
        self._order = _order(systems, self._sets)
        self._systems = systems
        for spec in resolved:
            self._names_by_source[_key(spec.source)] = spec.name
        return resolved

    def remove(self, ref: object) -> SystemSpec:
        """Remove a system; systems that order against it must be removed first."""
        spec = self.get(ref)
        for other in self._systems.values():
            if spec.name in other.before or spec.name in other.after:
                raise ScheduleError(
                    f"cannot remove system {spec.name!r}: system {other.name!r} is ordered "
                    f"against it"
                )
        systems = dict(self._systems)
        del systems[spec.name]
        self._order = _order(systems, self._sets)
        self._systems = systems
        self._names_by_source.pop(_key(spec.source), None)
        return spec

    def ambiguities(self) -> list[tuple[str, str, type]]:
        """Pairs of systems of one phase that touch the same data, one writing, unordered.

        Their relative order is only the order they were added in: fine until a plugin is added
        in another order. Each pair comes with the type they share. Systems ordered by their
        sets, or by ``before``/``after`` (directly or through others), are not ambiguous.
        """
        found: list[tuple[str, str, type]] = []
        edges = _edges(self._systems, self._sets)
        for phase in PHASES:
            specs = self._order[phase]
            reach = _reachability(specs, edges)
            for i, a in enumerate(specs):
                for b in specs[i + 1 :]:
                    if b.name in reach[a.name] or a.name in reach[b.name]:
                        continue
                    shared = (set(a.writes) & (set(b.writes) | set(b.reads))) | (
                        set(b.writes) & set(a.reads)
                    )
                    found.extend((a.name, b.name, kind) for kind in shared)
        return found

    def _lookup(self, ref: object) -> SystemSpec | None:
        if isinstance(ref, str):
            return self._systems.get(ref)
        name = self._names_by_source.get(_key(ref))
        return self._systems.get(name) if name is not None else None

    def _describe(self, ref: object) -> str:
        return repr(ref) if isinstance(ref, str) else repr(system_name(ref))

    def _resolve(
        self, item: object, declaration: Declaration, batch: dict[str, object]
    ) -> SystemSpec:
        name = declaration.name or system_name(item)
        phase = _phase(declaration.phase, name)
        run = _runner(item, name)

        def ref_name(ref: object, relation: str) -> str:
            if isinstance(ref, str):
                target = ref
            elif (spec := self._lookup(ref)) is not None:
                target = spec.name
            else:
                target = next((n for n, member in batch.items() if member is ref), "")
            if target not in self._systems and target not in batch:
                raise ScheduleError(
                    f"system {name!r} is declared {relation} {self._describe(ref)}, which is "
                    f"not in this world: add that system (or its plugin) first"
                )
            return target

        return SystemSpec(
            name=name,
            phase=phase,
            run=run,
            source=item,
            before=tuple(ref_name(r, "before") for r in declaration.before),
            after=tuple(ref_name(r, "after") for r in declaration.after),
            reads=declaration.reads,
            writes=declaration.writes,
            run_if=declaration.run_if,
            in_set=self._set_of(self._placed(declaration, phase), phase, name),
        )

    def _placed(self, declaration: Declaration, phase: Phase) -> SystemSet | str | None:
        """The set a system goes in: its own, else the phase's default if it orders itself
        against nothing."""
        if declaration.in_set is not None or declaration.before or declaration.after:
            return declaration.in_set
        return self._default_sets.get(phase)

    def _set_of(self, in_set: SystemSet | str | None, phase: Phase, name: str) -> SystemSet | None:
        """The set `in_set` names in `phase`: a member given, or the one whose value a string
        gives (deprecated: the string form cannot be checked where it is written)."""
        if in_set is None:
            return None
        sets = self._sets[phase]
        if isinstance(in_set, str):
            found = next((s for s in sets if s.value == in_set), None)
            if found is not None:
                warnings.warn(
                    f"system {name!r}: in_set={in_set!r} names a set by its string; use the "
                    f"set itself, {type(found).__name__}.{found.name}",
                    DeprecationWarning,
                    stacklevel=_outside_ecs(),
                )
                return found
        elif in_set in sets:
            return in_set
        known = ", ".join(map(str, sets)) or "none yet"
        raise ScheduleError(
            f"system {name!r} is in set {in_set!s}, which {phase.name} does not have "
            f"(its sets: {known}); add it with add_sets or add the plugin that does"
        )


def _outside_ecs() -> int:
    """The stack level of the first caller outside this package: where a warning about what
    a game wrote should point."""
    frame, level = sys._getframe(1), 1
    while frame.f_back is not None and frame.f_globals.get("__name__", "").startswith(
        "playspace.ecs"
    ):
        frame, level = frame.f_back, level + 1
    return level


def _key(source: object) -> object:
    """How a system is found again: by equality where it can be hashed (a bound method is a
    new object on every access, but an equal one), by identity otherwise."""
    try:
        hash(source)
    except TypeError:
        return id(source)
    return source


def _merge(declared: Declaration, overrides: Declaration) -> Declaration:
    return Declaration(
        phase=overrides.phase if overrides.phase is not None else declared.phase,
        before=declared.before + overrides.before,
        after=declared.after + overrides.after,
        reads=declared.reads + overrides.reads,
        writes=declared.writes + overrides.writes,
        run_if=overrides.run_if if overrides.run_if is not None else declared.run_if,
        name=overrides.name or declared.name,
        in_set=overrides.in_set or declared.in_set,
    )


def _edges(
    systems: dict[str, SystemSpec], sets: dict[Phase, list[SystemSet]]
) -> dict[str, set[str]]:
    """For each system, the systems that run right after it by a constraint: its set before
    theirs, or its own ``before``/``after``."""
    edges: dict[str, set[str]] = {name: set() for name in systems}
    for phase, names in sets.items():
        groups = [
            [s.name for s in systems.values() if s.phase is phase and s.in_set == n] for n in names
        ]
        chain = [group for group in groups if group]
        for earlier, later in itertools.pairwise(chain):
            for first in earlier:
                edges[first].update(later)
    for spec in systems.values():
        for target, first, then in [(t, spec.name, t) for t in spec.before] + [
            (t, t, spec.name) for t in spec.after
        ]:
            other = systems[target]
            if other.phase is not spec.phase:
                raise ScheduleError(
                    f"system {spec.name!r} ({spec.phase.name}) is ordered against "
                    f"{other.name!r}, which runs in {other.phase.name}: order across phases "
                    f"comes from the phases themselves"
                )
            edges[first].add(then)
    return edges


def _order(
    systems: dict[str, SystemSpec], sets: dict[Phase, list[SystemSet]]
) -> dict[Phase, tuple[SystemSpec, ...]]:
    """Stable topological order per phase: constraints first, then insertion order."""
    rank = {name: i for i, name in enumerate(systems)}
    edges = _edges(systems, sets)

    order: dict[Phase, tuple[SystemSpec, ...]] = {}
    for phase in PHASES:
        members = [name for name, spec in systems.items() if spec.phase is phase]
        incoming = {name: 0 for name in members}
        for name in members:
            for then in edges[name]:
                incoming[then] += 1
        ready = [(rank[name], name) for name in members if incoming[name] == 0]
        heapq.heapify(ready)
        result: list[SystemSpec] = []
        while ready:
            _, name = heapq.heappop(ready)
            result.append(systems[name])
            for then in edges[name]:
                incoming[then] -= 1
                if incoming[then] == 0:
                    heapq.heappush(ready, (rank[then], then))
        if len(result) < len(members):
            raise ScheduleError(f"system order forms a cycle: {_cycle(edges, incoming)}")
        order[phase] = tuple(result)
    return order


def _cycle(edges: dict[str, set[str]], incoming: dict[str, int]) -> str:
    """One cycle among the systems Kahn's algorithm could not place, as 'a -> b -> a'.

    Every system left with incoming edges has a predecessor that was left too, so walking
    predecessors must come back to a system already on the path.
    """
    stuck = {name for name, count in incoming.items() if count > 0}
    path: list[str] = []
    node = min(stuck)
    while node not in path:
        path.append(node)
        node = min(first for first in stuck if node in edges[first])
    loop = [*path[path.index(node) :], node]
    return " -> ".join(reversed(loop))


def _reachability(specs: tuple[SystemSpec, ...], edges: dict[str, set[str]]) -> dict[str, set[str]]:
    """For each system of one phase (`specs` in the order they run), the systems that must run
    after it, transitively."""
    reach: dict[str, set[str]] = {}
    for spec in reversed(specs):  # topological order reversed: successors are done first
        seen: set[str] = set()
        for then in edges[spec.name]:
            seen.add(then)
            seen |= reach.get(then, set())
        reach[spec.name] = seen
    return reach
