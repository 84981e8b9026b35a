"""Trace files and the replay and scripted sources: what a user's trace means, what it may not
say, and what a replay hands the tracking system between samples."""

from __future__ import annotations

import json
import logging
import math
import re
from dataclasses import replace
from pathlib import Path

import pytest

from playspace import spatial as S
from playspace.components.input import (
    Button,
    DevicePose,
    Gamepad,
    HandInput,
    InputFrame,
    InputSource,
    PadButton,
)
from playspace.formats.trace import PlayerFrame, StartPoint
from playspace.spatial import Pose
from playspace.systems.input import (
    ReplaySource,
    ScriptedSource,
    Trace,
    TraceError,
    TraceWriter,
    device_pose,
    hand_input,
    load_trace,
    standing_frame,
    write_trace,
)

HEADER = '{"format": "playspace-trace", "version": 1}'
POSE = '"p": [0, 1.7, 0], "q": [0, 0, 0, 1]'
DOCS = Path(__file__).resolve().parents[2] / "docs" / "trace-format.md"


def trace_file(tmp_path: Path, *lines: str, header: str | None = HEADER) -> Path:
    path = tmp_path / "run.jsonl"
    text = "\n".join(lines if header is None else (header, *lines))
    path.write_text(text + "\n", encoding="utf-8")
    return path


def load_lines(tmp_path: Path, *samples: str) -> Trace:
    return load_trace(trace_file(tmp_path, *samples))


def refused(path: Path) -> TraceError:
    with pytest.raises(TraceError) as caught:
        load_trace(path)
    return caught.value


def yaw_of(pose: DevicePose | None) -> float:
    assert pose is not None
    return S.yaw(pose.pose.rotation)


def position(pose: DevicePose | None) -> tuple[float, float, float]:
    assert pose is not None
    p = pose.pose.position
    return (p.x, p.y, p.z)


# --- loading -------------------------------------------------------------------------------


def test_a_full_sample_loads_every_field(tmp_path: Path) -> None:
    half = math.sqrt(0.5)
    trace = load_lines(
        tmp_path,
        '{"t": 0.011, "head": {"p": [0.1, 1.7, -0.2], "q": [0, 0, 0, 1], "v": [1, 0, 0],'
        ' "w": [0, 2, 0]}, "left": {"p": [-0.2, 1, 0], "q": [0, 0, 0, 2], "grip": 0.25,'
        ' "trigger": 1, "stick": [-1, 0.5], "buttons": ["x", "menu"]},'
        f' "right": {{"p": [0.2, 1, 0], "q": [0, {half}, 0, {half}], "buttons": ["a", "stick"]}},'
        ' "pads": [{"left_stick": [0, 1], "right_stick": [0.5, -0.5],'
        ' "buttons": ["start", "left_shoulder"]}, {}]}',
    )
    assert trace.duration == 0.011 and trace.warnings == () and trace.path.endswith("run.jsonl")
    (frame,) = trace.samples
    assert frame.time == 0.011
    assert frame.head == DevicePose(
        Pose(S.vec3(0.1, 1.7, -0.2), S.quat(0, 0, 0, 1)), S.vec3(1, 0, 0), S.vec3(0, 2, 0)
    )
    assert frame.left == HandInput(
        DevicePose(Pose(S.vec3(-0.2, 1, 0), S.quat(0, 0, 0, 1))),  # normalised from length 2
        grip=0.25,
        trigger=1.0,
        stick=(-1.0, 0.5),
        buttons=frozenset({Button.X, Button.MENU}),
    )
    assert frame.right.buttons == {Button.A, Button.STICK}
    assert yaw_of(frame.right.pose) == pytest.approx(math.pi / 2)
    assert frame.right.pose is not None and frame.right.pose.linear_velocity is None
    assert frame.pads == (
        Gamepad((0.0, 1.0), (0.5, -0.5), frozenset({PadButton.START, PadButton.LEFT_SHOULDER})),
        Gamepad(),
    )


