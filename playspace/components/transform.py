"""Where an entity is in world space."""

from __future__ import annotations

from dataclasses import dataclass, field

from playspace import spatial
from playspace.spatial import Pose, Quat, Vec3


def _zero() -> Vec3:
    return spatial.vec3(0.0, 0.0, 0.0)


def _one() -> Vec3:
    return spatial.vec3(1.0, 1.0, 1.0)


@dataclass(slots=True)
class Transform:
    """Position (metres), rotation (a unit quaternion) and scale of an entity in world space.

    Systems edit its fields in place rather than replacing the component: a replacement is a
    structural change that rebuilds every query cache of the world.
    """

    position: Vec3 = field(default_factory=_zero)
    rotation: Quat = field(default_factory=spatial.identity)
    scale: Vec3 = field(default_factory=_one)

    def pose(self) -> Pose:
        """Position and rotation as a pose (the value, not a view: editing it moves nothing)."""
        return Pose(self.position, self.rotation)
