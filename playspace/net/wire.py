"""What travels between host and clients: input frames and state, as compact binary messages.

An input message is the trace format's sample (``docs/trace-format.md``) packed with
:mod:`struct`: little-endian, fixed-size parts, nothing evaluated or unpickled. Each message
carries the client's newest frames (up to :data:`REDUNDANCY`), so a lost message costs nothing
while the next arrives. Decoding is strict, because the bytes come from anyone on the network:
a wrong size, a NaN anywhere, a value past the trace format's ranges or an unknown button is a
:class:`WireError` naming what is wrong, and nothing of that message reaches the world.

A state message is the host's step as one client gets it: its number and time; for the
client's own seat (by its number in the host's world; a message may carry several) the newest
input step the host played for it (the client's stamp, echoed: the client measures its
input's round trip), how long it waited there, and where its body stood after it and which
way its origin faced (its feet, 12 bytes, and its turn, 4: the client corrects its own body and
turn by them, :mod:`playspace.net.correction`); the poses of the bodies chosen for this client
(:mod:`playspace.net.interest`), each flagged (:data:`RESUMED`, the top bit of its entity)
when it stood where the client last had it until the state before; and a small JSON tail (the
game's score line; on a full state, each body's name, each seated player's name by number, the
names of those waiting for a seat, in the order they will get one, the client id of each of
those names, and the ids of the clients it turned away, a name already taken) that is read
with ``json`` only: a key an older host does not send is None here, one a newer host adds is
ignored. Each player's parts are named ``<player>/head``, ``/left_hand``, ``/right_hand`` and
``/body`` (``player 0/...`` for the world's first rig while nobody sits in it). A *full* state
carries every moving body. An events message is one host step's events as its telemetry
records them, JSON, sent reliably.
"""

from __future__ import annotations

import json
import math
import struct
from dataclasses import dataclass, field
from typing import Any, TypeVar

import numpy as np

from playspace.components.input import Button, DevicePose, Gamepad, HandInput, InputFrame, PadButton
from playspace.spatial import (
    Pose,
    Quat,
    Vec3,
    normalize,
    quat_from_xyzw,
    quat_to_xyzw,
    vec3,
    vec3_from,
)

VERSION = 6  # 4: several players, each with their own echo and feet; 5: and turn; 6: a
# state for each client, chosen by interest, its bodies flagged when they stood still before
REDUNDANCY = 3  # frames per input message: the newest and the two before it
TICKET = 16  # bytes: the client's secret, which binds its input to its seat
CLIENT_ID = 8  # bytes: the client's public id, in its keys (a name is only what others see)

_HEAD = struct.Struct("<BB16s")  # version, frame count, ticket
_FRAME = struct.Struct("<Id")  # the client's step number, its time (s)
_DEVICE = struct.Struct("<B13f")  # flags (tracked, has v, has w), p, q, v, w
_CONTROLS = struct.Struct("<4fB")  # grip, trigger, stick x, y; buttons as bits
_PADS = struct.Struct("<B")
_PAD = struct.Struct("<4fH")
_MAX_PADS = 4
_TRACKED, _HAS_V, _HAS_W = 1, 2, 4
_BUTTONS = tuple(Button)
_PAD_BUTTONS = tuple(PadButton)
_REACH = (1e4, 1.0, 1e3, 1e4)  # |p| m, |q| (checked apart), |v| m/s, |w| rad/s
_UNIT_SLACK = 1e-12  # as the trace loader: a quaternion this close to unit is kept as it is

_STATE = struct.Struct("<BBIdBH")  # version, flags, step, time, player count, body count
_FULL = 1
_PLAYED = struct.Struct("<BBIf")  # player number, flags, echo, held (s)
_FEET = 1  # a player's flag: their feet follow
_FEET_AT = struct.Struct("<3f")  # a seated player's feet (m), after their input step `echo`
_TURN = 2  # a player's flag: their turn follows
_TURN_AT = struct.Struct("<f")  # a seated player's origin yaw (rad), after the same step
_HALF_TURN = math.pi + 1e-6  # a yaw's reach (float32 rounding of pi included)
MAX_PLAYERS = 255
PARTS = ("head", "left_hand", "right_hand", "body")  # a player's moving parts, by name
_BODY = struct.Struct("<I7f")  # entity (its top bit: RESUMED), p, q
BODY = np.dtype([("entity", "<u4"), ("p", "<f4", 3), ("q", "<f4", 4)])  # _BODY, for numpy
RESUMED = 1 << 31  # a body that stood where this client last had it until the state before
_TAIL = struct.Struct("<H")
MAX_BODIES = 4096
MAX_EVENTS = 256  # per step
_E = TypeVar("_E", Button, PadButton)


