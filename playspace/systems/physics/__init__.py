"""Physics on Rapier: bodies, colliders, named layers, sensors, queries, the character capsule.

Add :class:`PhysicsPlugin` to a world; spawn entities with a ``Transform``, a ``RigidBody`` and
``Colliders`` (or ``Colliders`` alone for static geometry), and a ``Joint``
(``playspace.components.joints``) to hold a body to another or to the world, and the plugin's
systems keep a Rapier world in step with them. This package is the only place that imports rapier3d.
"""

from __future__ import annotations

from playspace.components.physics import (
    DEFAULT_LAYERS,
    GRAVITY,
    KILL_HEIGHT,
    BodyCommands,
    FallPolicy,
)
from playspace.ecs import World
from playspace.systems.physics.character import character_colliders, character_move
from playspace.systems.physics.convert import PhysicsError, reach_below
from playspace.systems.physics.debug import PhysicsDebugView
from playspace.systems.physics.engine import Physics
from playspace.systems.physics.events import (
    PHYSICS_EVENTS,
    ContactBegan,
    ContactEnded,
    FellOutOfWorld,
    Quarantined,
    SensorEntered,
    SensorExited,
)
from playspace.systems.physics.joints import joint_line
from playspace.systems.physics.layers import Layers
from playspace.systems.physics.queries import RayHit, ShapeHit
from playspace.systems.physics.sync import physics_prepare, physics_step, physics_writeback
from playspace.systems.sets import add_fixed_sets


class PhysicsPlugin:
    """Rapier physics in the fixed step: gravity (Rapier's default is zero), a kill height and
    what happens to bodies that fall below it, and the layer matrix. Its resources are the
    engine (``Physics``), the ``Layers``, the ``ColliderSurfaces`` the renderer draws hulls
    from and ``PhysicsDebug`` (the debug view's lines, filled only while it is shown)."""

    def __init__(
        self,
        gravity: tuple[float, float, float] = GRAVITY,
        kill_height: float = KILL_HEIGHT,
        fall_policy: FallPolicy = FallPolicy.REMOVE,
        layers: Layers | None = None,
    ) -> None:
        self.gravity = gravity
        self.kill_height = kill_height
        self.fall_policy = fall_policy
        self.layers = layers

    def build(self, world: World) -> None:
        physics = Physics(self.gravity, self.kill_height, self.fall_policy, self.layers)
        world.insert_resource(physics)
        world.insert_resource(physics.layers)
        world.insert_resource(physics.surfaces)
        world.insert_resource(BodyCommands())
        for kind in PHYSICS_EVENTS:
            world.add_event(kind)
        add_fixed_sets(world)
        world.add_systems(physics_prepare, character_move, physics_step, physics_writeback)
        PhysicsDebugView().build(world)


__all__ = [
    "DEFAULT_LAYERS",
    "ContactBegan",
    "ContactEnded",
    "FallPolicy",
    "FellOutOfWorld",
    "Layers",
    "Physics",
    "PhysicsError",
    "PhysicsPlugin",
    "Quarantined",
    "RayHit",
    "SensorEntered",
    "SensorExited",
    "ShapeHit",
    "character_colliders",
    "joint_line",
    "reach_below",
]
