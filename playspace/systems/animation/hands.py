"""Hands with fingers: each hand's 26 joints posed once a frame in LATE, from how far its fingers
are curled (a controller's trigger, grip and thumb; what it holds) or from the tracked joints of
a bare hand, for whatever draws the world (:class:`~playspace.components.hands.HandPose`).

The skeleton is built in the wrist's frame (x toward the little finger, y the back of the
hand, -z toward the fingers), each joint's -Z along its bone and +Y the back of the hand, as
OpenXR orients tracked joints, so a tracked hand and a posed one are drawn alike. Each finger
bends at its three joints toward the palm; the thumb across it. The wrist sits behind the
grip point, the palm toward the controller's handle.
"""

from __future__ import annotations

import math

from playspace import spatial
from playspace.components.hands import (
    FingerCurls,
    HandDisplay,
    HandPose,
    HandSkeleton,
    HoldPose,
)
from playspace.components.input import Button
from playspace.components.interaction import Hand, Holding
from playspace.components.tracking import DeviceRole, HandControls, TrackedDevice
from playspace.ecs import Phase, World, system
from playspace.spatial import Pose
from playspace.systems.sets import LateSet, add_late_sets

BENDS = (math.radians(80), math.radians(100), math.radians(70))  # a finger's joints, closed
THUMB_BENDS = (math.radians(25), math.radians(45), math.radians(60))
RELAXED = 0.12  # a hand at rest is a little curled, never a flat board
THUMB_DOWN = 0.9  # a thumb on a button or the stick
KEPT = 256  # hand poses kept made
_POSED: dict[tuple[object, ...], tuple[tuple[Pose, ...], tuple[float, ...]]] = {}
_X = spatial.vec3(1.0, 0.0, 0.0)
_UP = spatial.vec3(0.0, 1.0, 0.0)
_FORWARD = spatial.vec3(0.0, 0.0, -1.0)


def skeleton(curls: FingerCurls, left: bool, bones: HandSkeleton) -> tuple[list[Pose], list[float]]:
    """The 26 joints of a hand curled so, in the hand's (grip point's) frame, and their radii."""
    side = -1.0 if left else 1.0
    poses: list[Pose] = [Pose.identity(), Pose.identity()]  # palm (below), wrist
    radii = [0.02, 0.016]
    poses += _thumb(curls.thumb, side, bones)
    radii += [0.013, 0.011, 0.0095, 0.008]
    for finger, curl in enumerate((curls.index, curls.middle, curls.ring, curls.little)):
        poses += _finger(finger, curl, side, bones)
        scale = 0.85 if finger == 3 else 1.0
        radii += [r * scale for r in (0.011, 0.0105, 0.0095, 0.0085, 0.0075)]
    middle = spatial.vec3(*bones.knuckles[1])
    poses[0] = Pose(middle * 0.5, spatial.identity())
    placed = _wrist_in_grip(left)
    return [_compose(placed, pose) for pose in poses], radii


def _skeleton(
    curls: FingerCurls, left: bool, bones: HandSkeleton
) -> tuple[tuple[Pose, ...], tuple[float, ...]]:
    """:func:`skeleton` as tuples, made once for each pose a hand comes back to (at rest, a
    fist, a held object's), kept for the newest :data:`KEPT` poses."""
    key = (curls, left, id(bones))
    found = _POSED.pop(key, None)
    if found is None:
        joints, radii = skeleton(curls, left, bones)
        found = (tuple(joints), tuple(radii))
    _POSED[key] = found
    while len(_POSED) > KEPT:
        del _POSED[next(iter(_POSED))]
    return found


def _finger(finger: int, curl: float, side: float, bones: HandSkeleton) -> list[Pose]:
    x, y, z = bones.knuckles[finger]
    knuckle = spatial.vec3(x * side, y, z)
    base = spatial.vec3(x * side * 0.7, -0.004, -0.022)
    chain = [Pose(base, spatial.look_rotation(knuckle - base, _UP))]
    turn = spatial.look_rotation(_FORWARD, _UP)
    at = knuckle
    for length, bend in zip(bones.bones[finger], BENDS, strict=True):
        turn = turn * spatial.from_axis_angle(_X, -bend * curl)
        chain.append(Pose(at, turn))
        at = at + spatial.rotate(turn, spatial.vec3(0.0, 0.0, -length))
    chain.append(Pose(at, turn))
    return chain