def test_missing_devices_are_not_tracked_and_controls_stand_alone(tmp_path: Path) -> None:
    (frame,) = load_lines(tmp_path, '{"t": 0, "right": {"grip": 1.0}}').samples
    assert frame == InputFrame(0.0, None, HandInput(), HandInput(grip=1.0), ())


def test_extension_keys_and_trailing_blank_lines_are_allowed(tmp_path: Path) -> None:
    path = trace_file(
        tmp_path,
        f'{{"t": 0, "x-note": "take 2", "head": {{{POSE}, "x-raw": [1]}}, "left": {{"x-id": 3}}}}',
        "",
        "  ",
        header='{"format": "playspace-trace", "version": 1, "x-recorder": "quest"}',
    )
    (frame,) = load_trace(path).samples
    assert position(frame.head) == (0.0, 1.7, 0.0)


def test_the_documented_example_loads(tmp_path: Path) -> None:
    example = DOCS.read_text(encoding="utf-8").split("## Example")[1]
    lines = re.search(r"```json\n(.*?)```", example, re.S)
    assert lines is not None
    path = tmp_path / "example.jsonl"
    path.write_text(lines.group(1), encoding="utf-8")
    trace = load_trace(path)
    assert len(trace.samples) == 3 and len(trace.warnings) == 1
    second, third = trace.samples[1:]
    assert second.left == HandInput(grip=0.2) and second.right.buttons == {Button.A}
    assert third.head is None and len(third.pads) == 1


