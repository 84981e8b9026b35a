"""Trace files, format v3 (``docs/trace-format.md``): loading them (v1, v2 and v3), and writing
them (v2, or v3 for a match) as a session is recorded.

Version 2 adds a hand's joints (``"joints"``: 26 poses and radii from a hand tracker) and is
otherwise version 1: a v1 file loads exactly as it always did, and a v1 file that gives joints
is refused (the key is v2's). A one-player recording is written as version 2 always, because
its header goes out with the first frame, before it can know whether a later one brings joints
(a player who puts the controllers down), and a file's version must hold for every line.

Version 3 adds a line's ``"players"``: the frames of the players other than the first, so one
file carries a whole match (:attr:`Trace.players`). A match recording is written as version 3
always, for the same reason: a player may join after the header went out. A one-player
recording stays version 2, so a playspace that reads only v2 still reads it.

A trace is a promise to users that a recorded session replays to the same state, so loading is
strict: anything the format does not define is an error that names the file, the line and the
field, and `playspace run` can print it as it is. The one exception is what real tracking
produces mid-session: a NaN or infinite component in a device's pose or velocities means the
device was lost, so it is *not tracked* in that sample (with a warning) and never reaches
physics.

Files are read as bytes, one line at a time, so every problem (bad UTF-8 included) has a line
number and nothing is evaluated or unpickled. Every numeric field goes through
:meth:`_Cursor.numbers`, so all are described in messages the same way, and judged as scenes
and telemetry judge theirs (:mod:`playspace.formats.numbers`).
"""

from __future__ import annotations

import json
import logging
import math
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from enum import Enum
from pathlib import Path
from types import TracebackType
from typing import Any, Final, TypeVar

from playspace.components.input import (
    JOINT_COUNT,
    Button,
    DevicePose,
    Gamepad,
    HandInput,
    HandJoints,
    InputFrame,
    PadButton,
)
from playspace.formats.files import MB, input_problem
from playspace.formats.numbers import Number, as_floats
from playspace.formats.quoting import clipped, printable
from playspace.spatial import Pose, Quat, Vec3, normalize, quat_from_xyzw, quat_to_xyzw, vec3_from

logger = logging.getLogger(__name__)

VERSION: Final = 2  # the version a one-player recording is written in
MATCH_VERSION: Final = 3  # the version a match (several players) is written in
VERSIONS: Final = (1, 2, 3)  # the versions read
_HEADER: Final = {"format": "playspace-trace", "version": VERSION}
_HEADER_LINE: Final = json.dumps(_HEADER)
_HEADER_KEYS = (*_HEADER, "fixed_hz", "start", "code", "kept_from")
_RATES = (1.0, 10_000.0)  # fixed steps a second a recording may say it was made at
_SAMPLE_KEYS = ("t", "head", "left", "right", "pads", "players", "reloaded")
_V3_SAMPLE_KEYS = {"players"}  # the sample keys versions 1 and 2 do not have
_PLAYER_KEYS = ("head", "left", "right", "name", "start")
_START_KEYS = ("p", "yaw")
_LONGEST_FILE = 200  # characters of a game's file name in ``code`` and ``reloaded``
_SHA256 = frozenset("0123456789abcdef")
_LINE_ONLY = {  # the sample keys a player object may not give, and why
    "t": "'t': the line's time is every player's",
    "pads": "'pads': a line's gamepads are the line's own",
}
_LONGEST_NAME = 200  # characters: a player's name is a label, not a document
_LARGEST_PLAYER = 999_999  # a player number past this is not a match's
_POSE_KEYS = ("p", "q", "v", "w")
# Tracking space is a room: a pose 10 km out, or a hand at 1000 m/s, is not a recording but a
# broken one, and past 3.4e38 Rapier's 32-bit floats would make it infinity.
_REACH = {"p": 1e4, "v": 1e3, "w": 1e4}  # metres, m/s, rad/s
LONGEST_RUN = 86_400.0  # seconds: a day, the most a run (and so a trace) may last
_HAND_KEYS = (*_POSE_KEYS, "grip", "trigger", "stick", "buttons", "joints")
_JOINT_KEYS = ("p", "q", "r")
_LARGEST_RADIUS = 0.1  # metres: a finger is thinner than this
_V2_KEYS = {"joints"}  # the hand keys version 1 does not have
_PAD_KEYS = ("left_stick", "right_stick", "buttons")
_COUNTS = {2: "two", 3: "three", 4: "four"}
# A quaternion whose squared length is this close to 1 is kept as written: normalising a unit
# quaternion again can move its last bit, and a written trace must load back exactly.
_UNIT_SLACK = 1e-12
LARGEST_TRACE = 4096 * MB  # hours of recording
LONGEST_LINE = MB  # a sample is under a kilobyte: a line longer than this is not one

