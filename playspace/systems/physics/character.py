"""The character capsule: Rapier's kinematic character controller, with gravity kept apart.

Each fixed step a character makes its desired horizontal move (sliding along walls, stepping up
to ``step_height``, walking slopes up to ``max_slope``, snapping down steps and slopes), then,
only while it has no walkable ground under it or it was given an upward `vertical_speed` (a
jump), a separate vertical move under gravity. Rapier's
autostep fails when the desired move has a downward part of about half the horizontal part or
more, as measured with rapier3d: even the usual ``-g * dt`` while grounded blocks steps at
walking speed, and splitting the move into two calls does not help. So a grounded character
gets no vertical input at all and ``snap_to_ground`` holds it on the floor;
to still slide down slopes too steep to stand on, a ray straight down from the capsule's centre
reads the ground's normal and keeps gravity on when it is steeper than ``max_slope``.

Rapier's autostep does not serve either: a capsule's round bottom meets a step's edge at a slant
and creeps up it over a third of a second, or stalls there at room-scale walking speed. Steps
are climbed here instead the way PhysX's controller does it: when a grounded move is blocked,
rise by the step height, move, and settle back down, accepted only onto walkable ground.

The entity's Transform is at the feet: the capsule floats ``SKIN`` above the floor, as Rapier's
controller keeps it, and the feet are that much below it. On first sight the system gives the
entity a kinematic RigidBody and a capsule collider offset up by half the height (and the
skin), so the body's origin is the feet too; the physics step then drives that body to the
Transform like any kinematic body, and what the capsule walks into gets a real velocity.
"""

from __future__ import annotations

import math

import rapier3d as rp

from playspace import spatial
from playspace.components import Transform
from playspace.components.locomotion import Suspended
from playspace.components.physics import (
    BodyKind,
    Capsule,
    CharacterBody,
    CharacterMotion,
    Collider,
    Colliders,
    RigidBody,
)
from playspace.ecs import Phase, World, system
from playspace.spatial import Pose
from playspace.systems.physics.convert import shared_shape
from playspace.systems.physics.engine import Physics
from playspace.systems.sets import FixedSet

SKIN = 0.01  # metres kept between the capsule and what it touches


def character_colliders(body: CharacterBody) -> Colliders:
    """The capsule of a character, its base at the body's origin (the feet)."""
    offset = Pose(spatial.vec3(0.0, body.height / 2 + SKIN, 0.0), spatial.identity())
    return Colliders(Collider(Capsule(body.radius, body.height), offset, layer=body.layer))


def _controller(body: CharacterBody) -> rp.KinematicCharacterController:
    return rp.KinematicCharacterController(
        up=(0.0, 1.0, 0.0),
        offset=rp.CharacterLength.absolute(SKIN),
        slide=True,
        autostep=None,
        max_slope_climb_angle=body.max_slope,
        min_slope_slide_angle=body.max_slope,
        snap_to_ground=rp.CharacterLength.absolute(body.snap_to_ground)
        if body.snap_to_ground > 0
        else None,
    )


@system(
    Phase.FIXED,
    in_set=FixedSet.CHARACTER,
    reads=(CharacterBody, Colliders, RigidBody, Suspended),
    writes=(Transform, CharacterMotion, Physics),
)
def character_move(world: World) -> None:
    """Move every character by the move it was carried, then by its desired translation, then
    by gravity if it is neither standing nor held up (:class:`Suspended`: climbing)."""
    physics = world.resource(Physics)
    dt = world.fixed_time.dt
    for entity, (transform, body, motion) in world.query(Transform, CharacterBody, CharacterMotion):
        mover = _mover(world, physics, entity, body)
        if mover is None:
            motion.carried = motion.carried_made = spatial.vec3(0.0, 0.0, 0.0)
            continue
        start = spatial.Vec3(transform.position)
        centre = (start.x, start.y + mover.lift, start.z)
        suspended = world.try_get(entity, Suspended)
        held = suspended is not None and suspended.held  # a climbing hand holds it up
        # a jump going up must not snap back, nor a climber pulled up
        mover.snapping(motion.vertical_speed <= 0.0 and not held)
        carried = (motion.carried.x, motion.carried.y if held else 0.0, motion.carried.z)
        if held:
            centre, _ = mover.move(centre, carried)
        elif carried != (0.0, 0.0, 0.0):
            centre, _ = mover.walk(centre, carried, was_grounded=motion.grounded)
        made = (centre[0] - start.x, 0.0, centre[2] - start.z)
        motion.carried_made = spatial.vec3(*made)
        motion.carried = spatial.vec3(0.0, 0.0, 0.0)
        wanted = (motion.desired.x, 0.0, motion.desired.z)
        centre, grounded = mover.walk(centre, wanted, was_grounded=motion.grounded)
        if held:
            motion.vertical_speed = 0.0  # no gravity while held up; released, it falls
        elif grounded and motion.vertical_speed <= 0.0:
            motion.vertical_speed = 0.0
        else:  # falling, or launched upward (a jump): not standing until it comes down
            grounded = False
            motion.vertical_speed += physics._engine.gravity.y * dt
            rise = motion.vertical_speed * dt
            low = centre[1]
            centre, landed = mover.move(centre, (0.0, rise, 0.0))
            if rise > 0.0 and centre[1] - low < 0.5 * rise:
                motion.vertical_speed = 0.0  # a ceiling: the rise ends there
            if motion.vertical_speed <= 0.0 and landed and not mover.too_steep(centre):
                grounded = True
                motion.vertical_speed = 0.0
        transform.position = spatial.vec3(centre[0], centre[1] - mover.lift, centre[2])
        motion.moved = transform.position - start
        motion.grounded = grounded
        motion.desired = spatial.vec3(0.0, 0.0, 0.0)


