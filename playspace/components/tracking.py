"""Tracked devices: what the headset and the controllers report, in tracking space."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from playspace.components.input import Button, HandJoints
from playspace.spatial import Pose, Vec3


class DeviceRole(Enum):
    """Which tracked device an entity stands for; the values are the names used in files."""

    HEAD = "head"
    LEFT_HAND = "left_hand"
    RIGHT_HAND = "right_hand"


@dataclass(slots=True)
class TrackedDevice:
    """The latest sample of one tracked device.

    `pose` is in tracking space (the physical room, floor at y = 0), not in the world: the rig's
    origin maps it into the world. Velocities are None when the source does not report them
    (the throw then estimates them from the pose history). `tracked` is False while the device
    is lost; the pose then keeps its last good value and must not drive anything.
    `time_ns` is when the sample is valid, on the input source's clock. `joints` are a hand's
    26 tracked joints, in tracking space too, while a hand tracker sees the bare hand (None
    otherwise, and for the head). `bare` says the pose is the palm's, read from the joints of
    a hand that holds no controller (a controller that also reports joints, an Index, is posed
    by its grip).
    """

    role: DeviceRole
    pose: Pose = field(default_factory=Pose.identity)
    linear_velocity: Vec3 | None = None
    angular_velocity: Vec3 | None = None
    tracked: bool = False
    time_ns: int = 0
    joints: HandJoints | None = None
    bare: bool = False


@dataclass(slots=True)
class HandControls:
    """On each hand: its controls at this step, as the input source gave them (a bare hand's
    read from its joints: a fist grips, a pinch pulls the trigger).

    They live on the hand, as Godot's XRController3D and XRI's controller carry their inputs,
    so a system reads the hand it works with, and in a world of several players each player's
    hands their own. `grip` and `trigger` are in [0, 1]; `stick` is (x, y) in [-1, 1], +y
    pushed forward.
    """

    grip: float = 0.0
    trigger: float = 0.0
    stick: tuple[float, float] = (0.0, 0.0)
    buttons: frozenset[Button] = frozenset()
