"""Joints as plain data: a hinge or a slider between an entity's body and another's, or the
world.

The physics system (``playspace.systems.physics``) builds a Rapier joint from each
:class:`Joint`, rebuilds or updates it when a field is changed through ``world.get_mut``,
removes it when either entity goes, and writes the joint's current position (an angle or a
distance) back into the component after every step, where game code reads it.

The joint's frame is taken where the bodies are when it is built: `anchor` and `axis` are in
the entity's own frame, and the other body (or the world) gets the same point and direction as
they are at that moment. So a joint's position is 0 where the entity was spawned, and its
limits and spring targets count from there: a door spawned closed with limits (0, 1.6) opens
to 1.6 rad one way and not at all the other.

Units: metres, radians, seconds. The spring and the friction are Rapier's acceleration-based
joint motor, so the same numbers feel the same on a light dial and a heavy door.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from enum import Enum

from playspace import spatial
from playspace.components.checks import check_finite
from playspace.spatial import Vec3

SHORTEST_AXIS = 1e-6  # a joint axis shorter than this has no direction to normalise


class JointKind(Enum):
    """What a joint lets the entity do: turn about its axis (a door, a lever, a dial) or move
    along it (a drawer, a button)."""

    HINGE = "hinge"
    SLIDER = "slider"


@dataclass(frozen=True, slots=True)
class Spring:
    """A spring pulling the joint toward `target` (rad or m): a detent, a button's way back.

    `stiffness` and `damping` are those of Rapier's acceleration-based joint motor (the same
    numbers act alike on light and heavy bodies). Rapier solves the spring as a soft
    constraint, so it is weaker than ``stiffness * error`` and more damping softens it further:
    measured on a 30 cm stick leaning 0.5 rad under gravity, (5000, 150) holds it 0.022 rad off
    its target, (10000, 200) 0.011 rad; a 50 g button returns from 1.5 cm with (400, 40) in
    about a tenth of a second.
    """

    target: float = 0.0
    stiffness: float = 200.0
    damping: float = 28.0

    def __post_init__(self) -> None:
        check_finite(self.target, "spring target")
        check_finite(self.stiffness, "spring stiffness", 0.0)
        check_finite(self.damping, "spring damping", 0.0)


@dataclass(slots=True)
class Joint:
    """A hinge or slider holding this entity's body to `to`'s body, or to the world (None).

    `anchor` (a point) and `axis` (a direction) are in this entity's frame: a hinge turns about
    the line through the anchor along the axis, a slider moves along the axis. `limits` (min,
    max) bound the position (radians or metres, from where the joint was built); None leaves
    it free (a dial that turns round and round). `spring` pulls it toward a target; `friction`
    (1/s) slows it in proportion to its speed, so a drawer pulled open stays open.

    `position` (radians or metres) and `velocity` are the joint's state, written by the
    physics system after every step; a hinge without limits counts whole turns (3 pi is one
    and a half turns, not -pi). Writing any other field (through ``world.get_mut``, so physics
    sees it) takes effect on the next step:
    `limits`, `spring` and `friction` change the built joint, `kind`, `to`, `anchor` and `axis`
    rebuild it from where the bodies are then.
    """

    kind: JointKind
    to: int | None = None
    anchor: Vec3 = field(default_factory=lambda: spatial.vec3(0.0, 0.0, 0.0))
    axis: Vec3 = field(default_factory=lambda: spatial.vec3(0.0, 1.0, 0.0))
    limits: tuple[float, float] | None = None
    spring: Spring | None = None
    friction: float = 0.0
    position: float = 0.0
    velocity: float = 0.0

    def __post_init__(self) -> None:
        if not isinstance(self.kind, JointKind):
            raise TypeError(f"joint kind must be a JointKind, got {self.kind!r}")
        if self.to is not None and (isinstance(self.to, bool) or not isinstance(self.to, int)):
            raise TypeError(f"joint `to` must be an entity id or None, got {self.to!r}")
        for what, v in (("anchor", self.anchor), ("axis", self.axis)):
            if not all(math.isfinite(c) for c in (v.x, v.y, v.z)):
                raise ValueError(f"joint {what} must be finite, got {tuple(v)}")
        if spatial.length(self.axis) < SHORTEST_AXIS:
            raise ValueError(f"joint axis must not be zero, got {tuple(self.axis)}")
        if self.limits is not None:
            if len(self.limits) != 2:
                raise ValueError(f"joint limits must be (min, max), got {self.limits!r}")
            low, high = self.limits
            check_finite(low, "joint limit min")
            check_finite(high, "joint limit max")
            if low > high:
                raise ValueError(f"joint limits must have min <= max, got {self.limits!r}")
        if self.spring is not None and not isinstance(self.spring, Spring):
            raise TypeError(f"joint spring must be a Spring or None, got {self.spring!r}")
        check_finite(self.friction, "joint friction", 0.0)
