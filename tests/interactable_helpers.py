"""Interactables set where the right hand works."""

from __future__ import annotations

from playspace import spatial
from playspace.components import Transform
from playspace.components.interactables import PushButton
from playspace.components.joints import Joint, JointKind, Spring
from playspace.components.physics import Box, Collider, Colliders, RigidBody
from playspace.ecs import World

HAND = (0.25, 1.1, -0.6)  # where the right hand works: an arm's length, clear of the body


def button(world: World) -> int:
    """A button facing the player, its face 5 cm in front of where the hand starts, pressed in
    (toward -Z) up to 1.5 cm, springing back."""
    return world.spawn(
        Transform(position=spatial.vec3(HAND[0], HAND[1], HAND[2] - 0.06)),
        RigidBody(mass=0.05),
        Colliders(Collider(Box((0.05, 0.05, 0.02)))),
        Joint(
            JointKind.SLIDER,
            anchor=spatial.vec3(0, 0, 0.01),
            axis=spatial.vec3(0, 0, -1),
            limits=(0.0, 0.015),
            spring=Spring(0.0, 400.0, 40.0),
        ),
        PushButton(),
    )
