"""Make the example traces: scripted players, written as trace v2 files at a headset's 72 Hz.

No headset records here, so each example's trace is a script of what a player does, sampled as
a Quest would (72 Hz, a slightly uneven clock). Run ``python examples/traces/make_traces.py``
to write them again; the same script always writes the same bytes.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from playspace import spatial
from playspace.components.input import (
    Button,
    DevicePose,
    HandInput,
    HandJoints,
    InputFrame,
)
from playspace.systems.input import Trace, device_pose, hand_input, write_trace
from playspace.systems.input.hands import Curls, posed_hand
from playspace.systems.input.velocities import with_velocities

HERE = Path(__file__).resolve().parent
HEIGHT = 1.7
Point = tuple[float, float, float]


def frames(script: Callable[[float], InputFrame], seconds: float) -> list[InputFrame]:
    out, t, tick = [], 0.0, 0
    while t <= seconds:
        out.append(replace(script(t), time=round(t, 6)))
        tick += 1
        t = tick / 72.0 + (0.0007 if tick % 3 == 0 else 0.0)
    return out


def player(
    head: tuple[float, float, float],
    right: HandInput | None = None,
    left_stick: tuple[float, float] = (0.0, 0.0),
    right_stick: tuple[float, float] = (0.0, 0.0),
    yaw: float = 0.0,
) -> InputFrame:
    x, y, z = head
    left = hand_input((x - 0.2, y - 0.8, z - 0.1), yaw, stick=left_stick)
    hand = right or hand_input((x + 0.2, y - 0.8, z - 0.1), yaw)
    hand = HandInput(hand.pose, hand.grip, hand.trigger, right_stick, hand.buttons)
    return InputFrame(0.0, device_pose(head, yaw), left, hand)


def ramp(t: float, start: float, length: float) -> float:
    """0 before `start`, rising to 1 over `length` seconds."""
    return min(max((t - start) / length, 0.0), 1.0)


def stairs(t: float) -> InputFrame:
    """Walk up the staircase physically for 7 s, then smooth-move back down it."""
    walked = 0.5 * min(t, 7.0)
    back = -0.8 if t > 7.5 else 0.0
    return player((0.0, HEIGHT, -walked), left_stick=(0.0, back))


def roomscale(t: float) -> InputFrame:
    """Walk into the north wall, snap turn right three times, then teleport ahead."""
    walked = 0.5 * min(t, 5.0)
    flick = 1.0 if any(a < t < a + 0.2 for a in (5.5, 6.0, 6.5)) else 0.0
    aim = 1.0 if 7.5 < t < 8.3 else 0.0
    tilt = spatial.from_axis_angle(spatial.vec3(1, 0, 0), math.radians(-10))
    hand = HandInput(DevicePose(spatial.Pose(spatial.vec3(0.2, 1.2, -walked - 0.2), tilt)))
    return player((0.0, HEIGHT, -walked), right=hand, right_stick=(flick, aim))


FOLLOW_THROUGH = 0.15  # seconds the hand takes to stop after letting go, as an arm does
PILE = (0.3, 0.92, -0.3)  # where the right hand takes a snowball, in the player's own frame
WOUND = (0.25, 1.0, 0.3)  # where the throw starts, the hand drawn back over the shoulder


def thrown(t: float, start: Point, direction: Point, speed: float) -> InputFrame:
    """A throw from the pile: the right hand at `start` until 0.6 s (gripping from 0.3 s),
    drawn back from the pile to WOUND by 1.05 s, then forward along `direction` (a unit
    vector), reaching `speed` m/s as it lets go (1.3 s) and slowing to a stop after the
    release rather than stopping dead on it."""
    if t < 0.6:
        p = start
    elif t < 1.05:
        p = _between(PILE, WOUND, ramp(t, 0.6, 0.4))
    else:
        s = min(t, 1.3) - 1.05
        after = min(max(t - 1.3, 0.0), FOLLOW_THROUGH)
        travel = 0.5 * (speed / 0.25) * s * s + speed * (
            after - after * after / (2 * FOLLOW_THROUGH)
        )
        p = (
            WOUND[0] + travel * direction[0],
            WOUND[1] + travel * direction[1],
            WOUND[2] + travel * direction[2],
        )
    grip = 1.0 if 0.3 < t < 1.3 else 0.0
    return player((0.0, HEIGHT, 0.0), right=hand_input(p, grip=grip))


def snowball(t: float) -> InputFrame:
    """Take a snowball from the pile and throw it at the 5 m target: 8 m/s, 20 degrees up."""
    up = math.radians(20)
    return thrown(t, PILE, (0.0, math.sin(up), -math.cos(up)), 8.0)


def throw(
    t: float, aim: tuple[float, float], up: float, speed: float, at: float = 0.0
) -> InputFrame:
    """The snowball range's throw (:func:`thrown`), begun `at` seconds in, toward `aim` (a
    direction across the floor in the player's own frame: (0, -1) straight ahead, (1, -1) ahead
    and to the right), `up` degrees above it, the hand reaching `speed` m/s; the hand comes
    to the pile from the side first."""
    t -= at
    across = math.hypot(*aim)
    rise = math.radians(up)
    direction = (
        math.cos(rise) * aim[0] / across,
        math.sin(rise),
        math.cos(rise) * aim[1] / across,
    )
    start = _between((0.2, 0.9, -0.1), PILE, ramp(t, 0.0, 0.25))  # from the side, to the pile
    return thrown(t, start, direction, speed)


def snowball_fight(t: float) -> InputFrame:
    """The fight's first player, alone: a snowball from the pile at the east target, 5.7 m
    off to the right."""
    return throw(t, (3.5, -4.5), 15.0, 9.0)


def _between(a: Point, b: Point, k: float) -> Point:
    """The point `k` of the way from `a` to `b`."""
    return (a[0] + (b[0] - a[0]) * k, a[1] + (b[1] - a[1]) * k, a[2] + (b[2] - a[2]) * k)


def _path(t: float, keys: list[tuple[float, Point]]) -> Point:
    """The hand's position at `t` along straight moves between timed key positions."""
    for (t0, a), (t1, b) in itertools.pairwise(keys):
        if t <= t1:
            return _between(a, b, ramp(t, t0, t1 - t0))
    return keys[-1][1]


