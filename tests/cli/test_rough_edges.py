"""The small things a user runs into first: a pipe closed early, a mistyped option, a broken
line in a file, a huge or strange value in a message, ``--seed``, a game's haptics outside a
headset, a game split into modules, a display that opens no window."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from playspace.app import build_world
from playspace.components import DeviceRole
from playspace.components.haptics import HapticPulse, HapticQueue
from playspace.ecs import Phase, World, system
from playspace.formats.scene import SceneError, load_scene
from playspace.formats.telemetry import TelemetryError, read_telemetry
from playspace.loops.replay import run_headless
from playspace.systems.input import ScriptedSource, TraceError, load_trace, standing_frame
from tests.cli_helpers import playspace

ROOT = Path(__file__).resolve().parents[2]
KITCHEN = ROOT / "examples" / "kitchen.py"
HEADER = '{"format": "playspace-trace", "version": 1}'
SAMPLE = '{"t": 0.0, "head": {"p": [0, 1.7, 0], "q": [0, 0, 0, 1]}}'
FLOOR = '[[box]]\nname = "floor"\nsize = [4, 0.2, 4]\nposition = [0, -0.1, 0]\n'


def trace_error(tmp_path: Path, *lines: str) -> str:
    path = tmp_path / "run.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(TraceError) as caught:
        load_trace(path)
    return str(caught.value)


def test_a_reader_that_stops_early_ends_the_run_quietly() -> None:
    command = [sys.executable, "-m", "playspace.cli", "run", str(KITCHEN), "--headless"]
    with subprocess.Popen(
        [*command, "--telemetry", "-"], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    ) as run:
        assert run.stdout is not None and run.stderr is not None
        assert b"playspace-telemetry" in run.stdout.readline()
        run.stdout.close()  # what `| head -1` does once it has its line
        said = run.stderr.read().decode()
        status = run.wait(timeout=120)
    assert said == ""
    assert status == 141  # as a process that SIGPIPE ended: a pipeline sees the reader left


def test_an_option_error_prints_its_own_commands_usage() -> None:
    done = playspace("run", str(KITCHEN), "--headless", "--fixed-hz", "0")
    assert done.returncode == 2
    assert done.stderr.startswith("usage: playspace run ")
    assert "--fixed-hz must be a number >= 1" in done.stderr


def test_json_errors_name_the_column_a_user_counts(tmp_path: Path) -> None:
    broken = '{"x-note": "día", "t": 0.1,}'  # a character of two bytes before the fault
    column = broken.index("}") + 1  # characters from 1, as an editor counts them
    said = trace_error(tmp_path, HEADER, SAMPLE, broken)
    assert said.endswith(f"run.jsonl:3: not valid JSON: Expecting property name enclosed in "
                         f"double quotes at column {column}")  # fmt: skip
    telemetry = tmp_path / "out.jsonl"
    telemetry.write_text('{"format": "playspace-telemetry", "version": 1}\n' + broken + "\n")
    with pytest.raises(TelemetryError, match=f"out.jsonl:2: not JSON: .* at column {column}$"):
        read_telemetry(telemetry)


def test_a_trace_longer_than_a_day_is_refused_as_seconds_is(tmp_path: Path) -> None:
    late = '{"t": 86400.5}'
    said = trace_error(tmp_path, HEADER, SAMPLE, late)
    assert said == "run.jsonl:3: field 't': expected a number in [0, 86400], got 86400.5".replace(
        "run.jsonl", str(tmp_path / "run.jsonl")
    )
    done = playspace("run", str(KITCHEN), "--headless", "--seconds", "86400.5")
    assert done.returncode == 2 and "<= 86400" in done.stderr


@pytest.mark.parametrize(
    ("header", "sample", "line"),
    [
        ('{"format": "playspace-trace", "version": 1, "version": 2}', SAMPLE, 1),
        (HEADER, '{"t": 0.0, "t": 5.0}', 2),
        (HEADER, '{"t": 0.0, "right": {"grip": 1.0, "grip": 0.0}}', 2),
    ],
)
def test_a_key_given_twice_is_refused(tmp_path: Path, header: str, sample: str, line: int) -> None:
    said = trace_error(tmp_path, header, sample)
    assert f"run.jsonl:{line}: the key " in said and "is given twice in one object" in said


def test_messages_cut_huge_values_short_and_escape_control_characters(tmp_path: Path) -> None:
    strange = "\x1b[2J\x07" + "y" * 5000
    said = trace_error(tmp_path, HEADER, json.dumps({"t": 0.0, "left": {"grip": strange}}))
    scene = tmp_path / "scene.toml"
    scene.write_text(FLOOR + f"[[prop]]\nname = {json.dumps(strange)}\nshape = 3\n"
                     f"{json.dumps(strange)} = 1\n")  # fmt: skip
    with pytest.raises(SceneError) as caught:
        load_scene(scene)
    named = tmp_path / "\x1b[31mred.toml"
    with pytest.raises(SceneError) as missing:
        load_scene(named)
    for message in (said, *caught.value.errors, str(missing.value)):
        assert "\x1b" not in message and "\x07" not in message, message
        assert len(message) < 600, message  # the value cut short; a table's known keys named
    assert "\\u001b[2J\\u0007yyy" in said and said.endswith("...")  # as JSON writes it
    assert any("unknown key '\\x1b[2J\\x07yyy" in error for error in caught.value.errors)
    assert "\\x1b[31mred.toml" in str(missing.value)


@pytest.mark.slow
def test_the_seed_decides_where_chance_goes_and_replays_the_same() -> None:
    def telemetry(seed: int) -> str:
        out = io.StringIO()
        run_headless(KITCHEN, None, out, seed=seed)
        return out.getvalue()

    first, again, other = telemetry(0), telemetry(0), telemetry(1)
    assert first == again
    assert first != other  # a hit bee tumbles off at another angle


def test_a_games_haptic_pulses_outside_a_headset_are_taken_and_dropped(tmp_path: Path) -> None:
    scene = tmp_path / "scene.toml"
    scene.write_text(FLOOR)

    @system(Phase.FIXED)
    def buzz(world: World) -> None:
        queue = world.resource(HapticQueue)
        for hand in (DeviceRole.LEFT_HAND, DeviceRole.RIGHT_HAND):
            queue.send(HapticPulse(hand, 0.5, 0.05))

    world, _ = build_world(load_scene(scene), ScriptedSource(lambda t: standing_frame()))
    world.add_systems(buzz)
    for _ in range(500):
        world.step()
    assert len(world.resource(HapticQueue).pending) <= 2  # one a hand, replaced, never a pile


def test_an_example_imports_the_modules_beside_it(tmp_path: Path) -> None:
    (tmp_path / "scene.toml").write_text(FLOOR)
    (tmp_path / "rules.py").write_text("GREETING = 'hello from rules'\n")
    (tmp_path / "game.py").write_text(
        "import rules\n\nSCENE = 'scene.toml'\n\n\n"
        "def build(world):\n    pass\n\n\n"
        "def summary(world):\n    return rules.GREETING\n"
    )
    done = playspace("run", tmp_path / "game.py", "--headless", "--seconds", "0.5")
    assert done.returncode == 0, done.stderr
    assert "hello from rules" in done.stdout


def test_the_demo_with_a_display_that_opens_no_window_replays_headless(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "WAYLAND_DISPLAY"}
    env["DISPLAY"] = ":97"  # named, but no X server answers there
    done = playspace("demo", env=env, cwd=tmp_path, timeout=180)
    assert done.returncode == 0, done.stderr
    assert "could not open a window" in done.stderr
    assert "replaying it headless instead" in done.stderr
    assert "bees hit:" in done.stdout
    assert (tmp_path / "playspace-demo" / "kitchen-telemetry.jsonl").stat().st_size > 0
