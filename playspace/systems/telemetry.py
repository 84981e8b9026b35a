"""Telemetry v1: one JSON line per fixed step of what the rig and the interactions did.

Comfort and feel are checked from outside the process, from this file: the head's height
against the body's floor, the floor snaps, the fade, where each object went. The format is a
promise to users (docs/telemetry-format.md): the first line is
``{"format": "playspace-telemetry", "version": 1, "fixed_hz": 90}``, then one object per step.
Numbers are rounded to 6 decimals (micrometres) so the same replay writes the same bytes.
"""

from __future__ import annotations

import dataclasses
import json
import math
from collections.abc import Iterable
from typing import Any, Protocol

from playspace.components import Transform
from playspace.components.physics import CharacterMotion
from playspace.components.rig import Rig, ViewFade
from playspace.components.scene import Grabbable, Opponent, Prop
from playspace.ecs import Phase, World, system
from playspace.spatial import Pose, Quat, Vec3
from playspace.systems.sets import add_fixed_sets

FORMAT = "playspace-telemetry"
VERSION = 1
DIGITS = 6


def _number(x: float) -> float | None:
    """`x` rounded; None (JSON's null) when it is not finite, which JSON cannot write."""
    if not math.isfinite(x):
        return None
    rounded = round(x, DIGITS)
    return 0.0 if rounded == 0 else rounded  # no "-0.0" to tell apart


def vector(v: Vec3 | Quat) -> list[float | None]:
    if isinstance(v, Quat):
        return [_number(v.x), _number(v.y), _number(v.z), _number(v.w)]
    return [_number(c) for c in v]


def pose(transform: Transform) -> dict[str, list[float | None]]:
    return {"p": vector(transform.position), "q": vector(transform.rotation)}


def event_record(event: object) -> dict[str, Any]:
    """An event as telemetry writes it: its ``kind`` as the type, then its fields."""
    record: dict[str, Any] = {"type": type(event).kind}  # type: ignore[attr-defined]
    for f in dataclasses.fields(event):  # type: ignore[arg-type]
        value = getattr(event, f.name)
        if isinstance(value, Vec3 | Quat):
            value = vector(value)
        elif isinstance(value, Pose):
            value = {"p": vector(value.position), "q": vector(value.rotation)}
        elif isinstance(value, float):
            value = _number(value)
        record[f.name] = value
    return record


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
    in_set="telemetry",
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
        "t": _number(world.fixed_time.elapsed),
        "origin": pose(world.get(rig.origin, Transform)),
        "head": pose(world.get(rig.head, Transform)),
        "left_hand": pose(world.get(rig.left_hand, Transform)),
        "right_hand": pose(world.get(rig.right_hand, Transform)),
        "body": {
            "p": vector(body.position),
            "grounded": world.get(rig.body, CharacterMotion).grounded,
        },
        "fade": _number(world.get(rig.head, ViewFade).amount),
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
    """Write telemetry v1 to `out` every fixed step, with the events of `events`."""

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
