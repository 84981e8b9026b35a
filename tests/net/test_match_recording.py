"""A match recorded in one trace (format version 3) replays as it was played: the first
player's frames are each line's own, the others' ride along under ``players`` and they join and
leave the replay at the very steps they joined and left the match."""

from __future__ import annotations

import io
import json
from dataclasses import replace
from pathlib import Path

import pytest

from playspace import spatial
from playspace.app import build_world, load_target, telemetry_events
from playspace.app.replay import prepare_replay, replay_players
from playspace.components.input import InputFrame
from playspace.components.scene import PlayerStart
from playspace.ecs import Phase
from playspace.formats.telemetry import parse_telemetry
from playspace.formats.trace import MATCH_VERSION
from playspace.loops.replay import run_headless
from playspace.systems.input import (
    MatchRecorder,
    ScriptedSource,
    device_pose,
    hand_input,
    load_trace,
)
from playspace.systems.player import Arrival, Roster
from playspace.systems.telemetry import TelemetryPlugin
from tests import cli_helpers

SCENE = """
[player]
position = [0, 0, 0]

[[box]]
name = "floor"
size = [10, 0.2, 10]
position = [0, -0.1, 0]

[[box]]
name = "table"
size = [0.6, 0.8, 0.6]
position = [1.7, 0.4, -0.5]

[[prop]]
name = "ball"
shape = "sphere"
radius = 0.05
position = [1.7, 0.86, -0.5]
grabbable = true
"""

STEPS, JOINS, LEAVES = 180, 30, 120  # the second player is in steps 30..119 (from 1)
SECOND_START = (1.5, 0.0, 0.0)
BALL = (0.2, 0.94, -0.5)  # just over the ball, in the second player's room


def first(t: float) -> InputFrame:
    """The host's own player: walks slowly forward on the left stick for a second."""
    hands = hand_input((-0.2, 0.9, 0.0)), hand_input((0.2, 0.9, 0.0))
    left = replace(hands[0], stick=(0.0, 0.6 if 0.2 < t < 1.2 else 0.0))
    return InputFrame(t, device_pose((0.0, 1.7, 0.0)), left, hands[1])


def second(t: float) -> InputFrame:
    """The one who joins: grips the ball on the table, walks back with it, snap-turns."""
    grip = 1.0 if t > 0.5 else 0.0
    walk = -0.8 if 0.7 < t < 0.9 else 0.0
    turn = 1.0 if 1.0 < t < 1.1 else 0.0
    return InputFrame(
        t,
        device_pose((0.0, 1.7, 0.0)),
        hand_input((-0.2, 0.9, 0.0), stick=(0.0, walk)),
        hand_input(BALL, grip=grip, stick=(turn, 0.0)),
    )


@pytest.fixture
def scene(tmp_path: Path) -> Path:
    path = tmp_path / "match.toml"
    path.write_text(SCENE)
    return path


Comings = dict[int, tuple[list[str], list[int]]]  # step: who joins (names), who leaves


def play_match(scene_path: Path, record: Path, comings: Comings | None = None) -> str:
    """The match as a host plays it: the world a headless replay builds, players put in the
    roster between steps (by default "bob", the second, from step 30 to 119), every player's
    input recorded; its telemetry."""
    comings = comings or {JOINS: (["bob"], []), LEAVES: ([], [1])}
    scene, _ = load_target(scene_path)
    out = io.StringIO()
    with MatchRecorder.open(record, 90) as recorder:
        world, _ = build_world(
            scene,
            recorder.source_for(ScriptedSource(first)),
            90.0,
            0,
            [TelemetryPlugin(out, telemetry_events())],
        )
        for step in range(1, STEPS + 1):
            joining, leaving = comings.get(step, ([], []))
            roster = world.resource(Roster)
            roster.leaving.extend(leaving)
            for index, name in enumerate(joining):
                where = spatial.vec3(SECOND_START[0] + 0.6 * index, 0.0, 0.0)
                start = replace(world.resource(PlayerStart), position=where)
                source = recorder.source_for(ScriptedSource(second), name, start)
                roster.arriving.append(Arrival(source, start, name))
            world.step(1)
    return out.getvalue()


def replayed(scene: Path, trace: Path) -> str:
    out = io.StringIO()
    run_headless(scene, trace, out)
    return out.getvalue()


def second_players_events(telemetry: str) -> list[str]:
    """What the second player did, and the grabs (only they reach the ball)."""
    steps = parse_telemetry(telemetry, "the match").steps
    said = [e for s in steps for e in s["events"] if e.get("player") == 1 or e["type"] == "grabbed"]
    return [e["type"] for e in said]


