"""Levers, buttons and dials on joints: what the hands do to them, and what the player did.

Two systems. Before physics steps, :func:`drive_interactables` lets a tracked hand push a
button in (its poke point, within the button's radius of the axis and deeper than the face,
carries the face with it: the hands have no solid collider to push with) and gives a lever that
no hand holds its spring toward the nearest detent (a held lever moves freely). After physics
has written the joints' positions back, :func:`report_interactables` says what changed:
``ButtonPressed`` and ``ButtonReleased`` as the press depth passes its thresholds,
``LeverMoved`` when a lever comes to rest in another detent, ``DialTurned`` as a dial's step
changes. Every change goes into physics through the ``Joint`` (the spring) or the command
queue (the push's velocity): the one way in.

The poke point (XRI's poke interactor) is the index finger's tip where the hand tracker sees
the bare hand (``HandJoint.INDEX_TIP``): a pointing finger presses, a fist or a palm beside it
does not. A controller has no finger to poke with, so there it is the grip point. The tip is
carried on the hand's pose (its place relative to the tracked grip, put on the hand's
``Transform``), so a physics hand stopped by a wall stops its finger too.
"""

from __future__ import annotations

from playspace import spatial
from playspace.components import TrackedDevice, Transform
from playspace.components.input import HandJoint
from playspace.components.interactables import Dial, Lever, PushButton
from playspace.components.interaction import Grabbable, Hand
from playspace.components.joints import Joint, Spring
from playspace.components.physics import BodyCommands, SetVelocity
from playspace.ecs import Phase, World, any_of, any_with, system
from playspace.spatial import Vec3
from playspace.systems.interaction.events import (
    INTERACTABLE_EVENTS,
    ButtonPressed,
    ButtonReleased,
    DialTurned,
    LeverMoved,
)
from playspace.systems.interaction.hold import MAX_DRIVE_SPEED, hold
from playspace.systems.physics import Physics, joint_line
from playspace.systems.sets import FixedSet, add_fixed_sets

REACH_BEHIND = 0.05  # metres past a button's full travel a hand still pushes it (not from behind)


@system(
    Phase.FIXED,
    in_set=FixedSet.GRAB,
    after=(hold,),
    run_if=any_of(any_with(PushButton, Joint), any_with(Lever, Joint)),
    reads=(PushButton, Lever, Grabbable, Hand, TrackedDevice, Transform),
    writes=(Joint, Physics, BodyCommands),
)
def drive_interactables(world: World) -> None:
    """Push buttons with the hands' poke points; spring free levers toward their nearest
    detent."""
    buttons = world.query(PushButton, Joint)
    if buttons:
        hands = poke_points(world)
        for entity, (button, joint) in buttons:
            _push(world, entity, button, joint, hands)
    for entity, (lever, joint) in world.query(Lever, Joint):
        grabbable = world.try_get(entity, Grabbable)
        if grabbable is not None and grabbable.held_by is not None:
            if joint.spring is not None:
                joint.spring = None
                world.set_changed(entity, Joint)
            continue
        spring = Spring(lever.detents[_nearest(lever, joint)], lever.stiffness, lever.damping)
        if joint.spring != spring:
            joint.spring = spring
            world.set_changed(entity, Joint)


def poke_points(world: World) -> list[Vec3]:
    """Where each tracked hand pokes, in the world: the index tip of a bare hand (its joints
    placed on the hand's pose), else the grip point."""
    points = []
    for _, (_, device, transform) in world.query(Hand, TrackedDevice, Transform):
        if not device.tracked:
            continue
        joints = device.joints
        if joints is None:
            points.append(transform.position)
            continue
        tip = joints.pose(HandJoint.INDEX_TIP).position
        in_hand = spatial.transform_point(spatial.invert(device.pose), tip)
        points.append(spatial.transform_point(transform.pose(), in_hand))
    return points


def _push(world: World, entity: int, button: PushButton, joint: Joint, hands: list[Vec3]) -> None:
    physics = world.resource(Physics)
    line = joint_line(physics, entity)
    if line is None:
        return
    face, axis = line
    travel = joint.limits[1] if joint.limits is not None else button.press_depth
    deepest = None
    for hand in hands:
        apart = hand - face
        along = apart.x * axis.x + apart.y * axis.y + apart.z * axis.z
        across = apart - axis * along
        inside = across.x**2 + across.y**2 + across.z**2 < button.radius**2
        if inside and joint.position < along < travel + REACH_BEHIND:
            deepest = along if deepest is None else max(deepest, along)
    if deepest is None:
        return  # its spring and what lies on it move it
    target = min(deepest, travel)
    speed = max(
        -MAX_DRIVE_SPEED, min(MAX_DRIVE_SPEED, (target - joint.position) / world.fixed_time.dt)
    )
    world.resource(BodyCommands).send(SetVelocity(entity, axis * speed, axis * 0.0))


def _nearest(lever: Lever, joint: Joint) -> int:
    return min(range(len(lever.detents)), key=lambda i: abs(lever.detents[i] - joint.position))


@system(
    Phase.FIXED,
    in_set=FixedSet.REPORT,
    run_if=any_of(any_with(PushButton, Joint), any_with(Lever, Joint), any_with(Dial, Joint)),
    reads=(Joint, Grabbable),
    writes=(PushButton, Lever, Dial, *INTERACTABLE_EVENTS),
)
def report_interactables(world: World) -> None:
    """Say what the step did to buttons, levers and dials."""
    for entity, (button, joint) in world.query(PushButton, Joint):
        if not button.pressed and joint.position >= button.press_depth:
            button.pressed = True
            world.send(ButtonPressed(entity))
        elif button.pressed and joint.position <= button.release_depth:
            button.pressed = False
            world.send(ButtonReleased(entity))
    for entity, (lever, joint) in world.query(Lever, Joint):
        grabbable = world.try_get(entity, Grabbable)
        if grabbable is not None and grabbable.held_by is not None:
            continue
        nearest = _nearest(lever, joint)
        at = lever.detents[nearest]
        still = abs(joint.velocity) < lever.settle_speed
        if still and abs(joint.position - at) < lever.settle_within and nearest != lever.detent:
            first = lever.detent is None
            lever.detent = nearest
            if not first:
                world.send(LeverMoved(entity, nearest, at))
    for entity, (dial, joint) in world.query(Dial, Joint):
        steps = round(joint.position / dial.step)
        if steps != dial.steps:
            world.send(DialTurned(entity, steps, steps - dial.steps, joint.position))
            dial.steps = steps


class InteractablesPlugin:
    """Levers, buttons and dials: hands push buttons, levers snap to detents, and each says
    what happened (add after the GrabPlugin)."""

    def build(self, world: World) -> None:
        for kind in INTERACTABLE_EVENTS:
            world.add_event(kind)
        add_fixed_sets(world)
        world.add_systems(drive_interactables, report_interactables)