_E = TypeVar("_E", bound=Enum)
_Path = str | os.PathLike[str]


class TraceError(ValueError):
    """A trace that cannot be used, and where: ``FILE:LINE: field 'right.grip': expected ...``."""

    def __init__(self, path: str, line: int | None, field: str | None, problem: str) -> None:
        where = path if line is None else f"{path}:{line}"
        said = f"{where}: {problem}" if field is None else f"{where}: field '{field}': {problem}"
        super().__init__(printable(said))
        self.path = path
        self.line = line
        self.field = field
        self.problem = problem


class _NotFinite(TraceError):
    """A NaN or infinite number: an error, except in a pose, where it means tracking was lost."""


@dataclass(frozen=True, slots=True)
class StartPoint:
    """Where a player who joined a match began: the feet at `position` (world space, m),
    facing `yaw` (radians, positive turning left, 0 facing -Z), as a ``PlayerStart`` says."""

    position: Vec3
    yaw: float = 0.0


@dataclass(frozen=True, slots=True)
class PlayerTrace:
    """One stay of a player other than the first in a match recording (version 3): their
    number, name and start as the line they arrived on gives them, and their frames, one per
    line from that line to the last that has them (they left at the next line's step)."""

    player: int
    samples: tuple[InputFrame, ...]
    name: str = ""
    start: StartPoint | None = None  # None: the scene's start

    @property
    def arrived(self) -> float:
        """The time of the first line with them: the fixed step they were spawned in."""
        return self.samples[0].time

    @property
    def last(self) -> float:
        """The time of the last line with them: the last step they were in the world for."""
        return self.samples[-1].time


@dataclass(frozen=True, slots=True)
class PlayerFrame:
    """What a match line says of a player other than the first: their frame at the line's
    time and, on the line they arrive on (`name` not None), who they are and where they
    started. A :class:`TraceWriter` of :data:`MATCH_VERSION` writes these."""

    frame: InputFrame
    name: str | None = None  # given on the line the player arrives on, and only there
    start: StartPoint | None = None


@dataclass(frozen=True, slots=True)
class Trace:
    """The samples of a trace file, in time order, and what loading it warned about.

    `samples` are the first player's (player 0's: a line's own keys); a match recording
    (version 3) also holds the other players' stays, in the order they arrived (by number
    within one line).
    """

    samples: tuple[InputFrame, ...]
    path: str = "<memory>"
    warnings: tuple[str, ...] = field(default=())
    fixed_hz: float | None = None  # the fixed rate it was recorded at, when the header says
    players: tuple[PlayerTrace, ...] = ()
    start: StartPoint | None = None  # where the first player began, when not the scene's start
    code: Mapping[str, str] = field(default_factory=dict)  # the game's files' SHA-256 at start
    reloads: tuple[tuple[float, Mapping[str, str]], ...] = ()  # (time, files) reloaded before it
    # the sample (by index: a fixed step's number) a kept span began at: what came before is
    # played to bring the world where it was, telemetry written from there
    kept_from: int = 0

    @property
    def duration(self) -> float:
        """The last sample's time: a replay of the trace is over once its clock passes it."""
        return self.samples[-1].time


