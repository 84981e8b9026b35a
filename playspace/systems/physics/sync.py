"""Physics as three steps of the fixed update: prepare, step, write back (as bevy_rapier does).

- ``physics_prepare`` (first in FIXED): build bodies for new entities, free despawned ones, add
  appended collider parts, apply changed body kinds and layers.
- ``physics_step`` (after the rig, grab and layers have placed things): bring the engine up to
  date again with what the step's systems edited and asked, drive kinematic bodies to their
  Transforms, step Rapier once, turn its events into ECS events.
- ``physics_writeback``: copy the poses of moving dynamic bodies into their Transforms (keeping
  the previous pose for interpolation) and deal with bodies that fell out of the world.
"""

from __future__ import annotations

import logging
from time import perf_counter_ns

import numpy as np

from playspace import spatial
from playspace.components import Transform
from playspace.components.joints import Joint
from playspace.components.physics import (
    BodyCommands,
    BodyKind,
    Colliders,
    FallPolicy,
    PreviousTransform,
    RigidBody,
    SetVelocity,
    check_parts,
)
from playspace.ecs import Despawned, Phase, World, system
from playspace.systems.physics.commands import teleport_body
from playspace.systems.physics.convert import PhysicsError, isometry, read_poses
from playspace.systems.physics.engine import Body, Physics
from playspace.systems.physics.events import (
    ContactBegan,
    ContactEnded,
    FellOutOfWorld,
    Impact,
    Quarantined,
    SensorEntered,
    SensorExited,
)
from playspace.systems.physics.joints import sync_joints, write_positions
from playspace.systems.physics.settle import overlapping_at_start, settle
from playspace.systems.sets import FixedSet

log = logging.getLogger(__name__)
REDRAWN_KEPT = 256  # lists of bodies kept for late placement before it is told "all" instead


@system(
    Phase.FIXED,
    in_set=FixedSet.PHYSICS_PREPARE,
    reads=(Despawned, Colliders, RigidBody),
    writes=(Physics, Transform, PreviousTransform, Joint, BodyCommands),
)
def physics_prepare(world: World) -> None:
    """Bring the engine up to date with the components before anything moves this step."""
    physics = world.resource(Physics)
    for gone in world.read_events(Despawned, reader=physics_prepare):
        physics.remove(gone.entity)
    _bring_up_to_date(world, physics)


def _bring_up_to_date(world: World, physics: Physics) -> None:
    """The one way into the engine: new bodies, edited components, joints, then the body
    commands sent. Run as the step begins and again just before Rapier steps, so what the systems
    of the step changed (a grab's kinematic body, a release's velocity) counts in this very step."""
    with_body = world.query(Transform, RigidBody)
    without_body = world.query(Transform, Colliders)
    changed = False
    # esper hands back the same cached list until a structural change: same lists, no news
    seen_bodies, seen_statics = physics.seen_queries
    made: list[Body] = []
    if with_body is not seen_bodies or without_body is not seen_statics:
        changed = _create_new(world, physics, with_body, without_body, made)
        physics.seen_queries = (with_body, without_body)
    regroup = physics.layers.version != physics.layers_version
    physics.layers_version = physics.layers.version
    # the bodies whose components were changed since, as the world recorded it (get_mut): this
    # function is the one reader, from both systems that run it
    edited = dict.fromkeys(world.changed(RigidBody, _bring_up_to_date))
    edited.update(dict.fromkeys(world.changed(Colliders, _bring_up_to_date)))
    if regroup:  # the layer matrix changed: every collider's groups
        for body in physics.bodies.values():
            changed |= _apply_changes(physics, body, regroup)
    else:
        bodies = physics.bodies
        for entity in edited:
            found = bodies.get(entity)
            if found is not None:
                changed |= _apply_changes(physics, found, False)
    joints = world.each(Joint)
    fresh = joints is not physics.seen_joints
    joints_edited = world.changed(Joint, _bring_up_to_date)
    if fresh or joints_edited:
        changed |= sync_joints(physics, joints, fresh, joints_edited)
        physics.seen_joints = joints
    commands = world.resource(BodyCommands)
    if commands.queue:
        sent, commands.queue = commands.queue, []
        physics.apply(sent)
        changed = True
    if changed:
        physics._engine.update_query_pipeline()
    if made:
        overlapping_at_start(physics, made)


def _create_new(
    world: World,
    physics: Physics,
    with_body: list[tuple[int, tuple[Transform, RigidBody]]],
    without_body: list[tuple[int, tuple[Transform, Colliders]]],
    made: list[Body],
) -> bool:
    for entity, (transform, component) in with_body:
        if entity not in physics.bodies:
            _create(world, physics, entity, transform, component)
            made.append(physics.bodies[entity])
    for entity, (transform, _) in without_body:
        if entity not in physics.bodies:
            _create(world, physics, entity, transform, None)
            made.append(physics.bodies[entity])
    return bool(made)


