"""Levers, buttons and dials moved by scripted hands, and the events a game reads from them."""

from __future__ import annotations

import math

import pytest

from playspace import spatial
from playspace.components import Transform
from playspace.components.input import DevicePose, HandInput, InputFrame
from playspace.components.interactables import Dial, Lever, PushButton
from playspace.components.joints import Joint, JointKind, Spring
from playspace.components.physics import Box, Collider, Colliders, RigidBody
from playspace.components.scene import Grabbable
from playspace.ecs import World
from playspace.systems.interaction import (
    ButtonPressed,
    ButtonReleased,
    DialTurned,
    InteractablesPlugin,
    LeverMoved,
)
from tests.grab_helpers import grab_world, right
from tests.interactable_helpers import HAND, button
from tests.physics_helpers import ball
from tests.rig_helpers import Run, head_at, heard


def run_with(script, build) -> tuple[Run, list[int]]:  # type: ignore[no-untyped-def]
    made: list[int] = []
    run = grab_world(script, lambda w: made.append(build(w)))
    run.world.add_plugin(InteractablesPlugin())
    return run, made


def lever(world: World) -> int:
    """A 30 cm stick on a hinge about X at its foot, its top at the hand; it turns 0.6 rad
    either way and rests at -0.5, 0 or 0.5."""
    return world.spawn(
        Transform(position=spatial.vec3(HAND[0], HAND[1] - 0.13, HAND[2])),
        RigidBody(mass=0.5),
        Colliders(Collider(Box((0.03, 0.3, 0.03)))),
        Grabbable(),
        Joint(
            JointKind.HINGE,
            anchor=spatial.vec3(0, -0.15, 0),
            axis=spatial.vec3(1, 0, 0),
            limits=(-0.6, 0.6),
        ),
        Lever((-0.5, 0.0, 0.5)),
    )


def test_a_lever_stops_at_its_limit_and_settles_in_a_detent() -> None:
    """Pushed 40 cm forward by its top (further than it turns), the lever stops at its limit;
    let go, it springs back to the nearest detent and says so once; resting where it started
    said nothing."""

    def script(t: float) -> InputFrame:
        z = HAND[2] - 0.4 * min(max(t - 0.3, 0.0) / 0.5, 1.0)
        return head_at(
            0.0, 1.7, 0.0, right=right((HAND[0], HAND[1], z), 1.0 if 0.1 < t < 1.2 else 0.0)
        )

    run, made = run_with(script, lever)
    moved = heard(run.world, LeverMoved)
    path = []
    for _ in range(round(2.5 * 90)):
        run.world.step(1)
        path.append(run.world.get(made[0], Joint).position)
    held = path[round(0.9 * 90) : round(1.2 * 90)]
    assert min(path) > -0.6 - 0.03  # never past its limit
    assert max(held) < -0.55  # held against it
    assert path[-1] == pytest.approx(-0.5, abs=0.02)
    assert [(e.lever, e.detent, e.position) for _, e in moved] == [(made[0], 0, -0.5)]  # type: ignore[attr-defined]
    assert moved[0][0] > round(1.2 * 90)  # after the let-go


@pytest.mark.parametrize("aside", [0.0, 0.08], ids=["on it", "control: 8 cm aside"])
def test_a_hand_presses_a_button_and_lets_it_come_back(aside: float) -> None:
    """A hand pushing 7 cm in and pulling back presses the button once and releases it once
    (the release after the press); the same push 8 cm to the side presses nothing."""

    def script(t: float) -> InputFrame:
        depth = 0.07 * max(0.0, 1.0 - abs(t - 0.8) / 0.4)  # in over 0.4 s, out over 0.4 s
        return head_at(0.0, 1.7, 0.0, right=right((HAND[0] + aside, HAND[1], HAND[2] - depth), 0.0))

    run, made = run_with(script, button)
    events = heard(run.world, ButtonPressed, ButtonReleased)
    deepest = 0.0
    for _ in range(round(1.6 * 90)):
        run.world.step(1)
        deepest = max(deepest, run.world.get(made[0], Joint).position)
    kinds = [type(e).__name__ for _, e in events]
    if aside:
        assert kinds == [] and deepest < 0.001
        return
    assert kinds == ["ButtonPressed", "ButtonReleased"]
    assert deepest == pytest.approx(0.015, abs=0.002)  # pushed to the end of its travel
    pressed, released = events[0][0], events[1][0]
    assert 0.5 * 90 < pressed < 0.8 * 90 < released < 1.3 * 90
    assert run.world.get(made[0], Joint).position < 0.002  # sprung back


