"""Sockets and snap zones: a grabbable let go inside a socket's zone snaps into place and stays
there until a hand takes it out (Unity XRI's XRSocketInteractor, Godot XR Tools' snap zone).

A socketed object is a kinematic body on the ``held`` layer (it neither falls nor pushes the
player's body, as a held object), put at the socket's snap pose and moved with the socket every
fixed step, so a holster carried by the player's body keeps its pistol at the hip while the
player walks, turns and teleports. It goes in through the one way into physics: its body's kind
and its colliders' layers are component edits, and the jump to the snap pose is a teleport
command (a next-kinematic-position that far would fling whatever it touched on the way). What
it was before (its kind, its solid parts' layers) is kept on the socket and handed over to the
hand that takes it out, so the grab system gives it back, let go, exactly as it was before the
socket took it.

A socket with ``return_after`` calls back the last object it held once that object has been
free (neither held nor in a socket) for that long: XR Tools' return-to-snap-zone, a tool that
comes back to the rack when dropped on the floor or thrown away.

The system runs after the held-object layers (which give a let-go object its layers back), and
before physics steps, so a socketed object never falls for a step.
"""

from __future__ import annotations

from dataclasses import replace

from playspace import spatial
from playspace.components import Transform
from playspace.components.interaction import Grabbable, HeldBefore, Holding
from playspace.components.physics import (
    BodyCommands,
    BodyKind,
    Box,
    Colliders,
    RigidBody,
    SetVelocity,
    Sphere,
)
from playspace.components.sockets import Socket
from playspace.ecs import Phase, World, any_with, system
from playspace.spatial import Vec3
from playspace.systems.interaction.events import Grabbed, LetGo, Returned, Socketed, Unsocketed
from playspace.systems.interaction.layers import HeldSensors, held_layers
from playspace.systems.physics import Physics
from playspace.systems.physics.commands import teleport_body
from playspace.systems.sets import FixedSet

Found = list[tuple[int, tuple[Socket, Transform]]]


@system(
    Phase.FIXED,
    in_set=FixedSet.LAYERS,
    after=(held_layers,),
    run_if=any_with(Socket),
    reads=(Grabbed, LetGo, Holding),
    writes=(
        Socket,
        Grabbable,
        RigidBody,
        Colliders,
        Transform,
        HeldSensors,
        Physics,
        Socketed,
        Unsocketed,
        Returned,
        BodyCommands,
    ),
)
def sockets(world: World) -> None:
    """Carry sockets with what carries them; take out what a hand grabbed, snap in what was let
    go inside a zone, call back what lay free too long; hold socketed objects in place, and
    say which held object each socket would take."""
    grabs = world.read_events(Grabbed, reader=sockets)
    let_gos = world.read_events(LetGo, reader=sockets)
    found = world.query(Socket, Transform)
    if not found:
        return
    for _, (socket, transform) in found:
        _carry(world, socket, transform)
    for grabbed in grabs:
        _take_out(world, grabbed)
    for let_go in let_gos:
        grabbable = world.try_get(let_go.object, Grabbable)
        if grabbable is None or grabbable.held_by is not None:
            continue  # despawned, or already taken again
        target = _socket_for(world, let_go.object, grabbable, found)
        if target is not None:
            socket_entity, socket = target
            socket.holding = let_go.object
            _put_in(world, socket_entity, socket, let_go.object)
    hz = world.fixed_time.hz
    for entity, (socket, transform) in found:
        if socket.holding is not None and socket.before is None:
            _put_in(world, entity, socket, socket.holding)  # put there by the game
        elif socket.holding is None:
            _call_back(world, entity, socket, hz)
        if socket.holding is not None:
            obj = world.get(socket.holding, Transform)
            pose = spatial.compose(transform.pose(), socket.snap)
            obj.position, obj.rotation = pose.position, pose.rotation
        socket.hovering = None
    for _, holding in world.each(Holding):
        held = holding.object
        if held is None or holding.second:
            continue
        grabbable = world.try_get(held, Grabbable)
        if grabbable is not None:
            target = _socket_for(world, held, grabbable, found)
            if target is not None:
                target[1].hovering = held


def _carry(world: World, socket: Socket, transform: Transform) -> None:
    """Put a carried socket at its offset from its carrier (a holster at the body's hip)."""
    if socket.carried_by is None:
        return
    carrier = world.try_get(socket.carried_by, Transform)
    if carrier is None:
        raise ValueError(f"a socket is carried by entity {socket.carried_by}: it has no Transform")
    pose = spatial.compose(carrier.pose(), socket.offset)
    transform.position, transform.rotation = pose.position, pose.rotation