def kitchen(t: float) -> InputFrame:
    """Take the pan, swat the bee that flies in, then push the pan into the pantry wall at the
    bee behind it (no hit: the pan is inside the wall), and let go there."""
    keys = [
        (0.0, (0.2, 0.9, -0.1)),
        (0.5, (0.3, 0.92, -0.5)),  # the pan, on the counter
        (0.8, (0.3, 0.92, -0.5)),
        (1.4, (0.3, 1.3, -0.5)),
        (3.8, (0.3, 1.3, -0.5)),  # wait for the bee to come close
        (4.2, (-0.35, 1.62, -1.0)),  # swat
        (4.6, (0.0, 1.3, -0.4)),
        (5.4, (0.9, 1.26, -0.3)),  # into the pantry wall, at the bee behind it
    ]
    grip = 1.0 if 0.6 < t < 6.0 else 0.0
    look = -1.1 * ramp(t, 4.4, 0.6)  # turn the head right, to watch the pan go into the wall
    hand = hand_input(_path(t, keys), grip=grip)
    return player((0.0, HEIGHT, 0.0), right=hand, yaw=look)


def dash(t: float) -> InputFrame:
    """Dash into the north wall, turn round physically, then dash back across the room while
    flicking the right stick to turn (the dash takes the step: the turn waits)."""
    yaw = math.pi * ramp(t, 1.2, 1.0)
    pressed = 0.4 < t < 0.6 or 2.6 < t < 2.8
    x, y, z = 0.2 * math.cos(yaw), HEIGHT - 0.8, -0.1 * math.cos(yaw)
    right = hand_input((x, y, z), yaw, buttons=[Button.A] if pressed else [])
    flick = (1.0, 0.0) if 2.65 < t < 2.8 else (0.0, 0.0)
    return player((0.0, HEIGHT, 0.0), right=right, right_stick=flick, yaw=yaw)


MENU_HAND = (0.2, 1.1, -0.3)
FLOOR = (0.3, 0.0, -0.8)
PANEL_CENTRE, PANEL_PIXELS, METRES_PER_PIXEL = (0.0, 1.35, -1.0), (600, 400), 0.001
SMOOTH, SNAP_45, SLOPE, VIGNETTE = (191, 69), (225, 165), (157, 221), (60, 277)  # panel px
CLICKS = ((1.0, 1.2), (1.8, 2.0), (2.6, 2.8), (3.4, 3.6))  # seconds of trigger, a widget each


