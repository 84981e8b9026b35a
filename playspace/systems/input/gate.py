"""The one gate every input frame passes: a pose the world cannot use is lost tracking.

Traces are checked when they load, but a scripted source, the simulator, OpenXR or a game's
own source can hand the world anything: a NaN from a tracker glitch, an infinite velocity, a
zero-length quaternion. Let through, a NaN raises deep inside a system or reaches physics,
where Rapier quarantines the body for good (a held snowball that is never seen again). So the
tracking system passes every frame through :func:`gate`: a device whose pose or velocities
are not finite, or whose rotation has no length, is *untracked* for that step, exactly as
when tracking is lost (its last good pose held, nothing thrown from it), and the step says
which devices it rejected. A rotation of any other length is normalised. Analog controls that
are not finite read as at rest, and are clamped to their ranges.

A hand's joints pass the same gate as a whole: one joint the world cannot use (or a radius
that is not a finite length, or a count other than 26) leaves the hand untracked by its joints
that step (``left.joints``), never a hand with a made-up finger. Joints that pass are then read
as the hand's controls (:mod:`playspace.systems.input.hands`: a fist grips, a pinch pulls the
trigger), so everything after the gate sees a controller.
"""

from __future__ import annotations

import math
from dataclasses import replace

from playspace import spatial
from playspace.components.input import JOINT_COUNT, DevicePose, HandInput, HandJoints, InputFrame
from playspace.spatial import Pose, Vec3
from playspace.systems.input.hands import with_hand_controls


def _finite(v: Vec3 | None) -> bool:
    return v is None or (math.isfinite(v.x) and math.isfinite(v.y) and math.isfinite(v.z))


def _usable_pose(pose: Pose) -> Pose | None:
    """`pose` with a unit rotation, or None when its position or rotation cannot be used."""
    if not _finite(pose.position):
        return None
    q = pose.rotation
    if not all(math.isfinite(c) for c in (q.x, q.y, q.z, q.w)):
        return None
    norm = q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w
    if norm < 1e-12:
        return None
    if abs(norm - 1.0) <= 1e-9:
        return pose
    return replace(pose, rotation=spatial.normalize(q))


def usable(device: DevicePose) -> DevicePose | None:
    """`device` with a unit rotation, or None when nothing in it can be used."""
    if not (_finite(device.linear_velocity) and _finite(device.angular_velocity)):
        return None
    pose = _usable_pose(device.pose)
    if pose is None:
        return None
    return device if pose is device.pose else replace(device, pose=pose)


def usable_joints(joints: HandJoints) -> HandJoints | None:
    """`joints` with unit rotations, or None when any joint or radius cannot be used."""
    if len(joints.poses) != JOINT_COUNT or len(joints.radii) != JOINT_COUNT:
        return None
    if not all(math.isfinite(r) and r >= 0.0 for r in joints.radii):
        return None
    poses = tuple(map(_usable_pose, joints.poses))
    if any(pose is None for pose in poses):
        return None
    if all(a is b for a, b in zip(poses, joints.poses, strict=True)):
        return joints
    return replace(joints, poses=tuple(p for p in poses if p is not None))


def _unit(value: float) -> float:
    return min(1.0, max(0.0, value)) if math.isfinite(value) else 0.0


def _axis(value: float) -> float:
    return min(1.0, max(-1.0, value)) if math.isfinite(value) else 0.0


def _hand(hand: HandInput, name: str, rejected: list[str]) -> HandInput:
    pose = hand.pose
    if pose is not None:
        pose = usable(pose)
        if pose is None:
            rejected.append(name)
    joints = hand.joints
    if joints is not None:
        joints = usable_joints(joints)
        if joints is None:
            rejected.append(f"{name}.joints")
    grip, trigger = _unit(hand.grip), _unit(hand.trigger)
    stick = (_axis(hand.stick[0]), _axis(hand.stick[1]))
    if (
        pose is not hand.pose
        or joints is not hand.joints
        or (grip, trigger, stick) != (hand.grip, hand.trigger, hand.stick)
    ):
        hand = replace(hand, pose=pose, grip=grip, trigger=trigger, stick=stick, joints=joints)
    return with_hand_controls(hand)


def gate(frame: InputFrame) -> tuple[InputFrame, tuple[str, ...]]:
    """`frame` with every device the world cannot use untracked, and the names of those
    (``head``, ``left``, ``right``, ``left.joints``, ``right.joints``), hands with joints read
    as controllers; the frame itself when all is well."""
    rejected: list[str] = []
    head = frame.head
    if head is not None:
        head = usable(head)
        if head is None:
            rejected.append("head")
    left, right = _hand(frame.left, "left", rejected), _hand(frame.right, "right", rejected)
    if head is frame.head and left is frame.left and right is frame.right:
        return frame, ()
    return replace(frame, head=head, left=left, right=right), tuple(rejected)
