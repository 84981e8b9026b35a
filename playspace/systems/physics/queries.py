"""Scene queries on the physics world: ray cast, shape cast, overlap, filtered by layer names.

Each answers with entities (and the collider part), points and normals, never engine handles.
They see the colliders as of the last step (or the last query-pipeline update): Rapier's rule.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import rapier3d as rp

from playspace import spatial
from playspace.components.physics import Shape
from playspace.spatial import Quat, Vec3
from playspace.systems.physics.convert import PhysicsError, isometry, shared_shape
from playspace.systems.physics.layers import Layers


@dataclass(frozen=True, slots=True)
class RayHit:
    entity: int
    part: int
    point: Vec3
    normal: Vec3
    distance: float


@dataclass(frozen=True, slots=True)
class ShapeHit:
    """Where a cast shape first touches something: `distance` travelled along the direction."""

    entity: int
    part: int
    point: Vec3
    normal: Vec3
    distance: float


def finite(v: Vec3 | Quat) -> bool:
    return all(map(math.isfinite, v))  # map: half the cost of a generator, every cast


def _cast_direction(start: Vec3, direction: Vec3, what: str) -> Vec3:
    """The unit direction of a cast, after refusing what would poison the query."""
    length = spatial.length(direction)
    if not (finite(start) and finite(direction) and length > 0):
        raise PhysicsError(f"{what} needs a finite start and direction, got {start}, {direction}")
    return direction / length


class Queries:
    """The query methods of :class:`~playspace.systems.physics.engine.Physics`."""

    _engine: rp.PhysicsWorld
    layers: Layers
    bodies: dict[int, Any]  # entity -> Body (engine.py): the handle of an excluded entity
    parts: dict[rp.ColliderHandle, tuple[int, int]]

    filters: dict[tuple[tuple[str, ...] | None, object, bool], rp.QueryFilter]
    filters_version: int

    def _filter(
        self, layers: Iterable[str] | None, exclude: int | None, sensors: bool
    ) -> rp.QueryFilter:
        """The query filter for these layers, kept: building one costs a quarter of a ray cast."""
        body = self.bodies.get(exclude) if exclude is not None else None
        handle = body.handle if body else None
        names = None if layers is None else tuple(layers)
        key = (names, handle, sensors)
        if self.filters_version != self.layers.version or len(self.filters) > 256:
            self.filters.clear()
            self.filters_version = self.layers.version
        found = self.filters.get(key)
        if found is None:
            mask = self.layers.mask(names) if names is not None else 0xFFFFFFFF
            flags = rp.QueryFilterFlags.empty() if sensors else rp.QueryFilterFlags.EXCLUDE_SENSORS
            groups = rp.InteractionGroups(memberships=rp.Group.ALL, filter=rp.Group(mask))
            found = self.filters[key] = rp.QueryFilter(
                flags=flags, groups=groups, exclude_rigid_body=handle
            )
        return found

    def _entity(self, handle: rp.ColliderHandle) -> tuple[int, int]:
        return self.parts[handle]

    def ray_cast(
        self,
        origin: Vec3,
        direction: Vec3,
        max_distance: float,
        layers: Iterable[str] | None = None,
        exclude: int | None = None,
        sensors: bool = False,
    ) -> RayHit | None:
        """The first collider on `layers` along a ray from `origin` (direction need not be unit)."""
        unit = _cast_direction(origin, direction, "ray")
        ray = rp.Ray((origin.x, origin.y, origin.z), (unit.x, unit.y, unit.z))
        found = self._engine.query_pipeline.cast_ray_and_get_normal(
            ray, max_distance, True, self._filter(layers, exclude, sensors)
        )
        if found is None:
            return None
        handle, hit = found
        entity, part = self._entity(handle)
        point = origin + unit * hit.toi
        return RayHit(entity, part, point, spatial.vec3_from(hit.normal.to_tuple()), hit.toi)

    def shape_cast(
        self,
        shape: Shape,
        position: Vec3,
        rotation: Quat,
        direction: Vec3,
        max_distance: float,
        layers: Iterable[str] | None = None,
        exclude: int | None = None,
    ) -> ShapeHit | None:
        """Sweep `shape` from a pose along `direction`; the first thing it would touch."""
        unit = _cast_direction(position, direction, "shape cast")
        found = self._engine.query_pipeline.cast_shape(
            isometry(position, rotation),
            (unit.x, unit.y, unit.z),
            shared_shape(shape),
            rp.ShapeCastOptions(max_time_of_impact=max_distance),
            self._filter(layers, exclude, False),
        )
        if found is None:
            return None
        handle, hit = found
        entity, part = self._entity(handle)
        return ShapeHit(
            entity,
            part,
            spatial.vec3_from(hit.witness1.to_tuple()),
            spatial.vec3_from(hit.normal1.to_tuple()),
            hit.time_of_impact,
        )

    def overlap(
        self,
        shape: Shape,
        position: Vec3,
        rotation: Quat,
        layers: Iterable[str] | None = None,
        exclude: int | None = None,
        sensors: bool = False,
    ) -> list[tuple[int, int]]:
        """Every (entity, part) whose collider on `layers` overlaps `shape` at this pose."""
        if not finite(position):
            raise PhysicsError(f"overlap test needs a finite position, got {position}")
        found: list[tuple[int, int]] = []

        def keep(handle: rp.ColliderHandle) -> bool:
            found.append(self._entity(handle))
            return True  # go on

        self._engine.query_pipeline.intersect_shape(
            isometry(position, rotation),
            shared_shape(shape),
            keep,
            self._filter(layers, exclude, sensors),
        )
        return found
