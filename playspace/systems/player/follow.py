"""The body follows where the player physically stands; what happens when it cannot.

Godot's "Room scale in XR", origin-centric: each step the body is asked to move to the head's
floor point (the neck, a little behind the eyes) with collision, and faces where the head
faces. After it moved, the separation between that point and the feet says whether the player
walked into something: the ``fade`` policy darkens the view with the separation (from 0.10 m,
black at 0.20 m), which denies nothing of the player's real motion; ``push_back`` moves the
origin so the head stays with the body instead. The head never sees into a wall at full
brightness either way.
"""

from __future__ import annotations

import math

from playspace import spatial
from playspace.components import TrackedDevice, Transform
from playspace.components.physics import CharacterBody, CharacterMotion
from playspace.components.rig import (
    PlayerBody,
    Rig,
    RigSettings,
    Separation,
    SeparationPolicy,
    ViewFade,
)
from playspace.ecs import Phase, World, system
from playspace.systems.physics import Physics
from playspace.systems.player.events import BlinkRequested, Blocked
from playspace.systems.player.poses import floor_point, horizontal, to_world


@system(
    Phase.FIXED,
    in_set="rig",
    reads=(Rig, RigSettings, TrackedDevice),
    writes=(CharacterMotion, CharacterBody, PlayerBody, Transform, Physics),
)
def body_follow(world: World) -> None:
    """Ask the body to go where the player stands; fit the capsule to their height. The
    first time the head is tracked the body is put there at once: it starts at the neck."""
    rig, settings = world.resource(Rig), world.resource(RigSettings)
    head = world.get(rig.head, TrackedDevice)
    body = world.get(rig.body, Transform)
    motion = world.get(rig.body, CharacterMotion)
    if not head.tracked:
        motion.desired = spatial.vec3(0.0, 0.0, 0.0)  # lost tracking freezes the body
        return
    eyes = to_world(world.get(rig.origin, Transform), head.pose)
    wanted = horizontal(floor_point(eyes, settings.neck_offset) - body.position)
    player = world.get(rig.body, PlayerBody)
    if not player.placed:
        player.placed = True
        physics = world.resource(Physics)
        if rig.body in physics.bodies:
            physics.teleport(rig.body, body.position + wanted)
        else:  # not in the engine yet: it is made where its Transform says
            body.position = body.position + wanted
        wanted = spatial.vec3(0.0, 0.0, 0.0)
    motion.desired = wanted
    body.rotation = spatial.yaw_rotation(spatial.yaw(eyes.rotation))
    capsule = world.get(rig.body, CharacterBody)
    height = max(settings.crouch_min_height, head.pose.position.y + settings.height_margin)
    if abs(height - capsule.height) > 0.05:
        capsule.height = max(height, 2 * capsule.radius)


@system(
    Phase.FIXED,
    in_set="separation",
    reads=(Rig, RigSettings, TrackedDevice),
    writes=(Transform, Separation, Blocked),
)
def separation(world: World) -> None:
    """Resolve a body that could not follow: fade the view, or push the origin back."""
    rig, settings = world.resource(Rig), world.resource(RigSettings)
    head = world.get(rig.head, TrackedDevice)
    origin = world.get(rig.origin, Transform)
    feet = world.get(rig.body, Transform).position
    stands = floor_point(to_world(origin, head.pose), settings.neck_offset)
    gap = horizontal(feet - stands)
    distance = math.hypot(gap.x, gap.z)
    if settings.policy is SeparationPolicy.PUSH_BACK and head.tracked and distance > 1e-4:
        origin.position = origin.position + gap
        distance = 0.0
    state = world.get(rig.body, Separation)
    state.distance = distance
    blocked = distance > settings.fade_start
    if blocked and not state.blocked:
        world.send(Blocked(distance))
    state.blocked = blocked


@system(
    Phase.FIXED,
    in_set="separation",
    after=("keep_in_world",),
    reads=(Rig, RigSettings, Separation, BlinkRequested),
    writes=(ViewFade,),
)
def view_fade(world: World) -> None:
    """Darken the view: with the separation (the fade policy's, which is all that keeps a head
    in a wall from seeing), and for a blink someone asked for; the darker of the two."""
    rig, settings = world.resource(Rig), world.resource(RigSettings)
    fade = world.get(rig.head, ViewFade)
    fade.blink_left = max(0.0, fade.blink_left - world.fixed_time.dt)
    if world.read_events(BlinkRequested, reader=view_fade):
        fade.blink_left = settings.teleport_blink
    span = max(settings.fade_full - settings.fade_start, 1e-6)
    distance = world.get(rig.body, Separation).distance
    faded = min(max((distance - settings.fade_start) / span, 0.0), 1.0)
    blink = fade.blink_left / settings.teleport_blink if settings.teleport_blink > 0 else 0.0
    fade.amount = max(faded, min(blink, 1.0))