def on_panel(pixel: tuple[int, int]) -> Point:
    """The point of the panel at `pixel` (x right, y down), in the room."""
    x, y, z = PANEL_CENTRE
    return (
        x + (pixel[0] - PANEL_PIXELS[0] / 2) * METRES_PER_PIXEL,
        y - (pixel[1] - PANEL_PIXELS[1] / 2) * METRES_PER_PIXEL,
        z,
    )


def settings(t: float) -> InputFrame:
    """The settings menu of ``examples/settings.py``: the right hand first pulls the trigger
    aiming at the floor (nothing happens), then aims at "Smooth", "45" and "Slope
    quantization" and "Vignette" on the panel, clicking each; then the right stick turns
    smoothly."""
    keys = [
        (0.0, FLOOR),
        (0.5, FLOOR),
        (0.8, on_panel(SMOOTH)),
        (1.4, on_panel(SMOOTH)),
        (1.6, on_panel(SNAP_45)),
        (2.2, on_panel(SNAP_45)),
        (2.4, on_panel(SLOPE)),
        (3.0, on_panel(SLOPE)),
        (3.2, on_panel(VIGNETTE)),
    ]
    target = spatial.vec3(*_path(t, keys))
    hand = spatial.vec3(*MENU_HAND)
    aim = spatial.look_rotation(target - hand)
    pulled = 0.2 < t < 0.35 or any(a < t < b for a, b in CLICKS)
    right = HandInput(DevicePose(spatial.Pose(hand, aim)), trigger=1.0 if pulled else 0.0)
    turn = (1.0, 0.0) if 4.0 < t < 5.0 else (0.0, 0.0)
    return player((0.0, HEIGHT, 0.0), right=right, right_stick=turn)


WRENCH = (0.55, 1.2, -0.2)  # on its hook
DROPPED_AT = (0.3, 1.0, -0.35)  # out of every socket's zone: it falls to the floor
BENCH_LEAN = -1.2  # the head's x over the bench: 0.3 m past its edge at x = -0.9


LEVER_PIVOT, LEVER_GRIP = (-0.65, 0.92, 0.9), 0.27  # its hinge, and where along it the hand holds
BUTTON, DIAL = (-0.3, 1.15, 0.95), (-0.1, 1.15, 1.0)  # the hand 7 and 2 cm before their faces
DRAWER = (-0.4, 0.76, 0.74)  # its front's middle, 3 cm out
HINGE, HANDLE = (0.92, 1.0, 1.5), (0.68, -0.04)  # the door's hinge; its handle from the hinge
AT_COUNTER, BACKED, AT_DOOR = (-0.4, 0.4), (-0.4, 0.15), (1.2, 1.15)  # where the head stands (x, z)
ROUND = [(0.3, 0.15), (0.35, 0.6), (0.8, 0.95)]  # past the open drawer and the rack's corner
WORKED = 14.0  # seconds the counter and the door take; the rest of the workshop follows


def _lever_at(degrees: float) -> Point:
    """The hand on the lever tipped `degrees` toward the player."""
    a = math.radians(degrees)
    x, y, z = LEVER_PIVOT
    return (x, y + LEVER_GRIP * math.cos(a), z - LEVER_GRIP * math.sin(a))


def _door_at(degrees: float) -> Point:
    """The hand on the door's handle with the door open `degrees`."""
    a = math.radians(degrees)
    x, y, z = HINGE
    along, before = HANDLE
    return (
        x + along * math.cos(a) - before * math.sin(a),
        y,
        z + along * math.sin(a) + before * math.cos(a),
    )


def _floor_path(t: float, keys: list[tuple[float, tuple[float, float]]]) -> Point:
    x, _, z = _path(t, [(when, (a, HEIGHT, b)) for when, (a, b) in keys])
    return x, HEIGHT, z


