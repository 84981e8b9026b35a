"""Attach points, two-handed grabs, distance grabs and grip toggle, from scripted hands."""

from __future__ import annotations

import math
from collections.abc import Callable
from itertools import pairwise

import pytest

from playspace import spatial
from playspace.components import Transform
from playspace.components.input import DevicePose, HandInput, InputFrame
from playspace.components.interaction import DistanceGrab, Grabbable, GrabSettings, Grip, Hover
from playspace.components.physics import Box, Sphere
from playspace.ecs import World
from playspace.spatial import Pose
from playspace.systems.input import hand_input
from tests.grab_helpers import HAND, ball_in_hand, grab_world, named, prop, right
from tests.physics_helpers import static
from tests.rig_helpers import Run, head_at, rig_of

X, Y = spatial.vec3(1.0, 0.0, 0.0), spatial.vec3(0.0, 1.0, 0.0)
# where each hand holds the pistol, in its frame: the right hand's grip tilted back 20 degrees,
# the left hand's a little further back and turned, as a game would author them per hand
ATTACH_RIGHT = Pose(spatial.vec3(0.0, -0.05, 0.07), spatial.from_axis_angle(X, math.radians(-20)))
ATTACH_LEFT = Pose(spatial.vec3(0.0, -0.04, 0.09), spatial.from_axis_angle(Y, math.radians(15)))
# the hand's grip pose: turned 30 degrees left and pitched 10 degrees down
HAND_TURN = spatial.multiply(
    spatial.from_axis_angle(Y, math.radians(30)), spatial.from_axis_angle(X, math.radians(-10))
)


def posed(position: tuple[float, float, float], grip: float) -> HandInput:
    """A hand at `position` turned as HAND_TURN, gripping `grip`."""
    return HandInput(DevicePose(Pose(spatial.vec3(*position), HAND_TURN)), grip)


def angle_between(a: spatial.Quat, b: spatial.Quat) -> float:
    """The angle (radians) of the turn from `a` to `b`."""
    turn = spatial.normalize(spatial.multiply(b, spatial.inverse(a)))
    return 2.0 * math.acos(min(1.0, abs(turn.w)))


def hand_pose(run: Run, side: str) -> Pose:
    rig = rig_of(run.world)
    entity = rig.left_hand if side == "left" else rig.right_hand
    return run.world.get(entity, Transform).pose()


def pistol_world(side: str, attach: bool, ease: float = 0.0) -> Run:
    """A floating pistol turned 70 degrees and 4 cm off the `side` hand, which grips it from
    0.1 s."""

    def build(world: World) -> None:
        at = spatial.vec3(HAND[0] + 0.03, HAND[1] + 0.02, HAND[2] - 0.03)
        pistol = prop(world, "pistol", at, Box((0.04, 0.14, 0.2)), gravity_scale=0.0)
        world.get(pistol, Transform).rotation = spatial.from_axis_angle(Y, math.radians(70))
        if attach:
            grabbable = world.get(pistol, Grabbable)
            grabbable.attach_left, grabbable.attach_right = ATTACH_LEFT, ATTACH_RIGHT
            grabbable.attach_ease = ease

    def script(t: float) -> InputFrame:
        hand = posed(HAND, 1.0 if t > 0.1 else 0.0)
        return (
            head_at(0.0, 1.7, 0.0, left=hand)
            if side == "left"
            else head_at(0.0, 1.7, 0.0, right=hand)
        )

    return grab_world(script, build)


def grip_error(run: Run, side: str, attach: Pose) -> tuple[float, float]:
    """How far (metres, radians) the pistol's `attach` pose is from the `side` hand's grip."""
    pistol = run.world.get(named(run.world, "pistol"), Transform).pose()
    at, hand = spatial.compose(pistol, attach), hand_pose(run, side)
    return spatial.length(at.position - hand.position), angle_between(at.rotation, hand.rotation)


@pytest.mark.parametrize("side", ["right", "left"])
@pytest.mark.parametrize("attach", [True, False], ids=["attach point", "control: none"])
def test_a_pistol_grabbed_anywhere_ends_with_its_grip_in_the_hand(side: str, attach: bool) -> None:
    """Grabbed off its grip and turned, the pistol moves so that hand's attach pose meets the
    grip pose, in the hand's orientation; the other hand's attach pose would not. Without
    attach points it stays at the offset it was grabbed at."""
    run = pistol_world(side, attach)
    run.world.step(30)
    own, other = (ATTACH_RIGHT, ATTACH_LEFT) if side == "right" else (ATTACH_LEFT, ATTACH_RIGHT)
    distance, turn = grip_error(run, side, own)
    if attach:
        assert distance < 0.002 and turn < math.radians(0.5)
        elsewhere, _ = grip_error(run, side, other)
        assert elsewhere > 0.02  # left and right hold it differently
    else:
        assert distance > 0.03 or turn > math.radians(30)
    assert len(run.events("grabbed")) == 1


