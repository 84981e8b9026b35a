"""From what OpenXR reported (action states, located spaces) to the input frame, in pure Python.

The backend copies each frame's ``XrActionState*`` values into :class:`ActionStates` and each
``xrLocateSpace`` result (with its ``XrSpaceVelocity``) into a :class:`LocatedPose`;
:func:`map_input` turns those into the :class:`~playspace.components.input.InputFrame` every
input source fills. Keeping the records plain means recorded runtime output can be replayed
through this mapping in tests, and nothing here needs a headset.

Valid and tracked
-----------------
OpenXR flags a located pose *valid* (the runtime stands behind the value) and, separately,
*tracked* (it was measured just now, not inferred or predicted). Runtimes report controllers
as valid but not tracked for long stretches (Monado, seen against it, reports location flags
``0x07``, both valid with the position not tracked, as well as ``0x0f``), so "valid" is what
makes a pose usable here and "tracked" is only reported, as :class:`Tracking`. A pose without
position-valid (or orientation-valid) is not usable: the device reads as untracked (None) in the
frame, never as a pose made up of zeros.

Hand joints
-----------
Where the runtime offers ``XR_EXT_hand_tracking`` the backend locates each hand's 26 joints
for the same display time into :class:`LocatedJoints`. A hand's joints reach the frame only
when the tracker is active and every joint's position and orientation are valid and finite
(:func:`hand_joints`); a hand partly seen is not tracked by its joints that frame, as a pose
without its valid bits is not. Reading a fist and a pinch as grip and trigger happens after
the input gate (:mod:`playspace.systems.input.hands`), for every source alike.

The floor
---------
Poses come in the STAGE space when the runtime has one: the floor is at y = 0, as the rig
wants. A runtime without STAGE gets LOCAL, whose origin is wherever the head was at start
(or at the last recenter), so :class:`FloorEstimate` puts the floor :data:`EYE_HEIGHT` below
the first head position it sees, and the views are lifted by the same amount.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from enum import Enum

from playspace import spatial
from playspace.components.input import (
    JOINT_COUNT,
    Button,
    DevicePose,
    HandInput,
    HandJoints,
    InputFrame,
)
from playspace.spatial import Pose, Vec3

# XrSpaceLocationFlags and XrSpaceVelocityFlags bits.
ORIENTATION_VALID = 0x1
POSITION_VALID = 0x2
ORIENTATION_TRACKED = 0x4
POSITION_TRACKED = 0x8
LINEAR_VALID = 0x1
ANGULAR_VALID = 0x2

EYE_HEIGHT = 1.6  # metres: a standing adult's eye height (adults average 1.5-1.7 m)

_Triple = tuple[float, float, float]


@dataclass(frozen=True, slots=True)
class LocatedPose:
    """One space located at one time: the pose and velocities with OpenXR's flags as given."""

    position: _Triple
    orientation: tuple[float, float, float, float]  # x, y, z, w
    location_flags: int
    linear_velocity: _Triple = (0.0, 0.0, 0.0)
    angular_velocity: _Triple = (0.0, 0.0, 0.0)
    velocity_flags: int = 0

    @property
    def usable(self) -> bool:
        both = ORIENTATION_VALID | POSITION_VALID
        return self.location_flags & both == both

    @property
    def tracked(self) -> bool:
        both = ORIENTATION_TRACKED | POSITION_TRACKED
        return self.location_flags & both == both


class Tracking(Enum):
    """How a device is known: measured now, valid but inferred by the runtime, or lost."""

    TRACKED = "tracked"
    VALID = "valid"
    LOST = "lost"


@dataclass(frozen=True, slots=True)
class HandActions:
    """One hand's action states after ``xrSyncActions`` (zero while an action is inactive)."""

    grip: float = 0.0
    trigger: float = 0.0
    stick: tuple[float, float] = (0.0, 0.0)
    primary: bool = False
    secondary: bool = False
    menu: bool = False
    stick_click: bool = False


@dataclass(frozen=True, slots=True)
class ActionStates:
    left: HandActions = field(default_factory=HandActions)
    right: HandActions = field(default_factory=HandActions)


@dataclass(frozen=True, slots=True)
class LocatedJoints:
    """One hand tracker's ``xrLocateHandJointsEXT`` result: whether it is active, and each
    joint's position, orientation (x, y, z, w), radius and location flags as given."""

    active: bool
    positions: tuple[_Triple, ...]
    orientations: tuple[tuple[float, float, float, float], ...]
    radii: tuple[float, ...]
    flags: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class LocatedPoses:
    """The head (VIEW space), grip and aim spaces and the hands' joints located in the
    reference space; None where the runtime was not asked or could not say."""

    head: LocatedPose | None = None
    left_grip: LocatedPose | None = None
    right_grip: LocatedPose | None = None
    left_aim: LocatedPose | None = None
    right_aim: LocatedPose | None = None
    left_joints: LocatedJoints | None = None
    right_joints: LocatedJoints | None = None


@dataclass(frozen=True, slots=True)
class TrackingStatus:
    head: Tracking = Tracking.LOST
    left: Tracking = Tracking.LOST
    right: Tracking = Tracking.LOST