def counter_and_door(t: float) -> InputFrame:
    """Turn round to the counter; tip the lever past its 45 degree limit and let it go (it
    settles in its 40 degree detent); press the button; turn the dial 100 degrees; step back and
    pull the drawer open 22 cm; walk round to the door, push it open 45 degrees and let it go
    swinging (it stops at its 90 degree limit); walk back and turn to face the room."""
    out = ROUND[::-1]
    head = _floor_path(
        t,
        [
            (0.0, (0.0, 0.0)),
            (0.2, (0.0, 0.0)),
            (1.2, AT_COUNTER),
            (6.0, AT_COUNTER),
            (6.6, BACKED),
            (8.2, BACKED),
            (8.8, ROUND[0]),
            (9.3, ROUND[1]),
            (9.9, ROUND[2]),
            (10.5, AT_DOOR),
            (11.8, AT_DOOR),
            (12.4, out[0]),
            (12.9, out[1]),
            (13.4, out[2]),
            (13.8, (0.0, 0.0)),
        ],
    )
    yaw = math.pi * (ramp(t, 0.0, 0.6) - ramp(t, 13.2, 0.6))
    rest = (head[0] - 0.2 * math.cos(yaw), head[1] - 0.8, head[2] + 0.1 * math.cos(yaw))
    keys = [(0.0, rest), (0.2, rest), (1.2, _lever_at(0.0)), (1.4, _lever_at(0.0))]
    keys += [(1.5 + 0.05 * i, _lever_at(6.0 * i)) for i in range(1, 11)]  # to 60 degrees
    keys += [(2.5, _lever_at(60.0)), (2.9, BUTTON), (3.1, BUTTON)]
    keys += [(3.4, (BUTTON[0], BUTTON[1], BUTTON[2] + 0.1)), (3.7, BUTTON), (4.0, DIAL)]
    keys += [
        (5.3, DIAL),
        (6.0, DRAWER),
        (6.3, DRAWER),
        (7.0, (DRAWER[0], DRAWER[1], DRAWER[2] - 0.22)),
    ]
    keys += [
        (7.4, (DRAWER[0], DRAWER[1], DRAWER[2] - 0.22)),
        (8.2, (BACKED[0] + 0.2, 0.9, BACKED[1] + 0.1)),
    ]
    keys += [
        (10.5, (AT_DOOR[0] + 0.2, 0.9, AT_DOOR[1] + 0.1)),
        (10.8, _door_at(0.0)),
        (11.0, _door_at(0.0)),
    ]
    keys += [(11.0 + 0.05 * i, _door_at(5.0 * i)) for i in range(1, 11)]  # 50 degrees, 1.7 rad/s
    keys += [(12.0, (AT_DOOR[0] - 0.2, 0.9, AT_DOOR[1] + 0.1)), (12.4, rest)]
    position = _path(t, keys) if t < 12.4 else rest
    gripped = 1.3 < t < 2.55 or 4.1 < t < 5.4 or 6.2 < t < 7.3 or 10.9 < t < 11.4
    twist = math.radians(100.0) * ramp(t, 4.3, 0.8)
    turn = spatial.multiply(
        spatial.from_axis_angle(spatial.vec3(0, 0, 1), twist), spatial.yaw_rotation(yaw)
    )
    hand = HandInput(
        DevicePose(spatial.Pose(spatial.vec3(*position), turn)), grip=1.0 if gripped else 0.0
    )
    return player(head, right=hand, yaw=yaw)


CLIMB_AT = (-1.2, -0.75)  # where the head stands (tracking x, z) before the climbing wall
ON_WALL = -0.95  # the hands' tracking z: 4 cm before the wall's face
LIFT_AT = (1.2, -0.34)  # the head over the lift (the body 10 cm behind it, at its middle)
LEDGE = 9.0  # seconds the part from the rack to the ledge takes
PULLS = 4  # pulls of 0.5 m, hand over hand: 2 m
TOP, BOTTOM = 1.5, 1.0  # the hands' height where a pull starts and where it ends


def _climber(u: float, right: bool) -> HandInput:
    """One hand on the climbing wall `u` seconds after the climb began: from u = 2 each second
    a hand grips at TOP (right first), pulls down to BOTTOM in 0.5 s, and lets go as the other
    grips, then goes back up to TOP; the last one lets go at u = 6.5."""
    side = 0.2 if right else -0.2
    x = CLIMB_AT[0] + side
    keys = [(0.0, (side, 0.9, -0.1)), (1.5, (x, TOP, ON_WALL))]
    grip = 0.0
    for i in range(PULLS):
        if (i % 2 == 0) != right:
            continue
        start = 2.0 + i
        last = i == PULLS - 1
        keys += [(start + 0.1, (x, TOP, ON_WALL)), (start + 0.6, (x, BOTTOM, ON_WALL))]
        if not last:  # back up for the next pull once the other hand holds on
            keys += [(start + 1.2, (x, BOTTOM, ON_WALL)), (start + 1.8, (x, TOP, ON_WALL))]
        if start <= u < (6.5 if last else start + 1.05):
            grip = 1.0
    keys += [(7.0, keys[-1][1]), (7.5, (x, 0.9, CLIMB_AT[1] - 0.1))]
    return hand_input(_path(u, keys), grip=grip)