@pytest.mark.parametrize("ease", [0.2, 0.0], ids=["ease 0.2 s", "control: at once"])
def test_an_attach_ease_moves_the_pistol_into_the_hand_over_its_time(ease: float) -> None:
    """With an ease, the pistol moves into the hand over 0.2 s at an even pace, never in one
    jump; without, it is there at the grab."""
    run = pistol_world("right", attach=True, ease=ease)
    errors: list[float] = []
    for _ in range(60):
        run.world.step(1)
        if run.world.get(named(run.world, "pistol"), Grabbable).held_by is not None:
            errors.append(grip_error(run, "right", ATTACH_RIGHT)[0])
    if ease == 0.0:
        assert errors[0] < 0.002
        return
    start = errors[0]  # a step of 18 in
    assert 0.35 * start < errors[round(0.1 * 90) - 1] < 0.7 * start
    assert errors[round(0.2 * 90)] < 0.002
    assert start > 0.03 and max(a - b for a, b in pairwise(errors)) < 2.0 * start / 17


RIFLE_GRIP = (HAND[0], HAND[1], HAND[2])
FRONT = (HAND[0], HAND[1], HAND[2] - 0.5)


def rifle_world(script: Callable[[float], InputFrame], ease: float = 0.0) -> Run:
    """A 0.7 m rifle along -Z, floating, its grip at the right hand and a second grab point
    0.5 m ahead of it; the hands come from `script`."""

    def build(world: World) -> None:
        at = spatial.vec3(HAND[0], HAND[1], HAND[2] - 0.25)
        rifle = prop(world, "rifle", at, Box((0.04, 0.06, 0.7)), gravity_scale=0.0)
        grabbable = world.get(rifle, Grabbable)
        grabbable.second_grip = spatial.vec3(0.0, 0.0, -0.25)
        grabbable.attach_ease = ease

    return grab_world(script, build)


def rifle(run: Run) -> Pose:
    return run.world.get(named(run.world, "rifle"), Transform).pose()


def rifle_pitch(run: Run) -> float:
    """How far the rifle's barrel (-Z) points above the horizon, in degrees."""
    barrel = spatial.rotate(rifle(run).rotation, spatial.vec3(0.0, 0.0, -1.0))
    return math.degrees(math.asin(max(-1.0, min(1.0, barrel.y))))


def rifle_grip_gap(run: Run, side: str) -> float:
    """How far the rifle's grip (its back, where the right hand took it) is from that hand."""
    back = spatial.transform_point(rifle(run), spatial.vec3(0.0, 0.0, 0.25))
    return spatial.length(back - hand_pose(run, side).position)


def two_hands(right_until: float, left_until: float, rise_from: float = 0.6) -> Run:
    """The right hand takes the rifle's grip at 0.1 s, the left its front at 0.3 s; the left
    rises 0.3 m from `rise_from`; each lets go at its time."""

    def script(t: float) -> InputFrame:
        rise = 0.3 * min(max(t - rise_from, 0.0) / 0.3, 1.0)
        left_at = (FRONT[0], FRONT[1] + rise, FRONT[2])
        left = hand_input(left_at, grip=1.0 if 0.3 < t < left_until else 0.0)
        held = 1.0 if 0.1 < t < right_until else 0.0
        return head_at(0.0, 1.7, 0.0, left=left, right=right(RIFLE_GRIP, held))

    return rifle_world(script)


def test_the_second_hand_steers_a_rifle_held_in_both_hands() -> None:
    """The left hand raised 0.3 m at 0.5 m ahead pitches the rifle up by atan(0.3 / 0.5)
    while its grip stays in the right hand; both hands took it, nothing was let go."""
    run = two_hands(right_until=9.0, left_until=9.0)
    run.world.step(round(0.5 * 90))
    assert abs(rifle_pitch(run)) < 1.0  # level before the left hand rises
    run.world.step(round(0.5 * 90))
    assert rifle_pitch(run) == pytest.approx(math.degrees(math.atan2(0.3, 0.5)), abs=1.0)
    assert rifle_grip_gap(run, "right") < 0.01
    rig = rig_of(run.world)
    assert [g["hand"] for g in run.events("grabbed")] == [rig.right_hand, rig.left_hand]
    assert run.events("released") == []


