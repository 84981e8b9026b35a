"""The body follows where the player physically stands; what happens when it cannot.

Godot's "Room scale in XR", origin-centric: each step the body is asked to move to the head's
floor point (the neck, a little behind the eyes) with collision, and faces where the head
faces. After it moved, the separation between that point and the feet says how far the player
went where the body could not follow.

That alone does not say they walked into something. A player leaning over a table is
separated from a body the table stops, with nothing in the way of the head: blacking the view
out there (from 0.19 m of lean, the most common complaint in Godot XR Tools' and XRI's
trackers) punishes an ordinary thing to do. So a sphere around the eyes is swept from where the
eyes would be at the body to where they are: only when that way is barred (a wall, or a table
top the head is lowered into) does the separation count. Then the ``fade`` policy darkens the
view with it (from 0.10 m, black at 0.20 m), which denies nothing of the player's real motion.
``push_back`` instead moves the origin back until the head's sphere only touches what bars its
way (a wall's face), and leaves a head leaning over a table where it is. The head never sees
into a wall at full brightness either way.
"""

from __future__ import annotations

import math

from playspace import spatial
from playspace.components import TrackedDevice, Transform
from playspace.components.physics import BodyCommands, CharacterBody, CharacterMotion, Sphere
from playspace.components.rig import (
    Crouch,
    PlayerBody,
    Rig,
    RigSettings,
    Seated,
    Separation,
    SeparationPolicy,
    ViewFade,
)
from playspace.ecs import Phase, World, system
from playspace.spatial import Vec3
from playspace.systems.input.placement import tracked_world_pose
from playspace.systems.physics import Layers, Physics
from playspace.systems.physics.commands import teleport_body
from playspace.systems.player.events import BlinkRequested, Blocked
from playspace.systems.player.poses import floor_point, horizontal
from playspace.systems.sets import FixedSet


@system(
    Phase.FIXED,
    in_set=FixedSet.RIG,
    reads=(Rig, RigSettings, TrackedDevice, Crouch, Seated),
    writes=(CharacterMotion, CharacterBody, PlayerBody, Transform, Physics, BodyCommands),
)
def body_follow(world: World) -> None:
    """Ask each body to go where its player stands."""
    settings = world.resource(RigSettings)
    for _, rig in world.each(Rig):
        _follow(world, rig, settings)


def _follow(world: World, rig: Rig, settings: RigSettings) -> None:
    """Ask the body to go where the player stands; fit the capsule to their height (less a
    virtual crouch, plus seated play's raise). The first time the head is tracked the body is
    put there at once: it starts at the neck."""
    head = world.get(rig.head, TrackedDevice)
    body = world.get(rig.body, Transform)
    motion = world.get(rig.body, CharacterMotion)
    if not head.tracked:
        motion.desired = spatial.vec3(0.0, 0.0, 0.0)  # lost tracking freezes the body
        return
    eyes = tracked_world_pose(world.get(rig.origin, Transform).pose(), head.pose)
    wanted = horizontal(floor_point(eyes, settings.neck_offset) - body.position)
    player = world.get(rig.body, PlayerBody)
    if not player.placed:
        player.placed = True
        teleport_body(world, rig.body, body.position + wanted)  # made there, if not made yet
        wanted = spatial.vec3(0.0, 0.0, 0.0)
    motion.desired = wanted
    body.rotation = spatial.yaw_rotation(spatial.yaw(eyes.rotation))
    capsule = world.get(rig.body, CharacterBody)
    lowered = world.get(rig.origin, Crouch).lowered - world.get(rig.origin, Seated).raised
    standing = head.pose.position.y - lowered + settings.height_margin
    height = max(settings.crouch_min_height, standing)
    if abs(height - capsule.height) > 0.05:
        capsule.height = max(height, 2 * capsule.radius)


@system(
    Phase.FIXED,
    in_set=FixedSet.SEPARATION,
    reads=(Rig, RigSettings, TrackedDevice, Physics, Layers),
    writes=(Transform, Separation, Blocked),
)
def separation(world: World) -> None:
    """Resolve each body that could not follow."""
    settings = world.resource(RigSettings)
    for _, rig in world.each(Rig):
        _separate(world, rig, settings)


def _separate(world: World, rig: Rig, settings: RigSettings) -> None:
    """Resolve a body that could not follow: push the origin back (``push_back``), or say
    whether the head's way from the body is barred, for the fade."""
    head = world.get(rig.head, TrackedDevice)
    origin = world.get(rig.origin, Transform)
    feet = world.get(rig.body, Transform).position
    eyes = tracked_world_pose(origin.pose(), head.pose).position
    gap = horizontal(
        feet - floor_point(tracked_world_pose(origin.pose(), head.pose), settings.neck_offset)
    )
    distance = math.hypot(gap.x, gap.z)
    barred = _barred_at(world, rig, settings, eyes, gap, distance)
    if settings.policy is SeparationPolicy.PUSH_BACK and head.tracked and barred is not None:
        # back out of what bars the way, to where the head's sphere meets it: a head leaning
        # over a table is left alone, one inside a wall is moved to the wall's face
        origin.position = origin.position + gap * ((distance - barred) / distance)
        distance, barred = barred, None
    state = world.get(rig.body, Separation)
    state.distance, state.barred = distance, barred is not None
    blocked = state.barred and distance > settings.fade_start
    if blocked and not state.blocked:
        world.send(Blocked(distance, rig.player))
    state.blocked = blocked


def body_layers(layers: Layers) -> list[str]:
    """The layers the player's body collides with: what can bar its way (not held objects,
    not the hands)."""
    return [n for n in layers.names if n != "player" and layers.collides("player", n)]


def _barred_at(
    world: World, rig: Rig, settings: RigSettings, eyes: Vec3, gap: Vec3, distance: float
) -> float | None:
    """How far the head's sphere gets from where the eyes would be at the body (`eyes` moved
    by `gap`) toward where they are before it meets what the body collides with; None when
    nothing is in the way (the air above a table) or the body is where the player stands."""
    if distance < 1e-4:
        return None
    solid = body_layers(world.resource(Layers))
    hit = world.resource(Physics).shape_cast(
        Sphere(settings.head_radius),
        eyes + gap,
        spatial.identity(),
        -gap,
        distance,
        layers=solid,
        exclude=rig.body,
    )
    return None if hit is None else hit.distance


@system(
    Phase.FIXED,
    in_set=FixedSet.SEPARATION,
    reads=(Rig, RigSettings, Separation, BlinkRequested),
    writes=(ViewFade,),
)
def view_fade(world: World) -> None:
    """Darken each player's view: with the separation while the head's way is barred (the
    fade policy's, which is all that keeps a head in a wall from seeing), and for a blink
    someone asked for; the darker of the two."""
    settings = world.resource(RigSettings)
    blinks = {request.player for request in world.read_events(BlinkRequested, reader=view_fade)}
    span = max(settings.fade_full - settings.fade_start, 1e-6)
    for _, rig in world.each(Rig):
        fade = world.get(rig.head, ViewFade)
        fade.blink_left = max(0.0, fade.blink_left - world.fixed_time.dt)
        if rig.player in blinks:
            fade.blink_left = settings.teleport_blink
        state = world.get(rig.body, Separation)
        distance = state.distance if state.barred else 0.0
        faded = min(max((distance - settings.fade_start) / span, 0.0), 1.0)
        blink = fade.blink_left / settings.teleport_blink if settings.teleport_blink > 0 else 0.0
        fade.amount = max(faded, min(blink, 1.0))
