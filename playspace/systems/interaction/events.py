"""What hands and held objects did, as ECS events; telemetry writes each as its ``kind``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from playspace.spatial import Pose, Vec3


@dataclass(frozen=True, slots=True)
class Grabbed:
    kind: ClassVar[str] = "grab"
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

    kind: ClassVar[str] = "release"
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


GRAB_EVENTS = (Grabbed, LetGo, Released, Hit)
TELEMETRY_EVENTS = (Grabbed, Released, Hit)
