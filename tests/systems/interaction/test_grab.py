"""Grab, hold, let go and held-object layers on real Rapier, checked from telemetry."""

from __future__ import annotations

import math

import pytest

from playspace import spatial
from playspace.components import DeviceRole, Transform
from playspace.components.drawn import Ghosts, Highlights
from playspace.components.input import DevicePose, HandInput, InputFrame
from playspace.components.interaction import Hand, Hover
from playspace.components.physics import (
    BodyKind,
    Box,
    Colliders,
    RigidBody,
    Sphere,
)
from playspace.components.scene import Grabbable, Prop
from playspace.ecs import World
from playspace.systems.input import hand_input
from playspace.systems.interaction.events import HOVER_EVENTS
from tests.grab_helpers import (
    HAND,
    ball_in_hand,
    bee,
    flight,
    grab_world,
    named,
    pan,
    prop,
    released,
    right,
    swing,
    throw_script,
)
from tests.physics_helpers import physics, static
from tests.rig_helpers import Run, head_at, rig_of


def ball_within_reach(wall: bool, grip_from: float) -> Run:
    """A floating ball 9 cm beyond the right hand, behind a thin wall or not; the hand grips
    from `grip_from` seconds."""

    def build(world: World) -> None:
        if wall:
            static(world, Box((2.0, 2.0, 0.02)), spatial.vec3(0.25, 1.0, -0.3))
        prop(world, "ball", spatial.vec3(0.25, 1.1, -0.36), Sphere(0.04), gravity_scale=0.0)

    grip = (0.25, 1.1, -0.27)
    return grab_world(
        lambda t: head_at(0, 1.7, 0, right=right(grip, 1.0 if t > grip_from else 0.0)), build
    )


@pytest.mark.parametrize("wall", [True, False], ids=["wall", "control: no wall"])
def test_a_ball_cannot_be_grabbed_through_a_wall(wall: bool) -> None:
    """A floating ball within reach behind a thin wall: not grabbed; the same ball with the
    wall taken away is, so it is the wall that stops the grab."""

    run = ball_within_reach(wall, grip_from=0.2)
    run.world.step(60)
    assert len(run.events("grabbed")) == (0 if wall else 1)


def test_grip_hysteresis_and_the_nearest_object() -> None:
    def build(world: World) -> None:
        prop(
            world,
            "near",
            spatial.vec3(HAND[0], HAND[1], HAND[2] - 0.02),
            Sphere(0.03),
            gravity_scale=0.0,
        )
        prop(
            world,
            "far",
            spatial.vec3(HAND[0], HAND[1], HAND[2] + 0.07),
            Sphere(0.03),
            gravity_scale=0.0,
        )

    grips = [0.0, 0.8, 0.5, 0.4, 0.2, 0.5]  # grab at 0.8, hold through 0.5 and 0.4, let go at 0.2

    def script(t: float) -> InputFrame:
        return head_at(0, 1.7, 0, right=right(HAND, grips[min(int(t * 10), len(grips) - 1)]))

    run = grab_world(script, build)
    run.world.step(round(0.6 * 90))
    near = rig_of(run.world)
    grabs, releases = run.events("grabbed"), run.events("released")
    assert len(grabs) == 1 and len(releases) == 1
    names = {o["id"]: o["name"] for o in run.steps()[0]["objects"]}
    assert names[grabs[0]["object"]] == "near"
    assert grabs[0]["hand"] == near.right_hand


def test_layers_and_body_kind_are_restored_after_the_drop() -> None:
    run = grab_world(
        lambda t: head_at(0, 1.7, 0, right=right(HAND, 1.0 if 0.1 < t < 0.5 else 0.0)), ball_in_hand
    )
    ball = next(e for e, p in run.world.each(Prop) if p.name == "ball")
    run.world.step(30)
    assert run.world.get(ball, RigidBody).kind is BodyKind.KINEMATIC
    assert run.world.get(ball, Colliders).parts[0].layer == "held"
    run.world.step(120)
    assert run.world.get(ball, RigidBody).kind is BodyKind.DYNAMIC
    assert run.world.get(ball, Colliders).parts[0].layer == "props"
    assert run.world.get(ball, Grabbable).held_by is None


