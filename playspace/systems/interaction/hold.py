"""Grab, hold and let go: a gripping hand takes the nearest grabbable within reach, keeps it,
and gives it back as it was.

Grip above 0.7 grabs, below 0.3 lets go (hysteresis, so a trembling finger does not drop the
object). The candidate is the grabbable overlapping the hand's sensor whose centre of mass is
nearest, and never one with the environment between hand and object: no grabbing through
walls. The offset between hand and object at the grab is kept, so the object does not jump
into the palm, unless the object names an attach point for that hand (``Grabbable.attach_left``,
``attach_right``): then the offset moves, at once or over ``attach_ease``, until that pose meets
the hand's grip (XRI's attach transform and ease-in). A hand or an object that opts in to
distance grab, with nothing within reach, aims: the grabbable nearest the grip pose's -Z within
a cone, a few metres off and with no environment between, is hovered, and gripped it is taken
the same way, its offset moving it into the palm over ``GrabSettings.pull_time``. With grip
toggle (``GrabSettings.grip_toggle``, ``Grip.toggle``) one squeeze takes and the next
lets go. A held object becomes a kinematic body that follows the hand every fixed step,
after locomotion moved the origin, so it neither lags nor jitters while the player moves; what
it strikes gets a real velocity from Rapier's next-kinematic-position. Letting go restores the
body's kind and layers (its solids on ``dropped`` until clear of the player's body) and puts it
where the hand held it, or, let go inside a wall, where it last was outside one; the throw
system then gives it the velocity it leaves with (a ``LetGo`` says whether to launch it).

An object on a ``Joint`` (a door, a drawer, a lever) is not made kinematic: it stays a dynamic
body on its layers, and each step the hand sets its velocity toward where the hand would put
it, along what the joint lets it do (a hinge turns toward the hand, a slider slides toward it),
so the joint, its limits and whatever it bumps into still hold it. The speed is capped, so a
hand that jumps never teleports it. Let go, it keeps the velocity it has: a door swings on.
Attach points and distance grabs leave jointed objects alone.

An object with a ``second_grip`` is taken by a second hand at that point: it stays on the
first hand and turns to aim at the second (a rifle, a pan in both hands). The second letting go
leaves it to the first (easing back over ``attach_ease``); the first letting go hands it to the
second where it is. Only the last hand to let go sends a ``LetGo``.
"""

from __future__ import annotations

import math
from dataclasses import replace

from playspace import spatial
from playspace.components import DeviceRole, TrackedDevice, Transform
from playspace.components.interaction import (
    DistanceGrab,
    Grabbable,
    GrabSettings,
    Grip,
    Hand,
    HeldBefore,
    Holding,
    Hover,
)
from playspace.components.joints import Joint, JointKind
from playspace.components.physics import (
    BodyCommands,
    BodyKind,
    Colliders,
    RigidBody,
    SetVelocity,
    Sphere,
)
from playspace.components.tracking import HandControls
from playspace.ecs import Phase, World, system
from playspace.spatial import Pose
from playspace.systems.interaction.events import Grabbed, HoverEntered, HoverExited, LetGo
from playspace.systems.interaction.pullable import Pullable, free_pullable
from playspace.systems.physics import Physics, joint_line
from playspace.systems.physics.commands import teleport_body
from playspace.systems.sets import FixedSet

GRABBABLE_LAYERS = ("props", "held", "ghost", "dropped")
# How fast a hand drives a jointed object at most (m/s along a slider, rad/s about a hinge):
# faster than a hand pulls a drawer or swings a door, slow enough that a tracking glitch
# moves it a few centimetres in a step, not across the room.
MAX_DRIVE_SPEED = 6.0
MAX_DRIVE_SPIN = 12.0
# A hinged object held further than this from its axis (metres) turns toward where the hand
# is (a door by its handle); nearer, it turns as the hand twists (a dial in the fingers).
LEVER_ARM = 0.1


