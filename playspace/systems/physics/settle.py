"""Bodies that start inside each other are separated gently, not blown apart.

A game that spawns a pile of crates at one point, or a scene whose props overlap where they
start, hands Rapier bodies that interpenetrate. Its solver pushes them apart in a few steps,
and with many of them the pushes add up: thirty boxes spawned at one point flew apart at
18 m/s. So a dynamic body that overlaps a solid collider it collides with when it is made is
*settling*: its speed is held to :data:`SETTLE_SPEED` until it overlaps nothing any more
(looked at every :data:`CHECK_EVERY` steps), for :data:`SETTLE_STEPS` at most, and the bodies
drift apart instead. A body made clear of everything is left alone (a prop spawned in the air
falls at its own pace), and so is one given a velocity or made kinematic (a thrown or a held
object moves as it is told).
"""

from __future__ import annotations

import math

import rapier3d as rp

from playspace import spatial
from playspace.components.physics import Box, Capsule, Cylinder, Shape, Sphere
from playspace.systems.physics.engine import Body, Physics

SETTLE_SPEED = 1.0  # m/s: how fast bodies made inside each other may move apart
SETTLE_STEPS = 900  # fixed steps a settling body is held to that at most (10 s at 90 Hz)
CHECK_EVERY = 10  # steps between looks at whether a settling body is clear


INSIDE = 0.98  # a part shrunk to this overlaps only what is inside it, not what it rests on


def _shrunk(shape: Shape) -> Shape:
    if isinstance(shape, Box):
        return Box(tuple(s * INSIDE for s in shape.size))  # type: ignore[arg-type]
    if isinstance(shape, Sphere):
        return Sphere(shape.radius * INSIDE)
    if isinstance(shape, Capsule | Cylinder):
        return type(shape)(shape.radius * INSIDE, shape.height * INSIDE)
    return shape


def overlaps(physics: Physics, body: Body) -> bool:
    """Whether a solid part of `body` is inside a solid collider it collides with (as the
    engine saw them at its last step or query update): touching, as a body at rest on
    another does, is not inside."""
    layers = physics.layers
    here = spatial.Pose(body.transform.position, body.transform.rotation)
    for part in body.parts:
        if part.collider.sensor:
            continue
        pose = spatial.compose(here, part.collider.offset)
        wanted = [n for n in layers.names if layers.collides(part.layer, n)]
        shape = _shrunk(part.collider.shape)
        if physics.overlap(shape, pose.position, pose.rotation, wanted, body.entity):
            return True
    return False


def overlapping_at_start(physics: Physics, bodies: list[Body]) -> None:
    """Mark every dynamic body of `bodies` (just made) that overlaps something as settling.
    The query pipeline must be up to date."""
    for body in bodies:
        if physics.is_dynamic(body) and overlaps(physics, body):
            physics.settling[body.entity] = SETTLE_STEPS


def settle(physics: Physics) -> None:
    """Hold settling bodies to :data:`SETTLE_SPEED`; let go of those that are clear."""
    for entity, left in list(physics.settling.items()):
        body = physics.bodies.get(entity)
        clear = body is None or (left % CHECK_EVERY == 0 and not overlaps(physics, body))
        if clear or left <= 1:
            del physics.settling[entity]
            continue
        physics.settling[entity] = left - 1
        assert body is not None
        rb = body.rigid_body
        x, y, z = rb.linvel.to_tuple()
        speed = math.sqrt(x * x + y * y + z * z)
        if speed > SETTLE_SPEED:
            k = SETTLE_SPEED / speed
            rb.linvel = rp.Vec3(x * k, y * k, z * k)