def _create(
    world: World, physics: Physics, entity: int, transform: Transform, component: RigidBody | None
) -> None:
    previous = None
    if component is not None and component.kind is not BodyKind.FIXED:
        previous = world.try_get(entity, PreviousTransform)
        if previous is None:
            previous = PreviousTransform(
                spatial.Vec3(transform.position), spatial.normalize(transform.rotation)
            )
    physics.create(entity, transform, component, world.try_get(entity, Colliders), previous)
    if previous is not None and not world.has(entity, PreviousTransform):
        world.add(entity, previous)


def _apply_changes(physics: Physics, body: Body, regroup: bool) -> bool:
    """Bring one body's engine state up to its components: its kind, parts added or cut,
    and each part compared with what was built from it. Whether the engine changed."""
    changed = False
    component = body.component
    if component is not None and component.kind is not body.kind:
        physics.set_kind(body, component.kind)
        changed = True
    if component is not None:
        physics.retune(body)
    colliders = body.colliders
    if colliders is None:
        return changed
    parts = colliders.parts
    try:
        check_parts(parts)
    except (TypeError, ValueError) as error:
        raise PhysicsError(f"entity {body.entity}: {error}") from None
    if len(parts) > len(body.parts):
        physics.add_parts(body)
        changed = True
    elif len(parts) < len(body.parts):
        physics.remove_parts(body)
        changed = True
    for index, part in enumerate(body.parts):
        collider = parts[index]
        if collider is not part.collider:
            if part.outdated(collider):
                physics.replace_part(body, index)
                changed = True
                continue
            part.collider = collider  # the same collider in the engine, other settings
        if regroup or collider.layer != part.layer:
            physics._engine.colliders[part.handle].collision_groups = physics.groups(collider.layer)
            part.layer = collider.layer
            changed = True
        if collider.report_contacts != part.reports:
            physics.set_reports(part)
        if part.resurfaced():
            physics.set_surface(body, part)
    return changed


@system(
    Phase.FIXED,
    in_set=FixedSet.PHYSICS_STEP,
    reads=(Colliders, RigidBody),
    writes=(
        Physics,
        Joint,
        Transform,
        PreviousTransform,
        ContactBegan,
        ContactEnded,
        SensorEntered,
        SensorExited,
        Quarantined,
        Impact,
        BodyCommands,
    ),
)
def physics_step(world: World) -> None:
    """Bring the engine up to date with the step's edits, move kinematic bodies to their
    Transforms, step the engine once, report its events."""
    physics = world.resource(Physics)
    _bring_up_to_date(world, physics)
    engine = physics._engine
    params = engine.integration_parameters
    if params.dt != world.fixed_time.dt:
        params.dt = world.fixed_time.dt
    for body in physics.kinematic.values():
        transform, previous = body.transform, body.previous
        body.rigid_body.set_next_kinematic_position(
            isometry(transform.position, transform.rotation)
        )
        if previous is not None:
            previous.position, previous.rotation = _pushed(body)
    start = perf_counter_ns()
    engine.step()
    physics.step_ns = perf_counter_ns() - start
    if physics.settling:
        settle(physics)  # the velocities the step left, before anyone reads them
    _send_collision_events(world, physics)
    _report_quarantine(world, physics)


def _pushed(body: Body) -> tuple[spatial.Vec3, spatial.Quat]:
    """The pose a kinematic body was driven to last step (now its previous pose)."""
    last = body.pushed
    assert last is not None
    body.pushed = (spatial.Vec3(body.transform.position), body.transform.rotation)
    return last


def _send_collision_events(world: World, physics: Physics) -> None:
    parts = physics.parts
    for event in physics.collector.drain_collision_events():
        first = parts.get(event.collider1) or physics.removed_parts.get(event.collider1)
        second = parts.get(event.collider2) or physics.removed_parts.get(event.collider2)
        if first is None or second is None:
            continue
        if event.sensor:
            body = physics.bodies.get(first[0])
            first_is_sensor = (
                body is not None
                and first[1] < len(body.parts)
                and (body.parts[first[1]].collider.sensor)
            )
            sensor, other = (first, second) if first_is_sensor else (second, first)
            kind = SensorEntered if event.started else SensorExited
            world.send(kind(sensor[0], other[0], sensor[1], other[1]))
        else:
            contact = ContactBegan if event.started else ContactEnded
            world.send(contact(first[0], second[0], first[1], second[1]))
    _send_impacts(world, physics)
    physics.removed_parts.clear()