class _Cursor:
    """A place in one trace file (path and 1-based line) that problems are reported against;
    it also collects the warnings of a load."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.line = 0
        self.version = VERSION  # the file's, once its header is read
        self.warnings: list[str] = []

    def error(
        self, field: str | None, problem: str, kind: type[TraceError] = TraceError
    ) -> TraceError:
        return kind(self.path, self.line, field, problem)

    def warn(self, message: str) -> None:
        self.warnings.append(message)
        logger.warning("%s", message)

    def numbers(
        self,
        value: object,
        field: str,
        count: int | None,
        low: float = -math.inf,
        high: float = math.inf,
    ) -> tuple[float, ...]:
        """``value`` as floats: one number (``count`` None) or a list of ``count``, each finite
        and in ``[low, high]``. Raises :class:`_NotFinite` for NaN or infinity, which the caller
        may take as lost tracking, and :class:`TraceError` for anything else wrong."""
        parsed = as_floats(value, None if count is None else (count,))
        kind: type[TraceError] = TraceError
        if parsed is not None:
            if not all(map(math.isfinite, parsed)):
                kind = _NotFinite
            elif all(map(Number(low, high).accepts, parsed)):
                return parsed
        expected = _describe(count, low, high)
        raise self.error(field, f"expected {expected}, got {_show(value)}", kind)


def _describe(count: int | None, low: float, high: float) -> str:
    """``a number in [0, 1]``, ``three finite numbers``, ``a number >= 0``."""
    if not math.isinf(high):
        finite, bounds = "", f" in [{low:g}, {high:g}]"
    elif math.isinf(low):
        finite, bounds = "finite ", ""
    else:
        finite, bounds = "", f" >= {low:g}"
    noun = f"a {finite}number" if count is None else f"{_COUNTS[count]} {finite}numbers"
    return noun + bounds


def _show(value: object) -> str:
    """A value as the file writes it (``NaN``, ``[1, 2]``, ``"a"``), cut short if long."""
    return clipped(json.dumps(value))


def _join(name: str, key: str) -> str:
    return f"{name}.{key}" if name else key


def _object(cursor: _Cursor, value: object, name: str, keys: tuple[str, ...]) -> dict[str, Any]:
    """``value`` when it is an object with only ``keys`` (and ``x-`` extension keys)."""
    if not isinstance(value, dict):
        raise cursor.error(name or None, f"expected an object, got {_show(value)}")
    unknown = [key for key in value if key not in keys and not key.startswith("x-")]
    if unknown:
        others = f" (also unknown: {', '.join(map(repr, unknown[1:]))})" if unknown[1:] else ""
        raise cursor.error(
            _join(name, unknown[0]),
            f"unknown key{others}; expected {', '.join(keys)} or an extension key 'x-...'",
        )
    return value


def _time(cursor: _Cursor, value: object, previous: float | None) -> float:
    """A sample's ``t``: seconds since the recording began, later than the sample before."""
    (time,) = cursor.numbers(value, "t", None, 0.0, LONGEST_RUN)
    if previous is not None and time <= previous:
        raise cursor.error(
            "t", f"expected a time after the previous sample's ({previous!r}), got {time!r}"
        )
    return time


def _rotation(xyzw: tuple[float, ...]) -> Quat:
    q = quat_from_xyzw(xyzw)
    return q if abs(math.fsum(c * c for c in xyzw) - 1.0) <= _UNIT_SLACK else normalize(q)


def _device(cursor: _Cursor, record: dict[str, Any], name: str) -> DevicePose | None:
    """The pose in a head or hand object: None when it gives none, or when tracking was lost (a
    NaN or infinite component), which is reported as a warning."""
    given = [key for key in _POSE_KEYS if key in record]
    if not given:
        return None
    for key in ("p", "q"):
        if key not in record:
            raise cursor.error(
                _join(name, key),
                f"missing: a pose needs both 'p' and 'q'; only {', '.join(map(repr, given))} given",
            )
    values: dict[str, tuple[float, ...]] = {}
    lost: _NotFinite | None = None
    for key in given:  # all of them, so a wrong type is an error even beside a NaN
        try:
            reach = _REACH.get(key, math.inf)
            values[key] = cursor.numbers(
                record[key], _join(name, key), 4 if key == "q" else 3, -reach, reach
            )
        except _NotFinite as error:
            lost = lost or error
    if lost is not None:
        cursor.warn(f"{lost}; {name} not tracked in this sample")
        return None
    if not any(values["q"]):
        raise cursor.error(
            _join(name, "q"),
            f"expected a rotation (four numbers, not all zero), got {_show(record['q'])}",
        )
    return DevicePose(
        Pose(vec3_from(values["p"]), _rotation(values["q"])),
        vec3_from(values["v"]) if "v" in values else None,
        vec3_from(values["w"]) if "w" in values else None,
    )


def _joints(cursor: _Cursor, value: object, name: str) -> HandJoints | None:
    """A hand's ``joints``: None (with a warning) when any joint's tracking was lost."""
    if not isinstance(value, list) or len(value) != JOINT_COUNT:
        raise cursor.error(
            name, f"expected a list of {JOINT_COUNT} joint objects, got {_show(value)}"
        )
    poses: list[Pose] = []
    radii: list[float] = []
    lost: _NotFinite | None = None
    for index, item in enumerate(value):
        joint = f"{name}[{index}]"
        record = _object(cursor, item, joint, _JOINT_KEYS)
        for key in _JOINT_KEYS:
            if key not in record:
                raise cursor.error(_join(joint, key), "missing: a joint needs 'p', 'q' and 'r'")
        try:
            p = cursor.numbers(record["p"], _join(joint, "p"), 3, -_REACH["p"], _REACH["p"])
            q = cursor.numbers(record["q"], _join(joint, "q"), 4)
            (r,) = cursor.numbers(record["r"], _join(joint, "r"), None, 0.0, _LARGEST_RADIUS)
        except _NotFinite as error:
            lost = lost or error
            continue
        if not any(q):
            raise cursor.error(
                _join(joint, "q"),
                f"expected a rotation (four numbers, not all zero), got {_show(record['q'])}",
            )
        poses.append(Pose(vec3_from(p), _rotation(q)))
        radii.append(r)
    if lost is not None:
        cursor.warn(f"{lost}; {name} not tracked in this sample")
        return None
    return HandJoints(tuple(poses), tuple(radii))


