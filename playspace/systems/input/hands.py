"""Bare hands as controllers: a fist grips, a pinch pulls the trigger, the palm is the pose.

A hand tracker (``XR_EXT_hand_tracking``) reports 26 joints and no buttons. So that grabbing,
throwing and pointing work with bare hands as they do with a controller, a hand with joints is
read the way OpenXR's hand interaction profile (``XR_EXT_hand_interaction``) reads it:

- **trigger** (``pinch``) is how close the thumb tip is to the index tip: touching is 1, a
  finger's width and more apart is 0;
- **grip** is the stronger of the pinch and the grasp: how far the middle, ring and little
  fingers are curled into the palm (a fist is 1, an open hand 0; the index is left out, so a
  poke does not grip). So both a pinch and a fist grab, as in Meta's Interaction SDK;
- **pose**, where the hand has no controller pose, is the palm's: at the palm joint, its -Z
  along the palm towards the fingers and its +Y towards the thumb side (little to index
  knuckles), so an open hand held out as in a handshake is posed as a controller held there.
  Its +X is then the palm's normal, out of the back of a right hand and out of the palm of a
  left one, as in OpenXR's grip pose. The grip's -Z runs along the fist's tube, little finger
  to thumb; the palm's runs along the straight fingers, which is what a flat hand's shape
  needs (a physics hand turns its shape to suit: ``TrackedDevice.bare``).

Where a controller also reports joints (an Index), the stronger of its own grip and trigger
and the hand's wins: neither way of grabbing is lost. The poke for buttons is the index tip,
``joints.pose(HandJoint.INDEX_TIP)``.

Curls are measured against the hand's own size (wrist to middle knuckle), so a child's fist
and an adult's read alike. :func:`finger_curls` is also what a feeder sends a runtime that
synthesises hands from curls (Monado's remote driver, :mod:`playspace.xr.monado`).
"""

from __future__ import annotations

import math
from dataclasses import replace

from playspace import spatial
from playspace.components.input import DevicePose, HandInput, HandJoint, HandJoints
from playspace.spatial import Pose, Vec3

# A finger tip's distance to the palm joint, in hand sizes (wrist to middle knuckle): at the
# first value or more the finger is straight (curl 0), at the second or less curled in (1).
# Monado's simulated hand (the Index's finger model) reaches 1.10, 1.17, 1.18, 1.06 and 0.91
# straight and 0.37, 0.46, 0.29, 0.32 and 0.37 in a fist (thumb to little finger).
REACH: dict[HandJoint, tuple[float, float]] = {
    HandJoint.THUMB_TIP: (1.0, 0.45),
    HandJoint.INDEX_TIP: (1.05, 0.5),
    HandJoint.MIDDLE_TIP: (1.05, 0.4),
    HandJoint.RING_TIP: (0.95, 0.4),
    HandJoint.LITTLE_TIP: (0.8, 0.45),
}
# The gap between the thumb's and the index's tip surfaces (centre distance less both radii),
# metres: PINCH_TOUCH or less is a full pinch, PINCH_OPEN or more none.
PINCH_TOUCH = 0.005
PINCH_OPEN = 0.03

_GRIPPING = (2, 3, 4)  # middle, ring, little in finger_curls' order


def _distance(joints: HandJoints, a: HandJoint, b: HandJoint) -> float:
    return spatial.length(joints.poses[a].position - joints.poses[b].position)


def _ramp(value: float, zero: float, one: float) -> float:
    """0 at `zero`, 1 at `one`, linear between and clamped outside."""
    return min(1.0, max(0.0, (value - zero) / (one - zero)))


def hand_size(joints: HandJoints) -> float:
    """Wrist to middle knuckle, metres: the length the curls are measured in."""
    return _distance(joints, HandJoint.WRIST, HandJoint.MIDDLE_PROXIMAL)


def finger_curls(joints: HandJoints) -> Curls:
    """How far each finger is curled, 0 straight to 1 in a fist: thumb, index, middle, ring,
    little (a finger tip's distance to the palm, in hand sizes)."""
    size = hand_size(joints)
    if not size > 1e-4:  # a hand of no size (all joints in one place): nothing is curled
        return (0.0, 0.0, 0.0, 0.0, 0.0)
    thumb, index, middle, ring, little = (
        _ramp(_distance(joints, tip, HandJoint.PALM) / size, straight, fist)
        for tip, (straight, fist) in REACH.items()
    )
    return (thumb, index, middle, ring, little)


