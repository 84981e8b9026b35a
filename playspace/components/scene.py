"""What a scene file's entities are, in the player's terms: scenery, props, opponents.

The scene loader (``playspace.scene``) puts one of these markers on each entity it spawns, so
systems and games find "the props" or "the opponent called guard" with a query rather than by
remembering entity ids. Physics is carried by the usual ``Transform``, ``RigidBody`` and
``Colliders``; these components say only what the thing is.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from playspace import spatial
from playspace.components.interaction import Grabbable as Grabbable  # where scenes spawn it
from playspace.components.rig import SLOPE_QUANTIZATION, SeparationPolicy, TurnMode
from playspace.spatial import Vec3


@dataclass(slots=True)
class Scenery:
    """Scene geometry that never moves (a box, a flight of stairs, a ramp, a mesh)."""

    name: str


@dataclass(slots=True)
class Prop:
    """A loose object of the scene that physics moves: a ball, a crate, a bottle."""

    name: str


@dataclass(slots=True)
class Opponent:
    """A non-VR pawn on the opponents layer, moved only by a game system or a gamepad."""

    name: str


@dataclass(slots=True)
class PlayerStart:
    """Where the player begins, a resource: the rig puts the body's feet at `position`.

    `yaw` (radians, positive turning left, 0 facing -Z) is the heading the player faces.
    `slope_quantization` is the vertical travel in metres that the origin accumulates on
    stairs and slopes before it snaps to the body's floor; 0 turns the technique off.
    """

    position: Vec3 = field(default_factory=lambda: spatial.vec3(0.0, 0.0, 0.0))
    yaw: float = 0.0
    slope_quantization: float = SLOPE_QUANTIZATION
    policy: str = SeparationPolicy.FADE.value  # walking into a wall: "fade" or "push_back"
    turn: str = TurnMode.SNAP.value  # "snap" or "smooth" turning
