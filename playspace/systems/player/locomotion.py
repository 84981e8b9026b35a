"""Controller locomotion: turning around the head and smooth movement (two locomotion
providers), and recentering.

Turning rotates the origin around the head, not around the origin, so the player does not swing
across the room: snap turn (one turn per flick of the right stick) or smooth turn. Smooth
movement carries the *body* along the left stick, relative to the head's (or a hand's) yaw and
flat on the floor, through its ``CharacterMotion`` (the character controller moves it, with
collision); the origin then moves by what the body really did, so a wall stops the view as it
stops the body. Any provider that carries the player does the same. Teleport lives in
``playspace.systems.player.teleport``.
"""

from __future__ import annotations

import math

from playspace import spatial
from playspace.components import TrackedDevice, Transform
from playspace.components.physics import CharacterMotion
from playspace.components.rig import (
    MoveRelativeTo,
    MoveState,
    OriginMotion,
    Rig,
    RigSettings,
    Separation,
    TurnMode,
    TurnState,
)
from playspace.components.tracking import HandControls
from playspace.ecs import Phase, World, on_event, system
from playspace.systems.input.placement import tracked_world_pose
from playspace.systems.player.events import (
    FloorSnapRequested,
    Recentered,
    RecenterRequested,
    Turned,
)
from playspace.systems.player.follow import body_follow
from playspace.systems.player.poses import floor_point, horizontal, turn_around
from playspace.systems.player.providers import locomotion_provider
from playspace.systems.sets import FixedSet


def _deadzone(value: float, zone: float) -> float:
    """Rescale past the deadzone so a stick still reaches full speed."""
    if abs(value) <= zone:
        return 0.0
    return math.copysign((abs(value) - zone) / (1.0 - zone), value)


MOVE_ORDER = 5  # first: walking goes on while the right stick aims a teleport
TURN_ORDER = 15  # after teleport (10), which takes the step while it aims: one stick for both


@locomotion_provider(
    TURN_ORDER,
    reads=(Rig, RigSettings, TrackedDevice, HandControls),
    writes=(Transform, TurnState, OriginMotion, Turned, FloorSnapRequested),
)
def turning(world: World, rig: Rig, disabled: bool) -> bool:
    """Turn the origin around the head from the right stick's sideways push."""
    settings = world.resource(RigSettings)
    head = world.get(rig.head, TrackedDevice)
    push = world.get(rig.right_hand, HandControls).stick[0]
    state = world.get(rig.origin, TurnState)
    if disabled or not head.tracked:
        return False
    origin = world.get(rig.origin, Transform)
    pivot = tracked_world_pose(origin.pose(), head.pose).position
    if settings.turn_mode is TurnMode.SMOOTH:
        rate = -_deadzone(push, settings.stick_deadzone) * settings.smooth_turn_speed
        if rate:
            turn_around(origin, pivot, rate * world.fixed_time.dt)
            world.get(rig.origin, OriginMotion).continuous = True
        return bool(rate)
    if abs(push) < settings.flick_off:
        state.armed = True
    elif abs(push) > settings.flick_on and state.armed:
        angle = -math.copysign(settings.snap_turn, push)  # stick right turns right
        turn_around(origin, pivot, angle)
        state.armed = False
        world.send(FloorSnapRequested(player=rig.player))
        world.send(Turned(angle, rig.player))
        return True
    return False


@locomotion_provider(
    MOVE_ORDER,
    reads=(Rig, RigSettings, TrackedDevice, HandControls, Separation, Transform),
    writes=(CharacterMotion, OriginMotion, MoveState, FloorSnapRequested),
)
def smooth_move(world: World, rig: Rig, disabled: bool) -> bool:
    """Carry the body along the left stick (the origin follows what the body made of it)."""
    settings = world.resource(RigSettings)
    stick = world.get(rig.left_hand, HandControls).stick
    x = _deadzone(stick[0], settings.stick_deadzone)
    y = _deadzone(stick[1], settings.stick_deadzone)
    apart = world.get(rig.body, Separation)
    separated = apart.barred and apart.distance >= settings.fade_full
    state = world.get(rig.origin, MoveState)
    started = not state.moving
    state.moving = not disabled and bool(x or y) and not separated
    if not state.moving:
        return False
    # the floor syncs at once when smooth movement starts, then follows while it lasts
    world.send(FloorSnapRequested(announced=started, player=rig.player))
    world.get(rig.origin, OriginMotion).continuous = True
    guide = {
        MoveRelativeTo.HEAD: rig.head,
        MoveRelativeTo.LEFT_HAND: rig.left_hand,
        MoveRelativeTo.RIGHT_HAND: rig.right_hand,
    }[settings.move_relative_to]
    device = world.get(guide, TrackedDevice)
    if not device.tracked:
        device = world.get(rig.head, TrackedDevice)
    origin = world.get(rig.origin, Transform)
    heading = spatial.yaw(tracked_world_pose(origin.pose(), device.pose).rotation)
    step = settings.move_speed * state.speed_scale * world.fixed_time.dt
    wanted = spatial.rotate(spatial.yaw_rotation(heading), spatial.vec3(x * step, 0.0, -y * step))
    motion = world.get(rig.body, CharacterMotion)
    motion.carried = motion.carried + wanted
    return True


@system(
    Phase.FIXED,
    in_set=FixedSet.CARRY,
    reads=(Rig, CharacterMotion),
    writes=(Transform,),
)
def carry_origin(world: World) -> None:
    """Move each origin by what its body made of the move locomotion carried it: a wall stops
    the view as it stops the body, a step lifts neither (the floor is slope quantization's)."""
    for _, rig in world.each(Rig):
        made = world.get(rig.body, CharacterMotion).carried_made
        if made.x or made.z:
            origin = world.get(rig.origin, Transform)
            origin.position = origin.position + horizontal(made)


@system(
    Phase.FIXED,
    in_set=FixedSet.RIG,
    before=(body_follow,),
    run_if=on_event(RecenterRequested),
    reads=(RecenterRequested, Rig, RigSettings, TrackedDevice),
    writes=(Transform, Recentered, FloorSnapRequested),
)
def recenter(world: World) -> None:
    """Put the origin back so the player who asked stands at the body again (before the body
    follows, so it has nowhere to go)."""
    asked = {request.player for request in world.read_events(RecenterRequested, reader=recenter)}
    settings = world.resource(RigSettings)
    for _, rig in world.each(Rig):
        if rig.player not in asked:
            continue
        origin = world.get(rig.origin, Transform)
        head = world.get(rig.head, TrackedDevice)
        stands = floor_point(tracked_world_pose(origin.pose(), head.pose), settings.neck_offset)
        feet = world.get(rig.body, Transform).position
        origin.position = origin.position + horizontal(feet - stands)
        world.send(FloorSnapRequested(player=rig.player))
        world.send(Recentered(rig.player))
