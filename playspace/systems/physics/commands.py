"""Moving a body at once: its components now, the engine's body before the step.

A teleport is a :class:`~playspace.components.physics.Teleport` sent to the
:class:`~playspace.components.physics.BodyCommands`, which the physics system applies with the
component edits (its previous pose too, so nothing is drawn in between); its Transform moves
now, so the systems after the sender see where it went.
"""

from __future__ import annotations

from playspace import spatial
from playspace.components import Transform
from playspace.components.physics import BodyCommands, Teleport
from playspace.ecs import World
from playspace.spatial import Quat, Vec3


def teleport_body(world: World, entity: int, position: Vec3, rotation: Quat | None = None) -> None:
    """Move `entity`'s body to `position` (and `rotation`, else keeping its own) at once."""
    transform = world.get(entity, Transform)
    turned = transform.rotation if rotation is None else spatial.normalize(rotation)
    command = Teleport(entity, Vec3(position), turned)  # refuses what is not finite, first
    transform.position, transform.rotation = Vec3(position), turned
    world.resource(BodyCommands).send(command)