def test_letting_go_with_the_second_hand_returns_to_one_handed() -> None:
    """The left hand lets go at 1.1 s: the rifle, still in the right hand, levels again and
    stays in it; it is not dropped."""
    run = two_hands(right_until=9.0, left_until=1.1)
    run.world.step(round(1.05 * 90))
    assert rifle_pitch(run) > 20.0
    run.world.step(round(0.3 * 90))
    assert abs(rifle_pitch(run)) < 1.0
    assert rifle_grip_gap(run, "right") < 0.01
    rig = rig_of(run.world)
    assert run.world.get(named(run.world, "rifle"), Grabbable).held_by == rig.right_hand
    assert run.events("released") == []


def test_letting_go_with_the_first_hand_hands_the_rifle_to_the_second() -> None:
    """The right hand lets go at 0.5 s while the left holds the front: the left holds it,
    where it was (no jump), it rises with the left hand, and falls only when the left lets go
    too."""
    run = two_hands(right_until=0.5, left_until=1.2)
    run.world.step(round(0.45 * 90))
    before = rifle(run).position
    run.world.step(round(0.1 * 90))
    rig = rig_of(run.world)
    grabbable = run.world.get(named(run.world, "rifle"), Grabbable)
    assert grabbable.held_by == rig.left_hand
    assert spatial.length(rifle(run).position - before) < 0.005  # handed over, not moved
    assert run.events("released") == []
    run.world.step(round(0.5 * 90))
    assert rifle(run).position.y == pytest.approx(HAND[1] + 0.3, abs=0.01)  # carried up
    run.world.step(round(0.3 * 90))
    assert len(run.events("released")) == 1 and grabbable.held_by is None


def test_a_second_hand_letting_go_eases_the_rifle_back_with_an_attach_ease() -> None:
    """With an attach ease of 0.3 s the rifle levels over that time, not in one step."""

    def script(t: float) -> InputFrame:
        rise = 0.3 * min(max(t - 0.35, 0.0) / 0.15, 1.0)
        left_at = (FRONT[0], FRONT[1] + rise, FRONT[2])
        left = hand_input(left_at, grip=1.0 if 0.3 < t < 0.6 else 0.0)
        return head_at(0.0, 1.7, 0.0, left=left, right=right(RIFLE_GRIP, 1.0 if t > 0.1 else 0.0))

    run = rifle_world(script, ease=0.3)
    run.world.step(round(0.6 * 90))
    pitches = []
    for _ in range(40):
        run.world.step(1)
        pitches.append(rifle_pitch(run))
    assert pitches[0] > 25.0
    assert max(a - b for a, b in pairwise(pitches)) < 3.0
    assert abs(pitches[-1]) < 0.5


AIM = 2.0  # metres from the right hand to the ball, straight along its aim (-Z)


def distance_world(
    ball_at: tuple[float, float, float],
    wall: bool = False,
    hand_opts_in: bool = True,
    ball_opts_in: bool = False,
) -> Run:
    """A floating ball at `ball_at`; the right hand, aiming down -Z, grips from 0.3 s."""

    def build(world: World) -> None:
        if wall:
            static(world, Box((1.0, 1.0, 0.05)), spatial.vec3(HAND[0], HAND[1], HAND[2] - 1.0))
        ball = prop(world, "ball", spatial.vec3(*ball_at), Sphere(0.04), gravity_scale=0.0)
        world.get(ball, Grabbable).distance_grab = ball_opts_in

    run = grab_world(
        lambda t: head_at(0, 1.7, 0, right=right(HAND, 1.0 if t > 0.3 else 0.0)), build
    )
    rig = rig_of(run.world)
    if hand_opts_in:
        run.world.add(rig.right_hand, DistanceGrab())
    return run


IN_AIM = (HAND[0], HAND[1], HAND[2] - AIM)