def grasp(joints: HandJoints) -> float:
    """The grip a hand makes: the mean curl of the middle, ring and little fingers."""
    curls = finger_curls(joints)
    return math.fsum(curls[i] for i in _GRIPPING) / len(_GRIPPING)


def pinch(joints: HandJoints) -> float:
    """The trigger a hand pulls: 1 with the thumb tip on the index tip, 0 a finger apart."""
    thumb, index = HandJoint.THUMB_TIP, HandJoint.INDEX_TIP
    gap = _distance(joints, thumb, index) - joints.radii[thumb] - joints.radii[index]
    return _ramp(gap, PINCH_OPEN, PINCH_TOUCH)


def palm_pose(joints: HandJoints) -> Pose:
    """The hand's pose from its palm: -Z along the palm to the fingers, +Y to the thumb side,
    +X the palm's normal (OpenXR's grip pose has its X there too)."""
    palm = joints.poses[HandJoint.PALM]
    forward = spatial.rotate(palm.rotation, spatial.vec3(0.0, 0.0, -1.0))
    across: Vec3 = (
        joints.poses[HandJoint.INDEX_PROXIMAL].position
        - joints.poses[HandJoint.LITTLE_PROXIMAL].position
    )
    return Pose(palm.position, spatial.look_rotation(forward, across))


Triple = tuple[float, float, float]
Curls = tuple[float, float, float, float, float]  # thumb, index, middle, ring, little: 0 to 1
KNUCKLES = (-0.02, 0.0, 0.02, 0.035)  # index, middle, ring, little across a right hand, metres
FINGERS = (0.075, 0.075, 0.075, 0.06)  # their lengths from the knuckle to the tip


def posed_hand(at: Triple, curls: Curls = (0.0,) * 5, pinch: float = 0.0) -> HandJoints:
    """A right hand as a hand tracker would see it, for scripts, tests and recorded examples
    where no tracker is: palm down, fingers forward (-Z), its palm joint at `at` (tracking
    space), each finger curled as `curls` says (0 straight, 1 in the palm), `pinch` (0 to 1)
    bringing the thumb tip onto the index tip. Every joint is turned as the hand is (OpenXR's
    joint frame), finger joints lie evenly from the knuckle to the tip, radii 8 mm."""
    points: dict[int, Triple] = {HandJoint.PALM: (0.0, 0.0, 0.0), HandJoint.WRIST: (0, 0, 0.045)}
    for finger, (x, length) in enumerate(zip(KNUCKLES, FINGERS, strict=True)):
        knuckle = (x, 0.0, -0.045)
        tip = _between((x, 0.0, -0.045 - length), (x * 0.5, -0.025, -0.01), curls[finger + 1])
        first = HandJoint.INDEX_METACARPAL + 5 * finger
        points[first] = (x, 0.0, 0.0)
        for step in range(4):  # proximal (the knuckle), intermediate, distal, tip
            points[first + 1 + step] = _between(knuckle, tip, step / 3)
    thumb_tip = _between((-0.08, 0.0, -0.06), (-0.01, -0.03, -0.03), curls[0])
    thumb_tip = _between(thumb_tip, points[HandJoint.INDEX_TIP], pinch)
    for step in range(4):  # metacarpal, proximal, distal, tip
        points[HandJoint.THUMB_METACARPAL + step] = _between(
            (-0.03, -0.01, 0.02), thumb_tip, step / 3
        )
    poses = tuple(
        Pose(spatial.vec3(*at) + spatial.vec3(*points[j]), spatial.identity())
        for j in range(len(HandJoint))
    )
    return HandJoints(poses, (0.008,) * len(HandJoint))


def _between(a: Triple, b: Triple, k: float) -> Triple:
    """The point `k` of the way from `a` to `b`."""
    return (a[0] + (b[0] - a[0]) * k, a[1] + (b[1] - a[1]) * k, a[2] + (b[2] - a[2]) * k)


def with_hand_controls(hand: HandInput) -> HandInput:
    """`hand` read as a controller where it has joints (see the module docstring); as it is
    where it has none."""
    joints = hand.joints
    if joints is None:
        return hand
    pinched = pinch(joints)
    grip = max(hand.grip, grasp(joints), pinched)
    trigger = max(hand.trigger, pinched)
    pose = hand.pose if hand.pose is not None else DevicePose(palm_pose(joints))
    return replace(hand, pose=pose, grip=grip, trigger=trigger)
