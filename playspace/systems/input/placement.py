"""Tracked devices placed in the world: the head and hands, from tracking space through their
player's origin.

One function does it, :func:`tracked_world_pose`, for the fixed step (:func:`place_tracked`,
once the origin is where locomotion and slope quantization left it) and for what is drawn at
the display time (``playspace.systems.drawn``, from the freshest tracked poses): the two can
differ only by the input they are given, never by how they place it.
"""

from __future__ import annotations

from playspace import spatial
from playspace.components import TrackedDevice, Transform
from playspace.components.rig import Rig
from playspace.ecs import Phase, World, system
from playspace.spatial import Pose
from playspace.systems.sets import FixedSet


def tracked_world_pose(origin: Pose, tracked: Pose) -> Pose:
    """A tracking-space pose (a head's, a hand's) in the world, through the player's origin."""
    return spatial.compose(origin, tracked)


@system(
    Phase.FIXED,
    in_set=FixedSet.PLACEMENT,
    reads=(Rig, TrackedDevice),
    writes=(Transform,),
)
def place_tracked(world: World) -> None:
    """Put each player's head and hands in the world through their origin as it finally is
    this step."""
    for _, rig in world.each(Rig):
        origin = world.get(rig.origin, Transform).pose()
        for entity in (rig.head, rig.left_hand, rig.right_hand):
            pose = tracked_world_pose(origin, world.get(entity, TrackedDevice).pose)
            transform = world.get(entity, Transform)
            transform.position, transform.rotation = pose.position, pose.rotation
