"""Where a sound comes from: where its entity is drawn this frame (placed in LATE), else its
Transform."""

from __future__ import annotations

from collections.abc import Sequence

from playspace.components import Transform
from playspace.components.drawn import DrawnPoses
from playspace.ecs import World

Place = tuple[float, float, float]


def drawn_at(world: World, entity: int) -> Place | None:
    """Where `entity` is drawn this frame; None for an entity with no place (gone)."""
    return drawn_many(world, (entity,))[0]


def drawn_many(world: World, entities: Sequence[int]) -> list[Place | None]:
    """Where each of `entities` is drawn this frame (None: gone): every voice that follows
    an entity, and every body that may roll, asks each frame."""
    drawn = world.try_resource(DrawnPoses)
    if drawn is None:
        return [_placed(world, entity) for entity in entities]
    rows, positions = drawn.rows, drawn.positions
    places: list[Place | None] = []
    for entity in entities:
        row = rows.get(entity)
        if row is None:
            places.append(_placed(world, entity))
        else:
            x, y, z = positions[row].tolist()
            places.append((x, y, z))
    return places


def _placed(world: World, entity: int) -> Place | None:
    transform = world.try_get(entity, Transform)
    if transform is None:
        return None
    p = transform.position
    return (p.x, p.y, p.z)