class WireError(ValueError):
    """A message that is not one: refused whole, and counted by the host."""


@dataclass(frozen=True, slots=True)
class InputMessage:
    """One client's newest frames, oldest first, each with the client's step number."""

    ticket: bytes
    frames: tuple[tuple[int, InputFrame], ...]


def _device(device: DevicePose | None) -> bytes:
    if device is None:
        return _DEVICE.pack(0, *([0.0] * 13))
    p, q = device.pose.position, quat_to_xyzw(device.pose.rotation)
    v, w = device.linear_velocity, device.angular_velocity
    flags = _TRACKED | (_HAS_V if v is not None else 0) | (_HAS_W if w is not None else 0)
    zero = vec3(0.0, 0.0, 0.0)
    v, w = v if v is not None else zero, w if w is not None else zero
    return _DEVICE.pack(flags, p.x, p.y, p.z, *q, v.x, v.y, v.z, w.x, w.y, w.z)


def _bits(pressed: frozenset[Button] | frozenset[PadButton], names: tuple[object, ...]) -> int:
    return sum(1 << names.index(button) for button in pressed)


def _frame(step: int, frame: InputFrame) -> bytes:
    parts = [_FRAME.pack(step, frame.time), _device(frame.head)]
    for hand in (frame.left, frame.right):
        parts.append(_device(hand.pose))
        bits = _bits(hand.buttons, _BUTTONS)
        parts.append(_CONTROLS.pack(hand.grip, hand.trigger, *hand.stick, bits))
    pads = frame.pads[:_MAX_PADS]
    parts.append(_PADS.pack(len(pads)))
    for pad in pads:
        bits = _bits(pad.buttons, _PAD_BUTTONS)
        parts.append(_PAD.pack(*pad.left_stick, *pad.right_stick, bits))
    return b"".join(parts)


def encode_input(ticket: bytes, frames: list[tuple[int, InputFrame]]) -> bytes:
    """The message carrying `frames` (step number, frame; oldest first) from `ticket`'s client."""
    if len(ticket) != TICKET:
        raise ValueError(f"a ticket is {TICKET} bytes, got {len(ticket)}")
    body = b"".join(_frame(step, frame) for step, frame in frames)
    return _HEAD.pack(VERSION, len(frames), ticket) + body


class _Reader:
    def __init__(self, data: bytes) -> None:
        self.data = data
        self.at = 0

    def take(self, shape: struct.Struct, what: str) -> tuple[object, ...]:
        end = self.at + shape.size
        if end > len(self.data):
            raise WireError(f"{what}: the message ends after {len(self.data)} bytes")
        values = shape.unpack_from(self.data, self.at)
        self.at = end
        return values


def _finite(values: tuple[object, ...], what: str, low: float, high: float) -> list[float]:
    numbers = [float(v) for v in values if isinstance(v, float | int)]
    for number in numbers:
        if not (math.isfinite(number) and low <= number <= high):
            raise WireError(f"{what}: expected numbers in [{low:g}, {high:g}], got {number!r}")
    return numbers


def _rotation(xyzw: list[float], what: str) -> Quat:
    if not any(xyzw):
        raise WireError(f"{what}.q: a zero quaternion is no rotation")
    q = quat_from_xyzw(xyzw)
    return q if abs(math.fsum(c * c for c in xyzw) - 1.0) <= _UNIT_SLACK else normalize(q)


def _read_device(reader: _Reader, what: str) -> DevicePose | None:
    flags, *values = reader.take(_DEVICE, what)
    assert isinstance(flags, int)
    if flags & ~(_TRACKED | _HAS_V | _HAS_W):
        raise WireError(f"{what}: unknown flags {flags:#x}")
    p = _finite(tuple(values[0:3]), f"{what}.p", -_REACH[0], _REACH[0])
    q = _finite(tuple(values[3:7]), f"{what}.q", -2.0, 2.0)
    v = _finite(tuple(values[7:10]), f"{what}.v", -_REACH[2], _REACH[2])
    w = _finite(tuple(values[10:13]), f"{what}.w", -_REACH[3], _REACH[3])
    if not flags & _TRACKED:
        return None
    return DevicePose(
        Pose(vec3_from(p), _rotation(q, what)),
        vec3_from(v) if flags & _HAS_V else None,
        vec3_from(w) if flags & _HAS_W else None,
    )


