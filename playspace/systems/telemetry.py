"""Telemetry v1: one JSON line per fixed step of what the rig and the interactions did.

Comfort and feel are checked from outside the process, from this file: the head's height
against the body's floor, the floor snaps, the fade, where each object went. The format is a
promise to users (docs/telemetry-format.md), written and read by
:mod:`playspace.formats.telemetry`; this system gathers each step's line from the world.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any, Protocol

from playspace.components import Transform
from playspace.components.physics import CharacterMotion
from playspace.components.rig import Rig, ViewFade
from playspace.components.scene import Grabbable, Opponent, Prop
from playspace.ecs import Phase, World, system
from playspace.formats.telemetry import FORMAT, VERSION, event_record, number, pose, vector
from playspace.systems.sets import FixedSet, add_fixed_sets


class Lines(Protocol):
    """Where telemetry goes: anything with a text file's ``write`` (a file, a pipe, a buffer)."""

    def write(self, text: str, /) -> int: ...


class Telemetry:
    """Where telemetry goes and which event types it records; a resource."""

    def __init__(self, out: Lines, fixed_hz: float, events: Iterable[type] = ()) -> None:
        self.out = out
        self.events: list[type] = []
        self.record(*events)
        hz: float | int = int(fixed_hz) if float(fixed_hz).is_integer() else fixed_hz
        header = {"format": FORMAT, "version": VERSION, "fixed_hz": hz}
        out.write(json.dumps(header) + "\n")

    def record(self, *kinds: type) -> None:
        """Write events of these types too (each needs a ``kind`` class attribute)."""
        for kind in kinds:
            if not isinstance(getattr(kind, "kind", None), str):
                raise TypeError(f"{kind.__qualname__} needs a 'kind' name to appear in telemetry")
            if kind not in self.events:
                self.events.append(kind)


@system(
    Phase.FIXED,
    in_set=FixedSet.TELEMETRY,
    reads=(Rig, Transform, CharacterMotion, Grabbable, Opponent, Prop, ViewFade),
    writes=(Telemetry,),
)
def telemetry_system(world: World) -> None:
    """Write this step's line."""
    telemetry = world.resource(Telemetry)
    rig = world.resource(Rig)
    body = world.get(rig.body, Transform)
    events: list[dict[str, Any]] = []
    for kind in telemetry.events:
        sent: list[object] = world.read_events(kind, reader=telemetry_system)
        events.extend(event_record(e) for e in sent)
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
    """Write telemetry (format v2) to `out` every fixed step, with the events of `events`."""

    def __init__(self, out: Lines, events: Iterable[type] = ()) -> None:
        self.out = out
        self.events = tuple(events)

    def build(self, world: World) -> None:
        add_fixed_sets(world)
        world.insert_resource(Telemetry(self.out, world.fixed_time.hz, self.events))
        world.add_system(telemetry_system, reads=self.events)


def record_events(world: World, *kinds: type) -> None:
    """Have the world's telemetry (if it writes any) record events of `kinds` too: a game's
    own events (each type needs a ``kind`` class attribute) appear in each step's line."""
    telemetry = world.try_resource(Telemetry)
    if telemetry is not None:
        telemetry.record(*kinds)
        world.declare(telemetry_system, reads=kinds)