def _stick(cursor: _Cursor, record: dict[str, Any], key: str, name: str) -> tuple[float, float]:
    x, y = cursor.numbers(record.get(key, [0.0, 0.0]), _join(name, key), 2, -1.0, 1.0)
    return (x, y)


def _buttons(cursor: _Cursor, record: dict[str, Any], name: str, kind: type[_E]) -> frozenset[_E]:
    value = record.get("buttons", [])
    field = _join(name, "buttons")
    if not isinstance(value, list):
        raise cursor.error(field, f"expected a list of {_names(kind)}, got {_show(value)}")
    buttons: set[_E] = set()
    for item in value:
        try:
            buttons.add(kind(item))
        except ValueError:
            raise cursor.error(
                field, f"unknown button {_show(item)}; expected {_names(kind)}"
            ) from None
    return frozenset(buttons)


def _names(kind: type[Enum]) -> str:
    return f"button names ({', '.join(button.value for button in kind)})"


def _hand(cursor: _Cursor, value: object, name: str) -> HandInput:
    keys = _HAND_KEYS if cursor.version >= 2 else tuple(k for k in _HAND_KEYS if k not in _V2_KEYS)
    if cursor.version < 2 and isinstance(value, dict) and _V2_KEYS & value.keys():
        key = min(_V2_KEYS & value.keys())
        raise cursor.error(_join(name, key), 'a version 2 key; the header says "version": 1')
    record = _object(cursor, value, name, keys)
    (grip,) = cursor.numbers(record.get("grip", 0.0), _join(name, "grip"), None, 0.0, 1.0)
    (trigger,) = cursor.numbers(record.get("trigger", 0.0), _join(name, "trigger"), None, 0.0, 1.0)
    joints = None
    if "joints" in record:
        joints = _joints(cursor, record["joints"], _join(name, "joints"))
    return HandInput(
        _device(cursor, record, name),
        grip,
        trigger,
        _stick(cursor, record, "stick", name),
        _buttons(cursor, record, name, Button),
        joints,
    )


def _pads(cursor: _Cursor, value: object) -> tuple[Gamepad, ...]:
    if not isinstance(value, list):
        raise cursor.error("pads", f"expected a list of gamepads, got {_show(value)}")
    pads = []
    for index, item in enumerate(value):
        name = f"pads[{index}]"
        record = _object(cursor, item, name, _PAD_KEYS)
        pads.append(
            Gamepad(
                _stick(cursor, record, "left_stick", name),
                _stick(cursor, record, "right_stick", name),
                _buttons(cursor, record, name, PadButton),
            )
        )
    return tuple(pads)


def _frame(cursor: _Cursor, record: dict[str, Any], time: float, name: str) -> InputFrame:
    """The devices of a sample (or of a player on it, `name` ``players.N``), at `time`."""
    head = None
    head_name = _join(name, "head")
    if "head" in record:
        head = _device(cursor, _object(cursor, record["head"], head_name, _POSE_KEYS), head_name)
    left, right = _join(name, "left"), _join(name, "right")
    return InputFrame(
        time,
        head,
        _hand(cursor, record.get("left", {}), left),
        _hand(cursor, record.get("right", {}), right),
    )