def _mover(world: World, physics: Physics, entity: int, body: CharacterBody) -> _Mover | None:
    """The mover of a character whose capsule exists; on first sight, ask for the capsule."""
    record = physics.bodies.get(entity)
    colliders = world.try_get(entity, Colliders)
    if record is None or colliders is None:
        if not world.has(entity, RigidBody):
            world.add(entity, RigidBody(kind=BodyKind.KINEMATIC), character_colliders(body))
        return None
    capsule = colliders.parts[0]
    if not isinstance(capsule.shape, Capsule) or capsule.shape.height != body.height:
        colliders.parts[0] = character_colliders(body).parts[0]  # crouched or stood up
        world.set_changed(entity, Colliders)
    return _Mover(physics, body, record.handle, world.fixed_time.dt)


Point = tuple[float, float, float]


class _Mover:
    """One character's collision-aware moves for one step."""

    def __init__(
        self, physics: Physics, body: CharacterBody, handle: rp.RigidBodyHandle, dt: float
    ):
        made_for = (
            handle,  # with its generation: the filter excludes this very body
            body.radius,
            body.height,
            body.step_height,
            body.max_slope,
            body.snap_to_ground,
            body.layer,
            physics.layers.version,
        )
        found = physics.controllers.get(handle.index)  # one a slot: bounded as Rapier's arena
        if found is None or found[0] != made_for:
            query = rp.QueryFilter(
                flags=rp.QueryFilterFlags.EXCLUDE_SENSORS,
                groups=physics.groups(body.layer),
                exclude_rigid_body=handle,
            )
            capsule = shared_shape(Capsule(body.radius, body.height))
            found = physics.controllers[handle.index] = (
                made_for,
                _controller(body),
                capsule,
                query,
            )
        _, self.controller, self.shape, self.filter = found
        self.physics, self.body, self.dt = physics, body, dt
        self.lift = body.height / 2 + SKIN  # feet to capsule centre

    def snapping(self, on: bool) -> None:
        """Snap to the ground (going down steps and slopes) or not (going up, in a jump)."""
        body = self.body
        snap = body.snap_to_ground > 0 and on
        self.controller.snap_to_ground = (
            rp.CharacterLength.absolute(body.snap_to_ground) if snap else None
        )

    def move(self, centre: Point, translation: Point) -> tuple[Point, bool]:
        engine = self.physics._engine
        moved = self.controller.move_shape(
            self.dt,
            engine.rigid_bodies,
            engine.colliders,
            engine.query_pipeline,
            self.shape,
            rp.Isometry3(centre, (0.0, 0.0, 0.0, 1.0)),
            translation,
            self.filter,
        )
        t = moved.translation
        return (centre[0] + t.x, centre[1] + t.y, centre[2] + t.z), moved.grounded

    def walk(self, centre: Point, wanted: Point, was_grounded: bool) -> tuple[Point, bool]:
        """The horizontal move, stepping up onto what blocks it when that is a step."""
        moved, grounded = self.move(centre, wanted)
        grounded = grounded and not self.too_steep(moved)
        want = math.hypot(wanted[0], wanted[2])
        made = math.hypot(moved[0] - centre[0], moved[2] - centre[2])
        if was_grounded and want > 1e-6 and made < 0.5 * want and self.body.step_height > 0:
            stepped = self.step_up(centre, wanted, made)
            if stepped is not None:
                return stepped, True
        return moved, grounded

    def step_up(self, centre: Point, wanted: Point, made: float) -> Point | None:
        """Climb onto a step found just ahead: accepted onto walkable ground no higher than a
        step, with headroom, and only when it gets further than walking did.

        A ray just beyond the capsule's front finds the step's top; the capsule rises by
        exactly that much, so its bottom meets the edge at its lowest point and stands on it,
        then makes its move. Rapier's own autostep is unreliable with a capsule: the round
        bottom meets a step's edge at a slant and creeps up it, or stalls there.
        """
        body = self.body
        length = math.hypot(wanted[0], wanted[2])
        ahead = body.radius + 3 * SKIN + length
        feet = centre[1] - self.lift
        top = feet + body.step_height + 2 * SKIN
        probe = (
            centre[0] + wanted[0] / length * ahead,
            top,
            centre[2] + wanted[2] / length * ahead,
        )
        found = self.physics._engine.query_pipeline.cast_ray_and_get_normal(
            rp.Ray(probe, (0.0, -1.0, 0.0)), top - feet, True, self.filter
        )
        if found is None:
            return None
        hit = found[1]
        rise = top - hit.toi - feet
        walkable = hit.normal.y >= math.cos(body.max_slope) - 1e-3
        if not (SKIN < rise <= body.step_height) or not walkable:
            return None
        raised, _ = self.move(centre, (0.0, rise + SKIN, 0.0))
        if raised[1] - centre[1] < rise:
            return None  # no headroom
        onto, _ = self.move(raised, wanted)
        if math.hypot(onto[0] - centre[0], onto[2] - centre[2]) <= made + 1e-4:
            return None
        return onto

    def too_steep(self, centre: Point) -> bool:
        """Whether the ground straight below is steeper than the character may stand on."""
        found = self.physics._engine.query_pipeline.cast_ray_and_get_normal(
            rp.Ray(centre, (0.0, -1.0, 0.0)),
            self.lift + self.body.snap_to_ground + SKIN * 4,
            True,
            self.filter,
        )
        return found is not None and found[1].normal.y < math.cos(self.body.max_slope) - 1e-3