@system(
    Phase.FIXED,
    in_set=FixedSet.GRAB,
    reads=(GrabSettings, TrackedDevice, HandControls, Hand, DistanceGrab),
    writes=(
        Grip,
        Holding,
        Hover,
        Grabbable,
        Pullable,
        Colliders,
        RigidBody,
        Transform,
        Physics,
        Grabbed,
        LetGo,
        HoverEntered,
        HoverExited,
        BodyCommands,
    ),
)
def grab(world: World) -> None:
    """Turn grip values into grabs and let-gos, with hysteresis (held while squeezed, or a
    squeeze to take and one to let go with grip toggle); say what each free hand starts and
    stops hovering. An object one hand took this step is not taken from it by another in the
    same step (two players reaching for one ball: the first hand served, in the world's fixed
    order, has it)."""
    settings = world.resource(GrabSettings)
    pullable: list[int] | None = None  # free objects that opt in to distance grabs, if asked
    taken: set[int] = set()  # what hands took this step
    for entity, (grip, holding, hover, device) in world.query(Grip, Holding, Hover, TrackedDevice):
        squeeze = world.get(entity, HandControls).grip
        free = device.tracked and holding.object is None
        candidate, far = None, False
        if free:
            everything = world.has(entity, DistanceGrab)
            if pullable is None and not everything and settings.distance_range > 0:
                pullable = free_pullable(world)
            candidate, far = _candidate(world, entity, everything, settings, pullable or [])
        _hover(world, entity, hover, candidate)
        toggle = settings.grip_toggle if grip.toggle is None else grip.toggle
        if not grip.gripping and squeeze > settings.grip_on:
            grip.gripping = True
            if toggle and holding.object is not None:
                open_hand(world, entity, holding, device.tracked)
            elif hover.object is not None and not _snatch(world, entity, hover.object, taken):
                taken.add(hover.object)
                _take(world, entity, holding, hover.object, far)
                _hover(world, entity, hover, None)
        elif grip.gripping and squeeze < settings.grip_off:
            grip.gripping = False
            if not toggle and holding.object is not None:
                open_hand(world, entity, holding, device.tracked)


def empty(holding: Holding) -> None:
    """Make `holding` hold nothing."""
    holding.object, holding.offset, holding.second = None, None, False
    holding.easing_to, holding.ease_left = None, 0.0


def open_hand(world: World, entity: int, holding: Holding, tracked: bool) -> None:
    """The hand `entity` lets go of what it holds: a second hand leaves the object to the
    first, a first hand hands it to a second one, and a lone hand gives it back (thrown when
    the hand is `tracked`; where it is, at rest, when not)."""
    held, offset, second = holding.object, holding.offset, holding.second
    assert held is not None
    empty(holding)
    if second:
        _one_handed(world, held)
        return
    other = _second_hand(world, held)
    if other is not None:
        _hand_over(world, other, held)
    elif offset is not None:
        _let_go(world, entity, tracked, held, offset)


def _second_hand(world: World, held: int) -> int | None:
    """The hand entity holding `held` by its second grab point, if one does."""
    return next((e for e, h in world.each(Holding) if h.object == held and h.second), None)


def _one_handed(world: World, held: int) -> None:
    """The second hand let go of `held`: its first hand holds it alone again, easing back
    from where the two hands aimed it to its one-handed pose (at once without an ease)."""
    grabbable = world.try_get(held, Grabbable)
    if grabbable is None or grabbable.held_by is None:
        return
    first = world.get(grabbable.held_by, Holding)
    if first.offset is None or grabbable.attach_ease <= 0.0:
        return
    rest = first.easing_to or first.offset
    first.offset = _offset_now(world, grabbable.held_by, held)
    first.easing_to, first.ease_left = rest, max(first.ease_left, grabbable.attach_ease)


def _hand_over(world: World, entity: int, held: int) -> None:
    """The first hand let go of `held` while the hand `entity` held its second grab point:
    `entity` holds it now, where it holds it, and the object does not move."""
    holding, grabbable = world.get(entity, Holding), world.get(held, Grabbable)
    holding.second, holding.offset = False, _offset_now(world, entity, held)
    grabbable.held_by = entity


def _offset_now(world: World, hand: int, held: int) -> Pose:
    """Where `held` is now in the frame of the hand entity `hand`."""
    own = world.get(hand, Transform).pose()
    return spatial.compose(spatial.invert(own), world.get(held, Transform).pose())


def _hover(world: World, entity: int, hover: Hover, candidate: int | None) -> None:
    """Make `candidate` what the hand `entity` hovers, with an exit for the one it leaves
    before an enter for the new one, so a game's highlight never shows two at once."""
    if candidate == hover.object:
        return
    if hover.object is not None:
        world.send(HoverExited(entity, hover.object))
    hover.object = candidate
    if candidate is not None:
        world.send(HoverEntered(entity, candidate))