def _pressed(bits: int, names: tuple[_E, ...], what: str) -> frozenset[_E]:
    if bits >> len(names):
        raise WireError(f"{what}.buttons: unknown button bits {bits:#x}")
    return frozenset(name for i, name in enumerate(names) if bits >> i & 1)


def _read_hand(reader: _Reader, what: str) -> HandInput:
    pose = _read_device(reader, what)
    *values, bits = reader.take(_CONTROLS, what)
    grip, trigger = _finite(tuple(values[:2]), f"{what}.grip/trigger", 0.0, 1.0)
    sx, sy = _finite(tuple(values[2:]), f"{what}.stick", -1.0, 1.0)
    assert isinstance(bits, int)
    return HandInput(pose, grip, trigger, (sx, sy), _pressed(bits, _BUTTONS, what))


def _read_frame(reader: _Reader, what: str) -> tuple[int, InputFrame]:
    step, time = reader.take(_FRAME, what)
    assert isinstance(step, int)
    (t,) = _finite((time,), f"{what}.t", 0.0, 86_400.0)
    head = _read_device(reader, f"{what}.head")
    left = _read_hand(reader, f"{what}.left")
    right = _read_hand(reader, f"{what}.right")
    (count,) = reader.take(_PADS, what)
    assert isinstance(count, int)
    if count > _MAX_PADS:
        raise WireError(f"{what}.pads: at most {_MAX_PADS}, got {count}")
    pads = []
    for i in range(count):
        *values, bits = reader.take(_PAD, f"{what}.pads[{i}]")
        lx, ly, rx, ry = _finite(tuple(values), f"{what}.pads[{i}]", -1.0, 1.0)
        assert isinstance(bits, int)
        buttons = _pressed(bits, _PAD_BUTTONS, f"{what}.pads[{i}]")
        pads.append(Gamepad((lx, ly), (rx, ry), buttons))
    return step, InputFrame(t, head, left, right, tuple(pads))


def decode_input(data: bytes) -> InputMessage:
    """The frames in an input message; :class:`WireError` for anything that is not exactly
    one (wrong version or size, non-finite or out-of-range numbers, unknown bits)."""
    reader = _Reader(data)
    version, count, ticket = reader.take(_HEAD, "header")
    if version != VERSION:
        raise WireError(f"header: version {version}, this playspace speaks {VERSION}")
    assert isinstance(count, int) and isinstance(ticket, bytes)
    if not 1 <= count <= REDUNDANCY:
        raise WireError(f"header: 1 to {REDUNDANCY} frames, got {count}")
    frames = tuple(_read_frame(reader, f"frame {i}") for i in range(count))
    if reader.at != len(data):
        raise WireError(f"{len(data) - reader.at} bytes after the last frame")
    steps = [step for step, _ in frames]
    if steps != sorted(set(steps)):
        raise WireError(f"frames out of order: steps {steps}")
    return InputMessage(ticket, frames)


@dataclass(frozen=True, slots=True)
class Played:
    """What the host made of one seated player's input by this state: `echo` is the newest of
    their input steps it has played (0: none yet) and `held` how long that frame waited at the
    host (the playout buffer and the step's pacing), so a client tells the network's part of
    its round trip from the host's. `feet` is where that player's body stood (world space)
    right after the host played step `echo`, and `turn` the yaw of their origin then (radians
    about +Y, positive to the left: the snap and smooth turns the host played); each None when
    this state has none (the body stood still and did not turn lately, or the host held the
    last frame this step rather than playing a new one)."""

    echo: int = 0
    held: float = 0.0
    feet: Vec3 | None = None
    turn: float | None = None


@dataclass(frozen=True, slots=True)
class State:
    """The host's world after one fixed step: moving bodies' poses by entity (every one when
    `full`, else those that moved lately), the game's score line (its example's summary) when
    it has one, and on a full state each body's name (how a client finds its own copy, and
    another player's parts: ``<player>/head``) and each seated player's name by number
    (`seated`: how a client finds its own number), who is `waiting` for a seat, first in line
    first (None: not said), the clients `refused` (by id: a second client with a name
    already in the match), and which client each seated or waiting name is (`clients`: a
    client knows itself by its id, never by a name another may share). `players` holds, by
    number, what the host made of each seated player's input (:class:`Played`)."""

    step: int
    time: float
    bodies: dict[int, Pose]
    score: str | None = None
    full: bool = True
    names: dict[int, str] | None = None
    players: dict[int, Played] = field(default_factory=dict)
    seated: dict[int, str] | None = None
    waiting: tuple[str, ...] | None = None
    refused: tuple[str, ...] | None = None  # the clients (by id) the host turned away
    clients: dict[str, str] | None = None  # each seated or waiting player's client id, by name
    # the bodies that stood, until the state before, where this client last had them (it
    # holds them there until then rather than gliding from a pose of long ago)
    resumed: frozenset[int] = frozenset()