def _sample(
    cursor: _Cursor, value: object, previous: float | None
) -> tuple[InputFrame, dict[int, PlayerFrame], dict[str, str] | None]:
    """A sample line: the first player's frame, the other players' (version 3) and the game's
    files reloaded before its step."""
    keys: tuple[str, ...] = _SAMPLE_KEYS
    if cursor.version < MATCH_VERSION:
        if isinstance(value, dict) and _V3_SAMPLE_KEYS & value.keys():
            key = min(_V3_SAMPLE_KEYS & value.keys())
            said = f'"version": {cursor.version}'
            raise cursor.error(key, f"a version {MATCH_VERSION} key; the header says {said}")
        keys = tuple(k for k in _SAMPLE_KEYS if k not in _V3_SAMPLE_KEYS)
    record = _object(cursor, value, "", keys)
    if "t" not in record:
        raise cursor.error("t", "missing: every sample needs its time in seconds")
    time = _time(cursor, record["t"], previous)
    frame = replace(_frame(cursor, record, time, ""), pads=_pads(cursor, record.get("pads", [])))
    others = _players(cursor, record["players"], time) if "players" in record else {}
    reloaded = _code(cursor, record["reloaded"], "reloaded") if "reloaded" in record else None
    return frame, others, reloaded


def _player_number(cursor: _Cursor, key: str) -> int:
    """A ``players`` key: ``"1"``, ``"2"``...; player 0's frame is the line's own keys."""
    if key.isascii() and key.isdigit() and key[0] != "0" and int(key) <= _LARGEST_PLAYER:
        return int(key)
    raise cursor.error(
        _join("players", key),
        f"expected a player number (1 to {_LARGEST_PLAYER}, no leading zeros; player 0's "
        f"frame is the line's own keys), got the key {_show(key)}",
    )


def _players(cursor: _Cursor, value: object, time: float) -> dict[int, PlayerFrame]:
    """A line's ``players``: each other player's frame, and who arrives on this line."""
    if not isinstance(value, dict):
        raise cursor.error("players", f"expected an object of player numbers, got {_show(value)}")
    players: dict[int, PlayerFrame] = {}
    for key, item in value.items():
        if key.startswith("x-"):
            continue
        number = _player_number(cursor, key)
        name = _join("players", key)
        for line_key, why in _LINE_ONLY.items():
            if isinstance(item, dict) and line_key in item:
                raise cursor.error(_join(name, line_key), f"a player's frame has no {why}")
        record = _object(cursor, item, name, _PLAYER_KEYS)
        given = record.get("name")
        if given is not None and (type(given) is not str or len(given) > _LONGEST_NAME):
            raise cursor.error(
                _join(name, "name"),
                f"expected a text of at most {_LONGEST_NAME} characters, got {_show(given)}",
            )
        start = _start(cursor, record["start"], name) if "start" in record else None
        if start is not None and given is None:
            raise cursor.error(
                _join(name, "start"),
                "given without 'name': a start is said on the line a player arrives on, "
                "which gives their name",
            )
        players[number] = PlayerFrame(_frame(cursor, record, time, name), given, start)
    return players


def _start(cursor: _Cursor, value: object, name: str) -> StartPoint:
    field = _join(name, "start")
    record = _object(cursor, value, field, _START_KEYS)
    for key in _START_KEYS:
        if key not in record:
            raise cursor.error(_join(field, key), "missing: a start needs 'p' and 'yaw'")
    reach = _REACH["p"]
    p = cursor.numbers(record["p"], _join(field, "p"), 3, -reach, reach)
    (yaw,) = cursor.numbers(record["yaw"], _join(field, "yaw"), None, -reach, reach)
    return StartPoint(vec3_from(p), yaw)


@dataclass(slots=True)
class _Stays:
    """The other players' stays as the lines of a match come: a player is in the match on
    every line that has them; one missing from a line has left, and one whose line gives a
    name has just arrived (a number the host gave again after its player left)."""

    done: list[PlayerTrace] = field(default_factory=list)
    open: dict[int, tuple[PlayerFrame, list[InputFrame]]] = field(default_factory=dict)

    def add(self, players: dict[int, PlayerFrame]) -> None:
        for number in [n for n in self.open if n not in players]:
            self._close(number)
        for number in sorted(players):
            given = players[number]
            if number in self.open and given.name is not None:
                self._close(number)
            if number not in self.open:
                self.open[number] = (given, [])
            self.open[number][1].append(given.frame)

    def _close(self, number: int) -> None:
        first, frames = self.open.pop(number)
        self.done.append(PlayerTrace(number, tuple(frames), first.name or "", first.start))

    def all(self) -> tuple[PlayerTrace, ...]:
        for number in sorted(self.open):
            self._close(number)
        return tuple(sorted(self.done, key=lambda stay: (stay.arrived, stay.player)))


_Header = tuple[float | None, StartPoint | None, dict[str, str], int]