def _send_impacts(world: World, physics: Physics) -> None:
    """An Impact for each collider pair whose force rose past its threshold this step."""
    parts, dt = physics.parts, world.fixed_time.dt
    forced = set()
    for event in physics.collector.drain_contact_force_events():
        pair = (event.collider1.index, event.collider2.index)
        forced.add(pair)
        if pair in physics.forced:
            continue  # still pressed from the step before: no new knock
        first, second = parts.get(event.collider1), parts.get(event.collider2)
        if first is None or second is None:
            continue
        struck = physics.bodies.get(first[0])
        if struck is None or struck.kind is not BodyKind.DYNAMIC:
            first, second = second, first  # the dynamic one first
        impulse = event.total_force_magnitude * dt
        world.send(Impact(first[0], second[0], first[1], second[1], impulse))
    physics.forced = forced


def _report_quarantine(world: World, physics: Physics) -> None:
    quarantine = physics._engine.quarantine
    if quarantine.is_empty():
        return
    for handle in quarantine.bodies:
        body = physics.by_handle.get(handle)
        if body is not None:
            log.warning(
                "physics: entity %d became non-finite and was quarantined: put back at its last "
                "valid pose, at rest",
                body.entity,
            )
            body.rigid_body.is_enabled = True  # the engine reset it; disabled it stays lost
            world.send(Quarantined(body.entity))


@system(
    Phase.FIXED,
    in_set=FixedSet.PHYSICS_WRITEBACK,
    writes=(Physics, Transform, PreviousTransform, FellOutOfWorld, Joint, BodyCommands),
)
def physics_writeback(world: World) -> None:
    """Copy moving dynamic bodies into their Transforms and joint positions into their
    Joints; catch what fell out of the world.

    This runs over every awake body every step, so it costs little more than reading the poses
    through the bindings: two calls a body, converted for the whole step at once
    (``read_poses``, PyGLM's objects made in C); a body is found by its handle's slot in a
    list (no hashing), marked with the write-back's number (no set of handles, no set
    difference), and its pose swapped into the previous pose (no copies)."""
    physics = world.resource(Physics)
    slots = physics.dynamic
    stamp = physics.writes = physics.writes + 1
    active = physics._engine.active_bodies()
    moved = [body for handle in active if (body := slots[handle.index]) is not None]
    fallen = _write_poses(moved, stamp, physics.kill_height) if moved else []
    # a body that stopped moving (fell asleep, was fixed in place, went) stops interpolating
    # from where it was; a kinematic one's previous pose is the drive's (physics_step)
    bodies = physics.bodies
    stopped = []
    for body in [body for body in physics.moved if body.written != stamp]:
        if body.previous is None or body.kind is BodyKind.KINEMATIC:
            continue
        if bodies.get(body.entity) is body:  # not despawned since
            body.previous.position = body.transform.position
            body.previous.rotation = body.transform.rotation
            stopped.append(body)
    physics.moved = moved
    if physics.joints:
        write_positions(physics)
    if len(physics.redrawn) < REDRAWN_KEPT:
        physics.redrawn += (moved, stopped)
    else:  # nothing drawn looks (a world without late placement): say "all", keep nothing
        physics.redrawn.clear()
        physics.redrawn_all = True
    for body in fallen:
        _fell(world, physics, body)


def _write_poses(moved: list[Body], stamp: int, kill_height: float) -> list[Body]:
    """Write the poses of the bodies that moved (previous pose kept, in place); those that fell
    below `kill_height`."""
    poses = read_poses([body.rigid_body for body in moved])
    positions = spatial.vec3s_from_rows(poses[:, 4:])
    rotations = spatial.quats_from_rows(poses[:, :4])
    for body, position, rotation in zip(moved, positions, rotations, strict=True):
        body.written = stamp
        transform, previous = body.transform, body.previous
        if previous is not None:
            previous.position, previous.rotation = transform.position, transform.rotation
        transform.position, transform.rotation = position, rotation
    return [moved[i] for i in np.flatnonzero(poses[:, 5] < kill_height)]


def _fell(world: World, physics: Physics, body: Body) -> None:
    position = spatial.Vec3(body.transform.position)
    respawn = physics.fall_policy is FallPolicy.RESPAWN and body.spawn is not None
    log.info("physics: entity %d fell below %.1f m", body.entity, physics.kill_height)
    if respawn:
        assert body.spawn is not None
        teleport_body(world, body.entity, *body.spawn)
        still = spatial.vec3(0, 0, 0)
        world.resource(BodyCommands).send(SetVelocity(body.entity, still, still))
    else:
        world.despawn(body.entity)
    world.send(FellOutOfWorld(body.entity, position, respawn))
