"""The Rapier world behind a playspace world, and the map between entities and handles.

:class:`Physics` is a resource. The physics systems keep it in step with the components; games
and other systems use it for what is not plain data: velocities, impulses, teleports and scene
queries (ray cast, shape cast, overlap), each filtered by layer names and answering with
entities. Only this package imports rapier3d; the rest of playspace sees physics through
components, this resource and events.

Every body and collider carries its entity id in Rapier's ``user_data``; the reverse map from
a collider handle to (entity, part) lives here, so no lookup scans the world.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

import rapier3d as rp

from playspace import spatial
from playspace.components import Transform
from playspace.components.physics import (
    BodyKind,
    Collider,
    Colliders,
    PreviousTransform,
    RigidBody,
)
from playspace.spatial import Quat, Vec3
from playspace.systems.physics.convert import PhysicsError, isometry, shared_shape
from playspace.systems.physics.edits import EditWatch
from playspace.systems.physics.layers import Layers
from playspace.systems.physics.queries import Queries, finite


class FallPolicy(Enum):
    """What happens to a body that falls below the kill height."""

    REMOVE = "remove"
    RESPAWN = "respawn"


_KINDS = {
    BodyKind.DYNAMIC: rp.RigidBodyType.DYNAMIC,
    BodyKind.KINEMATIC: rp.RigidBodyType.KINEMATIC_POSITION_BASED,
    BodyKind.FIXED: rp.RigidBodyType.FIXED,
}


@dataclass(slots=True)
class Part:
    """One collider as created: its handle, the component it came from, the layer applied."""

    handle: rp.ColliderHandle
    collider: Collider
    layer: str


@dataclass(slots=True)
class Body:
    """One entity's body as created in Rapier."""

    entity: int
    handle: rp.RigidBodyHandle
    rigid_body: rp.RigidBody  # a live view of the engine's body: no lookup by handle
    component: RigidBody | None
    transform: Transform
    previous: PreviousTransform | None
    kind: BodyKind
    colliders: Colliders | None
    parts: list[Part] = field(default_factory=list)
    spawn: tuple[Vec3, Quat] | None = None
    pushed: tuple[Vec3, Quat] | None = None


def _solid_volume(parts: list[Collider]) -> float:
    return sum(shared_shape(c.shape).mass_properties(1.0).mass for c in parts if not c.sensor)