def _header(cursor: _Cursor, value: object) -> _Header:
    """Check the header and take the file's version; the fixed rate the trace was recorded at,
    where its first player began, its game's code and the step a kept span began at, when it
    says."""
    if not isinstance(value, dict) or "format" not in value:
        raise cursor.error(None, f"expected the header {_HEADER_LINE}, got {_show(value)}")
    record = _object(cursor, value, "", _HEADER_KEYS)
    wanted = _HEADER["format"]
    if type(record["format"]) is not str or record["format"] != wanted:
        raise cursor.error("format", f"expected {_show(wanted)}, got {_show(record['format'])}")
    version = record.get("version")
    if type(version) is not int or version not in VERSIONS:
        shown = _show(version) if "version" in record else "nothing"
        readable = f"{', '.join(map(str, VERSIONS[:-1]))} or {VERSIONS[-1]}"
        raise cursor.error(
            "version", f"expected {readable} (the versions this playspace reads), got {shown}"
        )
    cursor.version = version
    start = _start(cursor, record["start"], "") if "start" in record else None
    code = _code(cursor, record["code"], "code") if "code" in record else {}
    kept = record.get("kept_from", 0)
    if type(kept) is not int or kept < 0:
        raise cursor.error("kept_from", f"expected a step number, 0 or more, got {_show(kept)}")
    if "fixed_hz" not in record:
        return None, start, code, kept
    (hz,) = cursor.numbers(record["fixed_hz"], "fixed_hz", None, *_RATES)
    return hz, start, code, kept


def _code(cursor: _Cursor, value: object, name: str) -> dict[str, str]:
    """A game's files by name (within its folder) and the SHA-256 of each, as hex."""
    if not isinstance(value, dict) or not value:
        raise cursor.error(name, f'expected {{"FILE.py": "SHA-256 in hex"}}, got {_show(value)}')
    for file, digest in value.items():
        where = _join(name, file[:_LONGEST_FILE])
        if not (0 < len(file) <= _LONGEST_FILE) or file.startswith("/") or ".." in file:
            raise cursor.error(where, "expected a file's name within the game's folder")
        if not (isinstance(digest, str) and len(digest) == 64 and _SHA256.issuperset(digest)):
            raise cursor.error(where, f"expected a SHA-256 as 64 hex digits, got {_show(digest)}")
    return dict(value)