def climb_and_ride(u: float) -> InputFrame:
    """Walk to the climbing wall, climb it 2 m hand over hand (:func:`_climber`) and let go,
    falling back to the ledge; wait beside the lift, step on at the bottom of its way and ride
    it 2 m up."""
    x, _, z = _floor_path(
        u,
        [
            (0.0, (0.0, 0.0)),
            (1.5, CLIMB_AT),
            (8.0, CLIMB_AT),
            (8.5, (CLIMB_AT[0], LIFT_AT[1])),
            (10.0, (0.0, LIFT_AT[1])),  # beside the lift, which comes down
            (12.6, (0.0, LIFT_AT[1])),
            (13.4, LIFT_AT),  # on it as it sets off from the bottom (at 36 s)
        ],
    )
    climbing = u < 7.5
    here = (x, HEIGHT, z)
    left = _climber(u, right=False) if climbing else hand_input((x - 0.2, 0.9, z - 0.1))
    right = _climber(u, right=True) if climbing else hand_input((x + 0.2, 0.9, z - 0.1))
    return InputFrame(0.0, device_pose(here), left, right)


RIDDEN = 19.0  # seconds from the ledge until the lift is at the top of its way (42 s)
OFF_LIFT = (0.0, LIFT_AT[1])  # where the head stands (tracking x, z) after the lift
# The rig's origin is at (0, 0.55, -4.26) after the lift: the ball in tracking space.
BALL = (-0.3, 0.92, -2.14)  # on the shelf, 1.9 m before the aiming hand
AIMING = (0.2, 1.2, -0.4)  # the right hand, raised, aiming at the ball


def fetch_ball(u: float) -> InputFrame:
    """Ride the lift down; step off it; raise the right hand, aim at the ball on the shelf and
    grip (it opts in to distance grab: it flies into the hand); let go."""
    x, _, z = _floor_path(u, [(0.0, LIFT_AT), (6.2, LIFT_AT), (7.2, OFF_LIFT)])
    rest = (x + 0.2, 0.9, z - 0.1)
    if u < 8.0:
        right = hand_input(rest)
    else:
        position = spatial.vec3(*_path(u, [(8.0, rest), (9.0, AIMING)]))
        aim = spatial.look_rotation(spatial.vec3(*BALL) - position)
        gripped = 9.5 < u < 11.0
        right = HandInput(DevicePose(spatial.Pose(position, aim)), grip=1.0 if gripped else 0.0)
    left = hand_input((x - 0.2, 0.9, z - 0.1))
    return InputFrame(0.0, device_pose((x, HEIGHT, z)), left, right)


def workshop(t: float) -> InputFrame:
    """Work the counter and the door (:func:`counter_and_door`); then take the wrench off its
    hook and drop it (it comes back); walk to the bench and lean 0.3 m over it; crouch (right
    stick click), smooth-move under the beam, stand up past it; jump (A) and move forward onto
    the ledge; climb the climbing wall and ride the lift (:func:`climb_and_ride`); ride it down
    step off and pull the ball off its shelf (:func:`fetch_ball`)."""
    if t < WORKED:
        return counter_and_door(t)
    t -= WORKED
    if t >= LEDGE + RIDDEN:
        return fetch_ball(t - LEDGE - RIDDEN)
    if t >= LEDGE:
        return climb_and_ride(t - LEDGE)
    x = _between((0.0, 0.0, 0.0), (BENCH_LEAN, 0.0, 0.0), ramp(t, 2.0, 1.5))[0]
    x -= BENCH_LEAN * ramp(t, 4.0, 1.0)  # and back to the middle of the room
    y = HEIGHT - 0.15 * ramp(t, 2.8, 0.7) + 0.15 * ramp(t, 4.0, 1.0)  # the lean lowers the head
    clicks = 5.2 <= t < 5.3 or 7.0 <= t < 7.1
    buttons = [Button.STICK] if clicks else []
    buttons += [Button.A] if 7.5 <= t < 7.6 else []
    if t < 2.0:
        keys = [(0.0, (0.2, 0.9, -0.1)), (0.5, WRENCH), (0.7, WRENCH), (1.3, DROPPED_AT)]
        right = hand_input(_path(t, keys), grip=1.0 if 0.6 < t < 1.6 else 0.0)
    else:
        right = hand_input((x + 0.2, y - 0.8, -0.1), buttons=buttons)
    forward = 1.0 if 5.5 <= t < 6.75 or 7.65 <= t < 8.1 else 0.0
    return player((x, y, 0.0), right=right, left_stick=(0.0, forward))


