"""The workshop example (``examples/workshop.toml``), replayed headless from its trace: what a
player would notice of its sockets, of its door, drawer, lever, button and dial, of the
movement providers its ``[player]`` turns on, of its climbing wall and of its lift, checked
from telemetry as in ``test_examples.py`` (with the interactables' and the climb's events
recorded too)."""

from __future__ import annotations

import itertools
import math
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from playspace.components.physics import Box
from playspace.ecs import World
from playspace.formats.scene import load_scene
from playspace.systems.interaction import INTERACTABLE_EVENTS
from playspace.systems.player.events import ClimbEnded, ClimbStarted
from playspace.systems.telemetry import record_events
from tests.game_helpers import EXAMPLES, events, replay

SCENE = EXAMPLES / "workshop.toml"
TRACE = EXAMPLES / "traces" / "workshop.jsonl"
HOOK = (0.55, 1.2, -0.2)  # the wrench's hook: its socket's position, no snap offset
BENCH_EDGE = -0.9  # x of the bench's face toward the room
LEDGE_TOP = 0.5
ON_LEDGE = 23.0  # seconds: the trace has jumped onto the ledge; then it climbs and rides
LIFT_TOP = 42.0  # seconds: the lift is at the top of its way; the trace rides it down after


def _record_interactables(world: World) -> None:
    record_events(world, *INTERACTABLE_EVENTS, ClimbStarted, ClimbEnded)


@cache
def _steps(scene: Path = SCENE) -> list[dict[str, Any]]:
    return replay(scene, TRACE, _record_interactables)


def found(step: dict[str, Any], name: str) -> dict[str, Any]:
    """The object called `name` in a step's telemetry."""
    return next(o for o in step["objects"] if o["name"] == name)


def wrench(step: dict[str, Any]) -> list[float]:
    position: list[float] = found(step, "wrench")["p"]
    return position


def turned(step: dict[str, Any], name: str) -> float:
    """How far the object `name` has turned from its spawn pose (all of them spawn unturned and
    turn about one axis), in degrees."""
    x, y, z, w = found(step, name)["q"]
    return math.degrees(2 * math.atan2(math.sqrt(x * x + y * y + z * z), abs(w)))


def identity(name: str) -> int:
    ident: int = found(_steps()[0], name)["id"]
    return ident


def let_go(name: str) -> float:
    """When the hand let go of the object `name` (once in the trace)."""
    (release,) = [e for e in events(_steps(), "released") if e["object"] == identity(name)]
    at: float = next(s["t"] for s in _steps() if release in s["events"])
    return at


def test_the_scene_is_what_the_trace_was_made_for() -> None:
    scene = load_scene(SCENE)
    hooks = {s.name: s for s in scene.sockets}
    assert hooks["wrench hook"].position == HOOK and hooks["wrench hook"].holding == "wrench"
    assert hooks["holster"].carried_by == "body"
    assert scene.player.jump and scene.player.crouch and scene.player.sprint
    props = {p.name: p for p in scene.props}
    assert props["door"].joint is not None and props["door"].joint.limits == (0.0, 90.0)
    assert props["lever"].lever is not None and props["lever"].lever.detents == (0.0, 40.0)
    assert props["button"].button is not None and props["dial"].dial is not None
    assert props["lift"].kinematic and props["lift"].path is not None
    assert [b.name for b in scene.boxes if b.climbable] == ["climbing wall"]


@pytest.mark.slow
def test_the_drawer_pulled_open_stays_open() -> None:
    steps = _steps()
    closed = found(steps[0], "drawer")["p"][2]
    released = let_go("drawer")
    after = [found(s, "drawer")["p"][2] for s in steps if s["t"] >= released]
    assert closed - after[0] == pytest.approx(0.22, abs=0.01)  # pulled 22 cm toward the player
    assert max(after) - min(after) < 0.001  # and left there, to the end


def test_the_door_let_go_swings_on_and_rests_at_its_limit() -> None:
    steps = _steps()
    released = let_go("door")
    at_release = next(turned(s, "door") for s in steps if s["t"] >= released)
    assert 30.0 < at_release < 60.0  # pushed part of the way
    angles = [turned(s, "door") for s in steps]
    assert max(angles) < 90.5  # never past its limit
    assert angles[-1] == pytest.approx(90.0, abs=0.5)  # swung on by itself and stayed there


@pytest.mark.slow
def test_the_lever_stops_at_its_limit_and_ends_in_its_other_detent() -> None:
    steps = _steps()
    held = [turned(s, "lever") for s in steps if s["t"] < let_go("lever")]
    assert max(held) == pytest.approx(45.0, abs=0.5)  # pulled to 60 degrees, stopped at 45
    moved = events(steps, "lever_moved")
    assert [(e["lever"], e["detent"]) for e in moved] == [(identity("lever"), 1)]
    assert math.degrees(moved[0]["position"]) == pytest.approx(40.0)
    assert turned(steps[-1], "lever") == pytest.approx(40.0, abs=2.0)  # resting in it


def test_the_button_is_pressed_then_released() -> None:
    steps = _steps()
    said = [e for s in steps for e in s["events"] if e["type"].startswith("button_")]
    button = identity("button")
    assert said == [
        {"type": "button_pressed", "button": button},
        {"type": "button_released", "button": button},
    ]