def test_a_ball_dropped_at_the_player_s_feet_does_not_move_the_body() -> None:
    def script(t: float) -> InputFrame:
        # grab the ball, bring it down to the ankles, inside the body's capsule, let go there
        low = min(max(t - 0.3, 0.0) / 0.5, 1.0)
        p = (HAND[0] * (1 - low), HAND[1] - (HAND[1] - 0.15) * low, HAND[2] + 0.4 * low)
        return head_at(0.0, 1.7, 0.0, right=right(p, 1.0 if 0.1 < t < 1.0 else 0.0))

    run = grab_world(script, lambda world: prop(world, "ball", spatial.vec3(*HAND), Sphere(0.08)))
    run.world.step(round(3.0 * 90))
    assert len(run.events("grabbed")) == len(run.events("released")) == 1
    bodies = [s["body"]["p"] for s in run.steps()]
    settled = bodies[20]
    for p in bodies[20:]:
        assert math.dist(p, settled) < 0.005
    ball = flight(run)[-1]
    assert ball[1] < 0.1  # the ball fell to the floor


def test_a_held_pan_swung_through_a_wall_at_an_opponent_raises_no_hit_and_ghosts() -> None:
    def build(world: World) -> None:
        static(world, Box((3.0, 3.0, 0.6)), spatial.vec3(0.0, 1.5, -1.1))  # wall from -0.8 to -1.4
        pan(world, spatial.vec3(*HAND))
        bee(world, spatial.vec3(HAND[0], HAND[1] - 0.25, -1.3))  # inside the wall's far half

    run = grab_world(swing, build)
    drawn_as_ghost = []
    for _ in range(round(1.5 * 90)):
        run.world.step(1)
        drawn_as_ghost.append(named(run.world, "pan") in run.world.resource(Ghosts).entities)
    assert run.events("hit") == []
    ghosted = [o["ghost"] for s in run.steps() for o in s["objects"] if o["name"] == "pan"]
    assert any(ghosted) and drawn_as_ghost == ghosted  # drawn see-through while inside


def test_the_same_swing_in_the_open_raises_a_hit() -> None:
    def build(world: World) -> None:
        pan(world, spatial.vec3(*HAND))
        bee(world, spatial.vec3(HAND[0], HAND[1] - 0.25, -1.3))

    run = grab_world(swing, build)
    run.world.step(round(1.5 * 90))
    hits = run.events("hit")
    assert len(hits) >= 1 and hits[0]["speed"] > 0.5
    assert not any(o["ghost"] for s in run.steps() for o in s["objects"])


def test_releasing_inside_the_wall_leaves_the_pan_outside_it() -> None:
    def script(t: float) -> InputFrame:
        z = HAND[2] - 0.9 * min(max(t - 0.3, 0.0), 1.0)  # the hand ends inside the wall
        return head_at(
            0.0, 1.7, 0.0, right=right((HAND[0], HAND[1], z), 1.0 if 0.1 < t < 1.4 else 0.0)
        )

    def build(world: World) -> None:
        static(world, Box((3.0, 3.0, 0.6)), spatial.vec3(0.0, 1.5, -1.1))
        pan(world, spatial.vec3(*HAND))

    run = grab_world(script, build)
    run.world.step(round(2.5 * 90))
    final = flight(run, "pan")[-1]
    assert final[2] > -0.8  # in front of the wall's face, not in it, not launched through it
    assert final[1] < 0.2  # fell to the floor
    assert physics(run.world).counts()[0]  # the world is still sane


def test_an_object_can_be_taken_from_one_hand_by_the_other() -> None:
    left_at = (HAND[0] - 0.05, HAND[1], HAND[2])

    def script(t: float) -> InputFrame:
        left = hand_input(left_at, grip=1.0 if t > 0.5 else 0.0)
        return head_at(0.0, 1.7, 0.0, left=left, right=right(HAND, 1.0 if t > 0.1 else 0.0))

    run = grab_world(script, lambda w: prop(w, "ball", spatial.vec3(*HAND), Sphere(0.04)))
    run.world.step(round(0.8 * 90))
    rig = rig_of(run.world)
    assert [g["hand"] for g in run.events("grabbed")] == [rig.right_hand, rig.left_hand]
    ball = next(e for e, p in run.world.each(Prop) if p.name == "ball")
    assert run.world.get(ball, Grabbable).held_by == rig.left_hand
    assert run.events("released") == []  # handed over, never dropped


