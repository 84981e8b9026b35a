"""Telemetry files, format v2 (``docs/telemetry-format.md``): how a line is written, and how a
file is read back and checked (version 1 files too: their events are renamed as version 2 names
them).

Numbers are written rounded to 6 decimals (micrometres), so the same replay writes the same
bytes; a number that is not finite is written as null, which JSON can hold.

Telemetry is written so comfort and feel can be judged from outside the process: by
``playspace plot``, by tests that replay a scene and look at what the player would have
seen. All of them read it here, so a file one of them accepts the others accept too, and a
bad one is refused with the same message naming the file and line.

A last line cut short (the run was killed, or the disk filled, mid-line) is the end of the
file, as the format asks of a reader: it is left out with a warning naming it, and what came
before is all there. Every step is checked for the fields readers rely on (``t``, the head's,
body's and origin's positions, objects with a name and a position, events with a type, a
release's velocity), and ``objects`` and ``events`` are filled in as empty lists when absent.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import math
import os
from pathlib import Path
from typing import Any, NamedTuple

from playspace.components import Transform
from playspace.formats.numbers import as_floats
from playspace.spatial import Pose, Quat, Vec3

logger = logging.getLogger(__name__)

FORMAT = "playspace-telemetry"
VERSION = 2
# Version 2 names every event by its class, in snake case (Grabbed is "grabbed"); version 1
# named six of them otherwise. A version 1 file is read with their version 2 names.
RENAMED_IN_2 = {
    "grab": "grabbed",
    "release": "released",
    "floor_snap": "floor_snapped",
    "turn": "turned",
    "teleport": "teleported",
    "recenter": "recentered",
}


DIGITS = 6


def number(x: float) -> float | None:
    """`x` rounded; None (JSON's null) when it is not finite, which JSON cannot write."""
    if not math.isfinite(x):
        return None
    rounded = round(x, DIGITS)
    return 0.0 if rounded == 0 else rounded  # no "-0.0" to tell apart


def vector(v: Vec3 | Quat) -> list[float | None]:
    if isinstance(v, Quat):
        return [number(v.x), number(v.y), number(v.z), number(v.w)]
    return [number(c) for c in v]


def pose(placed: Transform | Pose) -> dict[str, list[float | None]]:
    return {"p": vector(placed.position), "q": vector(placed.rotation)}


def event_record(event: object) -> dict[str, Any]:
    """An event as telemetry writes it: its ``kind`` as the type, then its fields; a
    ``player`` of 0 (the first player, the only one of most worlds) is left out."""
    record: dict[str, Any] = {"type": type(event).kind}  # type: ignore[attr-defined]
    for f in dataclasses.fields(event):  # type: ignore[arg-type]
        value = getattr(event, f.name)
        if f.name == "player" and value == 0:
            continue
        if isinstance(value, Vec3 | Quat):
            value = vector(value)
        elif isinstance(value, Pose):
            value = pose(value)
        elif isinstance(value, float):
            value = number(value)
        record[f.name] = value
    return record


class TelemetryError(ValueError):
    """Telemetry that cannot be read, and where: ``FILE:LINE: head.p: expected ...``."""


class Telemetry(NamedTuple):
    """A telemetry file read: its header line, and one object per fixed step."""

    header: dict[str, Any]
    steps: list[dict[str, Any]]


def read_telemetry(path: str | os.PathLike[str]) -> Telemetry:
    """The telemetry file at `path` (version 1 or 2). Raises :class:`TelemetryError` naming
    the file and line of the first problem."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as error:
        raise TelemetryError(f"{path}: cannot read: {error.strerror}") from None
    except UnicodeDecodeError:
        raise TelemetryError(f"{path}: not a text file (telemetry is UTF-8 JSON lines)") from None
    return parse_telemetry(text, os.fspath(path))


def parse_telemetry(text: str, name: str = "<telemetry>") -> Telemetry:
    """The telemetry in `text`, the whole of a file (or of a stream a run wrote into); `name`
    says where it came from in messages."""
    lines = text.splitlines()
    records = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            records.append(json.loads(line))
        except json.JSONDecodeError as error:
            if number == len(lines) > 1 and not text.endswith("\n"):  # the run ended mid-line
                logger.warning("%s:%d: cut short; read up to line %d", name, number, number - 1)
                break
            raise TelemetryError(
                f"{name}:{number}: not JSON: {error.msg} at column {error.colno}"
            ) from None
        except (RecursionError, ValueError):
            raise TelemetryError(f"{name}:{number}: not a telemetry record") from None
    header = records[0] if records else None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise TelemetryError(f"{name}:1: not a playspace telemetry file (no telemetry header)")
    version = header.get("version")
    if version not in (1, VERSION):
        raise TelemetryError(f"{name}:1: telemetry version {version!r}; expected 1 or {VERSION}")
    for number, record in enumerate(records[1:], start=2):
        _check_step(f"{name}:{number}", record, RENAMED_IN_2 if version == 1 else {})
    return Telemetry(header, records[1:])


def _check_step(where: str, step: object, renamed: dict[str, str]) -> None:
    """Refuse a step without what readers rely on, naming the field; fill in the lists and
    give `renamed` events their names of today."""

    def need(ok: bool, field: str, expected: str) -> None:
        if not ok:
            raise TelemetryError(f"{where}: {field}: expected {expected}")

    need(isinstance(step, dict), "step", "an object")
    assert isinstance(step, dict)
    need(_is_number(step.get("t")), "t", "a number")
    for part in ("head", "body", "origin"):
        pose = step.get(part)
        need(isinstance(pose, dict) and _is_xyz(pose.get("p")), f"{part}.p", "three numbers")
    objects, events = step.get("objects", []), step.get("events", [])
    need(isinstance(objects, list), "objects", "a list")
    for i, o in enumerate(objects):
        ok = isinstance(o, dict) and isinstance(o.get("name"), str) and _is_xyz(o.get("p"))
        need(ok, f"objects[{i}]", "an object with a name and p")
    need(isinstance(events, list), "events", "a list")
    for i, e in enumerate(events):
        need(isinstance(e, dict) and isinstance(e.get("type"), str), f"events[{i}]", "a type")
        e["type"] = renamed.get(e["type"], e["type"])
        if e["type"] == "released":
            need(_is_xyz(e.get("linear")), f"events[{i}].linear", "three numbers")
    step.setdefault("objects", objects)
    step.setdefault("events", events)


def _is_number(value: object) -> bool:
    return as_floats(value, None) is not None


def _is_xyz(value: object) -> bool:
    return as_floats(value, (3,)) is not None