def test_nan_in_a_pose_means_not_tracked_with_a_warning(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = trace_file(
        tmp_path,
        f'{{"t": 0, "head": {{{POSE}}}}}',
        '{"t": 0.1, "head": {"p": [NaN, 1.7, 0], "q": [0, 0, 0, 1]},'
        ' "right": {"p": [0, 1, 0], "q": [0, 0, 0, 1], "w": [0, Infinity, 0], "grip": 0.5}}',
    )
    with caplog.at_level(logging.WARNING):
        trace = load_trace(path)
    assert trace.samples[0].head is not None
    lost = trace.samples[1]
    assert lost.head is None and lost.right == HandInput(grip=0.5)  # controls survive
    assert len(trace.warnings) == 2
    assert trace.warnings[0].startswith(f"{path}:3: field 'head.p': ")
    assert "NaN" in trace.warnings[0] and "head not tracked" in trace.warnings[0]
    assert f"{path}:3: field 'right.w'" in trace.warnings[1]
    assert [r.getMessage() for r in caplog.records] == list(trace.warnings)


@pytest.mark.parametrize(
    ("sample", "field", "expected"),
    [
        ('{"t": NaN}', "t", "expected a number in [0, 86400], got NaN"),
        ('{"t": -1}', "t", "expected a number in [0, 86400], got -1"),
        ('{"t": "0.5"}', "t", 'got "0.5"'),
        ('{"t": true}', "t", "got true"),
        ('{"head": {}}', "t", "missing"),
        ('{"t": 0, "right": {"grip": 1.5}}', "right.grip", "expected a number in [0, 1], got 1.5"),
        ('{"t": 0, "left": {"trigger": -0.1}}', "left.trigger", "in [0, 1], got -0.1"),
        ('{"t": 0, "left": {"grip": NaN}}', "left.grip", "got NaN"),
        ('{"t": 0, "left": {"stick": [0, 2]}}', "left.stick", "two numbers in [-1, 1]"),
        ('{"t": 0, "left": {"stick": [0]}}', "left.stick", "got [0]"),
        ('{"t": 0, "left": {"stick": [Infinity, 0]}}', "left.stick", "got [Infinity, 0]"),
        ('{"t": 0, "left": {"buttons": ["z"]}}', "left.buttons", 'unknown button "z"'),
        (
            '{"t": 0, "left": {"buttons": "a"}}',
            "left.buttons",
            "expected a list of button names (a, b, x, y, menu, stick)",
        ),
        ('{"t": 0, "pads": [{"buttons": ["menu"]}]}', "pads[0].buttons", 'unknown button "menu"'),
        ('{"t": 0, "pads": [{"right_stick": [1, -3]}]}', "pads[0].right_stick", "got [1, -3]"),
        ('{"t": 0, "pads": {}}', "pads", "expected a list of gamepads"),
        ('{"t": 0, "pads": [1]}', "pads[0]", "expected an object, got 1"),
        ('{"t": 0, "head": [0, 1, 0]}', "head", "expected an object"),
        (
            '{"t": 0, "head": {"p": [0, 1], "q": [0, 0, 0, 1]}}',
            "head.p",
            "three numbers in [-10000, 10000]",
        ),
        ('{"t": 0, "head": {"p": [0, 1, "a"], "q": [0, 0, 0, 1]}}', "head.p", "got [0, 1, "),
        ('{"t": 0, "head": {"p": [0, 1, 0], "q": [0, 0, 0, 0]}}', "head.q", "not all zero"),
        ('{"t": 0, "head": {"p": [0, 1, 0]}}', "head.q", "needs both 'p' and 'q'"),
        ('{"t": 0, "right": {"q": [0, 0, 0, 1]}}', "right.p", "needs both 'p' and 'q'"),
        ('{"t": 0, "head": {"v": [0, 1, 0]}}', "head.p", "needs both 'p' and 'q'"),
        ('{"t": 0, "head": {"p": [0, 1, 0], "q": [0, 0, 0, 1], "v": 3}}', "head.v", "got 3"),
        # a wrong type beside a NaN is still an error, not lost tracking
        ('{"t": 0, "head": {"p": [NaN, 1, 0], "q": "up"}}', "head.q", 'got "up"'),
        ('{"t": 0, "hed": {}}', "hed", "unknown key; expected t, head, left, right, pads"),
        ('{"t": 0, "left": {"grp": 1, "bt": []}}', "left.grp", "unknown key (also unknown: 'bt')"),
        ('{"t": 0, "pads": [{"dpad": 1}]}', "pads[0].dpad", "unknown key"),
    ],
)
def test_bad_samples_name_file_line_and_field(
    tmp_path: Path, sample: str, field: str, expected: str
) -> None:
    path = trace_file(tmp_path, '{"t": 0}', sample.replace('"t": 0', '"t": 1'))
    error = refused(path)
    assert (error.path, error.line, error.field) == (str(path), 3, field)
    assert str(error).startswith(f"{path}:3: field '{field}': ")
    assert expected in str(error)


def test_times_must_strictly_increase(tmp_path: Path) -> None:
    error = refused(trace_file(tmp_path, '{"t": 0.5}', '{"t": 0.25}'))
    assert str(error) == (
        f"{tmp_path / 'run.jsonl'}:3: field 't': "
        "expected a time after the previous sample's (0.5), got 0.25"
    )
    assert refused(trace_file(tmp_path, '{"t": 0.5}', '{"t": 0.5}')).line == 3


@pytest.mark.parametrize(
    ("lines", "line", "field", "expected"),
    [
        (("",), 1, None, "empty file; expected the header"),
        ((), 1, None, "empty file"),
        (("not json", '{"t": 0}'), 1, None, "not valid JSON: Expecting value at column 1"),
        (('{"t": 0}',), 1, None, 'expected the header {"format": "playspace-trace"'),
        (('{"format": "other", "version": 1}',), 1, "format", 'expected "playspace-trace"'),
        (('{"format": "playspace-trace", "version": 4}',), 1, "version", "expected 1, 2 or 3"),
        (('{"format": "playspace-trace"}',), 1, "version", "got nothing"),
        (('{"format": "playspace-trace", "version": "1"}',), 1, "version", 'got "1"'),
        (('{"format": "playspace-trace", "version": 1, "v": 1}',), 1, "v", "unknown key"),
        ((HEADER,), 2, None, "no samples after the header"),
        ((HEADER, "", '{"t": 0}'), 2, None, "blank line inside the trace"),
        ((HEADER, '{"t": 0,}'), 2, None, "not valid JSON"),
        ((HEADER, "[1, 2]"), 2, None, "expected an object, got [1, 2]"),
    ],
)
def test_bad_files_name_file_line_and_field(
    tmp_path: Path, lines: tuple[str, ...], line: int, field: str | None, expected: str
) -> None:
    path = trace_file(tmp_path, *lines, header=None)
    if not lines:
        path.write_bytes(b"")
    error = refused(path)
    assert (error.line, error.field) == (line, field)
    assert str(error).startswith(f"{path}:{line}: ")
    assert expected in str(error)


def test_bytes_that_are_not_utf8_and_missing_files_are_trace_errors(tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_bytes(HEADER.encode() + b'\n{"t": 0, "x-": "\xff"}\n')
    assert str(refused(path)) == f"{path}:2: not UTF-8 text (byte 17)"
    missing = refused(tmp_path / "nowhere.jsonl")
    assert missing.line is None and str(missing).startswith(f"{tmp_path / 'nowhere.jsonl'}: ")


# --- writing -------------------------------------------------------------------------------


def recorded_frames() -> list[InputFrame]:
    """Frames with every field in use, values that need all 17 digits, and lost devices."""
    return [
        InputFrame(
            0.0,
            device_pose((0.1, 1.7000000000000002, -1 / 3), 0.3, (0.1, 0.2, 0.3), (0, 1 / 7, 0)),
            hand_input((-0.2, 0.9, 0.0), grip=1 / 3, stick=(-1.0, 0.1), buttons={Button.X}),
            hand_input((0.2, 0.9, 0.0), -2.0, trigger=1.0, buttons={Button.A, Button.MENU}),
            (Gamepad((0.0, 1.0), (-0.5, 0.25), frozenset({PadButton.BACK})), Gamepad()),
        ),
        InputFrame(1 / 90, None, HandInput(grip=0.5), hand_input((0.3, 1.1, -0.4), 1e-9)),
        InputFrame(2 / 90, device_pose((0.0, 1.6, 0.0), math.pi)),
    ]


def test_written_frames_load_back_equal(tmp_path: Path) -> None:
    path = tmp_path / "recorded.jsonl"
    frames = recorded_frames()
    write_trace(path, frames)
    assert list(load_trace(path).samples) == frames
    first, *rest = path.read_text(encoding="utf-8").splitlines()
    assert json.loads(first) == {"format": "playspace-trace", "version": 2}
    assert json.loads(rest[1])["left"] == {
        "grip": 0.5,
        "trigger": 0.0,
        "stick": [0.0, 0.0],
        "buttons": [],
    }


def test_the_writer_appends_as_frames_come_and_checks_their_times(tmp_path: Path) -> None:
    path = tmp_path / "recorded.jsonl"
    with TraceWriter(path) as writer:
        writer.write(standing_frame())
        assert len(path.read_text().splitlines()) == 2  # already on disk mid-recording
        with pytest.raises(TraceError, match=r"recorded\.jsonl:3: field 't': expected a time"):
            writer.write(standing_frame())
        with pytest.raises(ValueError):
            writer.write(InputFrame(0.5, head=device_pose((math.nan, 1.0, 0.0))))
        writer.write(InputFrame(0.5))
    assert [frame.time for frame in load_trace(path).samples] == [0.0, 0.5]


# --- replay --------------------------------------------------------------------------------


def two_samples(tmp_path: Path) -> Trace:
    return load_lines(
        tmp_path,
        '{"t": 1, "head": {"p": [0, 1.6, 0], "q": [0, 0, 0, 1], "v": [0, 0, 0]},'
        ' "left": {"p": [-0.2, 1, 0], "q": [0, 0, 0, 1], "grip": 0, "buttons": ["x"]},'
        ' "right": {"grip": 1, "stick": [1, -1]}, "pads": [{"left_stick": [0, 1]}, {}]}',
        '{"t": 2, "head": {"p": [1, 1.8, -2], "q": [0, 0.7071067811865476, 0, 0.7071067811865476],'
        ' "v": [2, 0, 0]}, "left": {"grip": 1, "trigger": 1}, "right": {"p": [0.2, 1, 0],'
        ' "q": [0, 0, 0, 1], "grip": 0, "stick": [0, 1]}, "pads": [{"left_stick": [1, 0]}]}',
    )


def test_replay_interpolates_between_the_samples_around_the_time(tmp_path: Path) -> None:
    source = ReplaySource(two_samples(tmp_path))
    frame = source.sample(1.5)
    assert frame.time == 1.5
    assert position(frame.head) == pytest.approx((0.5, 1.7, -1.0))
    assert yaw_of(frame.head) == pytest.approx(math.pi / 4)  # slerp: half of 90 degrees
    assert frame.head is not None and frame.head.linear_velocity == S.vec3(1, 0, 0)
    # the left hand is lost in the later sample: its pose is the earlier one's; controls move
    assert frame.left.pose == source.trace.samples[0].left.pose
    assert (frame.left.grip, frame.left.trigger) == (0.5, 0.5)
    assert frame.left.buttons == {Button.X}  # buttons from the earlier sample
    # the right hand is found in the later sample: not tracked until then
    assert frame.right.pose is None and frame.right.stick == (0.5, 0.0)
    assert frame.pads == (Gamepad((0.5, 0.5)), Gamepad())
    quarter = source.sample(1.25)
    assert yaw_of(quarter.head) == pytest.approx(math.pi / 8)


def test_replay_slerps_the_short_way(tmp_path: Path) -> None:
    # the same rotation written as q and -q: the short way is no turn at all
    trace = load_lines(
        tmp_path,
        '{"t": 0, "head": {"p": [0, 1, 0], "q": [0, 0.3826834323650898, 0, 0.9238795325112867]}}',
        '{"t": 1, "head": {"p": [0, 1, 0], "q": [0, -0.3826834323650898, 0, -0.9238795325112867]}}',
    )
    assert yaw_of(ReplaySource(trace).sample(0.5).head) == pytest.approx(math.pi / 4)


def test_replay_holds_the_first_and_last_samples_and_says_when_it_ends(tmp_path: Path) -> None:
    trace = two_samples(tmp_path)
    source = ReplaySource(trace)
    assert source.duration == 2.0
    first, last = trace.samples
    assert source.sample(0.0) == InputFrame(0.0, first.head, first.left, first.right, first.pads)
    assert source.sample(1.0) is first
    assert source.sample(2.0) is last
    assert source.sample(9.0).head == last.head and source.sample(9.0).time == 9.0


def test_replay_gives_the_same_frames_in_any_order_of_access(tmp_path: Path) -> None:
    frames = [InputFrame(i / 10, device_pose((i, 1.0, 0.0), i / 10)) for i in range(50)]
    trace = Trace(tuple(frames))
    times = [i / 37 for i in range(200)]
    forward = ReplaySource(trace)
    ahead = [forward.sample(t) for t in times]
    jumping = ReplaySource(trace)
    order = sorted(range(len(times)), key=lambda i: (i * 7919) % len(times))
    assert [jumping.sample(times[i]) for i in order] == [ahead[i] for i in order]
    assert [position(f.head)[0] for f in ahead] == pytest.approx([min(t * 10, 49) for t in times])


def test_replay_makes_the_frame_of_a_time_once_and_never_hands_back_a_stale_one(
    tmp_path: Path,
) -> None:
    """A headless step asks for its time twice (the frame's poll, the step's sample)."""
    source = ReplaySource(two_samples(tmp_path))
    frame = source.sample(1.5)
    assert source.sample(1.5) is frame
    later = source.sample(1.75)
    assert later.time == 1.75 and position(later.head) == pytest.approx((0.75, 1.75, -1.5))
    again = source.sample(1.5)
    assert again == frame and position(again.head) == pytest.approx((0.5, 1.7, -1.0))


def test_replay_refuses_traces_it_cannot_play() -> None:
    with pytest.raises(ValueError, match="no samples"):
        ReplaySource(Trace(()))
    with pytest.raises(ValueError, match="strictly increase"):
        ReplaySource(Trace((InputFrame(1.0), InputFrame(1.0))))


# --- scripted source and builders ----------------------------------------------------------


def test_scripted_source_stamps_the_script_frames_with_the_time() -> None:
    source: InputSource = ScriptedSource(lambda t: standing_frame(1.5 + t), duration=1.0)
    frame = source.sample(0.25)
    assert frame.time == 0.25 and position(frame.head) == (0.0, 1.75, 0.0)
    assert source.duration == 1.0
    assert ScriptedSource(lambda t: standing_frame()).duration is None


def test_standing_player_looks_down_minus_z_with_hands_at_the_sides() -> None:
    frame = standing_frame()
    assert position(frame.head) == pytest.approx((0.0, 1.7, 0.0))
    assert frame.head is not None
    assert S.transform_direction(frame.head.pose, S.vec3(0, 0, -1)) == S.vec3(0, 0, -1)
    assert position(frame.left.pose) == pytest.approx((-0.2, 0.9, 0.0))
    assert position(frame.right.pose) == pytest.approx((0.2, 0.9, 0.0))
    assert frame.left.grip == 0.0 and frame.pads == ()


def test_builders_turn_left_for_positive_yaw() -> None:
    hand = hand_input((0, 1, 0), math.pi / 2, grip=1.0, buttons=[Button.B])
    assert hand.pose is not None and hand.grip == 1.0 and hand.buttons == {Button.B}
    forward = S.transform_direction(hand.pose.pose, S.vec3(0, 0, -1))
    assert (forward.x, forward.z) == pytest.approx((-1.0, 0.0))
    assert device_pose((0, 0, 0), velocity=(1, 2, 3)).linear_velocity == S.vec3(1, 2, 3)


# --- matches: version 3's other players -----------------------------------------------------

V3 = '{"format": "playspace-trace", "version": 3}'
PLAYER = f'"head": {{{POSE}}}'


@pytest.mark.parametrize(
    ("players", "field", "expected"),
    [
        ("[]", "players", "expected an object of player numbers, got []"),
        ('{"a": {}}', "players.a", "expected a player number (1 to 999999, no leading zeros"),
        ('{"0": {}}', "players.0", "player 0's frame is the line's own keys"),
        ('{"01": {}}', "players.01", "no leading zeros"),
        ('{"1": {"t": 1}}', "players.1.t", "has no 't': the line's time is every player's"),
        ('{"1": {"pads": []}}', "players.1.pads", "a line's gamepads are the line's own"),
        ('{"1": {"right": {"grip": NaN}}}', "players.1.right.grip", "got NaN"),
        ('{"1": {"head": {"p": [0, 1, 0]}}}', "players.1.head.q", "missing"),
        ('{"1": {"hed": {}}}', "players.1.hed", "expected head, left, right, name, start"),
        ('{"1": {"name": 7}}', "players.1.name", "expected a text of at most 200"),
        ('{"1": {"name": "a", "start": {"p": [0, 0, 0]}}}', "players.1.start.yaw", "missing"),
        ('{"1": {"start": {"p": [0, 0, 0], "yaw": 0}}}', "players.1.start", "without 'name'"),
    ],
)
def test_bad_players_name_file_line_and_key(
    tmp_path: Path, players: str, field: str, expected: str
) -> None:
    path = trace_file(tmp_path, '{"t": 0}', f'{{"t": 1, "players": {players}}}', header=V3)
    error = refused(path)
    assert (error.path, error.line, error.field) == (str(path), 3, field)
    assert str(error).startswith(f"{path}:3: field '{field}': ")
    assert expected in str(error)


def test_players_are_a_version_3_key(tmp_path: Path) -> None:
    header = '{"format": "playspace-trace", "version": 2}'
    error = refused(
        trace_file(tmp_path, f'{{"t": 0, "players": {{"1": {{{PLAYER}}}}}}}', header=header)
    )
    assert (error.line, error.field) == (2, "players")
    assert 'a version 3 key; the header says "version": 2' in str(error)


def test_a_lost_device_of_another_player_is_not_tracked_with_a_warning(tmp_path: Path) -> None:
    trace = load_trace(
        trace_file(
            tmp_path,
            '{"t": 0, "players": {"2": {"head": {"p": [NaN, 1, 0], "q": [0, 0, 0, 1]}}}}',
            header=V3,
        )
    )
    (stay,) = trace.players
    assert stay.player == 2 and stay.samples[0].head is None
    assert trace.warnings == (
        f"{tmp_path / 'run.jsonl'}:2: field 'players.2.head.p': expected three numbers in "
        "[-10000, 10000], got [NaN, 1, 0]; players.2.head not tracked in this sample",
    )


def test_a_player_is_in_the_match_on_each_line_that_has_them(tmp_path: Path) -> None:
    """From the line they arrive on to the last line that has them; a line without them means
    they left, and a line that names them is a new arrival (a number given again)."""
    one = f'"1": {{{PLAYER}}}'
    trace = load_trace(
        trace_file(
            tmp_path,
            f'{{"t": 0, "players": {{"1": {{{PLAYER}, "name": "ann"}}}}}}',
            f'{{"t": 1, "players": {{{one}, "2": {{"name": "bob"}}}}}}',
            '{"t": 2, "players": {"2": {}}}',
            f'{{"t": 3, "players": {{{one}}}}}',
            '{"t": 4, "players": {"1": {"name": "cy", "start": {"p": [1, 0, 2], "yaw": 0.5}}}}',
            '{"t": 5}',
            header=V3,
        )
    )
    assert len(trace.samples) == 6
    stays = [(s.player, s.name, [f.time for f in s.samples]) for s in trace.players]
    assert stays == [
        (1, "ann", [0.0, 1.0]),
        (2, "bob", [1.0, 2.0]),
        (1, "", [3.0]),
        (1, "cy", [4.0]),
    ]
    assert trace.players[3].start == StartPoint(S.vec3(1.0, 0.0, 2.0), 0.5)
    assert position(trace.players[0].samples[0].head) == (0.0, 1.7, 0.0)  # read as a line's


def test_a_match_writer_writes_version_3_that_loads_back_equal(tmp_path: Path) -> None:
    path = tmp_path / "match.jsonl"
    frames = recorded_frames()
    start = StartPoint(S.vec3(1.5, 0.0, -0.25), 1 / 3)
    with TraceWriter(path, 72, version=3) as writer:
        writer.write(frames[0], {3: PlayerFrame(replace(frames[1], time=0.0), "bob", start)})
        writer.write(frames[1], {3: PlayerFrame(replace(frames[2], time=frames[1].time))})
        writer.write(frames[2])
    trace = load_trace(path)
    assert list(trace.samples) == frames and trace.fixed_hz == 72
    (stay,) = trace.players
    assert (stay.player, stay.name, stay.start) == (3, "bob", start)
    assert list(stay.samples) == [replace(frames[1], time=0.0), replace(frames[2], time=1 / 90)]
    header, first, second, _ = path.read_text().splitlines()
    assert json.loads(header) == {"format": "playspace-trace", "version": 3, "fixed_hz": 72}
    assert "name" in json.loads(first)["players"]["3"]
    assert "name" not in json.loads(second)["players"]["3"]
    with TraceWriter(tmp_path / "solo.jsonl") as solo, pytest.raises(ValueError, match="version=3"):
        solo.write(frames[0], {1: PlayerFrame(frames[0])})


def test_a_header_start_loads_and_a_wrong_one_names_its_key(tmp_path: Path) -> None:
    kept = tmp_path / "kept.jsonl"
    start = StartPoint(S.vec3(1.5, 0.0, -2.0), 0.25)
    with TraceWriter(kept, 90, start=start) as writer:
        writer.write(InputFrame(time=0.5))
    assert load_trace(kept).start == start
    assert '"start": {"p": [1.5, 0.0, -2.0], "yaw": 0.25}' in kept.read_text().splitlines()[0]
    bad = tmp_path / "bad.jsonl"
    header = '{"format": "playspace-trace", "version": 2, "start": {"p": [0, 0, 0]}}'
    bad.write_text(header + '\n{"t": 0}\n')
    with pytest.raises(TraceError, match=r"bad.jsonl:1: field 'start.yaw': missing"):
        load_trace(bad)
