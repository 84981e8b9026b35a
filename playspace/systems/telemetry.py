"""Telemetry v1: one JSON line per fixed step of what the rig and the interactions did; and
the tally of those events that a run's summary says.

Comfort and feel are checked from outside the process, from this file: the head's height
against the body's floor, the floor snaps, the fade, where each object went. The format is a
promise to users (docs/telemetry-format.md), written and read by
:mod:`playspace.formats.telemetry`; this system gathers each step's line from the world.
:class:`Tally` counts the same events under the same names as they are sent, so a run that
writes no file (the preview window) says what happened in the words a file would.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol

from playspace.components import Transform
from playspace.components.physics import CharacterMotion
from playspace.components.rig import LocalPlayer, Rig, ViewFade
from playspace.components.scene import Grabbable, Opponent, Prop
from playspace.ecs import MissingComponent, Phase, World, system
from playspace.formats.telemetry import FORMAT, VERSION, event_record, number, pose, vector
from playspace.spatial import length
from playspace.systems.interaction.events import Released
from playspace.systems.player.players import local_rig
from playspace.systems.sets import FixedSet, add_fixed_sets

THROW_SPEED = 0.5  # m/s: a release faster than this is a throw; slower, the object was set down


class Lines(Protocol):
    """Where telemetry goes: anything with a text file's ``write`` (a file, a pipe, a buffer)."""

    def write(self, text: str, /) -> int: ...


def _add_kinds(events: list[type], kinds: Iterable[type]) -> None:
    """Add to `events` those of `kinds` not in it yet, each checked for the ``kind`` name
    telemetry writes it under."""
    for kind in kinds:
        if not isinstance(getattr(kind, "kind", None), str):
            raise TypeError(f"{kind.__qualname__} needs a 'kind' name to appear in telemetry")
        if kind not in events:
            events.append(kind)


class Telemetry:
    """Where telemetry goes and which event types it records; a resource. Lines are written
    from step `from_step` on (a kept span's replay plays the session before it unwritten)."""

    def __init__(
        self, out: Lines, fixed_hz: float, events: Iterable[type] = (), from_step: int = 0
    ) -> None:
        self.out = out
        self.from_step = from_step
        self.events: list[type] = []
        self.record(*events)
        hz: float | int = int(fixed_hz) if float(fixed_hz).is_integer() else fixed_hz
        header = {"format": FORMAT, "version": VERSION, "fixed_hz": hz}
        out.write(json.dumps(header) + "\n")

    def record(self, *kinds: type) -> None:
        """Write events of these types too (each needs a ``kind`` class attribute)."""
        _add_kinds(self.events, kinds)


@system(
    Phase.FIXED,
    in_set=FixedSet.TELEMETRY,
    reads=(Rig, LocalPlayer, Transform, CharacterMotion, Grabbable, Opponent, Prop, ViewFade),
    writes=(Telemetry,),
)
def telemetry_system(world: World) -> None:
    """Write this step's line: the rig of the player this process shows, and the world."""
    telemetry = world.resource(Telemetry)
    rig = local_rig(world)
    if rig is None:
        raise MissingComponent("telemetry follows the player this process shows: none here")
    body = world.get(rig.body, Transform)
    events: list[dict[str, Any]] = []
    for kind in telemetry.events:
        sent: list[object] = world.read_events(kind, reader=telemetry_system)
        events.extend(event_record(e) for e in sent)
    if world.fixed_time.step < telemetry.from_step:
        return
    line = {
        "step": world.fixed_time.step,
        "t": number(world.fixed_time.elapsed),
        "origin": pose(world.get(rig.origin, Transform)),
        "head": pose(world.get(rig.head, Transform)),
        "left_hand": pose(world.get(rig.left_hand, Transform)),
        "right_hand": pose(world.get(rig.right_hand, Transform)),
        "body": {
            "p": vector(body.position),
            "grounded": world.get(rig.body, CharacterMotion).grounded,
        },
        "fade": number(world.get(rig.head, ViewFade).amount),
        "objects": _objects(world),
        "events": events,
    }
    telemetry.out.write(json.dumps(line, separators=(",", ":")) + "\n")