def _unique(cursor: _Cursor, pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """An object whose keys are all different: of two values for one key, JSON readers keep
    either, so a file that says both means nothing certain."""
    record = dict(pairs)
    if len(record) < len(pairs):
        keys = [key for key, _ in pairs]
        twice = next(key for index, key in enumerate(keys) if key in keys[:index])
        raise cursor.error(None, f"the key {_show(twice)} is given twice in one object")
    return record


def _json(cursor: _Cursor, raw: bytes) -> object:
    try:
        return json.loads(raw.decode("utf-8"), object_pairs_hook=lambda p: _unique(cursor, p))
    except TraceError:
        raise
    except UnicodeDecodeError as error:
        raise cursor.error(None, f"not UTF-8 text (byte {error.start + 1})") from None
    except json.JSONDecodeError as error:
        raise cursor.error(None, f"not valid JSON: {error.msg} at column {error.colno}") from None
    except ValueError as error:  # an integer too long to convert
        raise cursor.error(None, f"not valid JSON: {error}") from None
    except RecursionError:
        raise cursor.error(None, "nested too deeply to be a sample") from None


@dataclass(slots=True)
class _Read:
    samples: list[InputFrame] = field(default_factory=list)
    header: _Header = (None, None, {}, 0)
    reloads: list[tuple[float, dict[str, str]]] = field(default_factory=list)


def _read(cursor: _Cursor, lines: Iterable[bytes]) -> tuple[_Read, tuple[PlayerTrace, ...]]:
    read = _Read()
    samples = read.samples
    stays = _Stays()
    blank: int | None = None  # the first blank line: allowed only if nothing follows it
    for number, raw in enumerate(lines, 1):
        cursor.line = number
        if not raw.strip():
            blank = blank or cursor.line
            continue
        if blank is not None:
            raise TraceError(cursor.path, blank, None, "blank line inside the trace")
        if len(raw) >= LONGEST_LINE and not raw.endswith(b"\n"):
            raise cursor.error(None, f"a line longer than {LONGEST_LINE // MB} MB is no sample")
        try:
            value = _json(cursor, raw)
        except TraceError:
            if cursor.line > 2 and not raw.endswith(b"\n"):  # the recording stopped mid-line
                cursor.warn(
                    f"{cursor.path}:{cursor.line}: cut short; read up to line {cursor.line - 1}"
                )
                break
            raise
        if cursor.line == 1:
            read.header = _header(cursor, value)
        else:
            frame, others, reloaded = _sample(cursor, value, samples[-1].time if samples else None)
            samples.append(frame)
            stays.add(others)
            if reloaded is not None:
                read.reloads.append((frame.time, reloaded))
    if blank == 1 or cursor.line == 0:
        raise TraceError(cursor.path, 1, None, f"empty file; expected the header {_HEADER_LINE}")
    if not samples:
        raise TraceError(cursor.path, 2, None, "no samples after the header")
    return read, stays.all()


def load_trace(path: _Path) -> Trace:
    """The trace in the file at ``path``. Raises :class:`TraceError` naming the file, line and
    field of the first problem; lost tracking is in :attr:`Trace.warnings` (and logged)."""
    cursor = _Cursor(os.fspath(path))
    problem = input_problem(path, LARGEST_TRACE)
    if problem is not None:
        raise TraceError(cursor.path, None, None, problem)
    try:
        with open(path, "rb") as file:
            read, players = _read(cursor, iter(lambda: file.readline(LONGEST_LINE), b""))
    except OSError as error:
        raise TraceError(cursor.path, None, None, f"cannot read: {error.strerror}") from None
    fixed_hz, start, code, kept_from = read.header
    if kept_from >= len(read.samples):
        raise TraceError(
            cursor.path, 1, "kept_from",
            f"step {kept_from} is past the last sample (there are {len(read.samples)})",
        )  # fmt: skip
    return Trace(
        tuple(read.samples), cursor.path, tuple(cursor.warnings), fixed_hz, players, start,
        code, tuple(read.reloads), kept_from,
    )  # fmt: skip


def _xyz(v: Vec3) -> list[float]:
    return [v.x, v.y, v.z]


def _pose_record(device: DevicePose | None) -> dict[str, object]:
    if device is None:
        return {}
    record: dict[str, object] = {
        "p": _xyz(device.pose.position),
        "q": list(quat_to_xyzw(device.pose.rotation)),
    }
    if device.linear_velocity is not None:
        record["v"] = _xyz(device.linear_velocity)
    if device.angular_velocity is not None:
        record["w"] = _xyz(device.angular_velocity)
    return record


def _joints_record(joints: HandJoints) -> list[dict[str, object]]:
    return [
        {"p": _xyz(pose.position), "q": list(quat_to_xyzw(pose.rotation)), "r": radius}
        for pose, radius in zip(joints.poses, joints.radii, strict=True)
    ]


def _record(frame: InputFrame) -> dict[str, object]:
    """A frame as one sample object; hands always carry their controls, so nothing is implied."""
    return {"t": frame.time} | _devices(frame) | _pads_record(frame)


def _player_record(given: PlayerFrame) -> dict[str, object]:
    """Another player's frame on a match line: their devices, and on the line they arrive on
    their name and start. Their gamepads are not written: a line's ``pads`` are its own."""
    record = _devices(given.frame)
    if given.name is not None:
        record["name"] = given.name
    if given.start is not None:
        record["start"] = _start_record(given.start)
    return record


def _start_record(start: StartPoint) -> dict[str, object]:
    return {"p": _xyz(start.position), "yaw": start.yaw}


def _devices(frame: InputFrame) -> dict[str, object]:
    record: dict[str, object] = {}
    if frame.head is not None:
        record["head"] = _pose_record(frame.head)
    for name, hand in (("left", frame.left), ("right", frame.right)):
        controls: dict[str, object] = {
            "grip": hand.grip,
            "trigger": hand.trigger,
            "stick": list(hand.stick),
            "buttons": sorted(button.value for button in hand.buttons),
        }
        if hand.joints is not None:
            controls["joints"] = _joints_record(hand.joints)
        record[name] = _pose_record(hand.pose) | controls
    return record


def _pads_record(frame: InputFrame) -> dict[str, object]:
    record: dict[str, object] = {}
    if frame.pads:
        record["pads"] = [
            {
                "left_stick": list(pad.left_stick),
                "right_stick": list(pad.right_stick),
                "buttons": sorted(button.value for button in pad.buttons),
            }
            for pad in frame.pads
        ]
    return record


def _rate(hz: float) -> float | int:
    """A rate as the header writes it: 90, not 90.0."""
    return int(hz) if float(hz).is_integer() else hz


class TraceWriter:
    """Writes a new trace file frame by frame, as a session is recorded.

    `fixed_hz` is the fixed rate the session steps at, written in the header so a replay runs
    at it; it may be set until the first frame is written (a headset run learns its rate from
    the display's first frame), which writes the header. Each line is flushed as it is
    written, so a crash loses at most the frame in hand. Floats
    are written with ``repr`` (JSON's own float form), so the file loads back to equal frames
    (given unit quaternions, as sources give: any other loads back normalised).
    Frames are taken to be valid, as an input source promises; the writer checks their times,
    which only the sequence can get wrong, raising :class:`TraceError` for one that is not
    later than the last, and refuses NaN with :class:`ValueError`.

    `version` is :data:`VERSION` for one player's recording, or :data:`MATCH_VERSION` for a
    match, whose lines also carry the other players' frames (see
    :class:`~playspace.systems.input.MatchRecorder`, which writes those). `start`, when
    given, is where the first player began (a span kept from the middle of a session), which
    a replay puts them at in place of the scene's start. `kept_from`, when not 0, is the
    sample a kept span began at (the session's samples before it are in the file too: a
    replay plays them, and writes telemetry from that step).
    """

    def __init__(
        self,
        path: _Path,
        fixed_hz: float | None = None,
        *,
        version: int = VERSION,
        start: StartPoint | None = None,
        code: Mapping[str, str] | None = None,
        kept_from: int = 0,
    ) -> None:
        if version not in (VERSION, MATCH_VERSION):
            raise ValueError(
                f"a trace is written as version {VERSION} or {MATCH_VERSION}, not {version}"
            )
        self._cursor = _Cursor(os.fspath(path))
        self.fixed_hz = fixed_hz
        self.version = version
        self.start = start
        self.code = dict(code or {})
        self.kept_from = kept_from
        self._reloaded: dict[str, str] = {}
        self._previous: float | None = None
        self._samples = 0
        self._file = open(path, "w", encoding="utf-8", buffering=1)  # noqa: SIM115 (closed in close)
        self._headed = False

    def _head(self) -> None:
        if not self._headed:
            self._headed = True
            rate = {} if self.fixed_hz is None else {"fixed_hz": _rate(self.fixed_hz)}
            began = {} if self.start is None else {"start": _start_record(self.start)}
            code = {"code": self.code} if self.code else {}
            kept = {"kept_from": self.kept_from} if self.kept_from else {}
            header = _HEADER | {"version": self.version} | rate | began | code | kept
            self._file.write(json.dumps(header) + "\n")

    @property
    def path(self) -> str:
        return self._cursor.path

    @property
    def closed(self) -> bool:
        return self._file.closed

    def reloaded(self, file: str, digest: str) -> None:
        """Say on the next line that the game's `file` (its name within the game's folder)
        was reloaded before that step, its source's SHA-256 `digest` (hex)."""
        self._reloaded[file] = digest

    def write(self, frame: InputFrame, players: Mapping[int, PlayerFrame] | None = None) -> None:
        """Append one frame as the next sample; in a match, with the other `players`' frames
        by number (1 and up), which the line's time stamps."""
        self._cursor.line = self._samples + 2  # the line this frame will be written on
        time = _time(self._cursor, float(frame.time), self._previous)
        record = _record(frame)
        if players:
            if self.version < MATCH_VERSION:
                raise ValueError(
                    f"{self.path}: other players' frames need a match recording "
                    f"(version={MATCH_VERSION})"
                )
            for number in players:
                if type(number) is not int or not 1 <= number <= _LARGEST_PLAYER:
                    raise ValueError(f"{self.path}: no player number {number!r} (1 and up)")
            record["players"] = {str(n): _player_record(players[n]) for n in sorted(players)}
        if self._reloaded:
            record["reloaded"], self._reloaded = self._reloaded, {}
        text = json.dumps(record, allow_nan=False)
        try:
            self._head()
            self._file.write(text + "\n")
        except OSError as error:  # a full disk: say which file
            raise OSError(error.errno, error.strerror, self.path) from None
        self._samples += 1
        self._previous = time

    def close(self) -> None:
        if not self._file.closed:
            self._head()
            self._file.close()

    def __enter__(self) -> TraceWriter:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()


def code_folder(trace: _Path) -> Path:
    """Where the code of a recording's spans is kept: beside it, ``TRACE.code``."""
    path = Path(trace)
    return path.with_name(path.name + ".code")


def write_trace(path: _Path, frames: Iterable[InputFrame], fixed_hz: float | None = None) -> None:
    """Write ``frames`` as a trace file at ``path`` (replacing it), recorded at `fixed_hz`."""
    with TraceWriter(path, fixed_hz) as writer:
        for frame in frames:
            writer.write(frame)
