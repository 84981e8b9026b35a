"""The rig, driven by scripted input and checked from telemetry as a player would notice it."""

from __future__ import annotations

import itertools
import math

import pytest

from playspace import spatial
from playspace.components.input import Button, HandInput, InputFrame
from playspace.components.physics import Box, CharacterBody
from playspace.components.rig import RigSettings, SeparationPolicy
from playspace.components.scene import PlayerStart
from playspace.components.tracking import HandControls
from playspace.ecs import Phase, World, system
from playspace.systems.input import hand_input
from playspace.systems.physics import Physics
from playspace.systems.player.events import RecenterRequested
from playspace.systems.sets import FixedSet
from tests.physics_helpers import static
from tests.rig_helpers import aiming_hand, head_at, rig_of, rig_world, stairs, walking, with_sticks

THRESHOLD = 0.2


def view_floor(step: dict) -> float:  # type: ignore[type-arg]
    """The height of the view's floor: the head's height less its height in the room."""
    return float(step["head"]["p"][1]) - 1.7


def test_physically_walking_stairs_moves_the_view_only_by_floor_snaps() -> None:
    run = rig_world(walking(0.6), build=stairs)
    run.world.step(round(5.0 * 90))
    steps = run.steps()
    body_floor = [s["body"]["p"][1] for s in steps]
    assert max(body_floor) == pytest.approx(8 * 0.17, abs=0.02)  # walked to the top landing
    snaps = run.events("floor_snapped")
    assert len(snaps) >= 4
    for before, after in itertools.pairwise(steps):
        moved = after["head"]["p"][1] - before["head"]["p"][1]
        snapped = [e for e in after["events"] if e["type"] == "floor_snapped"]
        if snapped:
            assert moved == pytest.approx(snapped[0]["dy"], abs=1e-5)
        else:
            assert moved == pytest.approx(0.0, abs=1e-6)  # no continuous vertical motion
    for step in steps:
        assert abs(view_floor(step) - step["body"]["p"][1]) < THRESHOLD
    for snap in snaps:  # each snap comes with the first step that reaches the threshold
        assert THRESHOLD <= abs(snap["dy"]) <= THRESHOLD + 0.17 + 0.02


def test_with_quantization_off_the_view_follows_the_floor() -> None:
    run = rig_world(walking(0.6), build=stairs, settings=RigSettings(slope_quantization=0.0))
    run.world.step(round(4.0 * 90))
    steps = run.steps()
    assert run.events("floor_snapped") == []
    for step in steps[1:]:
        assert view_floor(step) == pytest.approx(step["body"]["p"][1], abs=1e-5)


def test_smooth_movement_syncs_the_floor_at_start_and_follows_it() -> None:
    def script(t: float):  # type: ignore[no-untyped-def]
        # physically step onto the first stair, stand, then push the stick forward
        if t < 1.5:
            return head_at(0.0, 1.7, -min(t, 0.8))
        return with_sticks(head_at(0.0, 1.7, -0.8), left=(0.0, 0.6))

    run = rig_world(script, build=lambda world: stairs(world, run=0.6))
    run.world.step(round(1.5 * 90) - 1)
    offset = view_floor(run.steps()[-1]) - run.steps()[-1]["body"]["p"][1]
    assert abs(offset) > 0.1  # on the first step, the floor has not snapped yet
    run.world.step(round(2.0 * 90))
    steps = run.steps()[round(1.5 * 90) - 1 :]
    first_moving = steps[0]
    assert [e["type"] for e in first_moving["events"]] == ["floor_snapped"]
    rise = [s["body"]["p"][1] for s in steps]
    assert max(rise) > 0.6
    for step in steps[1:]:
        assert view_floor(step) == pytest.approx(step["body"]["p"][1], abs=1e-5)


