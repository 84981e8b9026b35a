"""The throw on real Rapier: where a thrown ball lands, and what no hand can do, checked from
telemetry."""

from __future__ import annotations

import math

import pytest

from playspace import spatial
from playspace.components import Transform
from playspace.components.input import DevicePose, HandInput, InputFrame
from playspace.components.physics import (
    Box,
)
from playspace.ecs import World
from tests.grab_helpers import (
    HAND,
    ball_in_hand,
    flight,
    grab_world,
    landing_distance,
    prop,
    released,
    right,
    throw_distance,
    throw_script,
)
from tests.rig_helpers import head_at, with_sticks


def test_a_ball_thrown_forward_lands_where_ballistics_say() -> None:
    script, _ = throw_script(speed=8.0)
    run = grab_world(script, ball_in_hand)
    run.world.step(round(3.0 * 90))
    assert len(run.events("grabbed")) == 1
    (release,) = released(run)
    distance, height = throw_distance(run)
    assert distance == pytest.approx(landing_distance(8.0, height), rel=0.10)
    assert math.hypot(*release["linear"]) == pytest.approx(8.0, rel=0.1)


def test_a_flick_that_stops_dead_at_release_still_flies_half_as_far() -> None:
    script, _ = throw_script(speed=8.0, stop=True)
    run = grab_world(script, ball_in_hand)
    run.world.step(round(3.0 * 90))
    distance, height = throw_distance(run)
    assert distance >= 0.5 * landing_distance(8.0, height)


def test_a_wrist_only_throw_flies() -> None:
    """A 0.7 m bat held at its end, tilted back 57 degrees, flicked upright by the wrist alone
    at 15 rad/s: the grip does not move, so all of the throw is w x r."""
    back = 1.0  # radians of tilt back at the start; upright when the hand opens at t = 1

    def tilt(t: float) -> spatial.Quat:
        angle = back - 15.0 * min(max(t - (1.0 - back / 15.0), 0.0), back / 15.0)
        return spatial.from_axis_angle(spatial.vec3(1, 0, 0), angle)

    def script(t: float) -> InputFrame:
        pose = DevicePose(spatial.Pose(spatial.vec3(*HAND), tilt(t)))
        return head_at(0.0, 1.7, 0.0, right=HandInput(pose, grip=1.0 if 0.1 < t < 1.0 else 0.0))

    def bat(world: World) -> None:
        up = spatial.rotate(tilt(0.0), spatial.vec3(0.0, 0.35, 0.0))
        entity = prop(world, "bat", spatial.vec3(*HAND) + up, Box((0.04, 0.7, 0.04)))
        world.get(entity, Transform).rotation = tilt(0.0)

    run = grab_world(script, bat)
    run.world.step(round(2.5 * 90))
    (release,) = released(run)
    vx, vy, vz = release["linear"]
    assert math.hypot(vx, vy, vz) == pytest.approx(15.0 * 0.35, rel=0.25)
    assert vz < -3.5  # forward: the bat's tip was swinging forward at release
    path = flight(run, "bat")
    assert math.dist(path[0], path[-1]) > 1.0


def test_a_throw_with_the_origin_turned_a_quarter_flies_along_the_turned_forward() -> None:
    from playspace.components.scene import PlayerStart

    script, _ = throw_script(speed=6.0)
    run = grab_world(
        script,
        lambda w: prop(w, "ball", spatial.vec3(-0.3, 1.1, -0.25)),
        start=PlayerStart(yaw=math.pi / 2),
    )
    run.world.step(round(3.0 * 90))
    (release,) = released(run)
    vx, _vy, vz = release["linear"]
    assert vx < -4.0 and abs(vz) < 0.6  # the room's forward is the world's -X


def test_a_snap_turn_just_before_release_does_not_change_the_throw() -> None:
    plain, _ = throw_script(speed=6.0)

    def turned(t: float) -> InputFrame:
        frame = plain(t)
        return with_sticks(frame, right=(1.0 if 0.93 < t < 0.97 else 0.0, 0.0))

    speeds = []
    for script in (plain, turned):
        run = grab_world(script, ball_in_hand)
        run.world.step(round(1.5 * 90))
        (release,) = released(run)
        speeds.append(math.hypot(*release["linear"]))
        if script is turned:
            assert run.events("turned")
    assert speeds[1] == pytest.approx(speeds[0], rel=0.05)


def test_a_throw_while_smooth_moving_carries_the_player_s_velocity() -> None:
    plain, _ = throw_script(speed=6.0)
    run = grab_world(
        lambda t: with_sticks(plain(t), left=(1.0 if t > 0.3 else 0.0, 0.0)), ball_in_hand
    )
    run.world.step(round(1.5 * 90))
    (release,) = released(run)
    assert release["linear"][0] == pytest.approx(2.5, abs=0.3)  # strafing right at 2.5 m/s
    assert math.hypot(release["linear"][1], release["linear"][2]) == pytest.approx(6.0, rel=0.1)


def test_the_speed_limit_holds_for_what_leaves_the_hand_locomotion_included() -> None:
    """A throw at the 20 m/s limit while strafing at 2.5 m/s would leave faster than that."""
    fast, _ = throw_script(speed=25.0)
    run = grab_world(
        lambda t: with_sticks(fast(t), left=(1.0 if t > 0.3 else 0.0, 0.0)), ball_in_hand
    )
    run.world.step(round(1.5 * 90))
    (release,) = released(run)
    assert math.hypot(*release["linear"]) == pytest.approx(20.0, abs=1e-3)


def test_tracking_lost_while_holding_keeps_the_object_and_releases_it_without_velocity() -> None:
    def script(t: float) -> InputFrame:
        frame = throw_script(speed=6.0)[0](t)
        if t > 0.8:
            lost = HandInput(None, grip=frame.right.grip)
            return InputFrame(frame.time, frame.head, frame.left, lost)
        return frame

    run = grab_world(script, ball_in_hand)
    run.world.step(round(1.5 * 90))
    (release,) = released(run)
    assert release["linear"] == [0.0, 0.0, 0.0]


def test_a_one_step_jump_of_the_hand_is_a_glitch_not_a_throw() -> None:
    """The tracker puts the hand 10 m away for one step while it holds the ball still, then
    the player opens the hand: no hand moves 10 m in a step, so nothing is thrown."""

    def script(t: float) -> InputFrame:
        jump = 10.0 if 1.0 < t < 1.0 + 1 / 90 else 0.0
        p = (HAND[0] + jump, HAND[1], HAND[2])
        return head_at(0.0, 1.7, 0.0, right=right(p, 1.0 if 0.1 < t < 1.05 else 0.0))

    run = grab_world(script, ball_in_hand)
    run.world.step(round(1.5 * 90))
    (release,) = released(run)
    assert math.hypot(*release["linear"]) < 0.5
