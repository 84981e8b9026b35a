"""Moving platforms: a body standing on a kinematic body (a lift, a boat, a turntable) rides it,
and the view rides with it.

Rapier's character controller does not carry a character: a lift that rises under the capsule
pushes it out of the way a step late, by depenetration, and the view then follows in slope
quantization's snaps (a lift of 2 m made ten of them and left the view 0.15 m off at the
top). So each step, once the body made its own moves against the platform where it was, the
platform's motion since the last step (where physics drove it last, to the Transform it is
driven to now) is added to the body's feet and to the origin together: the head keeps its
height above the feet, and no snap is made for a floor that carries the player. A platform
that turns about the vertical turns the body's place and the origin with it (the player turns
with a turntable); one that tilts carries the place, not the tilt.

The carry is made without collision, as the platform's own motion is: a lift that takes the
player into a ceiling is the level's to avoid.
"""

from __future__ import annotations

from playspace import spatial
from playspace.components import Transform
from playspace.components.physics import CharacterBody, CharacterMotion
from playspace.components.rig import Rig
from playspace.ecs import Phase, World, system
from playspace.spatial import Quat, Vec3
from playspace.systems.physics import Layers, Physics
from playspace.systems.player.follow import body_layers
from playspace.systems.player.locomotion import carry_origin
from playspace.systems.sets import FixedSet

UNDER = 0.05  # metres below the feet a platform still counts as stood on


def _platform_moved(world: World) -> bool:
    """Whether a kinematic body that a player's body can stand on moved since physics last
    drove it: not a player's own parts (the body's ray meets neither hands nor bodies), so
    a level whose only kinematic bodies are the players' costs one look at each."""
    physics = world.try_resource(Physics)
    if physics is None:
        return False
    own = {e for _, rig in world.each(Rig) for e in (rig.body, rig.left_hand, rig.right_hand)}
    for entity, driven in physics.kinematic.items():
        if driven.pushed is None or entity in own:
            continue
        now = driven.transform
        if now.position != driven.pushed[0] or now.rotation != driven.pushed[1]:
            return True
    return False


@system(
    Phase.FIXED,
    in_set=FixedSet.CARRY,
    before=(carry_origin,),
    run_if=_platform_moved,
    reads=(Rig, CharacterBody, CharacterMotion, Physics, Layers),
    writes=(Transform,),
)
def ride_platforms(world: World) -> None:
    """Carry each body and its origin by the step's motion of the kinematic body stood on."""
    for _, rig in world.each(Rig):
        _ride(world, rig)


def _ride(world: World, rig: Rig) -> None:
    """Carry one player by the platform under their body, if there is one that moved."""
    if not world.get(rig.body, CharacterMotion).grounded:
        return
    physics = world.resource(Physics)
    feet = world.get(rig.body, Transform)
    lift = world.get(rig.body, CharacterBody).height / 2
    centre = feet.position + spatial.vec3(0.0, lift, 0.0)
    hit = physics.ray_cast(
        centre,
        spatial.vec3(0.0, -1.0, 0.0),
        lift + UNDER,
        layers=body_layers(world.resource(Layers)),
        exclude=rig.body,
    )
    if hit is None:
        return
    driven = physics.kinematic.get(hit.entity)  # the bodies driven to their Transforms
    if driven is None or driven.pushed is None:
        return
    was, was_rotation = driven.pushed
    now = world.get(hit.entity, Transform)
    angle = spatial.yaw(now.rotation) - spatial.yaw(was_rotation)
    if now.position == was and angle == 0.0:
        return
    turn = spatial.yaw_rotation(angle)
    feet.position = _carried(feet.position, was, now.position, turn)
    origin = world.get(rig.origin, Transform)
    origin.position = _carried(origin.position, was, now.position, turn)
    origin.rotation = spatial.normalize(spatial.multiply(turn, origin.rotation))


def _carried(point: Vec3, was: Vec3, now: Vec3, turn: Quat) -> Vec3:
    """Where `point` goes when the platform moves from `was` to `now`, turning by `turn`."""
    return now + spatial.rotate(turn, point - was)