# Bare hands (examples/hands.toml): no controllers, a hand tracker's 26 joints per hand.
SEATED = 1.2  # the head's height in the room: the player sits
RAISED = 0.5  # what seated play raises the view by (eye_height 1.7 - SEATED)
OPEN: Curls = (0.0, 0.0, 0.0, 0.0, 0.0)
# Where the right palm goes, in the world (the scene's metres; the room's are RAISED lower).
REST_RIGHT = (0.25, 1.25, -0.2)
OVER_TABLE, INTO_TABLE = (0.0, 1.25, -0.45), (0.0, 1.0, -0.45)  # 10 cm below its 1.1 m top
OVER_BLOCK, LIFTED, PUT_DOWN = (0.2, 1.17, -0.5), (0.2, 1.42, -0.5), (0.2, 1.19, -0.5)
ABOVE_BLOCK = (0.2, 1.3, -0.5)  # out of its reach: the finger curls to point up here
TIP = (-0.02, 0.0, -0.12)  # a pointing hand's index tip from its palm
BUTTON_FACE = (-0.15, 1.25, -0.72)  # the middle of the button's face
POKE_FROM, POKED = 0.05, -0.025  # the tip 5 cm before the face, then 2.5 cm past it
PINCHED = (4.4, 7.4)  # seconds the thumb closes on the index tip, and opens again
POINTED = (8.2, 11.0)  # seconds the fingers curl in to point, and open again
HANDS_SECONDS = 12.5


def joints(at: Point, curls: Curls = OPEN, pinch: float = 0.0) -> HandJoints:
    """A bare right hand as a hand tracker sees it (``posed_hand``: palm down, fingers
    forward), its palm joint at `at` in the room, each finger curled as `curls` says, `pinch`
    bringing the thumb tip onto the index tip. Positions are kept to a tenth of a millimetre
    (finer than a tracker sees), which keeps the trace file short."""
    hand = posed_hand(at, curls, pinch)
    poses = tuple(
        spatial.Pose(spatial.vec3(*(round(v, 4) for v in p.position)), p.rotation)
        for p in hand.poses
    )
    return HandJoints(poses, hand.radii)


def _in_room(point: Point) -> Point:
    """A point of the world as the seated player's tracker sees it: RAISED lower."""
    return (point[0], point[1] - RAISED, point[2])


def _palm_at_tip(tip: Point) -> Point:
    """Where a pointing right hand's palm is when its index tip is at `tip`."""
    return (tip[0] - TIP[0], tip[1] - TIP[1], tip[2] - TIP[2])


