"""Held-object collision layers (BeeBeeQ's technique), for every grabbable, with no set-up.

A held object's solid colliders leave the environment's collisions (layer ``held``), so the
virtual hand and the real hand never disagree about where the object is. While it is held,
each solid collider has a sensor twin, a little smaller than it (resting on a counter is not
being inside it), on the ``probe`` layer, which sees only the environment;
twins are made at the grab and removed at the let-go (through the object's ``Colliders``, the
way into physics), so a level of resting grabbables carries no second collider each. While a
twin overlaps any environment collider the object is inside a wall: its solids also stop
colliding with opponents (layer ``ghost``), so nobody is hit through a wall, and the ``ghost``
flag tells the renderer to draw it see-through. Leaving the last environment collider brings
opponent hits back. A hit on an opponent is a :class:`Hit` event.

After a drop the solids sit on ``dropped`` (everything but the player's body) until the object
no longer overlaps the body, then go back to the layers they had: an object dropped at the
player's feet never launches them.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from playspace import spatial
from playspace.components import Transform
from playspace.components.interaction import Grabbable
from playspace.components.physics import (
    Box,
    Capsule,
    CharacterBody,
    Collider,
    Colliders,
    Cylinder,
    Shape,
    Sphere,
)
from playspace.components.rig import Rig
from playspace.ecs import Phase, World, system
from playspace.spatial import Pose
from playspace.systems.interaction.events import Grabbed, Hit, LetGo
from playspace.systems.physics import ContactBegan, Physics, SensorEntered, SensorExited
from playspace.systems.physics.character import SKIN
from playspace.systems.sets import FixedSet

RESTING = 0.005  # metres a twin is smaller than its solid: touching is not being inside


@dataclass(slots=True)
class HeldSensors:
    """The layers system's own index: each held object's sensor twins and what they overlap
    (its solid parts are the ones its ``Grabbable.before`` records); and the objects let go of
    whose solids wait, on ``dropped``, to be clear of the player's body. A resource."""

    sensors: dict[int, set[int]] = field(default_factory=dict)
    inside: dict[int, set[tuple[int, int]]] = field(default_factory=dict)
    dropped: set[int] = field(default_factory=set)


@system(
    Phase.FIXED,
    in_set=FixedSet.LAYERS,
    reads=(
        Grabbed,
        LetGo,
        SensorEntered,
        SensorExited,
        ContactBegan,
        CharacterBody,
        Physics,
        Rig,
        Transform,
    ),
    writes=(Grabbable, Colliders, HeldSensors, Hit),
)
def held_layers(world: World) -> None:
    """Give a grabbed object its twins and take them from one let go; ghost held objects
    inside the environment, restore dropped ones, report hits."""
    held, physics = world.resource(HeldSensors), world.resource(Physics)
    _follow_holds(world, held, physics)
    _track_overlaps(world, held, physics)
    for entity in held.sensors:
        grabbable = world.try_get(entity, Grabbable)
        if grabbable is None or grabbable.before is None:
            continue  # despawned during this step: forgotten at the next
        inside = bool(held.inside.get(entity))
        if inside != grabbable.ghost:
            parts = world.get_mut(entity, Colliders).parts
            for part in grabbable.before.layers:  # the solids
                parts[part] = replace(parts[part], layer="ghost" if inside else "held")
            grabbable.ghost = inside
        if not inside:
            transform = world.get(entity, Transform)
            grabbable.last_clear = Pose(spatial.Vec3(transform.position), transform.rotation)
    _restore_dropped(world, held, physics)
    _report_hits(world, physics)


