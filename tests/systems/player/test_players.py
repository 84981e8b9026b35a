"""Several players in one world (as the host of a networked match holds one per client): each
moves, turns, jumps, grabs and throws from their own input, and never moves another except
through physics; the first player's run is what it would be alone."""

from __future__ import annotations

import math

import pytest

from playspace import spatial
from playspace.components import Grabbable, TrackedDevice, Transform
from playspace.components.input import Button, InputFrame
from playspace.components.locomotion import JumpState
from playspace.components.rig import LocalPlayer, Rig
from playspace.components.scene import PlayerStart
from playspace.ecs import PluginError, World
from playspace.systems.input import ScriptedSource
from playspace.systems.player import Arrival, Roster, despawn_player, local_rig, spawn_player
from playspace.systems.player.events import Jumped
from playspace.systems.player.movement import JumpPlugin
from tests.grab_helpers import HAND, grab_world, named, prop, right, throw_script
from tests.rig_helpers import Run, head_at, pressing, rig_of, rig_world, with_sticks

APART = PlayerStart(position=spatial.vec3(3.0, 0.0, 0.0))  # the second player: 3 m to the right


def standing_frame(t: float) -> InputFrame:
    return head_at(0.0, 1.7, 0.0)


def walking_forward(t: float) -> InputFrame:
    return with_sticks(head_at(0.0, 1.7, 0.0), left=(0.0, 1.0))


def flicking_right(t: float) -> InputFrame:
    """One snap turn to the right, half a second in."""
    return with_sticks(head_at(0.0, 1.7, 0.0), right=(1.0 if 0.5 < t < 0.7 else 0.0, 0.0))


def feet(world: World, rig: Rig) -> spatial.Vec3:
    return spatial.Vec3(world.get(rig.body, Transform).position)


def yaw(world: World, rig: Rig) -> float:
    return spatial.yaw(world.get(rig.origin, Transform).rotation)


def second(run: Run, script: object, start: PlayerStart = APART) -> Rig:
    return spawn_player(run.world, ScriptedSource(script), start)  # type: ignore[arg-type]


def test_each_player_moves_on_their_own_input() -> None:
    run = rig_world(walking_forward)
    other = second(run, flicking_right)
    first = rig_of(run.world)
    run.world.step(90)
    assert first.player == 0 and other.player == 1
    assert feet(run.world, first).z < -2.0  # walked forward on the left stick
    assert yaw(run.world, first) == pytest.approx(0.0)  # the other's flick did not turn them
    stood = feet(run.world, other)
    assert math.hypot(stood.x - 3.0, stood.z) < 0.11  # turned in place: the neck, 0.1 m round
    assert yaw(run.world, other) == pytest.approx(-math.radians(30))


def test_events_say_whose_they_are_and_the_first_player_s_leave_it_out() -> None:
    run = rig_world(flicking_right)
    second(run, flicking_right)
    run.world.step(90)
    turns = run.events("turned")
    assert len(turns) == 2
    assert "player" not in turns[0] and turns[1]["player"] == 1  # same step, the first first


def test_the_first_player_s_telemetry_is_what_it_would_be_alone() -> None:
    alone = rig_world(walking_forward)
    alone.world.step(90)
    together = rig_world(walking_forward)
    second(together, flicking_right)
    together.world.step(90)
    theirs = [e for s in together.steps() for e in s["events"] if "player" in e]
    assert sorted(e["type"] for e in theirs) == ["floor_snapped", "turned"]  # the other's snap turn
    mine = [
        {**s, "events": [e for e in s["events"] if "player" not in e]} for s in together.steps()
    ]
    assert mine == alone.steps()


def test_a_player_who_joins_after_the_jump_plugin_jumps_on_their_own_button() -> None:
    def jump_at_half_a_second(t: float) -> InputFrame:
        return pressing(head_at(0.0, 1.7, 0.0), "right", Button.A, 0.5 < t < 0.6)

    run = rig_world(standing_frame, plugins=(JumpPlugin(),), events=(Jumped,))
    jumper = second(run, jump_at_half_a_second)
    assert run.world.has(jumper.origin, JumpState)  # set up as they joined
    heights = []
    for _ in range(90):
        run.world.step(1)
        heights.append((feet(run.world, rig_of(run.world)).y, feet(run.world, jumper).y))
    assert max(h for _, h in heights) > 0.3  # the second player jumped
    assert max(h for h, _ in heights) < 0.01  # the first did not
    jumped = run.events("jumped")
    assert [e.get("player", 0) for e in jumped] == [1]


