"""Hands drawn from their joints (``HandPose``): a ball at each joint and a rod along each bone,
a slab for the palm, placed each frame where late placement put the hand. CPU only (numpy):
the instance matrices of every hand's 26 joints and 24 bones, two batches for all hands.
"""

from __future__ import annotations

import numpy as np

from playspace import spatial
from playspace.components import Transform
from playspace.components.drawn import DrawnPoses
from playspace.components.hands import HandPose
from playspace.ecs import World
from playspace.render.projection import pose_matrix
from playspace.spatial import FloatArray, Pose

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


def hand_matrices(world: World) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Every shown hand's joint balls (unit spheres), bone rods (unit cylinders, along Y) and
    palm slabs (unit boxes), as world matrices."""
    drawn = world.try_resource(DrawnPoses)
    balls: list[FloatArray] = []
    rods: list[FloatArray] = []
    palms: list[FloatArray] = []
    for entity, pose in world.each(HandPose):
        if not pose.joints:  # a hand whose tracking is lost is not posed, and not drawn
            continue
        hand = pose_matrix(_drawn(world, drawn, entity))
        points = np.array([tuple(j.position) for j in pose.joints], dtype=np.float64)
        radii = np.asarray(pose.radii, dtype=np.float64)
        for point, radius in zip(points[1:], radii[1:], strict=True):  # the palm is a slab
            balls.append(hand @ _placed(point, spatial.identity(), (radius, radius, radius)))
        for start, end in BONES:
            rods.append(hand @ _rod(points[start], points[end], min(radii[start], radii[end])))
        palm = pose.joints[0]
        palms.append(hand @ _placed(points[0], palm.rotation, PALM))
    return _stacked(balls), _stacked(rods), _stacked(palms)


def _drawn(world: World, drawn: DrawnPoses | None, entity: int) -> Pose:
    placed = None if drawn is None else drawn.pose(entity)
    return placed if placed is not None else world.get(entity, Transform).pose()


def _placed(point: FloatArray, rotation: spatial.Quat, size: tuple[float, ...]) -> FloatArray:
    matrix = pose_matrix(Pose(spatial.vec3(*point), rotation))
    matrix[:3, :3] = matrix[:3, :3] * np.asarray(size)
    return matrix


def _rod(start: FloatArray, end: FloatArray, radius: float) -> FloatArray:
    """A unit cylinder (radius 1, height 1, along Y) from `start` to `end`, `radius` thick."""
    along = end - start
    length = float(np.linalg.norm(along))
    if length < 1e-6:
        return np.zeros((4, 4))  # a bone of no length draws nothing
    up = spatial.vec3(*(along / length))
    turn = spatial.rotation_between(spatial.vec3(0.0, 1.0, 0.0), up)
    return _placed((start + end) / 2, turn, (radius * 0.9, length, radius * 0.9))


def _stacked(matrices: list[FloatArray]) -> FloatArray:
    return np.array(matrices, dtype=np.float64).reshape(-1, 4, 4)
