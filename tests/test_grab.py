"""Grab, held-object layers and throw on real Rapier, checked from telemetry."""

from __future__ import annotations

import math
from collections.abc import Callable

import pytest
from physics_helpers import physics, static
from rig_helpers import Run, head_at, rig_world, with_sticks

from playspace import spatial
from playspace.components import Transform
from playspace.components.input import DevicePose, HandInput, InputFrame
from playspace.components.physics import (
    BodyKind,
    Box,
    Capsule,
    Collider,
    Colliders,
    RigidBody,
    Sphere,
)
from playspace.components.rig import Rig
from playspace.components.scene import Grabbable, Opponent, Prop
from playspace.ecs import World
from playspace.systems.grab import TELEMETRY_EVENTS, GrabPlugin
from playspace.systems.input import hand_input
from playspace.systems.throw import ThrowPlugin

G = 9.81
HAND = (0.25, 1.1, -0.3)  # where the right hand rests and grabs, in the room


def prop(
    world: World, name: str, position: spatial.Vec3, shape: object = None, **body: object
) -> int:
    return world.spawn(
        Transform(position=position),
        RigidBody(mass=0.2, **body),  # type: ignore[arg-type]
        Colliders(Collider(shape or Sphere(0.04))),  # type: ignore[arg-type]
        Prop(name),
        Grabbable(),
    )


def ball_in_hand(world: World) -> None:
    prop(world, "ball", spatial.vec3(*HAND))


def grab_world(
    script: Callable[[float], InputFrame], build: Callable[[World], object], **kw: object
) -> Run:
    plugins = (GrabPlugin(), ThrowPlugin())
    return rig_world(script, build=build, plugins=plugins, events=TELEMETRY_EVENTS, **kw)  # type: ignore[arg-type]


def right(position: tuple[float, float, float], grip: float, yaw: float = 0.0) -> HandInput:
    return hand_input(position, yaw, grip=grip)


def holding_still(t: float) -> InputFrame:
    return head_at(0.0, 1.7, 0.0, right=right(HAND, 1.0))


def throw_script(
    speed: float, release: float = 1.0, accelerate: float = 0.3, stop: bool = False
) -> tuple[Callable[[float], InputFrame], tuple[float, float, float]]:
    """Grab the ball, then swing the hand forward and up at 30 degrees, reaching `speed` at
    `release` after accelerating for `accelerate` s; with `stop`, the hand stops dead over the
    last 3 steps before release (a flick)."""
    direction = (0.0, math.sin(math.radians(30)), -math.cos(math.radians(30)))
    start = release - accelerate

    def travel(t: float) -> float:
        if t <= start:
            return 0.0
        if stop and t > release - 3 / 90:
            t = release - 3 / 90
        t = min(t, release) - start
        return 0.5 * (speed / accelerate) * t * t

    def script(t: float) -> InputFrame:
        d = travel(t)
        p = tuple(h + d * k for h, k in zip(HAND, direction, strict=True))
        grip = 1.0 if 0.1 < t < release else 0.0
        return head_at(0.0, 1.7, 0.0, right=right(p, grip))  # type: ignore[arg-type]

    return script, direction


def flight(run: Run, name: str = "ball") -> list[list[float]]:
    return [o["p"] for s in run.steps() for o in s["objects"] if o["name"] == name]


def throw_distance(run: Run) -> tuple[float, float]:
    """How far the ball flew from where it left the hand to where it first touched down, and
    the height it left from."""
    steps = run.steps()
    at = next(i for i, s in enumerate(steps) if any(e["type"] == "release" for e in s["events"]))
    path = [next(o["p"] for o in s["objects"] if o["name"] == "ball") for s in steps[at:]]
    start = path[0]
    down = next(p for p in path[1:] if p[1] <= 0.045)
    return math.hypot(down[0] - start[0], down[2] - start[2]), start[1]


def landing_distance(v: float, height: float, angle: float = math.radians(30)) -> float:
    """How far a ball released at `height` with speed `v` at `angle` up travels to y = 0.04."""
    vy, vh = v * math.sin(angle), v * math.cos(angle)
    drop = height - 0.04
    t = (vy + math.sqrt(vy * vy + 2 * G * drop)) / G
    return vh * t


def released(run: Run) -> list[dict]:  # type: ignore[type-arg]
    return run.events("release")


