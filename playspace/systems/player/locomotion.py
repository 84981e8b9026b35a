"""Controller locomotion: turning around the head, smooth movement, recentering.

Turning rotates the origin around the head, not around the origin, so the player does not swing
across the room: snap turn (one turn per flick of the right stick) or smooth turn. Smooth
movement walks the *body* with collision along the left stick, relative to the head's (or a
hand's) yaw and flat on the floor, then moves the origin by what the body really did, so a wall
stops the view as it stops the body. Teleport lives in ``playspace.systems.rig.teleport``.
"""

from __future__ import annotations

import math

from playspace import spatial
from playspace.components import TrackedDevice, Transform
from playspace.components.physics import CharacterBody, CharacterMotion, Colliders
from playspace.components.rig import MoveRelativeTo, Rig, RigSettings, TurnMode
from playspace.ecs import Phase, World, system
from playspace.systems.physics import Physics
from playspace.systems.physics.character import walk_character
from playspace.systems.rig.events import Recentered, RecenterRequested, Turned
from playspace.systems.rig.poses import floor_point, horizontal, to_world, turn_around
from playspace.systems.tracking import InputState


def _deadzone(value: float, zone: float) -> float:
    """Rescale past the deadzone so a stick still reaches full speed."""
    if abs(value) <= zone:
        return 0.0
    return math.copysign((abs(value) - zone) / (1.0 - zone), value)


@system(
    Phase.FIXED,
    in_set="locomotion",
    reads=(InputState, RigSettings, TrackedDevice),
    writes=(Transform, Rig, Turned),
)
def turning(world: World) -> None:
    """Turn the origin around the head from the right stick's sideways push."""
    rig, settings = world.resource(Rig), world.resource(RigSettings)
    head = world.get(rig.head, TrackedDevice)
    push = world.resource(InputState).frame.right.stick[0]
    if rig.teleport_aiming or not head.tracked:
        return
    origin = world.get(rig.origin, Transform)
    pivot = to_world(origin, head.pose).position
    if settings.turn_mode is TurnMode.SMOOTH:
        rate = -_deadzone(push, settings.stick_deadzone) * settings.smooth_turn_speed
        if rate:
            turn_around(origin, pivot, rate * world.fixed_time.dt)
        return
    if abs(push) < settings.flick_off:
        rig.snap_turn_armed = True
    elif abs(push) > settings.flick_on and rig.snap_turn_armed:
        angle = -math.copysign(settings.snap_turn, push)  # stick right turns right
        turn_around(origin, pivot, angle)
        rig.snap_turn_armed = False
        rig.snap_floor = True
        world.send(Turned(angle))


@system(
    Phase.FIXED,
    in_set="locomotion",
    after=(turning,),
    reads=(InputState, RigSettings, TrackedDevice, CharacterBody, CharacterMotion, Colliders),
    writes=(Transform, Rig, Physics),
)
def smooth_move(world: World) -> None:
    """Walk the body along the left stick and carry the origin by the move it made."""
    rig, settings = world.resource(Rig), world.resource(RigSettings)
    frame = world.resource(InputState).frame
    x = _deadzone(frame.left.stick[0], settings.stick_deadzone)
    y = _deadzone(frame.left.stick[1], settings.stick_deadzone)
    moving = bool(x or y) and rig.separation < settings.fade_full
    if moving and not rig.smooth_moving:
        rig.snap_floor = True  # the floor syncs at once when smooth movement starts
    rig.smooth_moving = moving
    if not moving:
        return
    guide = {
        MoveRelativeTo.HEAD: rig.head,
        MoveRelativeTo.LEFT_HAND: rig.left_hand,
        MoveRelativeTo.RIGHT_HAND: rig.right_hand,
    }[settings.move_relative_to]
    device = world.get(guide, TrackedDevice)
    if not device.tracked:
        device = world.get(rig.head, TrackedDevice)
    origin = world.get(rig.origin, Transform)
    heading = spatial.yaw(to_world(origin, device.pose).rotation)
    step = settings.move_speed * world.fixed_time.dt
    wanted = spatial.rotate(spatial.yaw_rotation(heading), spatial.vec3(x * step, 0.0, -y * step))
    made = walk_character(world, rig.body, wanted)
    origin.position = origin.position + horizontal(made)


@system(
    Phase.FIXED,
    in_set="locomotion",
    after=("teleport",),
    reads=(RecenterRequested, RigSettings, TrackedDevice),
    writes=(Transform, Rig, Recentered),
)
def recenter(world: World) -> None:
    """Put the origin back so the player stands at the body again."""
    if not world.read_events(RecenterRequested, reader=recenter):
        return
    rig, settings = world.resource(Rig), world.resource(RigSettings)
    origin = world.get(rig.origin, Transform)
    head = world.get(rig.head, TrackedDevice)
    stands = floor_point(to_world(origin, head.pose), settings.neck_offset)
    feet = world.get(rig.body, Transform).position
    origin.position = origin.position + horizontal(feet - stands)
    rig.snap_floor = True
    world.send(Recentered())