def encode_state(
    state: State, bodies: tuple[int, bytes] | None = None, tail: bytes | None = None
) -> bytes:
    """The message of one host step: `state`'s bodies, or `bodies` packed already (how many,
    and their :data:`BODY` records), and its tail, or `tail` encoded already
    (:func:`encode_tail`: one for every client of a step)."""
    if bodies is None:
        bodies = len(state.bodies), _pack_bodies(state.bodies, state.resumed)
    tail = encode_tail(state) if tail is None else tail
    return encode_step(state.step, state.time, state.full, state.players, bodies, tail)


def encode_step(
    step: int,
    time: float,
    full: bool,
    players: dict[int, Played],
    bodies: tuple[int, bytes],
    tail: bytes,
) -> bytes:
    """A state's message from its parts: what :func:`encode_state` makes of a
    :class:`State`. The host sends each client its own every step (its `players`, whether it
    is `full`, its `bodies` and `tail` packed already), and making a State for each would cost
    more than the message."""
    if len(players) > MAX_PLAYERS:
        raise ValueError(f"a state carries at most {MAX_PLAYERS} players, got {len(players)}")
    head = (VERSION, _FULL if full else 0, step, time, len(players), bodies[0])
    parts = [_STATE.pack(*head)]
    for number, seen in players.items():
        feet, turn = seen.feet, seen.turn
        flags = (_FEET if feet is not None else 0) | (_TURN if turn is not None else 0)
        parts.append(_PLAYED.pack(number, flags, seen.echo, seen.held))
        if feet is not None:
            parts.append(_FEET_AT.pack(feet.x, feet.y, feet.z))
        if turn is not None:
            parts.append(_TURN_AT.pack(turn))
    parts.append(bodies[1])
    parts.append(tail)
    return b"".join(parts)


def _pack_bodies(bodies: dict[int, Pose], resumed: frozenset[int]) -> bytes:
    parts = []
    for entity, pose in bodies.items():
        p = pose.position
        flagged = entity | RESUMED if entity in resumed else entity
        parts.append(_BODY.pack(flagged, p.x, p.y, p.z, *quat_to_xyzw(pose.rotation)))
    return b"".join(parts)


def encode_tail(state: State) -> bytes:
    """A state's JSON tail, with its length: the score line, and on a full state who is who."""
    tail: dict[str, object] = {"score": state.score}
    if state.names is not None:
        tail["names"] = {str(e): name for e, name in state.names.items()}
    if state.seated is not None:
        tail["seated"] = {str(n): name for n, name in state.seated.items()}
    if state.waiting is not None:
        tail["waiting"] = list(state.waiting)
    if state.refused:
        tail["refused"] = list(state.refused)
    if state.clients is not None:
        tail["clients"] = dict(state.clients)
    raw = json.dumps(tail).encode()
    return _TAIL.pack(len(raw)) + raw


def _json_tail(data: bytes, at: int, what: str) -> object:
    """The JSON from `at` to the end of `data`, after its 16-bit length."""
    reader = _Reader(data)
    reader.at = at
    (size,) = reader.take(_TAIL, f"{what} tail")
    assert isinstance(size, int)
    raw = data[reader.at : reader.at + size]
    if len(raw) != size or reader.at + size != len(data):
        raise WireError(
            f"{what} tail: expected {size} bytes to the end, got {len(data) - reader.at}"
        )
    try:
        return json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise WireError(f"{what} tail: not JSON ({error})") from None


def _numbered(raw: object, what: str) -> dict[int, str] | None:
    if raw is None:
        return None
    if not isinstance(raw, dict) or not all(
        isinstance(k, str) and k.isdigit() and isinstance(v, str) for k, v in raw.items()
    ):
        raise WireError(f"state tail: {what} must map numbers to strings")
    return {int(k): v for k, v in raw.items()}


def _names(raw: object, what: str) -> tuple[str, ...] | None:
    if raw is None:
        return None
    if not isinstance(raw, list) or not all(isinstance(name, str) for name in raw):
        raise WireError(f"state tail: {what} must be a list of strings")
    return tuple(raw)


