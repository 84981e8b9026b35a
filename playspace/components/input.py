"""The input frame: what every input source (OpenXR, the desktop simulator, a replayed trace,
a test script) reports, in one shape, so the systems above never know which one is running.

Poses are in tracking space (OpenXR STAGE: the physical room, floor at y = 0). A device that
is not tracked in a sample is None there; it is never a pose made up of zeros or NaNs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from playspace.spatial import Pose, Vec3


class Button(Enum):
    """The buttons a trace or a controller reports, by the names used in trace files."""

    A = "a"
    B = "b"
    X = "x"
    Y = "y"
    MENU = "menu"
    STICK = "stick"


class PadButton(Enum):
    """Gamepad buttons, by the names used in trace files (glfw's gamepad layout)."""

    A = "a"
    B = "b"
    X = "x"
    Y = "y"
    START = "start"
    BACK = "back"
    LEFT_SHOULDER = "left_shoulder"
    RIGHT_SHOULDER = "right_shoulder"
    LEFT_STICK = "left_stick"
    RIGHT_STICK = "right_stick"


@dataclass(frozen=True, slots=True)
class DevicePose:
    """A tracked pose, with the velocities when the source measures them (m/s, rad/s,
    in tracking space)."""

    pose: Pose
    linear_velocity: Vec3 | None = None
    angular_velocity: Vec3 | None = None


@dataclass(frozen=True, slots=True)
class HandInput:
    """One controller: its grip pose (None while not tracked) and its controls.

    `grip` and `trigger` are in [0, 1]; `stick` is (x, y) in [-1, 1], +y pushed forward.
    """

    pose: DevicePose | None = None
    grip: float = 0.0
    trigger: float = 0.0
    stick: tuple[float, float] = (0.0, 0.0)
    buttons: frozenset[Button] = frozenset()


@dataclass(frozen=True, slots=True)
class Gamepad:
    """A gamepad driving a non-VR player (an opponent)."""

    left_stick: tuple[float, float] = (0.0, 0.0)
    right_stick: tuple[float, float] = (0.0, 0.0)
    buttons: frozenset[PadButton] = frozenset()


@dataclass(frozen=True, slots=True)
class InputFrame:
    """Everything the input source said at `time` (seconds on the source's clock)."""

    time: float = 0.0
    head: DevicePose | None = None
    left: HandInput = field(default_factory=HandInput)
    right: HandInput = field(default_factory=HandInput)
    pads: tuple[Gamepad, ...] = ()
