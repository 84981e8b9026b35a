"""Physical interactables as plain data: a lever with detents, a button, a dial.

Each sits on an entity that also has a body and a ``Joint`` (``playspace.components.joints``):
the joint makes it a hinge or a slider, and the interactables system
(``playspace.systems.interaction.interactables``) reads the joint's position and says what
the player did with it. A door and a drawer need nothing here: a hinge with limits, a slider
with limits and friction, and a ``Grabbable``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from playspace.components.checks import check_finite


@dataclass(slots=True)
class Lever:
    """A hinge that rests in detents: let go, it springs to the nearest of `detents` (joint
    angles, radians) with `stiffness` (1/s^2) and `damping` (1/s), and once it is still there
    (within `settle_within` rad, slower than `settle_speed` rad/s) in another detent than
    before, a ``LeverMoved`` says which. While a hand holds it no spring pulls.

    `detent` is its state: the index of the detent it last settled in (None until it first
    settles, which sends nothing: where a lever starts is not a move).
    """

    detents: tuple[float, ...]
    stiffness: float = 10000.0  # holds a 30 cm stick within 0.01 rad of 0.5 rad against gravity
    damping: float = 200.0
    settle_within: float = 0.03
    settle_speed: float = 0.1
    detent: int | None = None

    def __post_init__(self) -> None:
        if isinstance(self.detents, str) or len(self.detents) == 0:
            raise ValueError(f"lever detents must be one angle or more, got {self.detents!r}")
        for i, angle in enumerate(self.detents):
            check_finite(angle, f"lever detent {i}")
        self.detents = tuple(float(a) for a in self.detents)
        check_finite(self.stiffness, "lever stiffness", 0.0)
        check_finite(self.damping, "lever damping", 0.0)
        check_finite(self.settle_within, "lever settle_within", 0.0)
        check_finite(self.settle_speed, "lever settle_speed", 0.0)


@dataclass(slots=True)
class PushButton:
    """A slider pressed in along its joint's axis (give the joint limits (0, travel) and a
    ``Spring`` back to 0). Pushed past `press_depth` metres it is pressed
    (``ButtonPressed``); back above `release_depth` it is released (``ButtonReleased``): the
    gap keeps a trembling finger from clicking it twice.

    Any body pushes it through its collider. A hand pushes it with its poke point (the index
    finger's tip of a tracked bare hand, a controller's grip point): a poke point within
    `radius` of the joint's axis and deeper than the button's face carries the face with it.
    `pressed` is its state.
    """

    press_depth: float = 0.008
    release_depth: float = 0.004
    radius: float = 0.04
    pressed: bool = False

    def __post_init__(self) -> None:
        check_finite(self.press_depth, "button press_depth", 0.0)
        check_finite(self.release_depth, "button release_depth", 0.0)
        check_finite(self.radius, "button radius", 0.0)
        if self.release_depth >= self.press_depth:
            raise ValueError(
                f"button release_depth ({self.release_depth}) must be less than its "
                f"press_depth ({self.press_depth})"
            )


@dataclass(slots=True)
class Dial:
    """A hinge that counts its turn in steps of `step` radians (a volume knob's clicks): a
    ``DialTurned`` each time the nearest step changes. `steps` is its state: the joint's angle
    in steps, rounded."""

    step: float = math.radians(15.0)
    steps: int = 0

    def __post_init__(self) -> None:
        check_finite(self.step, "dial step", 0.0)
        if self.step == 0:
            raise ValueError("dial step must be > 0")