def test_twelve_snap_turns_leave_the_head_where_it_was() -> None:
    def script(t: float):  # type: ignore[no-untyped-def]
        flick = int(t * 4) % 2 == 1 and t < 6.0  # flick right twelve times, 0.25 s each
        return with_sticks(head_at(0.5, 1.7, -0.3, yaw=0.4), right=(1.0 if flick else 0.0, 0.0))

    start = PlayerStart(spatial.vec3(1.0, 0.0, 2.0), yaw=0.3)
    run = rig_world(script, start=start)
    run.world.step(round(6.5 * 90))
    turns = run.events("turned")
    assert len(turns) == 12
    assert all(e["angle"] == pytest.approx(-math.radians(30)) for e in turns)
    steps = run.steps()
    first, last = steps[0]["head"]["p"], steps[-1]["head"]["p"]
    assert math.dist(first, last) < 0.001
    before, after = steps[0]["origin"]["q"], steps[-1]["origin"]["q"]
    assert abs(sum(a * b for a, b in zip(before, after, strict=True))) == pytest.approx(1.0)


def test_each_snap_turn_keeps_the_head_still_and_snaps_the_floor() -> None:
    def script(t: float):  # type: ignore[no-untyped-def]
        return with_sticks(head_at(0.6, 1.7, -0.4), right=(-1.0 if t > 0.5 else 0.0, 0.0))

    run = rig_world(script)
    run.world.step(90)
    steps = run.steps()
    turned = next(i for i, s in enumerate(steps) if any(e["type"] == "turned" for e in s["events"]))
    turn = next(e for e in steps[turned]["events"] if e["type"] == "turned")
    assert turn["angle"] == pytest.approx(math.radians(30))
    assert math.dist(steps[turned - 1]["head"]["p"], steps[turned]["head"]["p"]) < 1e-3


def wall(world: World) -> None:
    """A wall whose near face is at z = -1.0."""
    static(world, Box((4.0, 2.5, 0.2)), spatial.vec3(0, 1.25, -1.1))


def head_inside_wall(step: dict) -> bool:  # type: ignore[type-arg]
    _x, y, z = step["head"]["p"]
    return bool(-1.2 <= z <= -1.0 and y <= 2.5)


def test_walking_into_a_wall_with_fade_keeps_the_body_out_and_blacks_out_the_view() -> None:
    run = rig_world(walking(0.5), build=wall)  # to z = -2 in 4 s: a metre into the wall
    run.world.step(round(4.0 * 90))
    steps = run.steps()
    assert any(head_inside_wall(s) for s in steps)
    for step in steps:
        assert step["body"]["p"][2] >= -1.0 + 0.3 - 0.02  # the capsule never enters the wall
        if head_inside_wall(step):
            assert step["fade"] == 1.0
    assert run.events("blocked")
    assert steps[0]["fade"] == 0.0


def test_walking_into_a_wall_with_push_back_keeps_the_head_out() -> None:
    settings = RigSettings(policy=SeparationPolicy.PUSH_BACK)
    run = rig_world(walking(0.5), build=wall, settings=settings)
    run.world.step(round(4.0 * 90))
    for step in run.steps():
        assert not head_inside_wall(step)
        assert step["head"]["p"][2] > -1.0
        assert step["fade"] == 0.0


def test_smooth_movement_into_a_wall_stops_the_view_at_the_wall() -> None:
    run = rig_world(lambda t: with_sticks(head_at(0, 1.7, 0), left=(0.0, 1.0)), build=wall)
    run.world.step(round(3.0 * 90))
    for step in run.steps():
        assert step["head"]["p"][2] > -1.0
        assert step["body"]["p"][2] >= -1.0 + 0.3 - 0.02
    assert run.steps()[-1]["body"]["p"][2] < -0.6  # it did get to the wall


def teleport_script(pitch: float, hold: float = 0.5):  # type: ignore[no-untyped-def]
    """Push the right stick forward from 0.2 s for `hold` s, aiming up by `pitch`, release."""

    def script(t: float):  # type: ignore[no-untyped-def]
        aiming = 0.2 < t < 0.2 + hold
        right = HandInput(aiming_hand((0.2, 1.2, -0.2), pitch), stick=(0.0, 1.0 if aiming else 0.0))
        return head_at(0.0, 1.7, 0.0, right=right)

    return script


