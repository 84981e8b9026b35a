"""What hands, held objects and sockets did, as ECS events; telemetry writes each as its
``kind`` when asked to (the examples' telemetry records :data:`TELEMETRY_EVENTS` only)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from playspace.spatial import Pose, Vec3


@dataclass(frozen=True, slots=True)
class Grabbed:
    kind: ClassVar[str] = "grabbed"
    hand: int
    object: int


@dataclass(frozen=True, slots=True)
class LetGo:
    """A hand opened while holding `object` (held at `offset` in the hand's frame); the grab
    system gave it back as it was, at rest. `launch` is False when it must not fly: let go
    inside a wall, or by a hand that lost tracking. The throw system sets how it leaves."""

    kind: ClassVar[str] = "let_go"
    hand: int
    object: int
    offset: Pose
    launch: bool = True


@dataclass(frozen=True, slots=True)
class Released:
    """An object left a hand with these velocities (m/s, rad/s, world space)."""

    kind: ClassVar[str] = "released"
    hand: int
    object: int
    linear: Vec3
    angular: Vec3


@dataclass(frozen=True, slots=True)
class Hit:
    """A held object struck an opponent: what a game scores. `speed` is their relative speed."""

    kind: ClassVar[str] = "hit"
    object: int
    opponent: int
    speed: float


@dataclass(frozen=True, slots=True)
class HoverEntered:
    """A free hand came within reach of `object`: it would take it if it gripped now (XRI's
    hover entered). Each is followed by a :class:`HoverExited` for the same pair."""

    kind: ClassVar[str] = "hover_entered"
    hand: int
    object: int


@dataclass(frozen=True, slots=True)
class HoverExited:
    """A hand stopped hovering `object`: it moved away, took it (sent after the
    :class:`Grabbed`), took another, or lost tracking; or the object was despawned."""

    kind: ClassVar[str] = "hover_exited"
    hand: int
    object: int


@dataclass(frozen=True, slots=True)
class Socketed:
    """A socket took `object`: let go inside its zone, returned to it, or put in by the game."""

    kind: ClassVar[str] = "socketed"
    socket: int
    object: int


@dataclass(frozen=True, slots=True)
class Unsocketed:
    """`hand` took `object` out of `socket` (sent after the :class:`Grabbed`)."""

    kind: ClassVar[str] = "unsocketed"
    socket: int
    object: int
    hand: int


@dataclass(frozen=True, slots=True)
class Returned:
    """`object`, free for the socket's ``return_after`` seconds, was put back in `socket`
    (a :class:`Socketed` follows in the same step)."""

    kind: ClassVar[str] = "returned"
    socket: int
    object: int


HOVER_EVENTS = (HoverEntered, HoverExited)
SOCKET_EVENTS = (Socketed, Unsocketed, Returned)
GRAB_EVENTS = (Grabbed, LetGo, Released, Hit)
TELEMETRY_EVENTS = (Grabbed, Released, Hit)


@dataclass(frozen=True, slots=True)
class ButtonPressed:
    """`button` was pushed in past its press depth."""

    kind: ClassVar[str] = "button_pressed"
    button: int


@dataclass(frozen=True, slots=True)
class ButtonReleased:
    """`button` came back above its release depth."""

    kind: ClassVar[str] = "button_released"
    button: int


@dataclass(frozen=True, slots=True)
class LeverMoved:
    """`lever` came to rest in detent number `detent`, at `position` (its angle, radians)."""

    kind: ClassVar[str] = "lever_moved"
    lever: int
    detent: int
    position: float


@dataclass(frozen=True, slots=True)
class DialTurned:
    """`dial` turned to `steps` steps (its angle in steps, rounded), `change` from before;
    `angle` is its joint's angle, radians."""

    kind: ClassVar[str] = "dial_turned"
    dial: int
    steps: int
    change: int
    angle: float


INTERACTABLE_EVENTS = (ButtonPressed, ButtonReleased, LeverMoved, DialTurned)
