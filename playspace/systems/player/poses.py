"""Pose arithmetic of the rig: the floor point, turning; and which of the rig's entities is a
hand. Tracking space into the world is :mod:`playspace.systems.input.placement`'s."""

from __future__ import annotations

from playspace import spatial
from playspace.components import DeviceRole, Transform
from playspace.components.rig import Rig
from playspace.spatial import Pose, Vec3


def floor_point(head: Pose, neck_offset: float) -> Vec3:
    """Where the player stands: the neck below the eyes (`neck_offset` behind them, along the
    head's yaw), at the height of the head's own floor (y = 0 of `head`'s frame is not known
    here, so the caller's y is kept: only x and z are meaningful)."""
    back = spatial.rotate(spatial.yaw_rotation(spatial.yaw(head.rotation)), spatial.vec3(0, 0, 1))
    return head.position + back * neck_offset


def turn_around(origin: Transform, pivot: Vec3, angle: float) -> None:
    """Turn the origin by `angle` about +Y through the world point `pivot` (the head).

    The pivot is a world point and the rotation is applied in the world, so the head stays put
    however the origin was already turned (Godot's guide offsets the pivot in origin space,
    and its camera drifts after the first turn).
    """
    turn = spatial.yaw_rotation(angle)
    offset = origin.position - pivot
    offset.y = 0.0
    moved = spatial.rotate(turn, offset)
    origin.position = spatial.vec3(pivot.x + moved.x, origin.position.y, pivot.z + moved.z)
    origin.rotation = spatial.normalize(spatial.multiply(turn, origin.rotation))


def horizontal(v: Vec3) -> Vec3:
    return spatial.vec3(v.x, 0.0, v.z)


def hand_entity(rig: Rig, role: DeviceRole) -> int:
    """The rig's entity for the hand `role` (left or right)."""
    return rig.left_hand if role is DeviceRole.LEFT_HAND else rig.right_hand