def test_a_ball_thrown_forward_lands_where_ballistics_say() -> None:
    script, _ = throw_script(speed=8.0)
    run = grab_world(script, ball_in_hand)
    run.world.step(round(3.0 * 90))
    assert len(run.events("grab")) == 1
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


@pytest.mark.parametrize("wall", [True, False], ids=["wall", "control: no wall"])
def test_a_ball_cannot_be_grabbed_through_a_wall(wall: bool) -> None:
    """A floating ball within reach behind a thin wall: not grabbed; the same ball with the
    wall taken away is, so it is the wall that stops the grab."""

    def build(world: World) -> None:
        if wall:
            static(world, Box((2.0, 2.0, 0.02)), spatial.vec3(0.25, 1.0, -0.3))
        prop(world, "ball", spatial.vec3(0.25, 1.1, -0.36), Sphere(0.04), gravity_scale=0.0)

    run = grab_world(
        lambda t: head_at(0, 1.7, 0, right=right((0.25, 1.1, -0.27), 1.0 if t > 0.2 else 0.0)),
        build,
    )
    run.world.step(60)
    assert len(run.events("grab")) == (0 if wall else 1)


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
    near = run.world.resource(Rig)
    grabs, releases = run.events("grab"), run.events("release")
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
    assert len(run.events("grab")) == len(run.events("release")) == 1
    bodies = [s["body"]["p"] for s in run.steps()]
    settled = bodies[20]
    for p in bodies[20:]:
        assert math.dist(p, settled) < 0.005
    ball = flight(run)[-1]
    assert ball[1] < 0.1  # the ball fell to the floor


def pan(world: World, position: spatial.Vec3) -> int:
    return world.spawn(
        Transform(position=position),
        RigidBody(mass=1.0),
        Colliders(Collider(Box((0.3, 0.04, 0.3)))),
        Prop("pan"),
        Grabbable(),
    )


def bee(world: World, position: spatial.Vec3) -> int:
    return world.spawn(
        Transform(position=position),
        RigidBody(kind=BodyKind.KINEMATIC),
        Colliders(Collider(Capsule(0.15, 0.5), layer="opponents")),
        Opponent("bee"),
    )


def swing(t: float) -> InputFrame:
    """Grab the pan at the hand, then push it forward 1.2 m over a second."""
    z = HAND[2] - 1.2 * min(max(t - 0.3, 0.0), 1.0)
    return head_at(0.0, 1.7, 0.0, right=right((HAND[0], HAND[1], z), 1.0 if t > 0.1 else 0.0))


def test_a_held_pan_swung_through_a_wall_at_an_opponent_raises_no_hit_and_ghosts() -> None:
    def build(world: World) -> None:
        static(world, Box((3.0, 3.0, 0.6)), spatial.vec3(0.0, 1.5, -1.1))  # wall from -0.8 to -1.4
        pan(world, spatial.vec3(*HAND))
        bee(world, spatial.vec3(HAND[0], HAND[1] - 0.25, -1.3))  # inside the wall's far half

    run = grab_world(swing, build)
    run.world.step(round(1.5 * 90))
    assert run.events("hit") == []
    ghosted = [o["ghost"] for s in run.steps() for o in s["objects"] if o["name"] == "pan"]
    assert any(ghosted)


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
    assert physics(run.world).engine.rigid_bodies  # the world is still sane


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
            assert run.events("turn")
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


def test_an_object_can_be_taken_from_one_hand_by_the_other() -> None:
    left_at = (HAND[0] - 0.05, HAND[1], HAND[2])

    def script(t: float) -> InputFrame:
        left = hand_input(left_at, grip=1.0 if t > 0.5 else 0.0)
        return head_at(0.0, 1.7, 0.0, left=left, right=right(HAND, 1.0 if t > 0.1 else 0.0))

    run = grab_world(script, lambda w: prop(w, "ball", spatial.vec3(*HAND), Sphere(0.04)))
    run.world.step(round(0.8 * 90))
    rig = run.world.resource(Rig)
    assert [g["hand"] for g in run.events("grab")] == [rig.right_hand, rig.left_hand]
    ball = next(e for e, p in run.world.each(Prop) if p.name == "ball")
    assert run.world.get(ball, Grabbable).held_by == rig.left_hand
    assert run.events("release") == []  # handed over, never dropped


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
