"""Physics hands: a hand that stops at the table while the tracked hand goes on (opt-in:
``PhysicsHand.collide``, ``GrabSettings.hand_collision``), as XR Tools' collision hands and
Hurricane VR's physics hands.

Each fixed step, after the rig put the hands at their tracked poses and before the grab system
reads them, a colliding hand moves from where it was toward where it is tracked the way a
character controller moves: its shape (``GrabSettings.hand_shape``; a bare hand's turned a
quarter turn about Z, see ``BARE_HAND_TURN``) is swept toward the tracked pose against the
environment, stops a skin's width short of what it meets and slides along it
for what is left of the motion. Where it ends is the hand's ``Transform`` (what grabs, what held
objects follow, what its kinematic body moves to) and ``PhysicsHand.physical``; where the
controller is is kept in ``PhysicsHand.controller``, and ``PhysicsHand.blocked`` says the two
are apart, so the controller's hand is drawn as a ghost. The hand turns with the controller
unless turning would put it into the environment.

Why a kinematic sweep and not a dynamic body driven by velocity: the hand only needs to stop at
what does not move, and a sweep does that exactly, in the step it happens, with nothing to tune
(no spring that lags the hand or overshoots a wall, no mass that a fast swing turns into a
launch). Only the environment stops it, not props: a solid hand would shove what it is about to
grab, and kick out of the palm what it has just let go of. A hand that cannot sweep (it started
inside something, or is left far behind: the player teleported, or reached through a thin
wall) jumps to the tracked pose as soon as that pose is clear of the environment.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from playspace import spatial
from playspace.components import TrackedDevice, Transform
from playspace.components.interaction import GrabSettings, PhysicsHand
from playspace.components.physics import Shape
from playspace.ecs import Phase, World, system
from playspace.spatial import Pose, Quat, Vec3
from playspace.systems.interaction.hold import grab
from playspace.systems.physics import Physics
from playspace.systems.sets import FixedSet

ENVIRONMENT = ("environment",)
SKIN = 0.002  # metres a stopped hand keeps off the surface, so its next sweep starts clear
SLIDES = 3  # sweeps a step: into a corner, along one wall, then along the other
BLOCKED_APART = 0.01  # metres between the hands at which the tracked one shows as a ghost
# A bare hand's shape is turned a quarter turn about its pose's Z: the palm pose has X along
# the palm's normal, as a controller's grip pose has, but its fingers straight out along -Z
# and the knuckles along Y; turned, the shape's X lies across the knuckles and its Y through
# the flat hand (GrabSettings.hand_shape).
BARE_HAND_TURN = spatial.from_axis_angle(spatial.vec3(0.0, 0.0, 1.0), math.pi / 2)


@system(
    Phase.FIXED,
    in_set=FixedSet.GRAB,
    before=(grab,),
    reads=(GrabSettings, TrackedDevice, Physics),
    writes=(PhysicsHand, Transform),
)
def collide_hands(world: World) -> None:
    """Move each physics hand toward its tracked pose, stopping at the environment."""
    settings = world.resource(GrabSettings)
    for _, (hand, device, transform) in world.query(PhysicsHand, TrackedDevice, Transform):
        collide = settings.hand_collision if hand.collide is None else hand.collide
        if not collide or not device.tracked:
            hand.physical, hand.controller, hand.blocked = None, None, False
            continue
        tracked = transform.pose()
        turn = BARE_HAND_TURN if device.bare else spatial.identity()
        shape = _Turned(settings.hand_shape, turn)
        start = hand.physical or tracked
        physical = _move(world.resource(Physics), shape, settings.hand_snap, start, tracked)
        transform.position, transform.rotation = physical.position, physical.rotation
        hand.physical, hand.controller = physical, tracked
        apart = spatial.length(physical.position - tracked.position)
        hand.blocked = apart > BLOCKED_APART


@dataclass(frozen=True, slots=True)
class _Turned:
    """A hand's shape and its turn in the hand's frame (identity for a controller)."""

    shape: Shape
    turn: Quat


def _move(physics: Physics, hand: _Turned, snap: float, start: Pose, tracked: Pose) -> Pose:
    """Where a hand at `start` ends, moving toward `tracked` with collision."""
    rotation = tracked.rotation
    if not _clear(physics, hand, start.position, rotation):
        rotation = start.rotation  # turning would put it into the environment
    far = spatial.length(tracked.position - start.position) > snap
    stuck = not _clear(physics, hand, start.position, rotation)
    if far or stuck:
        if _clear(physics, hand, tracked.position, tracked.rotation):
            return tracked
        if stuck:
            return start  # waits until the tracked pose is clear
    return Pose(_sweep(physics, hand, start.position, rotation, tracked.position), rotation)


def _clear(physics: Physics, hand: _Turned, position: Vec3, rotation: Quat) -> bool:
    turned = spatial.multiply(rotation, hand.turn)
    return not physics.overlap(hand.shape, position, turned, ENVIRONMENT)


def _sweep(physics: Physics, hand: _Turned, start: Vec3, rotation: Quat, target: Vec3) -> Vec3:
    """Slide the hand's shape from `start` toward `target`: up to the first surface less the
    skin, then along that surface with what is left of the motion."""
    turned = spatial.multiply(rotation, hand.turn)
    position, motion = start, target - start
    for _ in range(SLIDES):
        distance = spatial.length(motion)
        if distance < 1e-6:
            break
        hit = physics.shape_cast(hand.shape, position, turned, motion, distance, ENVIRONMENT)
        if hit is None:
            return position + motion
        unit = motion / distance
        travel = max(hit.distance - SKIN, 0.0)
        position = position + unit * travel
        left = motion - unit * travel
        normal = hit.normal / max(spatial.length(hit.normal), 1e-12)
        motion = left - normal * _dot(left, normal)  # along the surface
    return position


def _dot(a: Vec3, b: Vec3) -> float:
    return a.x * b.x + a.y * b.y + a.z * b.z