def test_a_match_replays_to_the_host_s_telemetry_byte_for_byte(scene: Path, tmp_path: Path) -> None:
    record = tmp_path / "match.jsonl"
    played = play_match(scene, record)
    said = second_players_events(played)
    assert said[0] == "player_joined" and said[-1] == "player_left"
    assert {"grabbed", "turned"} <= set(said)  # they took the ball and snap-turned
    assert replayed(scene, record) == played

    lines = [json.loads(line) for line in record.read_text().splitlines()]
    assert lines[0] == {"format": "playspace-trace", "version": MATCH_VERSION, "fixed_hz": 90}
    with_second = [n for n, line in enumerate(lines[1:], 1) if "players" in line]
    assert with_second == list(range(JOINS, LEAVES))  # the steps they were in, no more
    assert lines[JOINS]["players"]["1"]["name"] == "bob"
    assert "name" not in lines[JOINS + 1]["players"]["1"]


def test_without_the_other_players_the_replay_is_another_match(scene: Path, tmp_path: Path) -> None:
    """The control: the same file less its ``players`` is the host's player alone, and the
    telemetry differs (so the test above can fail)."""
    record = tmp_path / "match.jsonl"
    played = play_match(scene, record)
    stripped = tmp_path / "alone.jsonl"
    lines = [json.loads(line) for line in record.read_text().splitlines()]
    with stripped.open("w") as file:
        for line in lines:
            line.pop("players", None)
            file.write(json.dumps(line) + "\n")
    alone = replayed(scene, stripped)
    assert alone != played
    assert second_players_events(alone) == []


def test_numbers_given_again_are_new_players_and_match_the_world_s(
    scene: Path, tmp_path: Path
) -> None:
    """Two join; the highest leaves, and the next to join is given their number again; that
    one leaves as a fourth joins, in one step. The file's numbers are the telemetry's, each
    stay is its own, and the replay is the match."""
    record = tmp_path / "match.jsonl"
    comings: Comings = {
        10: (["ann", "bob"], []),
        50: ([], [2]),
        60: (["cy"], []),
        70: (["di"], [2]),
    }
    played = play_match(scene, record, comings)
    steps = parse_telemetry(played, "the match").steps
    said = [
        (e["type"][7:], e["player"], e["name"]) for s in steps for e in s["events"] if "name" in e
    ]
    assert said == [
        ("joined", 1, "ann"),
        ("joined", 2, "bob"),
        ("left", 2, "bob"),
        ("joined", 2, "cy"),
        ("joined", 3, "di"),  # not 2: cy, leaving at that step, still counted
        ("left", 2, "cy"),  # telemetry lists a step's joins before its leaves
    ]
    trace = load_trace(record)
    stays = [(p.player, p.name, round(p.arrived * 90), round(p.last * 90)) for p in trace.players]
    assert stays == [(1, "ann", 10, 180), (2, "bob", 10, 49), (2, "cy", 60, 69), (3, "di", 70, 180)]
    assert replayed(scene, record) == played


def test_playspace_run_replays_a_match_with_no_new_option(scene: Path, tmp_path: Path) -> None:
    record, out = tmp_path / "match.jsonl", tmp_path / "telemetry.jsonl"
    played = play_match(scene, record)
    done = cli_helpers.playspace(
        "run", scene, "--headless", "--trace", record, "--telemetry", out, without_gl=True
    )
    assert done.returncode == 0, done.stderr
    assert out.read_text() == played


def test_the_replay_adds_one_system_before_join_players_and_moves_no_other(
    scene: Path, tmp_path: Path
) -> None:
    record = tmp_path / "match.jsonl"
    play_match(scene, record)
    match = prepare_replay(scene, record).world()
    alone = prepare_replay(scene, None).world()
    names = [spec.name for spec in match.schedule.phase(Phase.FIXED)]
    assert names.index(replay_players.__name__) == names.index("join_players") - 1
    names.remove(replay_players.__name__)
    assert names == [spec.name for spec in alone.schedule.phase(Phase.FIXED)]


def test_a_host_killed_mid_match_loses_at_most_the_step_in_hand(
    scene: Path, tmp_path: Path
) -> None:
    """Each line is on disk once the next step samples (or :meth:`flush` says the step is
    over), so what a killed host leaves loads, all but its last step."""
    record = tmp_path / "match.jsonl"
    scene_data, _ = load_target(scene)
    recorder = MatchRecorder.open(record, 90)
    world, _ = build_world(scene_data, recorder.source_for(ScriptedSource(first)), 90.0)
    world.resource(Roster).arriving.append(
        Arrival(recorder.source_for(ScriptedSource(second), "bob"), None, "bob")
    )
    world.step(10)
    on_disk = load_trace(record)  # the recorder is still open: as a killed host leaves it
    assert len(on_disk.samples) == 9 and len(on_disk.players[0].samples) == 9
    recorder.flush()
    assert len(load_trace(record).samples) == 10
    world.step(1)
    recorder.close()
    assert len(load_trace(record).samples) == 11
