"""Small builders for physics tests: a world with physics, a floor, boxes, balls."""

from __future__ import annotations

from playspace import spatial
from playspace.components import Transform
from playspace.components.physics import Box, Collider, Colliders, RigidBody, Shape, Sphere
from playspace.ecs import World
from playspace.spatial import Quat, Vec3
from playspace.systems.physics import Physics, PhysicsPlugin


def physics_world(**plugin: object) -> World:
    world = World(fixed_hz=90)
    world.add_plugin(PhysicsPlugin(**plugin))  # type: ignore[arg-type]
    return world


def static(
    world: World,
    shape: Shape,
    position: Vec3,
    rotation: Quat | None = None,
    layer: str = "environment",
) -> int:
    return world.spawn(
        Transform(position=position, rotation=rotation or spatial.identity()),
        Colliders(Collider(shape, layer=layer)),
    )


def floor(world: World, size: float = 40.0) -> int:
    return static(world, Box((size, 0.2, size)), spatial.vec3(0.0, -0.1, 0.0))


def ball(
    world: World,
    position: Vec3,
    radius: float = 0.1,
    mass: float = 0.5,
    layer: str = "props",
    **body: object,
) -> int:
    return world.spawn(
        Transform(position=position),
        RigidBody(mass=mass, **body),  # type: ignore[arg-type]
        Colliders(Collider(Sphere(radius), layer=layer)),
    )


def physics(world: World) -> Physics:
    return world.resource(Physics)