def _objects(world: World) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    markers: tuple[type[Prop] | type[Opponent], ...] = (Prop, Opponent)
    for kind in markers:
        for entity, (marker, transform) in world.query(kind, Transform):
            grabbable = world.try_get(entity, Grabbable)
            found.append(
                {
                    "id": entity,
                    "name": marker.name,
                    **pose(transform),
                    "held_by": grabbable.held_by if grabbable is not None else None,
                    "ghost": grabbable.ghost if grabbable is not None else False,
                }
            )
    found.sort(key=lambda o: o["id"])
    return found


class TelemetryPlugin:
    """Write telemetry (format v2) to `out` every fixed step from `from_step`, with the events
    of `events`."""

    def __init__(self, out: Lines, events: Iterable[type] = (), from_step: int = 0) -> None:
        self.out = out
        self.events = tuple(events)
        self.from_step = from_step

    def build(self, world: World) -> None:
        add_fixed_sets(world)
        telemetry = Telemetry(self.out, world.fixed_time.hz, self.events, self.from_step)
        world.insert_resource(telemetry)
        world.add_system(telemetry_system, reads=self.events)


@dataclass(slots=True)
class Tally:
    """What happened in a run, a resource: each event type telemetry records, counted under
    the ``kind`` telemetry writes it as; the release speeds (a throw is one faster than
    :data:`THROW_SPEED`); and the steps in which a held object was a ghost (inside the
    environment). The one count behind every summary a command prints."""

    events: list[type] = field(default_factory=list)
    counts: Counter[str] = field(default_factory=Counter)
    release_speeds: list[float] = field(default_factory=list)
    ghost_steps: int = 0

    def record(self, *kinds: type) -> None:
        """Count events of these types too."""
        _add_kinds(self.events, kinds)

    @property
    def throws(self) -> int:
        return sum(speed > THROW_SPEED for speed in self.release_speeds)

    def line(self) -> str:
        """The events that happened, by kind in the order telemetry's events are listed (a
        release's throws beside it), and the ghosted steps; or that none did."""
        said = []
        for kind in self.events:
            name = kind.kind  # type: ignore[attr-defined]
            count = self.counts[name]
            if count:
                throws = f" (throws {self.throws})" if kind is Released else ""
                said.append(f"{name} {count}{throws}")
        events = f"events: {', '.join(said) or 'none'}"
        if self.ghost_steps:
            events += f"; a held object ghosted in {self.ghost_steps} steps"
        return events


@system(Phase.FIXED, in_set=FixedSet.TELEMETRY, reads=(Grabbable,), writes=(Tally,))
def tally_system(world: World) -> None:
    """Count this step's events and whether a held object was a ghost."""
    tally = world.resource(Tally)
    for kind in tally.events:
        sent: list[object] = world.read_events(kind, reader=tally_system)
        if sent:
            tally.counts[kind.kind] += len(sent)  # type: ignore[attr-defined]
        if kind is Released:
            tally.release_speeds.extend(length(e.linear) for e in sent)  # type: ignore[attr-defined]
    tally.ghost_steps += any(g.ghost for _, g in world.each(Grabbable))


class TallyPlugin:
    """Count the events of `events` (and the ghosted steps) in a :class:`Tally`."""

    def __init__(self, events: Iterable[type] = ()) -> None:
        self.events = tuple(events)

    def build(self, world: World) -> None:
        add_fixed_sets(world)
        tally = world.insert_resource(Tally())
        tally.record(*self.events)
        world.add_system(tally_system, reads=self.events)


def record_events(world: World, *kinds: type) -> None:
    """Have the world's telemetry (if it writes any) record events of `kinds` too, and its
    tally (if it keeps one) count them: a game's own events (each type needs a ``kind``
    class attribute) appear in each step's line and in the run's summary."""
    telemetry = world.try_resource(Telemetry)
    if telemetry is not None:
        telemetry.record(*kinds)
        world.declare(telemetry_system, reads=kinds)
    tally = world.try_resource(Tally)
    if tally is not None:
        tally.record(*kinds)
        world.declare(tally_system, reads=kinds)
