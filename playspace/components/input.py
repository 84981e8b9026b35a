"""The input frame: what every input source (OpenXR, the desktop simulator, a replayed trace,
a test script) reports, in one shape, so the systems above never know which one is running.

Poses are in tracking space (OpenXR STAGE: the physical room, floor at y = 0). A device that
is not tracked in a sample is None there; it is never a pose made up of zeros or NaNs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum, IntEnum
from typing import Protocol

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


class HandJoint(IntEnum):
    """The 26 joints of a tracked hand, in ``XR_EXT_hand_tracking``'s order (its
    ``XrHandJointEXT`` values), so an index into :attr:`HandJoints.poses` is OpenXR's own."""

    PALM = 0
    WRIST = 1
    THUMB_METACARPAL = 2
    THUMB_PROXIMAL = 3
    THUMB_DISTAL = 4
    THUMB_TIP = 5
    INDEX_METACARPAL = 6
    INDEX_PROXIMAL = 7
    INDEX_INTERMEDIATE = 8
    INDEX_DISTAL = 9
    INDEX_TIP = 10
    MIDDLE_METACARPAL = 11
    MIDDLE_PROXIMAL = 12
    MIDDLE_INTERMEDIATE = 13
    MIDDLE_DISTAL = 14
    MIDDLE_TIP = 15
    RING_METACARPAL = 16
    RING_PROXIMAL = 17
    RING_INTERMEDIATE = 18
    RING_DISTAL = 19
    RING_TIP = 20
    LITTLE_METACARPAL = 21
    LITTLE_PROXIMAL = 22
    LITTLE_INTERMEDIATE = 23
    LITTLE_DISTAL = 24
    LITTLE_TIP = 25


JOINT_COUNT = len(HandJoint)


@dataclass(frozen=True, slots=True)
class HandJoints:
    """A tracked hand's joints: :data:`JOINT_COUNT` poses in :class:`HandJoint` order (each
    joint's -Z points towards the finger tip, +Y out of the back of the hand, as OpenXR sets
    them) and their radii in metres (half the finger's thickness there).

    Present only when every joint is known: a hand the runtime located with any joint invalid
    is not tracked by its joints that frame (None), never a hand with made-up joints.
    """

    poses: tuple[Pose, ...]
    radii: tuple[float, ...]

    def pose(self, joint: HandJoint) -> Pose:
        return self.poses[joint]


@dataclass(frozen=True, slots=True)
class HandInput:
    """One hand: its grip pose (None while not tracked), its controls, and its joints where a
    hand tracker sees the bare hand (``XR_EXT_hand_tracking``).

    `grip` and `trigger` are in [0, 1]; `stick` is (x, y) in [-1, 1], +y pushed forward. A
    hand with joints has them read as controls before the systems see it (a fist grips, a
    pinch pulls the trigger: :mod:`playspace.systems.input.hands`).
    """

    pose: DevicePose | None = None
    grip: float = 0.0
    trigger: float = 0.0
    stick: tuple[float, float] = (0.0, 0.0)
    buttons: frozenset[Button] = frozenset()
    joints: HandJoints | None = None


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


class InputSource(Protocol):
    """Anything that can say what the player did at a time on its clock."""

    @property
    def duration(self) -> float | None:
        """The time after which the source has nothing new to say; None if it never ends."""
        ...

    def sample(self, time: float) -> InputFrame:
        """The input frame at ``time`` (seconds on the source's clock), stamped with it."""
        ...


@dataclass(slots=True)
class InputState:
    """A player's input source, the frame it gave for the current fixed step, and the newest
    frame read for the display time (what LATE places the head and hands from). On each
    player's origin."""

    source: InputSource
    frame: InputFrame = field(default_factory=InputFrame)
    latest: InputFrame = field(default_factory=InputFrame)
    # the last frame read through the gate, what the gate made of it and what it rejected: a
    # step at the frame's own time reads that very frame again (a replay makes a time's frame
    # once), and gating it again would cost the same 20-odd microseconds for the same answer
    gated: tuple[InputFrame, InputFrame, tuple[str, ...]] | None = None