def _candidate(
    world: World, entity: int, everything: bool, settings: GrabSettings, pullable: list[int]
) -> tuple[int | None, bool]:
    """What the hand `entity` would take if it gripped now, and whether from a distance: the
    grabbable within reach whose centre of mass is nearest, else (for a hand that pulls
    `everything`, or an object that allows it) the one nearest its aim; never one with the
    environment between (no grabbing through walls). `pullable` are the free objects that opt
    in to distance grabs, for a hand that does not itself."""
    physics = world.resource(Physics)
    here = world.get(entity, Transform).position
    reach = physics.overlap(Sphere(settings.reach), here, spatial.identity(), GRABBABLE_LAYERS)
    candidates = sorted(
        {e for e, _ in reach if world.has(e, Grabbable)},
        key=lambda e: spatial.length(physics.center_of_mass(e) - here),
    )
    for candidate in candidates:
        if _in_sight(physics, here, physics.center_of_mass(candidate)):
            return candidate, False
    if settings.distance_range <= 0.0 or not (everything or pullable):
        return None, False
    return _aimed_at(world, entity, everything, settings, pullable), True


def _in_sight(physics: Physics, here: spatial.Vec3, there: spatial.Vec3) -> bool:
    """Whether no environment collider stands between `here` and `there`."""
    between = there - here
    distance = spatial.length(between)
    if distance <= 1e-6:
        return True
    return physics.ray_cast(here, between, distance, layers=["environment"]) is None


def _aimed_at(
    world: World, entity: int, everything: bool, settings: GrabSettings, pullable: list[int]
) -> int | None:
    """The free grabbable a distance grab would pull: within the cone about the hand's aim
    (the grip pose's -Z), the nearest the aim, then the nearest; one that neither the hand
    nor the object opts in for, or that sits on a joint, is never pulled."""
    physics = world.resource(Physics)
    grip = world.get(entity, Transform).pose()
    aim = spatial.rotate(grip.rotation, spatial.vec3(0.0, 0.0, -1.0))
    here, cosine = grip.position, math.cos(settings.distance_angle)
    if everything:  # everything within range: the physics query finds it
        found = physics.overlap(
            Sphere(settings.distance_range), here, spatial.identity(), GRABBABLE_LAYERS
        )
        near = {e for e, _ in found}
    else:
        near = set(pullable)
    scored: list[tuple[float, float, int]] = []
    for candidate in near:
        grabbable = world.try_get(candidate, Grabbable)
        if grabbable is None or grabbable.held_by is not None or world.has(candidate, Joint):
            continue
        if not (everything or grabbable.distance_grab):
            continue
        between = physics.center_of_mass(candidate) - here
        distance = spatial.length(between)
        if distance > settings.distance_range or distance <= 1e-6:
            continue
        along = _dot(between, aim) / distance
        if along >= cosine:
            scored.append((-along, distance, candidate))
    for _, _, candidate in sorted(scored):
        if _in_sight(physics, here, physics.center_of_mass(candidate)):
            return candidate
    return None


def _snatch(world: World, entity: int, held: int, taken: set[int]) -> bool:
    """Whether the hand `entity` taking `held` would take it from the hand that took it this
    very step (not as its second grip)."""
    grabbable = world.get(held, Grabbable)
    holder = grabbable.held_by
    if held not in taken or holder is None or holder == entity:
        return False
    return grabbable.second_grip is None or world.get(holder, Holding).second


def _take(world: World, entity: int, holding: Holding, held: int, far: bool) -> None:
    """The hand `entity` takes `held`: from where it lies (pulled into the palm when `far`),
    from the other hand, or by its second grab point when the other hand holds it."""
    grabbable = world.get(held, Grabbable)
    holder = grabbable.held_by
    if holder is not None and holder != entity:
        other = world.get(holder, Holding)
        if grabbable.second_grip is not None and not other.second:
            holding.object, holding.second = held, True  # both hands now: aimed first to second
            world.send(Grabbed(entity, held))
            return
        empty(other)  # taken from the other hand
    else:
        _start_holding(world, held)
    holding.object = held
    holding.offset = _offset_now(world, entity, held)
    holding.easing_to, holding.ease_left = None, 0.0
    if not world.has(held, Joint):  # a jointed object is held where it was grabbed
        left = world.get(entity, Hand).side is DeviceRole.LEFT_HAND
        attach = grabbable.attach_left if left else grabbable.attach_right
        settings = world.resource(GrabSettings)
        if attach is not None:
            holding.easing_to, holding.ease_left = spatial.invert(attach), grabbable.attach_ease
        elif far:
            holding.easing_to, holding.ease_left = _palm(world, held, holding.offset), 0.0
        if far:
            holding.ease_left = max(holding.ease_left, settings.pull_time)
        if holding.easing_to is not None and holding.ease_left <= 0.0:
            holding.offset, holding.easing_to = holding.easing_to, None
            # into the hand at once, as a teleport: driven there in one step, a kinematic
            # body would sweep what lies in its way aside at tens of metres a second
            at = spatial.compose(world.get(entity, Transform).pose(), holding.offset)
            teleport_body(world, held, at.position, at.rotation)
    grabbable.held_by = entity
    world.send(Grabbed(entity, held))


