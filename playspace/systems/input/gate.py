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
"""

from __future__ import annotations

import math
from dataclasses import replace

from playspace import spatial
from playspace.components.input import DevicePose, HandInput, InputFrame
from playspace.spatial import Vec3


def _finite(v: Vec3 | None) -> bool:
    return v is None or (math.isfinite(v.x) and math.isfinite(v.y) and math.isfinite(v.z))


def usable(device: DevicePose) -> DevicePose | None:
    """`device` with a unit rotation, or None when nothing in it can be used."""
    if not (_finite(device.pose.position) and _finite(device.linear_velocity)):
        return None
    if not _finite(device.angular_velocity):
        return None
    q = device.pose.rotation
    if not all(math.isfinite(c) for c in (q.x, q.y, q.z, q.w)):
        return None
    norm = q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w
    if norm < 1e-12:
        return None
    if abs(norm - 1.0) <= 1e-9:
        return device
    return replace(device, pose=replace(device.pose, rotation=spatial.normalize(q)))


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
    grip, trigger = _unit(hand.grip), _unit(hand.trigger)
    stick = (_axis(hand.stick[0]), _axis(hand.stick[1]))
    if pose is hand.pose and (grip, trigger, stick) == (hand.grip, hand.trigger, hand.stick):
        return hand
    return replace(hand, pose=pose, grip=grip, trigger=trigger, stick=stick)


def gate(frame: InputFrame) -> tuple[InputFrame, tuple[str, ...]]:
    """`frame` with every device the world cannot use untracked, and the names of those
    (``head``, ``left``, ``right``); the frame itself when all is well."""
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
