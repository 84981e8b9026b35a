"""Where a sound comes from: where its entity is drawn this frame (placed in LATE), else its
Transform."""

from __future__ import annotations

from playspace.components import Transform
from playspace.components.drawn import DrawnPoses
from playspace.ecs import World


def drawn_at(world: World, entity: int) -> tuple[float, float, float] | None:
    """Where `entity` is drawn this frame; None for an entity with no place (gone)."""
    drawn = world.try_resource(DrawnPoses)
    pose = None if drawn is None else drawn.pose(entity)
    if pose is None:
        transform = world.try_get(entity, Transform)
        pose = None if transform is None else transform.pose()
    if pose is None:
        return None
    p = pose.position
    return (p.x, p.y, p.z)