@dataclass(frozen=True, slots=True)
class MappedInput:
    """The input frame, how well each device was known, and the pointer rays (aim poses),
    which the frame itself does not carry."""

    frame: InputFrame
    tracking: TrackingStatus = field(default_factory=TrackingStatus)
    aim: tuple[DevicePose | None, DevicePose | None] = (None, None)


class FloorEstimate:
    """How high the reference space's origin is above the floor (`space_height`, metres).

    STAGE: 0, the runtime knows the floor. LOCAL: :data:`EYE_HEIGHT` minus the first usable
    head height, measured again after every recenter (:meth:`reset`), because recentering
    moves LOCAL's origin back to the head.
    """

    def __init__(self, stage: bool, eye_height: float = EYE_HEIGHT) -> None:
        self.stage = stage
        self.eye_height = eye_height
        self._height: float | None = 0.0 if stage else None

    @property
    def space_height(self) -> float:
        return self.eye_height if self._height is None else self._height

    def update(self, head: LocatedPose | None) -> float:
        """Take the estimate from `head` if it is the first usable one; the current height."""
        if self._height is None and head is not None and _finite_pose(head):
            self._height = self.eye_height - head.position[1]
        return self.space_height

    def reset(self) -> None:
        if not self.stage:
            self._height = None


def _finite(values: tuple[float, ...]) -> bool:
    return all(math.isfinite(v) for v in values)


def _finite_pose(located: LocatedPose) -> bool:
    return located.usable and _finite(located.position) and _finite(located.orientation)


def device_pose(located: LocatedPose | None, space_height: float = 0.0) -> DevicePose | None:
    """The usable pose as the input frame carries it (floor at y = 0), or None: not located,
    not valid, non-finite or a zero quaternion. Velocities are kept only where flagged valid."""
    if located is None or not _finite_pose(located):
        return None
    try:
        rotation = spatial.normalize(spatial.quat_from_xyzw(located.orientation))
    except ValueError:
        return None
    x, y, z = located.position
    return DevicePose(
        Pose(spatial.vec3(x, y + space_height, z), rotation),
        _velocity(located.linear_velocity, located.velocity_flags & LINEAR_VALID),
        _velocity(located.angular_velocity, located.velocity_flags & ANGULAR_VALID),
    )


def hand_joints(located: LocatedJoints | None, space_height: float = 0.0) -> HandJoints | None:
    """The joints as the input frame carries them (floor at y = 0), or None: no tracker, not
    active, a joint missing or not valid, or a number that is not finite."""
    if located is None or not located.active or len(located.flags) != JOINT_COUNT:
        return None
    both = ORIENTATION_VALID | POSITION_VALID
    if any(flags & both != both for flags in located.flags):
        return None
    poses = []
    for (x, y, z), q in zip(located.positions, located.orientations, strict=True):
        if not (_finite((x, y, z)) and _finite(q)) or not any(q):
            return None
        rotation = spatial.normalize(spatial.quat_from_xyzw(q))
        poses.append(Pose(spatial.vec3(x, y + space_height, z), rotation))
    radii = located.radii
    if not all(math.isfinite(r) and r >= 0.0 for r in radii):
        return None
    return HandJoints(tuple(poses), tuple(radii))


def _velocity(value: _Triple, valid: int) -> Vec3 | None:
    return spatial.vec3_from(value) if valid and _finite(value) else None


def _tracking(located: LocatedPose | None, pose: DevicePose | None) -> Tracking:
    if located is None or pose is None:
        return Tracking.LOST
    return Tracking.TRACKED if located.tracked else Tracking.VALID


def _unit(value: float) -> float:
    return min(1.0, max(0.0, value)) if math.isfinite(value) else 0.0


def _axis(value: float) -> float:
    return min(1.0, max(-1.0, value)) if math.isfinite(value) else 0.0


def _hand(
    actions: HandActions,
    pose: DevicePose | None,
    primary: Button,
    secondary: Button,
    joints: HandJoints | None,
) -> HandInput:
    pressed = (
        (actions.primary, primary),
        (actions.secondary, secondary),
        (actions.menu, Button.MENU),
        (actions.stick_click, Button.STICK),
    )
    return HandInput(
        pose,
        _unit(actions.grip),
        _unit(actions.trigger),
        (_axis(actions.stick[0]), _axis(actions.stick[1])),
        frozenset(button for down, button in pressed if down),
        joints,
    )


def map_input(
    time: float, actions: ActionStates, poses: LocatedPoses, space_height: float = 0.0
) -> MappedInput:
    """The input frame at `time` (seconds) from one frame's action states and located poses.

    Analog values are clamped to their ranges and NaN reads as rest, so a glitching runtime
    cannot push the rig. `space_height` lifts LOCAL-space poses onto the floor.
    """
    head = device_pose(poses.head, space_height)
    left = device_pose(poses.left_grip, space_height)
    right = device_pose(poses.right_grip, space_height)
    frame = InputFrame(
        time,
        head,
        _hand(actions.left, left, Button.X, Button.Y, hand_joints(poses.left_joints, space_height)),
        _hand(
            actions.right, right, Button.A, Button.B, hand_joints(poses.right_joints, space_height)
        ),
    )
    status = TrackingStatus(
        _tracking(poses.head, head),
        _tracking(poses.left_grip, left),
        _tracking(poses.right_grip, right),
    )
    aim = (device_pose(poses.left_aim, space_height), device_pose(poses.right_aim, space_height))
    return MappedInput(frame, status, aim)
