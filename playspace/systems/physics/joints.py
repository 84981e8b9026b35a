"""Joints in the engine: Rapier impulse joints built from ``Joint`` components.

The sync builds a joint for each new ``Joint`` once both bodies exist, applies the edits the
world recorded (``world.get_mut``) (limits, spring and friction change the joint in place;
kind, the other entity, anchor and axis rebuild it from where the bodies are then) and removes
it with the component. Rapier removes a body's joints with the body, so a despawned entity
takes its joints along: the record of a joint whose other entity went stays, unbuilt, until
the game edits it.

Each joint is built as Rapier's generic joint with explicit frames: the entity's frame puts
the joint's X axis along the component's axis at its anchor, and the other body's (or the
world's) frame is the same frame as it stands when the joint is built. So the position counts
from the pose the joint was built in, and the angle measured here is the one Rapier limits
and drives. After each step :func:`write_positions` writes every joint's position and velocity
back into its component.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import rapier3d as rp

from playspace import spatial
from playspace.components.joints import Joint, JointKind
from playspace.spatial import Pose, Quat, Vec3
from playspace.systems.physics.convert import PhysicsError, isometry
from playspace.systems.physics.engine import Body, Physics

_X = spatial.vec3(1.0, 0.0, 0.0)
_LOCKED = {
    JointKind.HINGE: rp.JointAxesMask.LOCKED_REVOLUTE_AXES,
    JointKind.SLIDER: rp.JointAxesMask.LOCKED_PRISMATIC_AXES,
}
_FREE = {JointKind.HINGE: rp.JointAxis.ANG_X, JointKind.SLIDER: rp.JointAxis.LIN_X}


@dataclass(slots=True)
class BuiltJoint:
    """One entity's joint as built: its handle (None while the other entity is gone), the
    bodies it holds, and its frame in each (the other's is the world's when `other` is None)."""

    entity: int
    component: Joint
    kind: JointKind  # what it was built as
    handle: rp.ImpulseJointHandle | None
    body: Body
    other: Body | None
    own: Pose  # the joint's frame in the entity's body
    frame: Pose  # the joint's frame in the other body, or in the world
    angle: float = 0.0  # the last angle measured, whole turns counted


def _pose(body: Body | None) -> Pose:
    if body is None:
        return Pose.identity()
    rb = body.rigid_body
    x, y, z, w = rb.rotation.to_tuple()
    return Pose(spatial.vec3_from(rb.translation.to_tuple()), Quat(w, x, y, z))


def sync_joints(
    physics: Physics, found: list[tuple[int, Joint]], fresh: bool, edited: list[int]
) -> bool:
    """Build the joints of `found` not yet built, remove those whose component went (when the
    list is `fresh`: esper's cached list changed), and apply the edits of the joints of the
    entities `edited` (as the world recorded them). Whether anything in the engine changed."""
    changed = False
    if fresh:
        present = {entity for entity, _ in found}
        for entity in [e for e in physics.joints if e not in present]:
            remove_joint(physics, entity)
            changed = True
        for entity, joint in found:
            built = physics.joints.get(entity)
            if built is None or built.component is not joint:
                if built is not None:
                    remove_joint(physics, entity)
                build_joint(physics, entity, joint)
                changed = True
    for entity in edited:
        built = physics.joints.get(entity)
        if built is not None:
            _apply_edit(physics, built)
            changed = True
    return changed


def build_joint(physics: Physics, entity: int, joint: Joint) -> None:
    """Join `entity`'s body to its joint's other body (or the world) where both are now."""
    body = physics.bodies.get(entity)
    if body is None:
        raise PhysicsError(
            f"entity {entity}: a Joint needs a RigidBody on the same entity (and a Transform)"
        )
    other = None
    if joint.to is not None:
        other = physics.bodies.get(joint.to)
        if other is None:
            raise PhysicsError(
                f"entity {entity}: its Joint's `to` names entity {joint.to}, which has no body "
                f"in the physics world (give it a Transform and a RigidBody or Colliders)"
            )
        if other is body:
            raise PhysicsError(f"entity {entity}: a Joint cannot join a body to itself")
    axis = joint.axis / spatial.length(joint.axis)
    own = Pose(spatial.Vec3(joint.anchor), spatial.rotation_between(_X, axis))
    world = spatial.compose(_pose(body), own)
    frame = spatial.compose(spatial.invert(_pose(other)), world)
    built = BuiltJoint(entity, joint, joint.kind, None, body, other, own, frame)
    _insert(physics, built)
    physics.joints[entity] = built
    joint.position, joint.velocity = _measure(built)


def _insert(physics: Physics, built: BuiltJoint) -> None:
    joint = built.component
    free = _FREE[joint.kind]
    builder = (
        rp.GenericJointBuilder(_LOCKED[joint.kind])
        .local_frame1(isometry(built.frame.position, built.frame.rotation))
        .local_frame2(isometry(built.own.position, built.own.rotation))
    )
    if joint.limits is not None:
        builder = builder.limits(free, *joint.limits)
    stiffness, target, damping = _motor(joint)
    if stiffness or damping:
        builder = builder.motor(free, target, 0.0, stiffness, damping)
    first = built.other.handle if built.other is not None else physics.ground()
    built.handle = physics._engine.impulse_joints.insert(
        first, built.body.handle, builder.build(), True
    )


def _motor(joint: Joint) -> tuple[float, float, float]:
    """Stiffness, target and damping of the joint's motor: its spring, and its friction as
    damping toward standing still."""
    spring = joint.spring
    if spring is None:
        return 0.0, 0.0, joint.friction
    return spring.stiffness, spring.target, spring.damping + joint.friction


def _apply_edit(physics: Physics, built: BuiltJoint) -> None:
    joint = built.component
    other = physics.bodies.get(joint.to) if joint.to is not None else None
    rebuild = (
        built.handle is None
        or joint.kind is not built.kind
        or other is not built.other
        or built.own.position != joint.anchor
        or _turned(built.own.rotation, joint.axis)
    )
    if rebuild:
        remove_joint(physics, built.entity)
        if joint.to is None or other is not None:
            build_joint(physics, built.entity, joint)
        return
    assert built.handle is not None
    engine_joint = physics._engine.impulse_joints[built.handle]
    data = engine_joint.data
    free = _FREE[joint.kind]
    low, high = joint.limits if joint.limits is not None else (-math.inf, math.inf)
    data.set_limits(free, low, high)
    stiffness, target, damping = _motor(joint)
    data.set_motor(free, target, 0.0, stiffness, damping)
    engine_joint.data = data
    built.body.rigid_body.wake_up()


def _turned(built: Quat, axis: Vec3) -> bool:
    """Whether `axis` is no longer the direction the joint was built along."""
    return bool(spatial.length(spatial.rotate(built, _X) - axis / spatial.length(axis)) > 1e-9)


def remove_joint(physics: Physics, entity: int) -> None:
    """Take `entity`'s joint out of the engine and forget it."""
    built = physics.joints.pop(entity, None)
    if built is None:
        return
    if built.handle is not None and built.handle in physics._engine.impulse_joints:
        physics._engine.impulse_joints.remove(built.handle, True)


def _measure(built: BuiltJoint) -> tuple[float, float]:
    """The joint's position (unwrapped angle, or distance) and its velocity along the free
    axis."""
    first = spatial.compose(_pose(built.other), built.frame)
    second = spatial.compose(_pose(built.body), built.own)
    axis = spatial.rotate(first.rotation, _X)
    if built.component.kind is JointKind.SLIDER:
        apart = second.position - first.position
        position = apart.x * axis.x + apart.y * axis.y + apart.z * axis.z
        return position, _speed(built, axis, linear=True)
    turn = spatial.multiply(spatial.inverse(first.rotation), second.rotation)
    wrapped = math.remainder(2.0 * math.atan2(turn.x, turn.w), math.tau)
    built.angle += math.remainder(wrapped - built.angle, math.tau)
    return built.angle, _speed(built, axis, linear=False)


def _speed(built: BuiltJoint, axis: Vec3, linear: bool) -> float:
    def along(body: Body | None) -> float:
        if body is None:
            return 0.0
        rb = body.rigid_body
        v = (rb.linvel if linear else rb.angvel).to_tuple()
        return v[0] * axis.x + v[1] * axis.y + v[2] * axis.z

    return along(built.body) - along(built.other)


def write_positions(physics: Physics) -> None:
    """Write each built joint's position and velocity into its component."""
    for built in physics.joints.values():
        if built.handle is not None:
            built.component.position, built.component.velocity = _measure(built)


def joint_line(physics: Physics, entity: int) -> tuple[Vec3, Vec3] | None:
    """Where `entity`'s joint is now: its anchor and its axis (unit) in the world, as the
    other body (or the world) holds them; None when it has no built joint."""
    built = physics.joints.get(entity)
    if built is None or built.handle is None:
        return None
    first = spatial.compose(_pose(built.other), built.frame)
    return first.position, spatial.rotate(first.rotation, _X)