def test_teleport_moves_the_player_s_spot_onto_a_valid_target_and_snaps_the_floor() -> None:
    def platform(world: World) -> None:
        static(world, Box((3.0, 0.3, 3.0)), spatial.vec3(0, 0.15, -4.0))

    run = rig_world(teleport_script(math.radians(20)), build=platform)
    run.world.step(90)
    teleports = run.events("teleported")
    assert len(teleports) == 1
    to = teleports[0]["to"]
    assert to[1] == pytest.approx(0.3, abs=0.01)
    last = run.steps()[-1]
    assert last["body"]["p"][0] == pytest.approx(to[0], abs=0.01)
    assert last["body"]["p"][2] == pytest.approx(to[2], abs=0.01)
    assert view_floor(last) == pytest.approx(0.3, abs=0.01)  # the floor snapped with it
    assert run.events("floor_snapped")
    stands = run.steps()[-1]["head"]["p"]
    assert math.hypot(stands[0] - to[0], stands[2] + 0.1 - to[2]) < 0.02  # neck over the spot
    blink = [s["fade"] for s in run.steps()]
    assert max(blink) == 1.0 and blink[-1] == 0.0


def test_teleport_onto_a_too_steep_slope_is_refused() -> None:
    def steep(world: World) -> None:
        tilt = spatial.from_axis_angle(spatial.vec3(1, 0, 0), math.radians(60))
        static(world, Box((4.0, 0.2, 4.0)), spatial.vec3(0, 0.5, -3.5), tilt)

    run = rig_world(teleport_script(math.radians(10)), build=steep)
    run.world.step(90)
    assert run.events("teleported") == []
    assert [e["reason"] for e in run.events("teleport_refused")] == ["slope"]


def test_teleport_under_a_low_ceiling_is_refused() -> None:
    def low_ceiling(world: World) -> None:
        static(world, Box((4.0, 0.2, 4.0)), spatial.vec3(0, 1.2, -4.5))  # 1.1 m of room

    run = rig_world(teleport_script(math.radians(5)), build=low_ceiling)
    run.world.step(90)
    assert run.events("teleported") == []
    assert [e["reason"] for e in run.events("teleport_refused")] == ["room"]


@pytest.mark.parametrize("where", [(0.0, 1.7, 0.0), (0.8, 1.6, -0.6)])
def test_a_player_standing_still_starts_at_the_body(where: tuple[float, float, float]) -> None:
    """The body starts at the neck point of the first tracked head, wherever in the room the
    player stands: no separation, no fade, no blocked event at the start."""
    run = rig_world(lambda t: head_at(*where))
    run.world.step(90)
    steps = run.steps()
    assert run.events("blocked") == [] and max(s["fade"] for s in steps) == 0.0
    head, body = steps[0]["head"]["p"], steps[0]["body"]["p"]
    assert math.hypot(head[0] - body[0], head[2] - body[2] + 0.1) < 1e-6  # 0.1 m: the neck


def test_lost_head_tracking_freezes_the_body() -> None:
    def script(t: float):  # type: ignore[no-untyped-def]
        frame = head_at(0.0, 1.7, -0.5 * t)
        return frame if not 1.0 < t < 2.0 else type(frame)(0.0, None, frame.left, frame.right)

    run = rig_world(script)
    run.world.step(round(2.5 * 90))
    steps = run.steps()
    frozen = [s["body"]["p"] for s in steps[round(1.05 * 90) : round(1.95 * 90)]]
    assert all(p == frozen[0] for p in frozen)
    assert steps[-1]["body"]["p"][2] < frozen[0][2] - 0.1  # and follows again once found


def test_recentering_puts_the_player_back_at_the_body() -> None:
    run = rig_world(walking(0.5), build=wall)
    run.world.step(round(3.0 * 90))
    assert run.steps()[-1]["fade"] == 1.0
    run.world.send(RecenterRequested())
    run.world.step(2)
    assert run.events("recentered")
    assert run.steps()[-1]["fade"] == 0.0
    assert run.steps()[-1]["head"]["p"][2] > -1.0