def test_the_dial_turned_100_degrees_clicks_seven_steps() -> None:
    steps = _steps()
    turns = events(steps, "dial_turned")
    assert [e["steps"] for e in turns] == list(range(1, 8))  # 100 / 15 = 6.7, rounded
    assert all(e["dial"] == identity("dial") and e["change"] == 1 for e in turns)
    assert turned(steps[-1], "dial") == pytest.approx(100.0, abs=3.0)


def test_the_wrench_taken_from_the_rack_and_dropped_comes_back_to_its_hook() -> None:
    steps = _steps()
    wrenched = [e for e in events(steps, "grabbed") if e["object"] == identity("wrench")]
    assert len(wrenched) == 1  # taken once
    (release,) = [e for e in events(steps, "released") if e["object"] == identity("wrench")]
    on_floor = [s["t"] for s in steps if wrench(s)[1] < 0.1]
    assert on_floor, "the dropped wrench never reached the floor"
    back = next(s["t"] for s in steps if s["t"] > on_floor[0] and wrench(s)[1] > 1.0)
    released_at = next(s["t"] for s in steps if release in s["events"])
    assert back - released_at == pytest.approx(1.5, abs=0.05)  # the hook's return_after
    assert wrench(steps[-1]) == pytest.approx(list(HOOK), abs=1e-4)


def test_leaning_over_the_bench_never_fades_the_view() -> None:
    steps = _steps()
    leaning = [s for s in steps if s["head"]["p"][0] < BENCH_EDGE]
    assert min(s["head"]["p"][0] for s in leaning) <= BENCH_EDGE - 0.29  # 0.3 m over it
    assert max(s["body"]["p"][0] for s in leaning) > -0.62  # the body stayed at the bench
    assert max(s["fade"] for s in steps) == 0.0


def test_the_body_crouches_under_the_beam_and_ends_on_the_ledge() -> None:
    steps = _steps()
    under = [s for s in steps if -2.5 < s["body"]["p"][2] < -1.5]  # the beam's span
    assert under and all(s["head"]["p"][1] < 1.3 for s in under)  # below its underside
    assert all(abs(s["body"]["p"][1]) < 0.01 for s in under)  # on the floor, under it
    before = [s for s in steps if s["t"] < ON_LEDGE]
    assert [e["dy"] for e in events(before, "floor_snapped")] == [
        pytest.approx(-0.6, abs=0.01),  # crouched
        pytest.approx(0.6, abs=0.01),  # stood up past the beam
    ]
    last = before[-1]["body"]["p"]
    assert last[1] == pytest.approx(0.5, abs=0.01)  # on the 0.5 m ledge
    assert -5.25 < last[2] < -3.75


def test_the_climber_rises_2_m_and_falls_when_both_hands_let_go() -> None:
    steps = [s for s in _steps() if s["t"] >= ON_LEDGE]
    started, ended = events(steps, "climb_started"), events(steps, "climb_ended")
    assert len(started) == 1 and len(ended) == 1  # hand over hand: held on throughout
    start = next(i for i, s in enumerate(steps) if started[0] in s["events"])
    end = next(i for i, s in enumerate(steps) if ended[0] in s["events"])
    heights = [s["body"]["p"][1] for s in steps[start : end + 1]]
    assert heights[0] == pytest.approx(LEDGE_TOP, abs=0.01)
    assert max(heights) - heights[0] == pytest.approx(2.0, abs=0.01)  # four pulls of 0.5 m
    assert heights[-1] == pytest.approx(max(heights), abs=0.01)  # hung there until let go
    fell = [s["body"]["p"][1] for s in steps[end : end + 90]]  # the second after
    assert fell[-1] == pytest.approx(LEDGE_TOP, abs=0.01)  # back down on the ledge
    assert all(b <= a + 1e-6 for a, b in itertools.pairwise(fell))  # falling, never held up


def test_the_body_rides_the_lift_2_m_up_and_the_view_does_not_jitter() -> None:
    scene = load_scene(SCENE)
    lift = next(p for p in scene.props if p.name == "lift")
    assert isinstance(lift.shape, Box)
    floor = lift.position[1] + lift.shape.size[1] / 2  # its top at the bottom of its way
    steps = [s for s in _steps() if ON_LEDGE <= s["t"] <= LIFT_TOP]
    riding = [
        s
        for s in steps
        if abs(s["body"]["p"][0] - lift.position[0]) < 0.3
        and s["body"]["p"][1] > floor + 0.05  # off the bottom: carried
    ]
    assert riding, "the body never rode the lift"
    top = max(s["body"]["p"][1] for s in riding)
    assert top - floor == pytest.approx(2.0, abs=0.01)
    assert top == pytest.approx(found(riding[-1], "lift")["p"][1] + 0.05, abs=0.01)
    eyes = [s["head"]["p"][1] - s["body"]["p"][1] for s in riding]
    assert max(abs(b - a) for a, b in itertools.pairwise(eyes)) < 0.001  # no judder


def test_the_ball_aimed_at_on_its_shelf_flies_into_the_gripping_hand() -> None:
    steps = _steps()
    (grab,) = [e for e in events(steps, "grabbed") if e["object"] == identity("ball")]
    at = next(i for i, s in enumerate(steps) if grab in s["events"])
    hand, ball = steps[at]["right_hand"]["p"], found(steps[at], "ball")["p"]
    assert math.dist(hand, ball) > 1.5  # taken from the shelf, out of reach
    pulled = steps[at + round(0.3 * 90)]  # pull_time is 0.25 s
    assert math.dist(pulled["right_hand"]["p"], found(pulled, "ball")["p"]) < 0.01  # in the palm