def test_an_object_with_a_second_grab_point_is_aimed_from_the_first_hand_to_the_second() -> None:
    def build(world: World) -> None:  # a 0.8 m spear along -Z, held at its back end
        at = spatial.vec3(HAND[0], HAND[1], HAND[2] - 0.35)
        spear = prop(world, "spear", at, Box((0.03, 0.03, 0.8)), gravity_scale=0.0)
        world.get(spear, Grabbable).second_grip = spatial.vec3(0.0, 0.0, -0.3)

    def script(t: float) -> InputFrame:
        # the left hand takes the spear's front, then rises: the spear tilts up toward it
        rise = 0.3 * min(max(t - 0.6, 0.0) / 0.3, 1.0)
        left = hand_input((HAND[0], HAND[1] + rise, HAND[2] - 0.65), grip=1.0 if t > 0.4 else 0.0)
        return head_at(0.0, 1.7, 0.0, left=left, right=right(HAND, 1.0 if t > 0.1 else 0.0))

    run = grab_world(script, build)
    run.world.step(round(1.2 * 90))
    spear = next(e for e, p in run.world.each(Prop) if p.name == "spear")
    pose = run.world.get(spear, Transform)
    axis = spatial.rotate(pose.rotation, spatial.vec3(0, 0, -1))
    expected = spatial.vec3(0.0, 0.3, -0.65) / math.hypot(0.3, 0.65)
    assert spatial.length(axis - expected) < 0.02
    back_end = pose.position + spatial.rotate(pose.rotation, spatial.vec3(0, 0, 0.35))
    assert spatial.length(back_end - spatial.vec3(*HAND)) < 0.03  # still in the first hand


@pytest.mark.parametrize(
    "glitch",
    [
        {"p": (math.nan, 1.0, 0.0)},
        {"q": (0.0, 0.0, 0.0, 0.0)},
        {"v": (math.inf, 0.0, 0.0)},
    ],
)
def test_a_tracking_glitch_from_a_scripted_source_never_reaches_physics(
    glitch: dict[str, tuple[float, ...]],
) -> None:
    """A scripted (or a game's own) source, unlike a trace, is not checked when it loads: a
    NaN position, a rotation of no length or an infinite velocity for three steps while the
    ball is held makes the hand untracked for those steps, says so, and the throw after it
    still flies as thrown (Rapier never sees the bad numbers, so it quarantines nothing)."""
    script, _ = throw_script(speed=6.0)

    def glitching(t: float) -> InputFrame:
        frame = script(t)
        if not 0.6 < t < 0.6 + 3 / 90:
            return frame
        device = frame.right.pose
        assert device is not None
        p = spatial.vec3(*glitch.get("p", tuple(device.pose.position)))
        q = spatial.quat(*glitch["q"]) if "q" in glitch else device.pose.rotation
        v = spatial.vec3(*glitch["v"]) if "v" in glitch else None
        bad = DevicePose(spatial.Pose(p, q), v)
        return InputFrame(frame.time, frame.head, frame.left, HandInput(bad, frame.right.grip))

    run = grab_world(glitching, ball_in_hand)
    run.world.step(round(2.0 * 90))
    rejected = run.events("tracking_rejected")
    assert len(rejected) == 3 and all(e["devices"] == ["right"] for e in rejected)
    (release,) = released(run)
    assert math.hypot(*release["linear"]) == pytest.approx(6.0, rel=0.15)
    path = flight(run)
    assert all(math.isfinite(c) for p in path for c in p)
    assert path[-1][2] < path[round(1.0 * 90)][2] - 1.0  # it flew off, a metre and more


def test_every_grab_event_can_be_written_to_telemetry() -> None:
    """A game may ask telemetry for any of them, let_go's pose included."""
    import json

    from playspace.formats.telemetry import event_record
    from playspace.spatial import Pose
    from playspace.systems.interaction.events import GRAB_EVENTS, Grabbed, Hit, LetGo, Released

    zero = spatial.vec3(0.0, 0.0, 0.0)
    made = [
        Grabbed(1, 2),
        LetGo(1, 2, Pose(spatial.vec3(0.0, 0.1, 0.0), spatial.identity())),
        Released(1, 2, zero, zero),
        Hit(2, 3, 4.0),
    ]
    assert {type(e) for e in made} == set(GRAB_EVENTS)
    lines = [json.loads(json.dumps(event_record(e))) for e in made]
    assert lines[1] == {
        "type": "let_go", "hand": 1, "object": 2, "launch": True,
        "offset": {"p": [0.0, 0.1, 0.0], "q": [0.0, 0.0, 0.0, 1.0]},
    }  # fmt: skip


