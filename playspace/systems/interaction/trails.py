"""Trails: each fixed step, the position of every entity with a :class:`Trail` is added to it.

It runs in the ``telemetry`` set, the step's record, after physics has written back and the
game has reacted, so a trail holds the positions telemetry reports, one a step, the same at
any display rate and in every replay. It reads the Transform and writes only the Trail, which
nothing of the simulation reads: a trail cannot change what happens.
"""

from __future__ import annotations

from playspace import spatial
from playspace.components import Trail, Transform
from playspace.ecs import Phase, World, system
from playspace.systems.sets import FixedSet, add_fixed_sets


@system(Phase.FIXED, in_set=FixedSet.TELEMETRY, reads=(Transform,), writes=(Trail,))
def record_trails(world: World) -> None:
    """Add each trailed entity's position at the end of this step; keep its newest `length`."""
    for _, (trail, transform) in world.query(Trail, Transform):
        p = transform.position
        trail.points.append(spatial.vec3(p.x, p.y, p.z))  # a copy: Transforms change in place
        if len(trail.points) > trail.length:
            del trail.points[: len(trail.points) - trail.length]


class TrailPlugin:
    """Record the :class:`Trail` of every entity that has one (the renderer draws them)."""

    def build(self, world: World) -> None:
        add_fixed_sets(world)
        world.add_systems(record_trails)
