"""Physics hands: a hand that stops at the table while the tracked hand goes on (opt-in:
``Hand.collide``, ``GrabSettings.hand_collision``), as XR Tools' collision hands and Hurricane
VR's physics hands.

Each fixed step, after the rig put the hands at their tracked poses and before the grab system
reads them, a colliding hand moves from where it was toward where it is tracked the way a
character controller moves: its shape (``GrabSettings.hand_shape``) is swept toward the tracked
pose against the environment, stops a skin's width short of what it meets and slides along it
for what is left of the motion. Where it ends is the hand's ``Transform`` (what grabs, what held
objects follow, what its kinematic body moves to) and ``Hand.physical``; the tracked pose is
kept in ``Hand.tracked``, and ``Hand.blocked`` says the two are apart, so the renderer draws the
tracked hand as a ghost. The hand turns with the controller unless turning would put it into
the environment.

Why a kinematic sweep and not a dynamic body driven by velocity: the hand only needs to stop at
what does not move, and a sweep does that exactly, in the step it happens, with nothing to tune
(no spring that lags the hand or overshoots a wall, no mass that a fast swing turns into a
launch). Only the environment stops it, not props: a solid hand would shove what it is about to
grab, and kick out of the palm what it has just let go of. A hand that cannot sweep (it started
inside something, or is left far behind: the player teleported, or reached through a thin
wall) jumps to the tracked pose as soon as that pose is clear of the environment.
"""

from __future__ import annotations

from playspace import spatial
from playspace.components import TrackedDevice, Transform
from playspace.components.interaction import GrabSettings, Hand
from playspace.components.physics import Shape
from playspace.ecs import Phase, World, system
from playspace.spatial import Pose, Quat, Vec3
from playspace.systems.interaction.hold import grab
from playspace.systems.physics import Physics

ENVIRONMENT = ("environment",)
SKIN = 0.002  # metres a stopped hand keeps off the surface, so its next sweep starts clear
SLIDES = 3  # sweeps a step: into a corner, along one wall, then along the other
BLOCKED_APART = 0.01  # metres between the hands at which the tracked one shows as a ghost


@system(
    Phase.FIXED,
    in_set="grab",
    before=(grab,),
    reads=(GrabSettings, TrackedDevice, Physics),
    writes=(Hand, Transform),
)
def collide_hands(world: World) -> None:
    """Move each physics hand toward its tracked pose, stopping at the environment."""
    settings = world.resource(GrabSettings)
    for _, (hand, device, transform) in world.query(Hand, TrackedDevice, Transform):
        collide = settings.hand_collision if hand.collide is None else hand.collide
        if not collide or not device.tracked:
            hand.physical, hand.tracked, hand.blocked = None, None, False
            continue
        tracked = transform.pose()
        physical = _move(world.resource(Physics), settings, hand.physical or tracked, tracked)
        transform.position, transform.rotation = physical.position, physical.rotation
        hand.physical, hand.tracked = physical, tracked
        apart = spatial.length(physical.position - tracked.position)
        hand.blocked = apart > BLOCKED_APART


def _move(physics: Physics, settings: GrabSettings, start: Pose, tracked: Pose) -> Pose:
    """Where a hand at `start` ends, moving toward `tracked` with collision."""
    shape = settings.hand_shape
    rotation = tracked.rotation
    if not _clear(physics, shape, start.position, rotation):
        rotation = start.rotation  # turning would put it into the environment
    far = spatial.length(tracked.position - start.position) > settings.hand_snap
    stuck = not _clear(physics, shape, start.position, rotation)
    if far or stuck:
        if _clear(physics, shape, tracked.position, tracked.rotation):
            return tracked
        if stuck:
            return start  # waits until the tracked pose is clear
    return Pose(_sweep(physics, shape, start.position, rotation, tracked.position), rotation)


def _clear(physics: Physics, shape: Shape, position: Vec3, rotation: Quat) -> bool:
    return not physics.overlap(shape, position, rotation, ENVIRONMENT)


def _sweep(physics: Physics, shape: Shape, start: Vec3, rotation: Quat, target: Vec3) -> Vec3:
    """Slide `shape` from `start` toward `target`: up to the first surface less the skin,
    then along that surface with what is left of the motion."""
    position, motion = start, target - start
    for _ in range(SLIDES):
        distance = spatial.length(motion)
        if distance < 1e-6:
            break
        hit = physics.shape_cast(shape, position, rotation, motion, distance, ENVIRONMENT)
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
