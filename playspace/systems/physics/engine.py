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
from typing import TYPE_CHECKING

import rapier3d as rp

from playspace import spatial
from playspace.components import Transform
from playspace.components.physics import (
    BUILT_FROM,
    GRAVITY,
    KILL_HEIGHT,
    SURFACE,
    ApplyImpulse,
    BodyCommand,
    BodyKind,
    Collider,
    Colliders,
    ColliderSurfaces,
    ConvexHull,
    FallPolicy,
    PreviousTransform,
    RigidBody,
    SetVelocity,
)
from playspace.spatial import FloatArray, Quat, Vec3
from playspace.systems.physics.convert import PhysicsError, hull_surface, isometry, shared_shape
from playspace.systems.physics.layers import Layers
from playspace.systems.physics.queries import Queries, finite

if TYPE_CHECKING:
    from playspace.systems.physics.joints import BuiltJoint

_SENSOR = BUILT_FROM.index("sensor")
STANDARD_GRAVITY = 9.81
# A dynamic body's contact is an impact when its force passes this many times the body's
# weight: resting, or pushed along, never does; a fall onto the floor or a knock does.
IMPACT_WEIGHTS = 3.0
_KINDS = {
    BodyKind.DYNAMIC: rp.RigidBodyType.DYNAMIC,
    BodyKind.KINEMATIC: rp.RigidBodyType.KINEMATIC_POSITION_BASED,
    BodyKind.FIXED: rp.RigidBodyType.FIXED,
}


@dataclass(slots=True)
class Part:
    """One collider as created: its handle, the component value it was last brought up to date
    with, and what of it was applied to the engine: its layer, whether it reports contacts,
    the fields it was built from (a new value rebuilds it) and its surface (changed on the
    engine's collider as it is)."""

    handle: rp.ColliderHandle
    collider: Collider
    layer: str
    reports: bool
    built: tuple[object, ...]
    surface: tuple[object, ...]

    @staticmethod
    def of(handle: rp.ColliderHandle, collider: Collider) -> Part:
        return Part(
            handle,
            collider,
            collider.layer,
            collider.report_contacts,
            _fields(collider, BUILT_FROM),
            _fields(collider, SURFACE),
        )

    def outdated(self, collider: Collider) -> bool:
        """Whether `collider`, now in this part's place, differs in a field it is built from."""
        return self.built != _fields(collider, BUILT_FROM)

    def resurfaced(self) -> bool:
        """Whether its friction, restitution or density differ from what the engine has."""
        return self.surface != _fields(self.collider, SURFACE)


def _fields(collider: Collider, names: tuple[str, ...]) -> tuple[object, ...]:
    return tuple(getattr(collider, name) for name in names)


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
    written: int = 0  # the write-back that last wrote its pose (Physics.writes)
    # the mass it was given when made (RigidBody.mass is read then): kept whatever its parts
    # become; None where the parts' densities decide
    mass: float | None = None


def _volume(collider: Collider) -> float:
    return float(shared_shape(collider.shape).mass_properties(1.0).mass)


def _solid_volume(parts: list[Collider]) -> float:
    return sum(_volume(c) for c in parts if not c.sensor)


def _share(volume: float, total: float) -> float:
    """A solid part's share of its body's given mass: its part of the solids' volume."""
    return volume / total if total > 0 else 0.0