def test_the_second_player_throws_what_their_hand_took() -> None:
    script, _ = throw_script(6.0)
    at = spatial.vec3(3.0 + HAND[0], HAND[1], HAND[2])
    run = grab_world(standing_frame, lambda world: prop(world, "ball", at))
    thrower = second(run, script)
    run.world.step(180)
    grabs, releases = run.events("grabbed"), run.events("released")
    assert [g["hand"] for g in grabs] == [thrower.right_hand]
    assert [r["hand"] for r in releases] == [thrower.right_hand]
    assert spatial.length(spatial.vec3(*releases[0]["linear"])) == pytest.approx(6.0, rel=0.1)


def test_a_player_leaves_and_the_first_cannot() -> None:
    run = rig_world(standing_frame)
    other = second(run, standing_frame)
    run.world.step(10)
    despawn_player(run.world, other)
    run.world.step(10)
    assert [rig.player for _, rig in run.world.each(Rig)] == [0]
    assert not run.world.exists(other.body)
    with pytest.raises(PluginError, match="player 0 is this process's own"):
        despawn_player(run.world, rig_of(run.world))
    joined = second(run, standing_frame)
    assert joined.player == 1  # numbers follow the highest there is


def test_the_player_this_process_shows_is_marked_on_their_origin_and_is_one() -> None:
    """The first player, whom the rig's plugin adds, carries ``LocalPlayer``; one who joins
    does not, and a second player this process would show is refused."""
    run = rig_world(standing_frame)
    other = second(run, standing_frame)
    assert [rig.player for _, (rig, _) in run.world.query(Rig, LocalPlayer)] == [0]
    assert local_rig(run.world) == rig_of(run.world) != other
    with pytest.raises(PluginError, match="already has the player this process shows"):
        spawn_player(run.world, ScriptedSource(standing_frame), APART, local=True)


def test_players_join_and_leave_through_the_roster_at_a_step_s_start() -> None:
    """What a networked host or a match's replay does: a player put in the roster between
    steps is there, tracked, from the next step; one leaving is gone from the next, and the
    ball their hand held falls where it was."""
    at = spatial.vec3(3.25, 1.1, -0.3)
    run = grab_world(standing_frame, lambda world: prop(world, "ball", at))
    run.world.step(5)
    run.world.resource(Roster).arriving.append(
        Arrival(ScriptedSource(holding_the_ball), APART, "bob")
    )
    run.world.step(1)
    joined = next(r for _, r in run.world.each(Rig) if r.player == 1)
    assert run.world.get(joined.head, TrackedDevice).tracked  # read in the step it joined
    run.world.step(30)
    ball = named(run.world, "ball")
    assert run.world.get(ball, Grabbable).held_by == joined.right_hand
    run.world.resource(Roster).leaving.append(1)
    run.world.step(60)
    assert [rig.player for _, rig in run.world.each(Rig)] == [0]
    assert run.world.get(ball, Grabbable).held_by is None
    assert run.world.get(ball, Transform).position.y < 0.1  # it fell to the floor
    said = [(e["type"], e.get("player"), e.get("name")) for e in _events(run)]
    assert said == [("player_joined", 1, "bob"), ("player_left", 1, "bob")]


def holding_the_ball(t: float) -> InputFrame:
    return head_at(0.0, 1.7, 0.0, right=right(HAND, 1.0 if t > 0.1 else 0.0))


def _events(run: Run) -> list[dict[str, object]]:
    kinds = ("player_joined", "player_left")
    return [e for s in run.steps() for e in s["events"] if e["type"] in kinds]


def test_two_players_reaching_for_one_ball_in_one_step_one_of_them_gets_it() -> None:
    """The world that decides arbitrates: both right hands close on the ball in the same step;
    one grab, by the hand served first (hands are served in a fixed order, so a replay decides
    the same), and the ball stays in that hand."""
    run = grab_world(holding_the_ball, lambda world: prop(world, "ball", spatial.vec3(*HAND)))
    beside = PlayerStart(position=spatial.vec3(0.5, 0.0, 0.0))  # their hand reaches 0.5 m left
    other = spawn_player(run.world, ScriptedSource(reaching_left), beside)
    run.world.step(60)
    first = rig_of(run.world)
    (grabbed,) = run.events("grabbed")  # one grab: not a second one taking it from the first
    assert grabbed["hand"] in (first.right_hand, other.right_hand)
    assert run.world.get(named(run.world, "ball"), Grabbable).held_by == grabbed["hand"]
    hands = [run.world.get(r.right_hand, Transform).position for r in (first, other)]
    assert spatial.length(hands[0] - hands[1]) < 0.01  # both hands there, both gripping


def reaching_left(t: float) -> InputFrame:
    at = (HAND[0] - 0.5, HAND[1], HAND[2])
    return head_at(0.0, 1.7, 0.0, right=right(at, 1.0 if t > 0.1 else 0.0))