def _take_out(world: World, grabbed: Grabbed) -> None:
    """A hand took a socketed object: the socket empties, and the object's record of what it
    was before goes to the hand's hold (the grab just recorded it kinematic, as the socket
    left it)."""
    grabbable = world.try_get(grabbed.object, Grabbable)
    if grabbable is None or grabbable.socketed_in is None:
        return
    socket_entity = grabbable.socketed_in
    socket = world.try_get(socket_entity, Socket)
    grabbable.socketed_in = None
    if socket is None:
        return  # the socket went this very step
    if socket.before is not None:
        grabbable.before = socket.before
    socket.holding, socket.before, socket.away = None, None, 0
    world.send(Unsocketed(socket_entity, grabbed.object, grabbed.hand))


def _socket_for(
    world: World, obj: int, grabbable: Grabbable, found: Found
) -> tuple[int, Socket] | None:
    """The empty socket that accepts `obj` and has it inside its zone (the nearest centre
    when zones overlap), or None."""
    here = world.get(obj, Transform).position
    best: tuple[float, int, Socket] | None = None
    for entity, (socket, transform) in found:
        if socket.holding is not None or not accepts(socket, grabbable):
            continue
        local = spatial.transform_point(spatial.invert(transform.pose()), here)
        if not inside(socket.zone, local):
            continue
        distance = spatial.length(local)
        if best is None or distance < best[0]:
            best = (distance, entity, socket)
    return None if best is None else (best[1], best[2])


def accepts(socket: Socket, grabbable: Grabbable) -> bool:
    """Whether `socket` takes `grabbable`: any of its tags is one the socket names, or the
    socket names none."""
    return not socket.accepts or not socket.accepts.isdisjoint(grabbable.tags)


def inside(zone: Sphere | Box, local: Vec3) -> bool:
    """Whether a point `local` (in the socket's frame) is inside `zone`, centred there."""
    if isinstance(zone, Sphere):
        return spatial.length(local) <= zone.radius
    x, y, z = zone.size  # full extents
    return abs(local.x) <= x / 2 and abs(local.y) <= y / 2 and abs(local.z) <= z / 2


def _put_in(world: World, entity: int, socket: Socket, obj: int) -> None:
    """Snap `obj` into `socket` (already its `holding`): kinematic on the held layer, at the
    snap pose, remembering what it was."""
    grabbable = world.try_get(obj, Grabbable)
    if grabbable is None or not world.has(obj, RigidBody) or not world.has(obj, Colliders):
        raise ValueError(f"socket {entity} holds entity {obj}, which is not a grabbable body")
    if grabbable.held_by is not None or grabbable.socketed_in not in (None, entity):
        raise ValueError(f"socket {entity} holds entity {obj}, held by a hand or another socket")
    body = world.get_mut(obj, RigidBody)
    parts = world.get_mut(obj, Colliders).parts
    solids = [i for i, c in enumerate(parts) if not c.sensor]
    socket.before = HeldBefore(
        kind=body.kind,
        layers={i: grabbable.dropped.get(i, parts[i].layer) for i in solids},
        reported={i: parts[i].report_contacts for i in solids},
    )
    body.kind = BodyKind.KINEMATIC
    for i in solids:
        parts[i] = replace(parts[i], layer="held")
    grabbable.dropped = {}
    world.resource(HeldSensors).dropped.discard(obj)  # its layers are the socket's now
    grabbable.socketed_in = entity
    pose = spatial.compose(world.get(entity, Transform).pose(), socket.snap)
    teleport_body(world, obj, pose.position, pose.rotation)
    socket.away = 0
    if socket.return_after is not None:
        for _, other in world.each(Socket):
            if other.home == obj:
                other.home, other.away = None, 0
        socket.home = obj
    world.send(Socketed(entity, obj))


def _call_back(world: World, entity: int, socket: Socket, hz: float) -> None:
    """Count how long an empty socket's home object has lain free; bring it back in once that
    reaches ``return_after`` (whole fixed steps, so a replay returns it at the same step)."""
    if socket.return_after is None or socket.home is None:
        return
    grabbable = world.try_get(socket.home, Grabbable)
    if grabbable is None:
        socket.home, socket.away = None, 0
        return
    if grabbable.held_by is not None or grabbable.socketed_in is not None:
        socket.away = 0
        return
    socket.away += 1
    if socket.away >= round(socket.return_after * hz):
        obj = socket.holding = socket.home
        world.send(Returned(entity, obj))
        _put_in(world, entity, socket, obj)


def give_back(world: World, obj: int, before: HeldBefore | None) -> None:
    """Give `obj` back as it was before a socket took it, as a let go does (its solids ignore
    the player's body until clear of it): its socket went."""
    grabbable = world.try_get(obj, Grabbable)
    if grabbable is None:
        return
    grabbable.socketed_in = None
    if before is None:
        return
    world.get_mut(obj, RigidBody).kind = before.kind
    parts = world.get_mut(obj, Colliders).parts
    for part in before.layers:
        parts[part] = replace(parts[part], layer="dropped", report_contacts=before.reported[part])
    grabbable.dropped = dict(before.layers)
    world.resource(HeldSensors).dropped.add(obj)
    still = spatial.vec3(0.0, 0.0, 0.0)
    world.resource(BodyCommands).send(SetVelocity(obj, still, still))
