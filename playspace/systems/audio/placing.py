"""Where a sound comes from: where its entity is drawn this frame (placed in LATE), else its
Transform."""

from __future__ import annotations

from playspace.components import Transform
from playspace.components.drawn import DrawnPoses
from playspace.ecs import World


def drawn_at(world: World, entity: int) -> tuple[float, float, float] | None:
    """Where `entity` is drawn this frame; None for an entity with no place (gone)."""
    drawn = world.try_resource(DrawnPoses)
    row = None if drawn is None else drawn.rows.get(entity)
    if drawn is not None and row is not None:
        x, y, z = drawn.positions[row].tolist()
        return (x, y, z)
    transform = world.try_get(entity, Transform)
    if transform is None:
        return None
    p = transform.position
    return (p.x, p.y, p.z)