def _palm(world: World, held: int, offset: Pose) -> Pose:
    """Where an object pulled from a distance with no attach point ends in the hand: turned
    as it was, its centre of mass at the grip point."""
    centre = world.resource(Physics).local_center_of_mass(held)
    return Pose(-spatial.rotate(offset.rotation, centre), offset.rotation)


def _start_holding(world: World, held: int) -> None:
    """Make `held` a kinematic body on the held layer that reports what it strikes,
    remembering what it was."""
    grabbable = world.get(held, Grabbable)
    body = world.get(held, RigidBody)
    transform = world.get(held, Transform)
    if world.has(held, Joint):  # driven through its joint: it keeps its kind and layers
        grabbable.before = HeldBefore(kind=body.kind, layers={}, reported={})
        grabbable.last_clear = Pose(spatial.Vec3(transform.position), transform.rotation)
        return
    parts = world.get_mut(held, Colliders).parts
    solids = [i for i, c in enumerate(parts) if not c.sensor]
    grabbable.before = HeldBefore(
        kind=body.kind,
        layers={i: parts[i].layer for i in solids},
        reported={i: parts[i].report_contacts for i in solids},
    )
    grabbable.last_clear = Pose(spatial.Vec3(transform.position), transform.rotation)
    body.kind = BodyKind.KINEMATIC
    world.set_changed(held, RigidBody)
    for i in solids:
        parts[i] = replace(parts[i], layer="held", report_contacts=True)


def _let_go(world: World, hand: int, tracked: bool, held: int, offset: Pose) -> None:
    """Give `held` back as it was before the grab, where the hand let it go (inside a wall:
    where it last was outside one, never launched out of it), at rest; say so with LetGo."""
    grabbable = world.try_get(held, Grabbable)
    if grabbable is None or grabbable.before is None:
        return  # despawned while held: nothing to give back
    before = grabbable.before
    if world.has(held, Joint):  # it moved by physics all along: it goes on as it moves
        grabbable.held_by, grabbable.before, grabbable.ghost = None, None, False
        world.send(LetGo(hand, held, offset, launch=False))
        return
    launch = tracked and not grabbable.ghost
    if grabbable.ghost and grabbable.last_clear is not None:
        start = grabbable.last_clear
    elif tracked:
        start = spatial.compose(world.get(hand, Transform).pose(), offset)
    else:
        transform = world.get(held, Transform)
        start = transform.pose()
    grabbable.held_by, grabbable.before, grabbable.ghost = None, None, False
    world.get_mut(held, RigidBody).kind = before.kind
    parts = world.get_mut(held, Colliders).parts
    for part in before.layers:  # on "dropped" until clear of the player's body
        parts[part] = replace(parts[part], layer="dropped", report_contacts=before.reported[part])
    grabbable.dropped = dict(before.layers)
    teleport_body(world, held, start.position, start.rotation)
    still = spatial.vec3(0.0, 0.0, 0.0)
    world.resource(BodyCommands).send(SetVelocity(held, still, still))
    world.send(LetGo(hand, held, offset, launch))


@system(
    Phase.FIXED,
    in_set=FixedSet.GRAB,
    after=(grab,),
    reads=(Grabbable, TrackedDevice, Joint),
    writes=(Holding, Transform, Physics, BodyCommands),
)
def hold(world: World) -> None:
    """Move each held object with its hand (aimed at the second hand when two hold it); set
    a jointed one moving toward it."""
    seconds = second_hands(
        world, {e: world.get(e, Transform).position for e, _ in world.each(Holding)}
    )
    dt = world.fixed_time.dt
    for _, (holding, device, transform) in world.query(Holding, TrackedDevice, Transform):
        held = holding.object
        if held is None or holding.second or holding.offset is None or not device.tracked:
            continue  # a hand that lost tracking leaves the object where it was
        grabbable = world.try_get(held, Grabbable)
        if grabbable is None:
            continue  # despawned during this step: forgotten at the next
        if holding.easing_to is not None:
            _ease(holding, dt)
        pose = held_pose(holding.offset, transform.pose(), grabbable, seconds.get(held))
        joint = world.try_get(held, Joint)
        if joint is not None:
            grip = spatial.invert(holding.offset).position  # the hand in the object's frame
            _drive(world, held, joint, pose, grip)
            continue
        obj = world.get(held, Transform)
        obj.position, obj.rotation = pose.position, pose.rotation