class Physics(Queries):
    """The engine world, its settings and the entity <-> handle maps; a resource."""

    def __init__(
        self,
        gravity: tuple[float, float, float] = GRAVITY,
        kill_height: float = KILL_HEIGHT,
        fall_policy: FallPolicy = FallPolicy.REMOVE,
        layers: Layers | None = None,
    ) -> None:
        self._engine = rp.PhysicsWorld(gravity=gravity)
        self.collector = rp.ChannelEventCollector()
        self._engine.event_handler = self.collector  # type: ignore[assignment]  # Rust-side sink
        self.kill_height = kill_height
        self.fall_policy = fall_policy
        self.layers = layers if layers is not None else Layers()
        self.surfaces = ColliderSurfaces()  # the hulls built, for the renderer (a resource)
        self.bodies: dict[int, Body] = {}
        self.by_handle: dict[rp.RigidBodyHandle, Body] = {}
        self.kinematic: dict[int, Body] = {}  # the bodies driven to their Transforms each step
        # The bodies written back, by their slot in Rapier's arena (a handle's index): the
        # write-back finds each awake body by a list index, not by hashing its handle. It
        # covers the slot of every body made (None where it is not dynamic), so the write-back
        # indexes it without a bounds check.
        self.dynamic: list[Body | None] = []
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
        self.moved: list[Body] = []  # the dynamic bodies the last write-back wrote
        # bodies whose Transform or PreviousTransform physics changed since what is drawn last
        # looked (written back, stopped, teleported, made or unmade kinematic): late placement
        # gathers only those, and every kinematic body, not the whole level each frame
        self.redrawn: list[list[Body]] = []
        self.redrawn_all = False
        self.writes = 0  # write-backs so far: a body's `written` says if this one wrote it
        # The joints built from Joint components, by the entity that carries one; the list of
        # Joints last seen; the fixed body at the world's origin that world joints hold to.
        self.joints: dict[int, BuiltJoint] = {}
        self.forced: set[tuple[int, int]] = set()  # collider pairs over their impact force
        self.seen_joints: object = None
        self._ground: rp.RigidBodyHandle | None = None
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
        given = component.mass if component is not None else None
        dynamic = kind is BodyKind.DYNAMIC
        builders = [self._collider(c, entity, given, volume, dynamic) for c in parts]
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
        handle = self._engine.add_body(builder)
        self._cover(handle.index)
        body = Body(
            entity,
            handle,
            self._engine.rigid_bodies[handle],
            component,
            transform,
            previous,
            kind,
            colliders,
            mass=given,
        )
        body.spawn = body.pushed = (spatial.Vec3(transform.position), rotation)
        for part, built in zip(parts, builders, strict=True):
            self._attach(body, part, built)
        self.bodies[entity] = body
        self.by_handle[handle] = body
        if kind is BodyKind.KINEMATIC:
            self.kinematic[entity] = body
        elif kind is BodyKind.DYNAMIC:
            self._slot(body)
        if entity in self.pending_velocity:
            _set_velocity(body, *self.pending_velocity.pop(entity))
        return body

    def add_parts(self, body: Body) -> None:
        """Create the colliders appended to an entity's Colliders since it was created.

        An appended solid adds its shape but not mass to a body whose mass was given (the
        mass is spread over the solids again).
        """
        assert body.colliders is not None
        added = body.colliders.parts[len(body.parts) :]
        for collider in added:
            dynamic = body.kind is BodyKind.DYNAMIC
            made = self._collider(collider, body.entity, body.mass, 0, dynamic)
            self._attach(body, collider, made)
        if not all(collider.sensor for collider in added):
            self._share_mass(body)

    def remove_parts(self, body: Body) -> None:
        """Free the colliders cut from the end of an entity's Colliders (a held object's
        sensor twins, at the let-go)."""
        assert body.colliders is not None
        kept = len(body.colliders.parts)
        cut = body.parts[kept:]
        for part in cut:
            self.removed_parts[part.handle] = self.parts.pop(part.handle)
            self._engine.remove_collider(part.handle)
        del body.parts[kept:]
        if not all(part.built[_SENSOR] for part in cut):  # as built: it may be a sensor now
            self._share_mass(body)

    def replace_part(self, body: Body, index: int) -> None:
        """Rebuild collider `index`, whose Collider was replaced by one of another shape, offset
        or sensor (a crouching capsule).

        A body given a mass has it spread over its solid parts by volume again, so it
        weighs what it was given whatever shape the part takes now, or if it became a sensor.
        """
        assert body.colliders is not None
        collider = body.colliders.parts[index]
        old = body.parts[index]
        self.removed_parts[old.handle] = self.parts.pop(old.handle)
        self._engine.remove_collider(old.handle)
        builder = self._collider(collider, body.entity, body.mass, 0, body.kind is BodyKind.DYNAMIC)
        handle = self._engine.add_collider(builder, body.handle)
        self._engine.colliders[handle].collision_groups = self.groups(collider.layer)
        self.parts[handle] = (body.entity, index)
        body.parts[index] = Part.of(handle, collider)
        self._share_mass(body)
        body.rigid_body.wake_up()  # it may no longer rest as it did (made a sensor, grown)

    def set_surface(self, body: Body, part: Part) -> None:
        """Change one collider's friction, restitution and density on the engine's collider
        as it is: rebuilding it would end and begin again every contact and overlap it has.
        A body given a mass keeps it whatever the density."""
        collider = part.collider
        engine = self._engine.colliders[part.handle]
        engine.friction = collider.friction
        engine.restitution = collider.restitution
        if not collider.sensor and body.mass is None:
            engine.density = collider.density
        part.surface = _fields(collider, SURFACE)
        # Rapier keeps a resting contact's friction and restitution until a collider of the
        # pair changes (the surface is not such a change): placing the collider where it is
        # marks it, and the next step wakes what touches it and works their contacts out
        # again with the new surface (a box asleep on a slope turned to ice slides).
        placed = engine.position_wrt_parent
        assert placed is not None  # every collider here is on its entity's body
        engine.position_wrt_parent = placed

    def retune(self, body: Body) -> None:
        """Give the engine's body what its ``RigidBody`` says now, where that changed since it
        was made (an inspector's edit, a game's through ``get_mut``): a given mass spread over
        its solid parts again, its damping, gravity scale and CCD."""
        component = body.component
        if component is None:
            return
        if component.mass is not None and component.mass != body.mass:
            body.mass = component.mass
            self._share_mass(body)
        live = body.rigid_body
        for name in ("linear_damping", "angular_damping", "gravity_scale"):
            wanted = float(getattr(component, name))
            if abs(getattr(live, name) - wanted) > 1e-6 * max(1.0, abs(wanted)):  # f32 there
                setattr(live, name, wanted)
        if live.ccd_enabled != component.ccd:
            live.ccd_enabled = component.ccd

    def _share_mass(self, body: Body) -> None:
        """Spread a given mass over the body's solid parts by volume, as it was at its making,
        after a solid part was added, cut, rebuilt, or made a sensor or solid."""
        if body.mass is None:
            return
        solid = [part for part in body.parts if not part.collider.sensor]
        volumes = [_volume(part.collider) for part in solid]
        total = sum(volumes)
        for part, volume in zip(solid, volumes, strict=True):
            self._engine.colliders[part.handle].mass = body.mass * _share(volume, total)

    def remove(self, entity: int) -> None:
        body = self.bodies.pop(entity, None)
        if body is None:
            return
        del self.by_handle[body.handle]
        self.kinematic.pop(entity, None)
        self._unslot(body)
        self.settling.pop(entity, None)
        for part in body.parts:
            self.removed_parts[part.handle] = self.parts.pop(part.handle)
        self._engine.remove_body(body.handle)  # and, in Rapier, every joint holding it
        self.pending_velocity.pop(entity, None)
        if self.joints:
            self._unjoin(body)

    def _unjoin(self, body: Body) -> None:
        """Forget the joints Rapier removed with `body`: its own, and those of others held to
        it (kept unbuilt until their Joint is edited)."""
        self.joints.pop(body.entity, None)
        for built in self.joints.values():
            if built.other is body:
                built.handle = None

    def ground(self) -> rp.RigidBodyHandle:
        """The fixed body at the world's origin that joints to the world hold to; made with
        the first of them (a world without joints has no such body)."""
        if self._ground is None:
            self._ground = self._engine.add_body(rp.RigidBodyBuilder(rp.RigidBodyType.FIXED))
            self._cover(self._ground.index)
        return self._ground

    def _collider(
        self, collider: Collider, entity: int, mass: float | None, volume: float, dynamic: bool
    ) -> rp.ColliderBuilder:
        shape = shared_shape(collider.shape)
        try:
            self.layers.index(collider.layer)
        except ValueError as error:
            raise PhysicsError(f"entity {entity}: {error}") from None
        if isinstance(collider.shape, ConvexHull) and collider.shape not in self.surfaces.hulls:
            self.surfaces.hulls[collider.shape] = hull_surface(shape)  # the hull drawn
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
        elif mass is not None:
            share = _share(shape.mass_properties(1.0).mass, volume)
            builder = builder.mass(mass * share) if share else builder.density(0.0)
        else:
            builder = builder.density(collider.density)
        events = rp.ActiveEvents.NONE
        if collider.sensor or collider.report_contacts:
            events = events | rp.ActiveEvents.COLLISION_EVENTS
        if dynamic and not collider.sensor:  # it may strike things: its impacts are reported
            weight = (mass or shape.mass_properties(collider.density).mass) * STANDARD_GRAVITY
            builder = builder.contact_force_event_threshold(IMPACT_WEIGHTS * weight)
            events = events | rp.ActiveEvents.CONTACT_FORCE_EVENTS
        return builder.active_events(events)

    def _attach(self, body: Body, collider: Collider, builder: rp.ColliderBuilder) -> None:
        handle = self._engine.add_collider(builder, body.handle)
        self._engine.colliders[handle].collision_groups = self.groups(collider.layer)
        self.parts[handle] = (body.entity, len(body.parts))
        body.parts.append(Part.of(handle, collider))

    def groups(self, layer: str) -> rp.InteractionGroups:
        return rp.InteractionGroups(
            memberships=rp.Group(self.layers.membership(layer)),
            filter=rp.Group(self.layers.filter(layer)),
        )

    def _cover(self, index: int) -> None:
        if index >= len(self.dynamic):
            self.dynamic.extend([None] * (index + 1 - len(self.dynamic)))

    def _slot(self, body: Body) -> None:
        self.dynamic[body.handle.index] = body

    def _unslot(self, body: Body) -> None:
        if self.dynamic[body.handle.index] is body:
            self.dynamic[body.handle.index] = None

    def is_dynamic(self, body: Body) -> bool:
        return self.dynamic[body.handle.index] is body

    def set_kind(self, body: Body, kind: BodyKind) -> None:
        body.rigid_body.body_type = _KINDS[kind]
        body.kind = kind
        self.redrawn.append([body])
        self.kinematic.pop(body.entity, None)
        self.settling.pop(body.entity, None)
        self._unslot(body)
        if kind is BodyKind.KINEMATIC:  # driven from where the engine has it, not from where
            self.kinematic[body.entity] = body  # its Transform was put since (a hand's pose)
            rb = body.rigid_body
            x, y, z, w = rb.rotation.to_tuple()
            body.pushed = (spatial.vec3_from(rb.translation.to_tuple()), Quat(w, x, y, z))
        elif kind is BodyKind.DYNAMIC:
            self._slot(body)

    def set_reports(self, record: Part) -> None:
        """Start or stop contact events for one solid collider as its component says (a held
        object's hits)."""
        on = record.reports = record.collider.report_contacts
        collider = self._engine.colliders[record.handle]
        forces = collider.active_events & rp.ActiveEvents.CONTACT_FORCE_EVENTS  # kept as made
        collider.active_events = (rp.ActiveEvents.COLLISION_EVENTS | forces) if on else forces
        # a held object is kinematic, and so are opponents: Rapier skips kinematic pairs unless
        # asked, and then no hit could be seen
        collider.active_collision_types = (
            rp.ActiveCollisionTypes.all() if on else rp.ActiveCollisionTypes.default_types()
        )

    @property
    def gravity(self) -> Vec3:
        """The world's gravity, m/s^2."""
        return spatial.vec3_from(self._engine.gravity.to_tuple())

    def mass(self, entity: int) -> float:
        """A body's mass, kg, as Rapier computed it from its parts."""
        return float(self._body(entity).rigid_body.mass)

    def sleeping(self, entity: int) -> bool:
        """Whether Rapier put a body to sleep (at rest, and not simulated until woken)."""
        return bool(self._body(entity).rigid_body.is_sleeping)

    def counts(self) -> tuple[int, int]:
        """How many bodies and colliders the engine holds (nothing leaks past a despawn)."""
        return len(self._engine.rigid_bodies), len(self._engine.colliders)

    def snapshot(self) -> bytes:
        """The engine's whole state, as Rapier serialises it (a benchmark restores it into a
        raw engine to step the same bodies without playspace around them)."""
        return bytes(self._engine.snapshot())

    def debug_lines(self, pipeline: rp.DebugRenderPipeline) -> tuple[FloatArray, FloatArray]:
        """What `pipeline` draws of the engine as the last step left it: segment end points
        (N, 2, 3) and their RGBA colors (N, 4), float32 (the debug view)."""
        e = self._engine
        lines, colors, _ = pipeline.render_to_arrays(
            e.rigid_bodies, e.colliders, e.impulse_joints, e.multibody_joints, e.narrow_phase
        )
        return lines, colors

    def static_extent(self) -> tuple[Vec3, Vec3] | None:
        """The smallest world box around every fixed body's colliders (lowest, highest
        corner): the level's geometry, which nothing stands beyond. None without any."""
        boxes = [
            self._engine.colliders[part.handle].compute_aabb()
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
        """The layer a collider is on (as its component says: the engine follows before the
        step), or None if the entity has no such collider."""
        body = self.bodies.get(entity)
        if body is None or body.colliders is None or part >= len(body.parts):
            return None
        parts = body.colliders.parts
        return (parts[part] if part < len(parts) else body.parts[part].collider).layer

    # Commands ----------------------------------------------------------------------------
    # Things done to a body (moved at once, pushed, set moving) come as BodyCommands and reach
    # the engine with the component edits, before the step: one way in, at one point of it.

    def velocity(self, entity: int) -> tuple[Vec3, Vec3]:
        """A body's linear and angular velocity."""
        rb = self._body(entity).rigid_body
        return spatial.vec3_from(rb.linvel.to_tuple()), spatial.vec3_from(rb.angvel.to_tuple())

    def apply(self, commands: list[BodyCommand]) -> None:
        """Carry the commands out on the engine, in the order they were sent; one about a
        body that is gone by now does nothing."""
        for command in commands:
            body = self.bodies.get(command.entity)
            if isinstance(command, SetVelocity):
                self.settling.pop(command.entity, None)  # told how to move: no longer held slow
                if body is None:
                    self.pending_velocity[command.entity] = (command.linear, command.angular)
                else:
                    _set_velocity(body, command.linear, command.angular)
            elif body is None:
                continue  # despawned since
            elif isinstance(command, ApplyImpulse):
                push = command.impulse
                body.rigid_body.apply_impulse((push.x, push.y, push.z))
            else:
                self.redrawn.append([body])
                rotation = command.rotation or body.transform.rotation
                if body.previous is not None:  # drawn there, not swept from where it was
                    body.previous.position = spatial.Vec3(command.position)
                    body.previous.rotation = rotation
                place = isometry(command.position, rotation)
                body.rigid_body.position = rp.Isometry3(*place)
                if body.kind is BodyKind.KINEMATIC:
                    body.rigid_body.set_next_kinematic_position(place)
                    body.pushed = (spatial.Vec3(command.position), rotation)

    def _body(self, entity: int) -> Body:
        try:
            return self.bodies[entity]
        except KeyError:
            raise PhysicsError(f"entity {entity} has no body in the physics world") from None


def _set_velocity(body: Body, linear: Vec3, angular: Vec3 | None) -> None:
    rb = body.rigid_body
    rb.linvel = rp.Vec3(linear.x, linear.y, linear.z)
    if angular is not None:
        rb.angvel = rp.Vec3(angular.x, angular.y, angular.z)
    rb.wake_up()