def test_a_ball_dropped_on_a_button_presses_it() -> None:
    """Any body pushes a button through its collider: a 2 kg ball dropped on an upward button
    presses it and keeps it pressed."""

    def build(world: World) -> int:
        at = spatial.vec3(-0.6, 0.5, -0.6)
        made = world.spawn(
            Transform(position=at),
            RigidBody(mass=0.05),
            Colliders(Collider(Box((0.1, 0.02, 0.1)))),
            Joint(
                JointKind.SLIDER,
                anchor=spatial.vec3(0, 0.01, 0),
                axis=spatial.vec3(0, -1, 0),
                limits=(0.0, 0.015),
                spring=Spring(0.0, 400.0, 40.0),
            ),
            PushButton(),
        )
        ball(world, at + spatial.vec3(0, 0.2, 0), radius=0.04, mass=2.0)
        return made

    run, made = run_with(lambda t: head_at(0.0, 1.7, 0.0), build)
    events = heard(run.world, ButtonPressed, ButtonReleased)
    run.world.step(90)
    assert [type(e).__name__ for _, e in events] == ["ButtonPressed"]
    assert run.world.get(made[0], PushButton).pressed


def dial(world: World) -> int:
    """A knob facing the player at the hand, turning freely about Z, clicking every 15 deg."""
    return world.spawn(
        Transform(position=spatial.vec3(HAND[0], HAND[1], HAND[2] - 0.02)),
        RigidBody(mass=0.1),
        Colliders(Collider(Box((0.05, 0.05, 0.03)))),
        Grabbable(),
        Joint(JointKind.HINGE, axis=spatial.vec3(0, 0, 1), friction=5.0),
        Dial(),
    )


def twisted(angle: float, grip: float) -> HandInput:
    roll = spatial.from_axis_angle(spatial.vec3(0, 0, 1), angle)
    return HandInput(DevicePose(spatial.Pose(spatial.vec3(*HAND), roll)), grip)


@pytest.mark.parametrize("grip", [1.0, 0.0], ids=["gripped", "control: open hand"])
def test_a_dial_follows_the_hands_turn(grip: float) -> None:
    """Gripped and twisted 200 degrees about its axis (past a half turn), the dial turns with
    the hand, step by step (one DialTurned per 15 degrees); an open hand turning turns
    nothing."""
    turn = math.radians(200)

    def script(t: float) -> InputFrame:
        angle = turn * min(max(t - 0.3, 0.0) / 1.0, 1.0)
        return head_at(0.0, 1.7, 0.0, right=twisted(angle, grip if t > 0.1 else 0.0))

    run, made = run_with(script, dial)
    events = heard(run.world, DialTurned)
    lag = []
    for i in range(round(1.6 * 90)):
        run.world.step(1)
        hand = turn * min(max((i + 1) / 90 - 0.3, 0.0) / 1.0, 1.0)
        lag.append(abs(run.world.get(made[0], Joint).position - hand))
    position = run.world.get(made[0], Joint).position
    if not grip:
        assert abs(position) < 0.01 and events == []
        return
    assert position == pytest.approx(turn, abs=0.05)
    assert max(lag) < 0.1  # follows within 6 degrees throughout
    steps = [e.steps for _, e in events]  # type: ignore[attr-defined]
    assert steps == list(range(1, round(200 / 15) + 1))
    assert run.world.get(made[0], Dial).steps == 13
