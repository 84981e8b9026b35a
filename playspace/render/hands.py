"""Hands drawn from their joints (``HandPose``): a ball at each joint and a rod along each bone,
a slab for the palm, placed each frame where late placement put the hand. CPU only (numpy):
the instance matrices of every hand's 26 joints and 24 bones, two batches for all hands.
"""

from __future__ import annotations

import numpy as np

from playspace.components import Transform
from playspace.components.drawn import DrawnPoses
from playspace.components.hands import HandPose
from playspace.ecs import World
from playspace.spatial import FloatArray, Pose, pose_matrix

# Each bone of a hand: from one joint to the next, in XR_EXT_hand_tracking's order. The thumb
# starts at the wrist (1), each finger's chain at its metacarpal.
BONES = (
    (1, 2), (2, 3), (3, 4), (4, 5),
    (1, 6), (6, 7), (7, 8), (8, 9), (9, 10),
    (1, 11), (11, 12), (12, 13), (13, 14), (14, 15),
    (1, 16), (16, 17), (17, 18), (18, 19), (19, 20),
    (1, 21), (21, 22), (22, 23), (23, 24), (24, 25),
)  # fmt: skip
PALM = (0.075, 0.018, 0.07)  # the slab between the wrist and the knuckles: across, thick, long
KEPT = 64  # hands' parts kept made, by pose
_MADE: dict[int, tuple[tuple[Pose, ...], tuple[FloatArray, FloatArray, FloatArray]]] = {}


def hand_matrices(world: World) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Every shown hand's joint balls (unit spheres), bone rods (unit cylinders, along Y) and
    palm slabs (unit boxes), as world matrices: numpy over each hand's joints at once."""
    drawn = world.try_resource(DrawnPoses)
    balls: list[FloatArray] = []
    rods: list[FloatArray] = []
    palms: list[FloatArray] = []
    for entity, pose in world.each(HandPose):
        if not pose.joints:  # a hand whose tracking is lost is not posed, and not drawn
            continue
        hand = pose_matrix(_drawn(world, drawn, entity))
        own_balls, own_rods, own_palm = _parts(pose.joints, pose.radii)
        balls.append(hand @ own_balls)
        rods.append(hand @ own_rods)
        palms.append(hand @ own_palm)
    return _stacked(balls), _stacked(rods), _stacked(palms)


def _drawn(world: World, drawn: DrawnPoses | None, entity: int) -> Pose:
    placed = None if drawn is None else drawn.pose(entity)
    return placed if placed is not None else world.get(entity, Transform).pose()


def _parts(
    joints: tuple[Pose, ...], radii: tuple[float, ...]
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """A hand's balls, rods and palm in its own frame, made once for each pose (a posed hand
    comes back to the same joints; a tracked one brings new joints each frame)."""
    key = id(joints)
    found = _MADE.pop(key, None)
    if found is None or found[0] is not joints:
        points = np.array([tuple(j.position) for j in joints], dtype=np.float64)
        sizes = np.asarray(radii, dtype=np.float64)
        palm = pose_matrix(joints[0])
        palm[:3, :3] = palm[:3, :3] * np.asarray(PALM)
        found = (joints, (_balls(points[1:], sizes[1:]), _rods(points, sizes), palm[None]))
    _MADE[key] = found
    while len(_MADE) > KEPT:
        del _MADE[next(iter(_MADE))]
    return found[1]


def _balls(points: FloatArray, radii: FloatArray) -> FloatArray:
    """Unit spheres scaled to `radii` at `points`: (N, 4, 4)."""
    matrices = np.zeros((len(points), 4, 4))
    matrices[:, [0, 1, 2], [0, 1, 2]] = radii[:, None]
    matrices[:, :3, 3] = points
    matrices[:, 3, 3] = 1.0
    return matrices


def _rods(points: FloatArray, radii: FloatArray) -> FloatArray:
    """A unit cylinder (radius 1, height 1, along Y) along each bone, as thick as the thinner
    of its joints: (len(BONES), 4, 4); a bone of no length is drawn as nothing."""
    start, end = points[_STARTS], points[_ENDS]
    along = end - start
    length = np.linalg.norm(along, axis=1)
    up = along / np.maximum(length, 1e-9)[:, None]
    side = _cross(up, np.broadcast_to([0.0, 0.0, 1.0], up.shape))
    flat = np.linalg.norm(side, axis=1) < 1e-6  # a bone along Z: any other side will do
    side[flat] = _cross(up[flat], np.broadcast_to([1.0, 0.0, 0.0], up[flat].shape))
    side /= np.linalg.norm(side, axis=1)[:, None]
    front = _cross(side, up)
    thick = np.minimum(radii[_STARTS], radii[_ENDS]) * 0.9
    matrices = np.zeros((len(_STARTS), 4, 4))
    matrices[:, :3, 0] = side * thick[:, None]
    matrices[:, :3, 1] = up * length[:, None]
    matrices[:, :3, 2] = front * thick[:, None]
    matrices[:, :3, 3] = (start + end) / 2
    matrices[:, 3, 3] = 1.0
    matrices[length < 1e-6] = 0.0
    return matrices


def _cross(a: FloatArray, b: FloatArray) -> FloatArray:
    """Row-wise cross products, without numpy.cross's axis shuffling (a tenth of its time)."""
    out: FloatArray = a[:, [1, 2, 0]] * b[:, [2, 0, 1]] - a[:, [2, 0, 1]] * b[:, [1, 2, 0]]
    return out


def _stacked(matrices: list[FloatArray]) -> FloatArray:
    return np.concatenate(matrices) if matrices else np.zeros((0, 4, 4))


_STARTS = np.array([start for start, _ in BONES])
_ENDS = np.array([end for _, end in BONES])
