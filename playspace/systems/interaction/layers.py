"""Held-object collision layers (BeeBeeQ's technique), for every grabbable, with no set-up.

A held object's solid colliders leave the environment's collisions (layer ``held``), so the
virtual hand and the real hand never disagree about where the object is. Each solid collider
has a sensor twin, made when the grabbable spawns, on the ``probe`` layer that sees only the
environment. While a twin overlaps any environment collider the object is inside a wall: its
solids also stop colliding with opponents (layer ``ghost``), so nobody is hit through a wall,
and the ``ghost`` flag tells the renderer to draw it see-through. Leaving the last environment
collider brings opponent hits back. A hit on an opponent is a :class:`Hit` event.

After a drop the solids sit on ``dropped`` (everything but the player's body) until the object
no longer overlaps the body, then go back to the layers they had: an object dropped at the
player's feet never launches them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from playspace import spatial
from playspace.components import Transform
from playspace.components.interaction import Grabbable
from playspace.components.physics import Capsule, CharacterBody, Collider, Colliders
from playspace.components.rig import Rig
from playspace.ecs import Phase, World, system
from playspace.spatial import Pose
from playspace.systems.interaction.events import Hit
from playspace.systems.physics import ContactBegan, Physics, SensorEntered, SensorExited
from playspace.systems.physics.character import SKIN


@dataclass(slots=True)
class Twins:
    """Each grabbable's solid parts and their sensor twins, and what the twins overlap."""

    solids: dict[int, list[int]] = field(default_factory=dict)
    twins: dict[int, set[int]] = field(default_factory=dict)
    inside: dict[int, set[tuple[int, int]]] = field(default_factory=dict)
    seen: object = None  # the query list last scanned for new grabbables


@system(
    Phase.FIXED,
    in_set="physics_prepare",
    before=("physics_prepare",),
    reads=(Grabbable,),
    writes=(Colliders, Twins),
)
def make_twins(world: World) -> None:
    """Give every new grabbable's solid colliders a sensor twin on the probe layer."""
    twins = world.resource(Twins)
    rows = world.query(Grabbable, Colliders)
    if rows is twins.seen:
        return
    twins.seen = rows
    for entity, (_, colliders) in rows:
        if entity in twins.solids:
            continue
        solids = [i for i, c in enumerate(colliders.parts) if not c.sensor]
        twins.solids[entity] = solids
        twins.twins[entity] = set()
        twins.inside[entity] = set()
        for part in solids:
            solid = colliders.parts[part]
            twins.twins[entity].add(len(colliders.parts))
            colliders.parts.append(Collider(solid.shape, solid.offset, "probe", sensor=True))


@system(
    Phase.FIXED,
    in_set="layers",
    reads=(SensorEntered, SensorExited, ContactBegan, CharacterBody, Physics, Rig, Transform),
    writes=(Grabbable, Colliders, Twins, Hit),
)
def held_layers(world: World) -> None:
    """Ghost held objects inside the environment, restore dropped ones, report hits."""
    twins, physics = world.resource(Twins), world.resource(Physics)
    _track_overlaps(world, twins, physics)
    grabbables = world.each(Grabbable)
    for entity, grabbable in grabbables:
        if grabbable.held_by is None:
            continue
        inside = bool(twins.inside.get(entity))
        if inside != grabbable.ghost:
            parts = world.get(entity, Colliders).parts
            for part in twins.solids.get(entity, []):
                parts[part].layer = "ghost" if inside else "held"
            grabbable.ghost = inside
        if not inside:
            transform = world.get(entity, Transform)
            grabbable.last_clear = Pose(spatial.Vec3(transform.position), transform.rotation)
    _restore_dropped(world, grabbables, physics)
    _report_hits(world, physics)


def _track_overlaps(world: World, twins: Twins, physics: Physics) -> None:
    for entered in world.read_events(SensorEntered, reader=held_layers):
        mine = entered.sensor_part in twins.twins.get(entered.sensor, ())
        if mine and physics.layer_of(entered.other, entered.other_part) == "environment":
            twins.inside[entered.sensor].add((entered.other, entered.other_part))
    for exited in world.read_events(SensorExited, reader=held_layers):
        if exited.sensor_part in twins.twins.get(exited.sensor, ()):
            twins.inside[exited.sensor].discard((exited.other, exited.other_part))


def _restore_dropped(
    world: World, grabbables: list[tuple[int, Grabbable]], physics: Physics
) -> None:
    """Put a released object's solids back on their layers once it is clear of the player's
    body: dropped at the feet, it must not kick the body."""
    dropped = [(entity, g) for entity, g in grabbables if g.dropped]
    if not dropped:
        return
    rig = world.resource(Rig)
    capsule = world.get(rig.body, CharacterBody)
    feet = world.get(rig.body, Transform).position
    centre = feet + spatial.vec3(0.0, capsule.height / 2 + SKIN, 0.0)
    # on every layer: a part put on "dropped" this very step is still on its old one in the
    # engine until the step begins
    touching = {
        entity
        for entity, _ in physics.overlap(
            Capsule(capsule.radius, capsule.height), centre, spatial.identity(), None, rig.body
        )
    }
    for entity, grabbable in dropped:
        if entity not in touching:
            parts = world.get(entity, Colliders).parts
            for part, layer in grabbable.dropped.items():
                if parts[part].layer == "dropped":
                    parts[part].layer = layer
            grabbable.dropped = {}


def _report_hits(world: World, physics: Physics) -> None:
    for contact in world.read_events(ContactBegan, reader=held_layers):
        for held, other, other_part in (
            (contact.a, contact.b, contact.b_part),
            (contact.b, contact.a, contact.a_part),
        ):
            grabbable = world.try_get(held, Grabbable)
            holding = grabbable is not None and grabbable.held_by is not None
            if holding and physics.layer_of(other, other_part) == "opponents":
                ours, _ = physics.velocity(held)
                theirs, _ = physics.velocity(other)
                world.send(Hit(held, other, spatial.length(ours - theirs)))