class Physics(Queries):
    """The engine world, its settings and the entity <-> handle maps; a resource."""

    def __init__(
        self,
        gravity: tuple[float, float, float] = (0.0, -9.81, 0.0),
        kill_height: float = -50.0,
        fall_policy: FallPolicy = FallPolicy.REMOVE,
        layers: Layers | None = None,
    ) -> None:
        self.engine = rp.PhysicsWorld(gravity=gravity)
        self.collector = rp.ChannelEventCollector()
        self.engine.event_handler = self.collector  # type: ignore[assignment]  # Rust-side sink
        self.kill_height = kill_height
        self.fall_policy = fall_policy
        self.layers = layers if layers is not None else Layers()
        self.bodies: dict[int, Body] = {}
        self.by_handle: dict[rp.RigidBodyHandle, Body] = {}
        self.kinematic: dict[int, Body] = {}  # the bodies driven to their Transforms each step
        self.dynamic: dict[rp.RigidBodyHandle, Body] = {}  # the bodies written back, by handle
        self.settling: dict[int, int] = {}  # bodies made inside others: steps left held slow
        self.step_ns = 0  # how long Rapier's own step took last time: what the rest is measured by
        self.parts: dict[rp.ColliderHandle, tuple[int, int]] = {}
        self.removed_parts: dict[rp.ColliderHandle, tuple[int, int]] = {}
        self.layers_version = self.layers.version
        self.filters = {}
        self.filters_version = self.layers.version
        self.pending_velocity: dict[int, tuple[Vec3, Vec3 | None]] = {}
        # What the systems remember between steps: the query lists last seen (esper returns
        # the same cached list until a structural change) and the bodies that moved.
        self.seen_queries: tuple[object, object] = (None, None)
        self.edits = EditWatch()
        self.moved: set[rp.RigidBodyHandle] = set()
        # The character controllers, with the capsule and query filter they move with, by the
        # body's slot in Rapier's arena, and what they were made for (body, settings, matrix).
        self.controllers: dict[
            int,
            tuple[
                tuple[object, ...],
                rp.KinematicCharacterController,
                rp.SharedShape,
                rp.QueryFilter,
            ],
        ] = {}

    # Bodies ------------------------------------------------------------------------------

    def create(
        self,
        entity: int,
        transform: Transform,
        component: RigidBody | None,
        colliders: Colliders | None,
        previous: PreviousTransform | None,
    ) -> Body:
        """Add an entity's body and colliders, after checking everything that could poison
        the engine; on error nothing is added."""
        kind = component.kind if component is not None else BodyKind.FIXED
        if not (finite(transform.position) and finite(transform.rotation)):
            raise PhysicsError(
                f"entity {entity}: its Transform is not finite (position "
                f"{tuple(transform.position)}, rotation {tuple(transform.rotation)}); it was "
                f"not added to the physics world"
            )
        rotation = spatial.normalize(transform.rotation)
        parts = colliders.parts if colliders is not None else []
        volume = _solid_volume(parts)
        builders = [self._collider(c, entity, component, volume) for c in parts]
        builder = (
            rp.RigidBodyBuilder(_KINDS[kind])
            .position(isometry(transform.position, rotation))
            .user_data(entity)
        )
        if component is not None:
            builder = (
                builder.linear_damping(component.linear_damping)
                .angular_damping(component.angular_damping)
                .gravity_scale(component.gravity_scale)
                .ccd_enabled(component.ccd)
                .can_sleep(component.can_sleep)
            )
        handle = self.engine.add_body(builder)
        body = Body(
            entity,
            handle,
            self.engine.rigid_bodies[handle],
            component,
            transform,
            previous,
            kind,
            colliders,
        )
        body.spawn = body.pushed = (spatial.Vec3(transform.position), rotation)
        for part, built in zip(parts, builders, strict=True):
            self._attach(body, part, built)
        self.bodies[entity] = body
        self.by_handle[handle] = body
        self.edits.stale = True
        if kind is BodyKind.KINEMATIC:
            self.kinematic[entity] = body
        elif kind is BodyKind.DYNAMIC:
            self.dynamic[handle] = body
        if entity in self.pending_velocity:
            self.set_velocity(entity, *self.pending_velocity.pop(entity))
        return body

    def add_parts(self, body: Body) -> None:
        """Create the colliders appended to an entity's Colliders since it was created.

        An appended solid adds its shape but not mass to a body whose mass was given.
        """
        assert body.colliders is not None
        self.edits.stale = True
        for collider in body.colliders.parts[len(body.parts) :]:
            self._attach(body, collider, self._collider(collider, body.entity, body.component, 0))

    def replace_part(self, body: Body, index: int) -> None:
        """Rebuild collider `index`, whose Collider was replaced (a crouching capsule).

        On a body given a mass, the new part carries the old part's share of it, so the body
        weighs what it was given whatever shape the part takes now.
        """
        assert body.colliders is not None
        collider = body.colliders.parts[index]
        self.edits.stale = True
        old = body.parts[index].handle
        share = self.engine.colliders[old].mass
        self.removed_parts[old] = self.parts.pop(old)
        self.engine.remove_collider(old)
        builder = self._collider(collider, body.entity, body.component, 0)
        if body.component is not None and body.component.mass is not None and not collider.sensor:
            builder = builder.mass(share)
        handle = self.engine.add_collider(builder, body.handle)
        self.engine.colliders[handle].collision_groups = self.groups(collider.layer)
        self.parts[handle] = (body.entity, index)
        body.parts[index] = Part(handle, collider, collider.layer)

    def remove(self, entity: int) -> None:
        body = self.bodies.pop(entity, None)
        if body is None:
            return
        del self.by_handle[body.handle]
        self.edits.stale = True
        self.kinematic.pop(entity, None)
        self.dynamic.pop(body.handle, None)
        self.settling.pop(entity, None)
        for part in body.parts:
            self.removed_parts[part.handle] = self.parts.pop(part.handle)
        self.engine.remove_body(body.handle)
        self.pending_velocity.pop(entity, None)

    def _collider(
        self, collider: Collider, entity: int, component: RigidBody | None, volume: float
    ) -> rp.ColliderBuilder:
        shape = shared_shape(collider.shape)
        try:
            self.layers.index(collider.layer)
        except ValueError as error:
            raise PhysicsError(f"entity {entity}: {error}") from None
        builder = (
            rp.Collider.new(shape)
            .position(isometry(collider.offset.position, collider.offset.rotation))
            .friction(collider.friction)
            .restitution(collider.restitution)
            .sensor(collider.sensor)
            .user_data(entity)
        )
        if collider.sensor:
            builder = builder.density(0.0).active_collision_types(rp.ActiveCollisionTypes.all())
        elif component is not None and component.mass is not None:
            share = shape.mass_properties(1.0).mass / volume if volume > 0 else 0.0
            builder = builder.mass(component.mass * share) if share else builder.density(0.0)
        else:
            builder = builder.density(collider.density)
        if collider.sensor or collider.report_contacts:
            builder = builder.active_events(rp.ActiveEvents.COLLISION_EVENTS)
        return builder

    def _attach(self, body: Body, collider: Collider, builder: rp.ColliderBuilder) -> None:
        handle = self.engine.add_collider(builder, body.handle)
        self.engine.colliders[handle].collision_groups = self.groups(collider.layer)
        self.parts[handle] = (body.entity, len(body.parts))
        body.parts.append(Part(handle, collider, collider.layer))

    def groups(self, layer: str) -> rp.InteractionGroups:
        return rp.InteractionGroups(
            memberships=rp.Group(self.layers.membership(layer)),
            filter=rp.Group(self.layers.filter(layer)),
        )

    def set_kind(self, body: Body, kind: BodyKind) -> None:
        body.rigid_body.body_type = _KINDS[kind]
        body.kind = kind
        self.edits.stale = True
        self.kinematic.pop(body.entity, None)
        self.settling.pop(body.entity, None)
        self.dynamic.pop(body.handle, None)
        if kind is BodyKind.KINEMATIC:
            self.kinematic[body.entity] = body
            body.pushed = (spatial.Vec3(body.transform.position), body.transform.rotation)
        elif kind is BodyKind.DYNAMIC:
            self.dynamic[body.handle] = body

    def set_body_kind(self, entity: int, kind: BodyKind) -> None:
        """Change a body's kind now (and its component, so the next step agrees)."""
        body = self._body(entity)
        if body.component is not None:
            body.component.kind = kind
        if body.kind is not kind:
            self.set_kind(body, kind)

    def set_layer(self, entity: int, part: int, layer: str) -> None:
        """Move one collider to `layer` now (and its component): held objects change layers
        mid-step and must not wait for the next one."""
        body = self._body(entity)
        record = body.parts[part]
        record.collider.layer = layer
        if record.layer != layer:
            self.engine.colliders[record.handle].collision_groups = self.groups(layer)
            record.layer = layer
            self.edits.stale = True

    def report_contacts(self, entity: int, part: int, on: bool) -> None:
        """Start or stop contact events for one solid collider (a held object's hits)."""
        record = self._body(entity).parts[part]
        record.collider.report_contacts = on
        collider = self.engine.colliders[record.handle]
        collider.active_events = rp.ActiveEvents.COLLISION_EVENTS if on else rp.ActiveEvents.NONE
        # a held object is kinematic, and so are opponents: Rapier skips kinematic pairs unless
        # asked, and then no hit could be seen
        collider.active_collision_types = (
            rp.ActiveCollisionTypes.all() if on else rp.ActiveCollisionTypes.default_types()
        )

    def static_extent(self) -> tuple[Vec3, Vec3] | None:
        """The smallest world box around every fixed body's colliders (lowest, highest
        corner): the level's geometry, which nothing stands beyond. None without any."""
        boxes = [
            self.engine.colliders[part.handle].compute_aabb()
            for body in self.bodies.values()
            if body.kind is BodyKind.FIXED
            for part in body.parts
        ]
        if not boxes:
            return None
        lows = [box.mins for box in boxes]
        highs = [box.maxs for box in boxes]
        low = spatial.vec3(*(min(float(corner[i]) for corner in lows) for i in range(3)))
        high = spatial.vec3(*(max(float(corner[i]) for corner in highs) for i in range(3)))
        return low, high

    def center_of_mass(self, entity: int) -> Vec3:
        """A body's centre of mass in the world."""
        rb = self._body(entity).rigid_body
        return spatial.vec3_from(rb.center_of_mass.to_tuple())

    def local_center_of_mass(self, entity: int) -> Vec3:
        """A body's centre of mass in its own frame."""
        rb = self._body(entity).rigid_body
        return spatial.vec3_from(rb.local_center_of_mass.to_tuple())

    def layer_of(self, entity: int, part: int) -> str | None:
        """The layer a collider is on now, or None if the entity has no such collider."""
        body = self.bodies.get(entity)
        if body is None or part >= len(body.parts):
            return None
        return body.parts[part].layer

    # Commands ----------------------------------------------------------------------------

    def set_velocity(self, entity: int, linear: Vec3, angular: Vec3 | None = None) -> None:
        """Give a body a velocity (m/s, rad/s), also one spawned this step and not yet built."""
        if not finite(linear) or (angular is not None and not finite(angular)):
            raise PhysicsError(f"entity {entity}: velocity must be finite, got {linear}, {angular}")
        self.settling.pop(entity, None)  # told how to move: no longer held slow
        body = self.bodies.get(entity)
        if body is None:
            self.pending_velocity[entity] = (spatial.Vec3(linear), angular)
            return
        rb = body.rigid_body
        rb.linvel = rp.Vec3(linear.x, linear.y, linear.z)
        if angular is not None:
            rb.angvel = rp.Vec3(angular.x, angular.y, angular.z)
        rb.wake_up()

    def velocity(self, entity: int) -> tuple[Vec3, Vec3]:
        """A body's linear and angular velocity."""
        rb = self._body(entity).rigid_body
        return spatial.vec3_from(rb.linvel.to_tuple()), spatial.vec3_from(rb.angvel.to_tuple())

    def apply_impulse(self, entity: int, impulse: Vec3) -> None:
        if not finite(impulse):
            raise PhysicsError(f"entity {entity}: impulse must be finite, got {impulse}")
        self._body(entity).rigid_body.apply_impulse((impulse.x, impulse.y, impulse.z))

    def teleport(self, entity: int, position: Vec3, rotation: Quat | None = None) -> None:
        """Move a body at once, with no velocity and no interpolation from where it was."""
        body = self._body(entity)
        rotation = body.transform.rotation if rotation is None else spatial.normalize(rotation)
        if not finite(position):
            raise PhysicsError(f"entity {entity}: teleport target is not finite: {position}")
        rb = body.rigid_body
        rb.position = rp.Isometry3(*isometry(position, rotation))
        if body.kind is BodyKind.KINEMATIC:
            rb.set_next_kinematic_position(isometry(position, rotation))
            body.pushed = (spatial.Vec3(position), rotation)
        body.transform.position = spatial.Vec3(position)
        body.transform.rotation = rotation
        if body.previous is not None:
            body.previous.position = spatial.Vec3(position)
            body.previous.rotation = rotation

    def _body(self, entity: int) -> Body:
        try:
            return self.bodies[entity]
        except KeyError:
            raise PhysicsError(f"entity {entity} has no body in the physics world") from None