def hands(t: float) -> InputFrame:
    """Seated, bare hands: lower the right hand 10 cm into the table top (the physics hand
    stops on it) and raise it; pinch the block, lift it 25 cm, put it down and let go; point
    the index finger and poke the button 2.5 cm in, then draw the hand back to rest. The left
    hand rests in the lap, below the tracker's view: untracked throughout (no joints, which
    also halves the file)."""
    before = (BUTTON_FACE[0], BUTTON_FACE[1], BUTTON_FACE[2] + POKE_FROM)
    pushed = (BUTTON_FACE[0], BUTTON_FACE[1], BUTTON_FACE[2] + POKED)
    keys = [
        (0.0, REST_RIGHT),
        (0.8, REST_RIGHT),
        (1.4, OVER_TABLE),
        (2.2, INTO_TABLE),
        (3.0, INTO_TABLE),
        (3.6, OVER_TABLE),
        (4.2, OVER_BLOCK),
        (4.8, OVER_BLOCK),
        (5.8, LIFTED),
        (6.4, LIFTED),
        (7.2, PUT_DOWN),
        (7.8, PUT_DOWN),
        (8.2, ABOVE_BLOCK),
        (9.0, _palm_at_tip(before)),
        (9.4, _palm_at_tip(before)),
        (10.0, _palm_at_tip(pushed)),
        (10.4, _palm_at_tip(pushed)),
        (11.0, _palm_at_tip(before)),
        (11.8, REST_RIGHT),
    ]
    pinch = ramp(t, PINCHED[0], 0.3) - ramp(t, PINCHED[1], 0.3)
    point = ramp(t, POINTED[0], 0.6) - ramp(t, POINTED[1], 0.6)
    curls = (point, 0.3 * pinch, point, point, point)  # pointing: all in but the index
    right = HandInput(joints=joints(_in_room(_path(t, keys)), curls, pinch))
    return InputFrame(0.0, device_pose((0.0, SEATED, 0.0)), HandInput(), right)


# The range (examples/range.toml): grip toggle, attach points, a rifle in two hands, sprint.
PISTOL_TAKEN = (0.42, 0.95, -0.6)  # 6 cm from the middle of the pistol, 14 cm from its grip
PISTOL_AIMED = (0.25, 1.3, -0.45)  # the right hand raised, the pistol down the range
PISTOL_PUT = (0.4, 1.0, -0.5)  # over the bench, where it is let go
RIFLE_TAKEN = (0.12, 0.97, -0.65)  # 3 cm off the rifle's grip, on the bench
RIFLE_SHOULDERED = (0.15, 1.25, -0.35)  # the right hand at the shoulder, the rifle level
FORE_END = (0.15, 1.25, -0.83)  # the left hand under the fore-end of the shouldered rifle
RIFLE_PUT = (0.15, 1.0, -0.45)  # over the bench, where it is let go
SQUEEZE = 0.2  # seconds a squeeze lasts
PISTOL_SQUEEZES = (1.3, 3.8)  # take, let go (the grip is a toggle)
RIFLE_SQUEEZES = (5.4, 11.0)  # the right hand's: take, let go
FORE_END_SQUEEZES = (7.3, 10.0)  # the left hand's: steady the rifle, let go of it
PUT_BACK = (4.5, 11.8)  # seconds: the pistol is back on the bench; the rifle is
WALK, SPRINT = (12.6, 13.2), (13.6, 14.2)  # seconds of full stick: walking, then sprinting
RANGE_SECONDS = 15.0


def _squeezed(t: float, squeezes: tuple[float, ...]) -> float:
    """The grip: closed for SQUEEZE seconds from each time in `squeezes`, open between (with
    grip toggle each squeeze takes or lets go)."""
    return 1.0 if any(s < t < s + SQUEEZE for s in squeezes) else 0.0


def _at_rest(right: bool, head: Point = (0.0, HEIGHT, 0.0), yaw: float = 0.0) -> Point:
    """A hand hanging at the player's side (0.2 m out, 0.8 m below the eyes, 0.1 m ahead),
    the head at `head` turned `yaw`."""
    side = 0.2 if right else -0.2
    return (
        head[0] + side * math.cos(yaw) - 0.1 * math.sin(yaw),
        head[1] - 0.8,
        head[2] - side * math.sin(yaw) - 0.1 * math.cos(yaw),
    )


def _pistol_hand(t: float) -> HandInput:
    """The right hand closes on the pistol off its grip, squeezes once (it turns into the hand,
    held by its grip) and opens; it raises the pistol, aims it 15 degrees left and back, lowers
    it over the bench and squeezes again to let it go."""
    rest = _at_rest(right=True)
    keys = [
        (0.0, rest),
        (0.4, rest),
        (1.1, PISTOL_TAKEN),
        (1.6, PISTOL_TAKEN),
        (2.3, PISTOL_AIMED),
        (3.0, PISTOL_AIMED),
        (3.6, PISTOL_PUT),
        (4.1, PISTOL_PUT),
        (PUT_BACK[0], rest),
    ]
    yaw = math.radians(15.0) * (ramp(t, 2.3, 0.3) - ramp(t, 2.7, 0.3))
    grip = _squeezed(t, PISTOL_SQUEEZES)
    return hand_input(_path(t, keys), yaw, grip=grip)