def test_crouching_shortens_the_capsule() -> None:
    run = rig_world(lambda t: head_at(0.0, 1.7 if t < 1.0 else 1.0, 0.0))
    run.world.step(45)
    body = rig_of(run.world).body
    assert run.world.get(body, CharacterBody).height == pytest.approx(1.8)
    run.world.step(90)
    assert run.world.get(body, CharacterBody).height == pytest.approx(1.1)


def test_hands_follow_the_controllers_through_the_origin() -> None:
    right = hand_input((0.3, 1.1, -0.4))
    start = PlayerStart(spatial.vec3(2.0, 0.0, 0.0), yaw=math.pi / 2)
    run = rig_world(lambda t: head_at(0.0, 1.7, 0.0, right=right), start=start)
    run.world.step(2)
    # the room is turned a quarter left: its -Z is the world's -X, its +X the world's -Z
    assert run.steps()[-1]["right_hand"]["p"] == pytest.approx([2.0 - 0.4, 1.1, -0.3], abs=1e-6)


def test_the_scene_s_player_table_chooses_push_back_and_smooth_turning(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from playspace.app import build_world
    from playspace.components.rig import TurnMode
    from playspace.formats.scene import load_scene
    from playspace.systems.input import ScriptedSource

    scene = tmp_path / "room.toml"
    scene.write_text('[player]\npolicy = "push_back"\nturn = "smooth"\n')
    world, _ = build_world(load_scene(scene), ScriptedSource(lambda t: head_at(0, 1.7, 0)))
    settings = world.resource(RigSettings)
    assert settings.policy is SeparationPolicy.PUSH_BACK
    assert settings.turn_mode is TurnMode.SMOOTH


def test_a_player_who_walks_off_the_edge_is_put_back_on_safe_ground() -> None:
    """Two steps past the floor's edge the body falls; below the kill height it is put back
    where it last stood, the player standing at it, behind the blink."""
    start = PlayerStart(position=spatial.vec3(19.0, 0.0, 0.0))
    run = rig_world(
        lambda t: head_at(min(t, 1.6) * 1.0, 1.7, 0.0), start=start
    )  # walks 1.6 m to +x, off the 40 m floor's edge at x = 20
    run.world.step(round(6.0 * 90))
    steps = run.steps()
    (rescued,) = run.events("player_rescued")
    assert rescued["why"] == "fell"
    assert rescued["fell"][1] < -50.0 and 19.4 < rescued["to"][0] < 20.0  # back from the edge
    assert rescued["to"][1] == pytest.approx(0.0, abs=0.01)
    end = steps[-1]
    assert end["body"]["p"][1] == pytest.approx(0.0, abs=0.01) and end["body"]["grounded"]
    head, body = end["head"]["p"], end["body"]["p"]
    assert math.hypot(head[0] - body[0], head[2] - body[2]) < 0.15  # standing at the body
    assert head[1] == pytest.approx(1.7, abs=0.05)  # the view back on the floor
    assert max(s["fade"] for s in steps) > 0.5  # the blink hid the jump


def test_a_player_who_leaves_the_level_across_the_floor_is_put_back_before_falling_far() -> None:
    """Walking fast off the edge, the body follows the head through the air: two metres past
    the level's geometry it is out of the world, and put back long before the kill height."""
    start = PlayerStart(position=spatial.vec3(19.0, 0.0, 0.0))
    run = rig_world(lambda t: head_at(min(t, 2.0) * 4.0, 1.7, 0.0), start=start)
    run.world.step(round(2.5 * 90))
    rescued = run.events("player_rescued")[0]  # the first: the head walks on, and off again
    assert rescued["why"] == "out_of_bounds"
    assert rescued["fell"][0] > 22.0 and rescued["fell"][1] > -5.0  # past x = 20 + 2, not far down
    assert rescued["to"][0] < 20.0 and rescued["to"][1] == pytest.approx(0.0, abs=0.01)


def test_a_player_who_starts_outside_the_level_is_put_on_its_nearest_ground_once() -> None:
    """A start past the level's edge (a seat beyond the scene's spawns): rescuing to it would
    rescue every step; the player is put once on the ground nearest it, and stays."""
    start = PlayerStart(position=spatial.vec3(500.0, 0.0, 3.0))
    run = rig_world(lambda t: head_at(0.0, 1.7, 0.0), start=start)
    run.world.step(round(2.0 * 90))
    (rescued,) = run.events("player_rescued")
    assert rescued["why"] == "out_of_bounds"
    assert abs(rescued["to"][0]) <= 20.0 and rescued["to"][1] == pytest.approx(0.0, abs=0.01)
    end = run.steps()[-1]["body"]
    assert abs(end["p"][0]) <= 20.0 and end["p"][1] == pytest.approx(0.0, abs=0.01)
    assert end["grounded"]


def test_a_player_who_starts_under_the_floor_is_put_on_it_at_the_second_fall() -> None:
    """The first fall takes the player back to the start, as a player who never stood; falling
    from there again without standing, they go to the level's ground above it."""
    start = PlayerStart(position=spatial.vec3(3.0, -2.0, 0.0))
    run = rig_world(lambda t: head_at(0.0, 1.7, 0.0), start=start)
    run.world.step(round(8.0 * 90))
    first, second = run.events("player_rescued")
    assert first["to"][1] == pytest.approx(-2.0, abs=1e-6)  # where it began, under the floor
    assert second["to"][1] == pytest.approx(0.0, abs=0.01)
    assert run.steps()[-1]["body"]["p"][1] == pytest.approx(0.0, abs=0.01)


def test_a_level_with_no_ground_above_the_kill_height_leaves_the_player_to_fall_said_once(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Every way back is out of the world: one rescue to the start, then the player falls, the
    log says so once, and the run goes on (no rescue every step)."""
    start = PlayerStart(position=spatial.vec3(0.0, 20.0, 0.0))
    run = rig_world(lambda t: head_at(0.0, 1.7, 0.0), start=start)
    run.world.resource(Physics).kill_height = 10.0  # above the floor, below the start
    with caplog.at_level("WARNING", logger="playspace.systems.player.rescue"):
        run.world.step(round(6.0 * 90))
    assert len(run.events("player_rescued")) == 1
    (said,) = caplog.messages
    assert "no ground to put them on" in said
    assert all(math.isfinite(step["body"]["p"][1]) for step in run.steps())


def test_a_teleport_aimed_through_a_wall_lands_on_this_side_of_it() -> None:
    """The player leans through a wall (the view is black), the hand beyond it, and aims a
    teleport ahead: the arc starts just short of the wall, where the body can be, so the
    target is never beyond a wall the body could not walk through."""

    def script(t: float) -> InputFrame:
        lean = min(t, 1.0) * 1.3  # the head and hand go 1.3 m forward, through the wall
        aiming = 1.2 < t < 1.7
        hand = HandInput(
            aiming_hand((0.2, 1.2, -0.2 - lean), math.radians(20)),
            stick=(0.0, 1.0 if aiming else 0.0),
        )
        return head_at(0.0, 1.7, -lean, right=hand)

    run = rig_world(script, build=wall)
    run.world.step(round(2.0 * 90))
    landed = [e["to"] for e in run.events("teleported")]
    refused = [e["to"] for e in run.events("teleport_refused")]
    assert landed or refused
    for to in landed + [t for t in refused if t is not None]:
        assert to[2] >= -1.0 - 1e-6  # on the wall, or on the player's side of it


def table(world: World) -> None:
    """A table 0.75 m high whose near edge is at z = -0.5."""
    static(world, Box((1.2, 0.75, 0.8)), spatial.vec3(0, 0.375, -0.9))


def lean_over_the_table(lean: float, down_to: float = 1.55):  # type: ignore[no-untyped-def]
    """Walk up to the table in a second (the body touches it), then lean `lean` metres
    further over it in the next, the head going down to `down_to`."""

    def script(t: float) -> InputFrame:
        part = min(max(t - 1.0, 0.0), 1.0)
        return head_at(0.0, 1.7 + (down_to - 1.7) * part, -min(t, 1.0) * 0.3 - lean * part)

    return script


def test_leaning_over_a_table_leaves_the_view_clear() -> None:
    run = rig_world(lean_over_the_table(0.3), build=table)
    run.world.step(round(2.5 * 90))
    steps = run.steps()
    body, head = steps[-1]["body"]["p"], steps[-1]["head"]["p"]
    assert body[2] > -0.5 + 0.3 - 0.02  # the table stops the body...
    assert head[2] == pytest.approx(-0.6, abs=1e-3)  # ...not the head, 0.1 m over the table
    assert abs(head[2] + 0.1 - body[2]) > 0.28  # separated by as much as blacked out before
    assert max(s["fade"] for s in steps) == 0.0
    assert run.events("blocked") == []


def test_push_back_leaves_a_head_leaning_over_a_table_where_it_is() -> None:
    """With push_back, leaning 0.3 m over the table moves nothing: the view stays where the
    player leans (before, the origin was pushed back to the body); a head lowered into the
    table top is pushed back out of it."""
    push = RigSettings(policy=SeparationPolicy.PUSH_BACK)
    run = rig_world(lean_over_the_table(0.3), build=table, settings=push)
    run.world.step(round(2.5 * 90))
    steps = run.steps()
    assert steps[-1]["head"]["p"][2] == pytest.approx(-0.6, abs=1e-3)  # leaning, unmoved
    assert all(s["origin"]["p"] == steps[0]["origin"]["p"] for s in steps)
    into = rig_world(lean_over_the_table(0.3, down_to=0.7), build=table, settings=push)
    into.world.step(round(2.5 * 90))
    assert into.steps()[-1]["head"]["p"][2] > -0.5 + push.head_radius - 0.01  # out of the top


def test_lowering_the_head_into_the_table_top_fades_the_view() -> None:
    run = rig_world(lean_over_the_table(0.3, down_to=0.7), build=table)
    run.world.step(round(2.5 * 90))
    steps = run.steps()
    assert steps[-1]["head"]["p"][1] == pytest.approx(0.7)  # below the top, 0.75 m
    assert steps[-1]["fade"] == 1.0
    assert run.events("blocked")


def test_each_hand_carries_its_own_controls_from_the_input_frame() -> None:
    right = hand_input((0.2, 0.9, 0.0), grip=0.8, buttons=[Button.A])
    run = rig_world(lambda t: with_sticks(head_at(0.0, 1.7, 0.0, right=right), left=(0.3, 0.6)))
    run.world.step(1)
    rig = rig_of(run.world)
    left, held = (run.world.get(e, HandControls) for e in (rig.left_hand, rig.right_hand))
    assert (left.stick, left.grip, left.buttons) == ((0.3, 0.6), 0.0, frozenset())
    assert (held.stick, held.grip, held.buttons) == ((0.0, 0.0), 0.8, frozenset({Button.A}))


@system(Phase.FIXED, in_set=FixedSet.TRACKING, after=("tracking_system",), writes=(HandControls,))
def left_handed(world: World) -> None:
    """A game's left-handed mode: the sticks swap hands, after tracking wrote them."""
    rig = rig_of(world)
    left, right = (world.get(e, HandControls) for e in (rig.left_hand, rig.right_hand))
    left.stick, right.stick = right.stick, left.stick


@pytest.mark.parametrize("swapped", [False, True])
def test_the_player_walks_on_what_the_left_hand_s_controls_say(swapped: bool) -> None:
    """Walking reads the left hand's entity, so a game system that remaps controls after
    tracking (here: swapping the sticks) is obeyed; the right stick pushed forward walks only
    when swapped (without the remap it aims a teleport, which moves nothing)."""
    run = rig_world(lambda t: with_sticks(head_at(0.0, 1.7, 0.0), right=(0.0, 0.5)))
    if swapped:
        run.world.add_systems(left_handed)
    run.world.step(90)
    steps = run.steps()
    walked = steps[0]["body"]["p"][2] - steps[-1]["body"]["p"][2]
    assert walked > 0.9 if swapped else abs(walked) < 0.01