def _follow_holds(world: World, held: HeldSensors, physics: Physics) -> None:
    """HeldSensors for what was grabbed this step, none for what was let go: made and removed
    through the object's Colliders, so physics builds and frees them at its one way in."""
    for grabbed in world.read_events(Grabbed, reader=held_layers):
        colliders = world.try_get(grabbed.object, Colliders)
        grabbable = world.try_get(grabbed.object, Grabbable)
        if colliders is None or grabbable is None or grabbable.before is None:
            continue  # despawned since the grab
        if grabbed.object in held.sensors:
            continue  # taken from the other hand: it has its sensors
        world.set_changed(grabbed.object, Colliders)
        held.dropped.discard(grabbed.object)
        solids = list(grabbable.before.layers)  # what the grab recorded of its solid parts
        held.sensors[grabbed.object] = set(
            range(len(colliders.parts), len(colliders.parts) + len(solids))
        )
        # what the twins will overlap, known now: their sensor events start next step
        pose = world.get(grabbed.object, Transform).pose()
        held.inside[grabbed.object] = inside = set()
        for part in solids:
            solid = colliders.parts[part]
            inner = inner_shape(solid.shape)
            colliders.parts.append(Collider(inner, solid.offset, "probe", sensor=True))
            at = spatial.compose(pose, solid.offset)
            found = physics.overlap(inner, at.position, at.rotation, ["environment"])
            inside.update(found)
    for let_go in world.read_events(LetGo, reader=held_layers):
        made = held.sensors.pop(let_go.object, None)
        held.inside.pop(let_go.object, None)
        colliders = world.try_get(let_go.object, Colliders)
        if made and colliders is not None:
            del colliders.parts[min(made) :]
            world.set_changed(let_go.object, Colliders)
        if colliders is not None:
            held.dropped.add(let_go.object)


def inner_shape(shape: Shape) -> Shape:
    """A twin's shape: the solid's, :data:`RESTING` smaller all round, so an object resting
    on the environment (a pan on the counter: touching it, sunk a millimetre into it as
    contacts are) is not inside it, and turns ghost only once pushed into it. Hulls and
    meshes are taken as they are."""
    if isinstance(shape, Sphere):
        return Sphere(max(shape.radius - RESTING, shape.radius / 2))
    if isinstance(shape, Box):
        x, y, z = (max(extent - 2 * RESTING, extent / 2) for extent in shape.size)
        return Box((x, y, z))
    if isinstance(shape, Capsule):
        radius = max(shape.radius - RESTING, shape.radius / 2)
        return Capsule(radius, max(shape.height - 2 * RESTING, 2 * radius))
    if isinstance(shape, Cylinder):
        radius = max(shape.radius - RESTING, shape.radius / 2)
        return Cylinder(radius, max(shape.height - 2 * RESTING, shape.height / 2))
    return shape


def _track_overlaps(world: World, held: HeldSensors, physics: Physics) -> None:
    for entered in world.read_events(SensorEntered, reader=held_layers):
        mine = entered.sensor_part in held.sensors.get(entered.sensor, ())
        if mine and physics.layer_of(entered.other, entered.other_part) == "environment":
            held.inside[entered.sensor].add((entered.other, entered.other_part))
    for exited in world.read_events(SensorExited, reader=held_layers):
        if exited.sensor_part in held.sensors.get(exited.sensor, ()):
            held.inside[exited.sensor].discard((exited.other, exited.other_part))


def _restore_dropped(world: World, held: HeldSensors, physics: Physics) -> None:
    """Put a released object's solids back on their layers once it is clear of every
    player's body: dropped at the feet, it must not kick a body."""
    dropped = [(e, g) for e in held.dropped if (g := world.try_get(e, Grabbable)) is not None]
    if not dropped:
        held.dropped.clear()
        return
    touching: set[int] = set()
    for _, rig in world.each(Rig):
        capsule = world.get(rig.body, CharacterBody)
        feet = world.get(rig.body, Transform).position
        centre = feet + spatial.vec3(0.0, capsule.height / 2 + SKIN, 0.0)
        # on every layer: a part put on "dropped" this very step is still on its old one in
        # the engine until the step begins
        shape = Capsule(capsule.radius, capsule.height)
        near = physics.overlap(shape, centre, spatial.identity(), None, rig.body)
        touching.update(entity for entity, _ in near)
    held.dropped = {e for e, _ in dropped}
    for entity, grabbable in dropped:
        if entity not in touching:
            parts = world.get_mut(entity, Colliders).parts
            for part, layer in grabbable.dropped.items():
                if parts[part].layer == "dropped":
                    parts[part] = replace(parts[part], layer=layer)
            grabbable.dropped = {}
            held.dropped.discard(entity)


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