def _rifle_hands(t: float) -> tuple[HandInput, HandInput]:
    """The right hand takes the rifle near its grip (it turns into the hand, pointing the way
    the hand does) and shoulders it; the left hand takes its fore-end, raises it 0.2 m, swings
    it 0.25 m left and brings it back, steering the rifle, then lets go; the right hand lowers
    the rifle over the bench and lets it go. Left, then right."""
    rest_left, rest_right = _at_rest(right=False), _at_rest(right=True)
    raised = (FORE_END[0], FORE_END[1] + 0.2, FORE_END[2])
    swung = (FORE_END[0] - 0.25, FORE_END[1] + 0.2, FORE_END[2])
    left_keys = [
        (0.0, rest_left),
        (6.2, rest_left),
        (7.1, FORE_END),
        (7.6, FORE_END),
        (8.3, raised),
        (9.0, swung),
        (9.7, FORE_END),
        (10.2, FORE_END),
        (10.8, rest_left),
    ]
    right_keys = [
        (0.0, rest_right),
        (PUT_BACK[0], rest_right),
        (5.2, RIFLE_TAKEN),
        (5.8, RIFLE_TAKEN),
        (6.6, RIFLE_SHOULDERED),
        (10.2, RIFLE_SHOULDERED),
        (10.8, RIFLE_PUT),
        (11.3, RIFLE_PUT),
        (PUT_BACK[1] - 0.1, rest_right),
    ]
    left = hand_input(_path(t, left_keys), grip=_squeezed(t, FORE_END_SQUEEZES))
    right = hand_input(_path(t, right_keys), grip=_squeezed(t, RIFLE_SQUEEZES))
    return left, right


def _walk_back(t: float) -> InputFrame:
    """Step back from the bench and turn round; walk away from the firing line for 0.6 s (full
    left stick); then the same again holding the left stick's click: a sprint."""
    turned = ramp(t, PUT_BACK[1] + 0.1, 0.5)
    yaw, head = math.pi * turned, (0.0, HEIGHT, 0.2 * turned)
    walking = any(a <= t < b for a, b in (WALK, SPRINT))
    sprinting = SPRINT[0] <= t < SPRINT[1]
    stick = (0.0, 1.0 if walking else 0.0)
    left = hand_input(
        _at_rest(False, head, yaw), yaw, stick=stick, buttons=[Button.STICK] if sprinting else []
    )
    right = hand_input(_at_rest(True, head, yaw), yaw)
    return InputFrame(0.0, device_pose(head, yaw), left, right)


def shooting_range(t: float) -> InputFrame:
    """The range (grip toggle on): take the pistol, aim it and put it back
    (:func:`_pistol_hand`); take the rifle, steer it with the second hand and put it back
    (:func:`_rifle_hands`); turn round, walk and sprint back from the firing line
    (:func:`_walk_back`)."""
    if t >= PUT_BACK[1]:
        return _walk_back(t)
    if t < PUT_BACK[0]:
        left, right = hand_input(_at_rest(right=False)), _pistol_hand(t)
    else:
        left, right = _rifle_hands(t)
    return InputFrame(0.0, device_pose((0.0, HEIGHT, 0.0)), left, right)


TRACES: dict[str, tuple[Callable[[float], InputFrame], float]] = {
    "kitchen": (kitchen, 7.0),
    "stairs": (stairs, 11.0),
    "roomscale": (roomscale, 10.0),
    "snowball": (snowball, 3.0),
    "snowball_fight": (snowball_fight, 3.0),
    "dash": (dash, 3.5),
    "settings": (settings, 5.3),
    "workshop": (workshop, WORKED + LEDGE + RIDDEN + 12.0),
    "hands": (hands, HANDS_SECONDS),
    "range": (shooting_range, RANGE_SECONDS),
}


def main() -> None:
    """Write every trace, the hands' velocities in it as a headset measures and records them
    (a recording of a headset run carries the runtime's velocities, and the throw uses them)."""
    for name, (script, seconds) in TRACES.items():
        path = HERE / f"{name}.jsonl"
        measured = with_velocities(Trace(tuple(frames(script, seconds))))
        write_trace(path, measured.samples)
        print(f"wrote {path.relative_to(HERE.parent.parent)}")


if __name__ == "__main__":
    main()