def _ease(holding: Holding, dt: float) -> None:
    """Move the hand's offset one step of `dt` toward `easing_to`, at an even pace that
    arrives when `ease_left` runs out."""
    assert holding.offset is not None and holding.easing_to is not None
    if holding.ease_left <= dt:
        holding.offset, holding.easing_to, holding.ease_left = holding.easing_to, None, 0.0
        return
    holding.offset = spatial.lerp_pose(holding.offset, holding.easing_to, dt / holding.ease_left)
    holding.ease_left -= dt


def _drive(world: World, entity: int, joint: Joint, target: Pose, grip: spatial.Vec3) -> None:
    """Set a jointed object's velocity so that, in one step, its point under the hand (`grip`,
    in its frame) reaches where the hand holds it in `target`, as far as the joint lets it
    (capped); a hinge held near its axis turns by the hand's twist about the axis instead."""
    physics = world.resource(Physics)
    line = joint_line(physics, entity)
    if line is None:
        return  # not built yet, or its other body went: it stays where physics has it
    anchor, axis = line
    here = world.get(entity, Transform).pose()
    now, wanted = spatial.transform_point(here, grip), spatial.transform_point(target, grip)
    dt = world.fixed_time.dt
    zero = spatial.vec3(0.0, 0.0, 0.0)
    if joint.kind is JointKind.SLIDER:
        speed = _clamp(_dot(wanted - now, axis) / dt, MAX_DRIVE_SPEED)
        world.resource(BodyCommands).send(SetVelocity(entity, axis * speed, zero))
        return
    arm_now, arm_wanted = _across(now - anchor, axis), _across(wanted - anchor, axis)
    if min(spatial.length(arm_now), spatial.length(arm_wanted)) > LEVER_ARM:
        angle = math.atan2(
            _dot(axis, spatial.cross(arm_now, arm_wanted)), _dot(arm_now, arm_wanted)
        )
    else:
        turn = spatial.multiply(target.rotation, spatial.inverse(here.rotation))
        twist = _dot(spatial.vec3(turn.x, turn.y, turn.z), axis)
        angle = math.remainder(2.0 * math.atan2(twist, turn.w), math.tau)
    spin = axis * _clamp(angle / dt, MAX_DRIVE_SPIN)
    lever = physics.center_of_mass(entity) - anchor
    world.resource(BodyCommands).send(SetVelocity(entity, spatial.cross(spin, lever), spin))


def _dot(a: spatial.Vec3, b: spatial.Vec3) -> float:
    return a.x * b.x + a.y * b.y + a.z * b.z


def _across(v: spatial.Vec3, axis: spatial.Vec3) -> spatial.Vec3:
    """`v` without its part along the unit `axis`."""
    return v - axis * _dot(v, axis)


def _clamp(value: float, limit: float) -> float:
    return max(-limit, min(limit, value))


def second_hands(world: World, where: dict[int, spatial.Vec3]) -> dict[int, spatial.Vec3]:
    """Object -> where its second hand is, for objects held in both hands (`where` says where
    each hand entity is)."""
    return {
        holding.object: where[e]
        for e, holding in world.each(Holding)
        if holding.second and holding.object is not None and e in where
    }


def held_pose(
    offset: Pose, grip: Pose, grabbable: Grabbable, second: spatial.Vec3 | None = None
) -> Pose:
    """Where a held object is with its hand at `grip` (the hand's frame) holding it at
    `offset`; aimed from that hand toward `second` when a second hand holds it too."""
    pose = spatial.compose(grip, offset)
    if second is not None and grabbable.second_grip is not None:
        pose = _aimed(pose, offset, grabbable.second_grip, grip.position, second)
    return pose


def _aimed(
    pose: Pose, offset: Pose, second_grip: spatial.Vec3, first: spatial.Vec3, second: spatial.Vec3
) -> Pose:
    """Turn the object about the first hand so its first-to-second grip axis points at the
    second hand."""
    first_grip = spatial.invert(offset).position  # the first hand in the object's frame
    axis = spatial.rotate(pose.rotation, second_grip - first_grip)
    toward = second - first
    if spatial.length(axis) < 1e-6 or spatial.length(toward) < 1e-6:
        return pose
    turn = spatial.rotation_between(axis, toward)
    rotation = spatial.normalize(spatial.multiply(turn, pose.rotation))
    return Pose(first - spatial.rotate(rotation, first_grip), rotation)
