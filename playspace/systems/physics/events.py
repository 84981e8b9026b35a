"""What the physics engine tells the game, as ECS events naming entities (never handles).

`part` fields are indices into the entity's ``Colliders.parts``, so a game can tell a held
object's sensor twin from its solid collider.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from playspace.spatial import Vec3


@dataclass(frozen=True, slots=True)
class SensorEntered:
    """A sensor collider of `sensor` began to overlap a collider of `other`."""

    sensor: int
    other: int
    sensor_part: int
    other_part: int


@dataclass(frozen=True, slots=True)
class SensorExited:
    """A sensor collider of `sensor` stopped overlapping `other` (or `other` was removed)."""

    sensor: int
    other: int
    sensor_part: int
    other_part: int


@dataclass(frozen=True, slots=True)
class ContactBegan:
    """Two solid colliders began to touch (reported for colliders with report_contacts)."""

    a: int
    b: int
    a_part: int
    b_part: int


@dataclass(frozen=True, slots=True)
class ContactEnded:
    a: int
    b: int
    a_part: int
    b_part: int


@dataclass(frozen=True, slots=True)
class FellOutOfWorld:
    """A body dropped below the kill height; the fall policy removed or respawned it."""

    entity: int
    position: Vec3
    respawned: bool


@dataclass(frozen=True, slots=True)
class Quarantined:
    """Rapier neutralised this body because its state became non-finite (NaN or infinite).

    The engine put it back at its last valid pose, at rest; the physics system enables it
    again there, so an object is never lost for good to one bad step.
    """

    kind: ClassVar[str] = "quarantined"
    entity: int


@dataclass(frozen=True, slots=True)
class Impact:
    """Two bodies struck each other: the force of their contact passed the impact threshold
    (three times the dynamic body's weight) this step, after being under it the step before,
    so resting and sliding never repeat it. `impulse` is the step's force times its length
    (N s): how hard the knock was. `a` is a dynamic body; `b` what it struck."""

    kind: ClassVar[str] = "impact"
    a: int
    b: int
    a_part: int
    b_part: int
    impulse: float


PHYSICS_EVENTS = (
    SensorEntered,
    SensorExited,
    ContactBegan,
    ContactEnded,
    FellOutOfWorld,
    Quarantined,
    Impact,
)