def _clients(raw: object) -> dict[str, str] | None:
    if raw is None:
        return None
    if not isinstance(raw, dict) or not all(isinstance(v, str) for v in raw.values()):
        raise WireError("state tail: clients must be an object of strings")
    return dict(raw)


def _read_played(reader: _Reader, i: int) -> tuple[int, Played]:
    number, flags, echo, held = reader.take(_PLAYED, f"player {i}")
    assert isinstance(number, int) and isinstance(flags, int) and isinstance(echo, int)
    if flags & ~(_FEET | _TURN):
        raise WireError(f"player {i}: unknown flags {flags:#x}")
    (wait,) = _finite((held,), f"player {i}.held", 0.0, 86_400.0 * 365)
    feet = None
    if flags & _FEET:
        what = f"player {i}.feet"
        feet = vec3_from(_finite(reader.take(_FEET_AT, what), what, -_REACH[0], _REACH[0]))
    turn = None
    if flags & _TURN:
        what = f"player {i}.turn"
        (turn,) = _finite(reader.take(_TURN_AT, what), what, -_HALF_TURN, _HALF_TURN)
    return number, Played(echo, wait, feet, turn)


def decode_state(data: bytes) -> State:
    """A host step's state; :class:`WireError` for anything that is not exactly one."""
    reader = _Reader(data)
    version, flags, step, time, seated, count = reader.take(_STATE, "state")
    if version != VERSION:
        raise WireError(f"state: version {version}, this playspace speaks {VERSION}")
    assert isinstance(flags, int) and isinstance(step, int) and isinstance(count, int)
    assert isinstance(seated, int)
    if flags & ~_FULL:
        raise WireError(f"state: unknown flags {flags:#x}")
    if count > MAX_BODIES:
        raise WireError(f"state: at most {MAX_BODIES} bodies, got {count}")
    (t,) = _finite((time,), "state.t", 0.0, 86_400.0 * 365)
    players = dict(_read_played(reader, i) for i in range(seated))
    if len(players) != seated:
        raise WireError(f"state: {seated} players with {len(players)} different numbers")
    bodies = {}
    resumed = set()
    for i in range(count):
        flagged, *values = reader.take(_BODY, f"body {i}")
        p = _finite(tuple(values[:3]), f"body {i}.p", -_REACH[0], _REACH[0])
        q = _finite(tuple(values[3:]), f"body {i}.q", -2.0, 2.0)
        assert isinstance(flagged, int)
        entity = flagged & ~RESUMED
        if flagged & RESUMED:
            resumed.add(entity)
        bodies[entity] = Pose(vec3_from(p), _rotation(q, f"body {i}"))
    tail = _json_tail(data, reader.at, "state")
    if not isinstance(tail, dict):
        raise WireError("state tail: expected a JSON object")
    score = tail.get("score")
    return State(
        step, t, bodies, score if isinstance(score, str) else None, bool(flags & _FULL),
        _numbered(tail.get("names"), "names"), players, _numbered(tail.get("seated"), "seated"),
        _names(tail.get("waiting"), "waiting"), _names(tail.get("refused"), "refused"),
        _clients(tail.get("clients")), frozenset(resumed),
    )  # fmt: skip


@dataclass(frozen=True, slots=True)
class Events:
    """One host step's events, each as telemetry writes it (``{"type": kind, ...fields}``)."""

    step: int
    time: float
    events: tuple[dict[str, Any], ...]


def encode_events(events: Events) -> bytes:
    """The message of one host step's events."""
    body = {"step": events.step, "t": events.time, "events": list(events.events)}
    raw = json.dumps(body, separators=(",", ":"), default=str).encode()
    return _TAIL.pack(len(raw)) + raw


def decode_events(data: bytes) -> Events:
    """A host step's events; :class:`WireError` for anything that is not exactly one."""
    body = _json_tail(data, 0, "events")
    if not isinstance(body, dict):
        raise WireError("events: expected a JSON object")
    step, t, events = body.get("step"), body.get("t"), body.get("events")
    if not isinstance(step, int) or step < 0 or not isinstance(t, int | float):
        raise WireError("events: 'step' must be a whole number >= 0 and 't' a number")
    if not isinstance(events, list) or len(events) > MAX_EVENTS:
        raise WireError(f"events: 'events' must be a list of at most {MAX_EVENTS}")
    if not all(isinstance(e, dict) and isinstance(e.get("type"), str) for e in events):
        raise WireError("events: each event must be an object with a 'type' string")
    return Events(step, float(t), tuple(events))