@pytest.mark.parametrize(("sink", "ghost"), [(0.0, False), (0.03, True)], ids=["resting", "sunk"])
def test_an_object_resting_on_the_counter_is_not_inside_it(sink: float, ghost: bool) -> None:
    """A ball sitting on a counter and gripped there is held, not ghosted: touching the
    environment is not being inside it. Pushed 3 cm down into the counter, it is."""

    def build(world: World) -> None:
        top = HAND[1] - 0.04  # the counter's top, the ball of radius 0.04 resting on it
        static(world, Box((1.0, 0.6, 1.0)), spatial.vec3(HAND[0], top - 0.3, HAND[2]))
        prop(world, "ball", spatial.vec3(*HAND), Sphere(0.04))

    def script(t: float) -> InputFrame:
        down = sink * min(max(t - 0.4, 0.0) / 0.2, 1.0)  # after the grab, into the counter
        place = (HAND[0], HAND[1] - down, HAND[2])
        return head_at(0, 1.7, 0, right=right(place, 1.0 if t > 0.2 else 0.0))

    run = grab_world(script, build)
    run.world.step(90)
    assert len(run.events("grabbed")) == 1
    ghosted = [o["ghost"] for s in run.steps()[70:] for o in s["objects"] if o["name"] == "ball"]
    assert ghosted and all(g is ghost for g in ghosted)


@pytest.mark.parametrize("wall", [False, True], ids=["open", "behind a wall"])
def test_a_free_hand_hovers_what_it_would_grab(wall: bool) -> None:
    """Within reach, a free hand names the object it would take, and it is drawn highlighted;
    behind a wall, or once holding it, nothing."""

    run = ball_within_reach(wall, grip_from=0.5)
    run.world.step(20)
    ball = next(e for e, p in run.world.each(Prop) if p.name == "ball")
    right = next(e for e, h in run.world.each(Hand) if h.side is DeviceRole.RIGHT_HAND)
    hover, highlights = run.world.get(right, Hover), run.world.resource(Highlights)
    assert hover.object == (None if wall else ball)
    assert highlights.entities == (set() if wall else {ball})
    run.world.step(40)
    assert hover.object is None and highlights.entities == set()  # held now, or never could


def test_hover_events_frame_the_grab_as_a_hand_approaches_grabs_releases_and_leaves() -> None:
    """The order a game's highlight sees: the hand comes within reach (hover entered), grips
    (grab; the hover ends with it), opens (release; the ball, still within reach, is hovered
    again) and moves away (hover exited). Only the right hand, only the ball."""
    ball_at = (HAND[0], HAND[1], HAND[2] - 0.3)

    def script(t: float) -> InputFrame:
        k = min(max((t - 0.1) / 0.4, 0.0), 1.0) if t < 1.2 else 1.0 - min((t - 1.2) / 0.3, 1.0)
        place = tuple(h + (b - h) * k for h, b in zip(HAND, ball_at, strict=True))
        return head_at(0, 1.7, 0, right=right(place, 1.0 if 0.7 < t < 1.0 else 0.0))  # type: ignore[arg-type]

    def build(world: World) -> None:
        prop(world, "ball", spatial.vec3(*ball_at), gravity_scale=0.0)

    run = grab_world(script, build, HOVER_EVENTS)
    run.world.step(round(1.8 * 90))
    order = [
        (s["step"], e["type"])
        for s in run.steps()
        for e in s["events"]
        if e["type"] in ("hover_entered", "hover_exited", "grabbed", "released")
    ]
    kinds = [kind for _, kind in order]
    assert sorted(kinds[1:3]) == ["grabbed", "hover_exited"]  # the same step: taking ends the hover
    assert kinds[:1] + kinds[3:] == ["hover_entered", "released", "hover_entered", "hover_exited"]
    steps = [step for step, _ in order]
    assert steps[0] < steps[1] == steps[2] < steps[3] < steps[4] < steps[5]
    assert steps[4] == steps[3] + 1  # let go, then hovered again at the next step
    rig = rig_of(run.world)
    ball = named(run.world, "ball")
    hovers = [e for s in run.steps() for e in s["events"] if e["type"].startswith("hover")]
    assert all(e["hand"] == rig.right_hand and e["object"] == ball for e in hovers)