def _thumb(curl: float, side: float, bones: HandSkeleton) -> list[Pose]:
    x, y, z = bones.thumb_base
    at = spatial.vec3(x * side, y, z)
    toward = spatial.vec3(-0.35 * side, -0.2, -0.9)
    nail = spatial.vec3(-0.7 * side, 0.7, 0.0)
    turn = spatial.look_rotation(toward, nail)
    chain = []
    for length, bend in zip(bones.thumb_bones, (*THUMB_BENDS, 0.0), strict=True):
        chain.append(Pose(at, turn))
        at = at + spatial.rotate(turn, spatial.vec3(0.0, 0.0, -length))
        turn = turn * spatial.from_axis_angle(_X, -bend * curl)
    return chain


def _wrist_in_grip(left: bool) -> Pose:
    """Where the wrist sits in the grip point's frame: behind it, the back of the hand outward,
    the thumb up, the fingers wrapping the handle."""
    roll = spatial.from_axis_angle(
        spatial.vec3(0.0, 0.0, 1.0), math.pi / 2 if left else -math.pi / 2
    )
    return Pose(spatial.vec3(-0.025 if left else 0.025, -0.015, 0.075), roll)


def _compose(outer: Pose, inner: Pose) -> Pose:
    return Pose(
        outer.position + spatial.rotate(outer.rotation, inner.position),
        outer.rotation * inner.rotation,
    )


def from_controls(controls: HandControls) -> FingerCurls:
    """How a hand on a controller is curled: the trigger's finger, the grip's three, and the
    thumb down on a button or the stick (else following the grip)."""
    thumb_down = bool(controls.buttons & {Button.A, Button.B, Button.X, Button.Y, Button.STICK})
    thumb_down = thumb_down or math.hypot(*controls.stick) > 0.1
    grip = max(controls.grip, RELAXED)
    return FingerCurls(
        THUMB_DOWN if thumb_down else max(0.9 * controls.grip, RELAXED),
        max(controls.trigger, RELAXED),
        grip,
        grip,
        grip,
    )


def _eased(now: FingerCurls | None, target: FingerCurls, step: float) -> FingerCurls:
    """`now` moved toward `target` by at most `step` a finger."""
    if now is None or step >= 1.0:
        return target
    names = ("thumb", "index", "middle", "ring", "little")
    moved = []
    for name in names:
        a, b = getattr(now, name), getattr(target, name)
        moved.append(a + max(-step, min(step, b - a)))
    return FingerCurls(*moved)


@system(
    Phase.LATE,
    in_set=LateSet.HANDS,
    reads=(Hand, Holding, HoldPose, HandControls, TrackedDevice, HandSkeleton, HandDisplay),
    writes=(HandPose,),
)
def pose_hands(world: World) -> None:
    """Pose every hand: a bare hand from its joints, a controller's from its controls, and a
    hand holding an object that says how it is held, that way (eased in)."""
    bones = world.resource(HandSkeleton)
    if not world.resource(HandDisplay).hands:
        return
    dt = world.time.delta
    for entity, (hand, device) in world.query(Hand, TrackedDevice):
        pose = world.try_get(entity, HandPose)
        if pose is None:  # the first frame the hand is seen
            pose = HandPose()
            world.add(entity, pose)
        if not device.tracked:  # lost: drawn nowhere, as a lost controller is hidden
            pose.joints, pose.radii = (), ()
            continue
        if device.joints is not None:
            inverse = spatial.invert(device.pose)
            pose.joints = tuple(_compose(inverse, joint) for joint in device.joints.poses)
            pose.radii, pose.curls = device.joints.radii, None
            continue
        target, ease = _target(world, entity)
        curls = _eased(pose.curls, target, dt / ease if ease > 0 else 1.0)
        if curls == pose.curls and pose.joints:
            continue  # posed so last frame: most frames, a hand's controls stand still
        pose.curls = curls
        pose.joints, pose.radii = _skeleton(curls, hand.side is DeviceRole.LEFT_HAND, bones)


def _target(world: World, hand: int) -> tuple[FingerCurls, float]:
    holding = world.try_get(hand, Holding)
    held = None if holding is None or holding.object is None else holding.object
    hold = None if held is None else world.try_get(held, HoldPose)
    if hold is not None:
        return hold.curls, hold.ease
    controls = world.try_get(hand, HandControls)
    return from_controls(controls or HandControls()), 0.05


class HandPosePlugin:
    """Hands with fingers at every player's hands (``HandDisplay`` chooses hands, controllers
    or both; ``HandSkeleton`` their size)."""

    def build(self, world: World) -> None:
        add_late_sets(world)
        if world.try_resource(HandSkeleton) is None:
            world.insert_resource(HandSkeleton())
        if world.try_resource(HandDisplay) is None:
            world.insert_resource(HandDisplay())
        world.add_systems(pose_hands)


__all__ = ["HandPosePlugin", "from_controls", "pose_hands", "skeleton"]