@pytest.mark.parametrize(
    ("case", "pulled"),
    [
        ({}, True),
        ({"hand_opts_in": False, "ball_opts_in": True}, True),
        ({"wall": True}, False),
        ({"ball_at": (HAND[0] + 0.6, HAND[1], HAND[2] - AIM)}, False),  # 17 degrees off the aim
        ({"ball_at": (HAND[0], HAND[1], HAND[2] - 3.5)}, False),  # beyond the 3 m range
        ({"hand_opts_in": False}, False),
    ],
    ids=[
        "in the aim",
        "the ball opts in",
        "behind a wall",
        "out of the cone",
        "too far",
        "no opt-in",
    ],
)
def test_an_object_in_the_aim_is_pulled_into_the_hand(case: dict, pulled: bool) -> None:  # type: ignore[type-arg]
    """A ball 2 m along the aim is named by the hover, and gripped, flies into the palm over
    the pull time and stays there; behind a wall, out of the cone, out of range, or with
    neither hand nor ball opted in, it is not hovered and stays where it was."""
    ball_at = case.pop("ball_at", IN_AIM)
    run = distance_world(ball_at, **case)
    ball = named(run.world, "ball")
    rig = rig_of(run.world)
    run.world.step(round(0.25 * 90))
    assert run.world.get(rig.right_hand, Hover).object == (ball if pulled else None)
    run.world.step(round(0.15 * 90))  # gripped at 0.3 s: in flight at 0.4 s
    here = run.world.get(ball, Transform).position
    travelled = spatial.length(here - spatial.vec3(*ball_at))
    run.world.step(round(0.4 * 90))
    gap = spatial.length(run.world.get(ball, Transform).position - spatial.vec3(*HAND))
    if pulled:
        assert 0.3 < travelled < AIM - 0.3  # on its way, neither there at once nor still
        assert gap < 0.005  # caught: its centre in the palm
        assert run.world.get(ball, Grabbable).held_by == rig.right_hand
    else:
        assert travelled < 1e-6 and run.events("grabbed") == []


def test_an_object_that_opts_in_or_out_while_the_world_runs_is_pulled_or_left() -> None:
    """The opt-in is a field a game may flip at any time: a ball that opts in after the world
    started is hovered on the next step, and one that opts out again no longer is."""
    run = distance_world(IN_AIM, hand_opts_in=False)
    ball = named(run.world, "ball")
    hand = run.world.get(rig_of(run.world).right_hand, Hover)
    run.world.step(5)
    assert hand.object is None
    run.world.get_mut(ball, Grabbable).distance_grab = True
    run.world.step(1)
    assert hand.object == ball
    run.world.get_mut(ball, Grabbable).distance_grab = False
    run.world.step(1)
    assert hand.object is None


def test_a_hand_within_reach_of_something_takes_that_rather_than_what_it_aims_at() -> None:
    """Near beats far: a ball in the palm is taken, not the one 2 m along the aim."""

    def build(world: World) -> None:
        prop(world, "near", spatial.vec3(*HAND), Sphere(0.03), gravity_scale=0.0)
        prop(world, "far", spatial.vec3(*IN_AIM), Sphere(0.04), gravity_scale=0.0)

    run = grab_world(
        lambda t: head_at(0, 1.7, 0, right=right(HAND, 1.0 if t > 0.2 else 0.0)), build
    )
    run.world.add(rig_of(run.world).right_hand, DistanceGrab())
    run.world.step(45)
    (grab,) = run.events("grabbed")
    assert grab["object"] == named(run.world, "near")


GRIPS = [0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0]  # squeeze at 0.1 s and again at 0.5 s


def squeezes(t: float) -> InputFrame:
    return head_at(0.0, 1.7, 0.0, right=right(HAND, GRIPS[min(int(t * 10), len(GRIPS) - 1)]))


@pytest.mark.parametrize(
    ("setting", "hand", "toggle"),
    [
        (False, None, False),
        (True, None, True),
        (False, True, True),
        (True, False, False),
    ],
    ids=["hold", "toggle for every hand", "toggle for this hand", "this hand holds"],
)
def test_grip_as_hold_or_as_toggle(setting: bool, hand: bool | None, toggle: bool) -> None:
    """Held: opening the hand at 0.2 s drops the ball. Toggle: the ball stays in the open
    hand and the second squeeze, at 0.5 s, lets it go."""
    run = grab_world(squeezes, ball_in_hand)
    run.world.resource(GrabSettings).grip_toggle = setting
    rig = rig_of(run.world)
    run.world.get(rig.right_hand, Grip).toggle = hand
    ball = run.world.get(named(run.world, "ball"), Grabbable)
    run.world.step(round(0.4 * 90))
    assert ball.held_by == (rig.right_hand if toggle else None)
    run.world.step(round(0.4 * 90))
    assert ball.held_by is None
    assert len(run.events("grabbed")) == len(run.events("released")) == 1
    steps = {e["type"]: s["step"] for s in run.steps() for e in s["events"]}
    assert steps["released"] / 90 == pytest.approx(0.5 if toggle else 0.2, abs=0.03)
