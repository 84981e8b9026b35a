"""``playspace run``: a scene replayed headless from a trace, as a user runs it."""

from __future__ import annotations

import re
import subprocess
from collections import Counter
from pathlib import Path

import pytest
from moderngl import Context

from playspace.components.input import InputFrame
from playspace.formats.telemetry import read_telemetry
from playspace.systems.input import TraceWriter, device_pose, hand_input
from tests import cli_helpers

SCENE = """
[player]
position = [0, 0, 0]

[[box]]
name = "floor"
size = [10, 0.2, 10]
position = [0, -0.1, 0]

[[stairs]]
position = [0, 0, -0.5]
steps = 6
rise = 0.17
run = 0.3
width = 2

[[prop]]
name = "ball"
shape = "sphere"
radius = 0.1
position = [0.5, 1.0, -0.2]
"""


def playspace(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return cli_helpers.playspace(*args, without_gl=True)


@pytest.fixture
def scene(tmp_path: Path) -> Path:
    path = tmp_path / "stairs.toml"
    path.write_text(SCENE)
    return path


@pytest.fixture
def trace(tmp_path: Path) -> Path:
    """Three seconds walking up the stairs at 0.6 m/s, recorded at an uneven 72-ish Hz."""
    path = tmp_path / "walk.jsonl"
    with TraceWriter(path) as writer:
        t = 0.0
        while t <= 3.0:
            z = -0.6 * t
            writer.write(
                InputFrame(
                    t,
                    device_pose((0.0, 1.7, z)),
                    hand_input((-0.2, 0.9, z)),
                    hand_input((0.2, 0.9, z), grip=min(t, 1.0)),
                )
            )
            t = round(t + (0.013 if int(t * 100) % 2 else 0.015), 6)
    return path


def test_replays_a_trace_headless_and_writes_telemetry(
    scene: Path, trace: Path, tmp_path: Path
) -> None:
    out = tmp_path / "telemetry.jsonl"
    done = playspace("run", scene, "--headless", "--trace", trace, "--telemetry", out)
    assert done.returncode == 0, done.stderr
    header, steps = read_telemetry(out)
    assert header == {"format": "playspace-telemetry", "version": 2, "fixed_hz": 90}
    assert len(steps) == 270  # the trace's three seconds at 90 Hz
    assert steps[-1]["body"]["p"][1] > 0.8  # climbed
    assert any(e["type"] == "floor_snapped" for s in steps for e in s["events"])
    assert [o["name"] for o in steps[0]["objects"]] == ["ball"]


def test_the_same_scene_and_trace_give_byte_identical_telemetry(
    scene: Path, trace: Path, tmp_path: Path
) -> None:
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    for out in (first, second):
        done = playspace("run", scene, "--headless", "--trace", trace, "--telemetry", out)
        assert done.returncode == 0, done.stderr
    assert first.read_bytes() == second.read_bytes()


@pytest.mark.slow
def test_watching_a_run_through_a_spectator_with_the_physics_debug_view_changes_nothing(
    scene: Path, trace: Path, tmp_path: Path, ctx: Context
) -> None:
    """The camera and the debug view are what is drawn: the simulation, and so its telemetry,
    is the same byte for byte (`ctx`: skipped where this machine has no OpenGL)."""
    plain, watched = tmp_path / "plain.jsonl", tmp_path / "watched.jsonl"
    done = playspace("run", scene, "--headless", "--trace", trace, "--telemetry", plain)
    assert done.returncode == 0, done.stderr
    frames = tmp_path / "frames"
    done = cli_helpers.playspace(
        "run", scene, "--headless", "--trace", trace, "--telemetry", watched, "--frames", frames,
        "--every", "45", "--camera", "spectator", "--debug-physics",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert len(list(frames.glob("step_*.png"))) == 6
    assert watched.read_bytes() == plain.read_bytes()


def test_seconds_and_fixed_hz_options(scene: Path, trace: Path, tmp_path: Path) -> None:
    out = tmp_path / "t.jsonl"
    done = playspace(
        "run",
        scene,
        "--headless",
        "--trace",
        trace,
        "--telemetry",
        out,
        "--seconds",
        "1.0",
        "--fixed-hz",
        "120",
        "--seed",
        "7",
    )
    assert done.returncode == 0, done.stderr
    header, steps = read_telemetry(out)
    assert header["fixed_hz"] == 120
    assert len(steps) == 120


def test_a_bad_trace_exits_2_naming_line_and_field(scene: Path, tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text(
        '{"format": "playspace-trace", "version": 1}\n'
        '{"t": 0.0, "head": {"p": [0, 1.7, 0], "q": [0, 0, 0, 1]}}\n'
        '{"t": 0.1, "right": {"grip": 1.5}}\n'
    )
    done = playspace("run", scene, "--headless", "--trace", bad)
    assert done.returncode == 2
    assert f"{bad}:3: field 'right.grip'" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_bad_scene_exits_2_without_a_traceback(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("[[box]]\nsize = [1, 0, 1]\nposition = [0, 0, 0]\n")
    done = playspace("run", bad, "--headless", "--seconds", "1")
    assert done.returncode == 2
    assert "key 'size'" in done.stderr and "Traceback" not in done.stderr


def test_an_output_naming_an_input_is_refused_and_the_input_kept(scene: Path, trace: Path) -> None:
    recorded = trace.read_bytes()
    for flag, path in (("--telemetry", trace), ("--telemetry", scene)):
        done = playspace("run", scene, "--headless", "--trace", trace, flag, path)
        assert done.returncode == 2 and "is an input of this run" in done.stderr
    assert trace.read_bytes() == recorded and "[" in scene.read_text()


def test_an_examples_own_trace_is_an_input_too() -> None:
    trace = Path("examples/traces/snowball.jsonl")
    recorded = trace.read_bytes()
    done = playspace("run", "examples/snowball.py", "--headless", "--telemetry", trace)
    assert done.returncode == 2 and "is an input of this run" in done.stderr
    assert trace.read_bytes() == recorded


def test_a_failed_run_leaves_the_previous_telemetry_as_it_was(trace: Path, tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("[[box]]\nsize = [1, 0, 1]\nposition = [0, 0, 0]\n")
    out = tmp_path / "telemetry.jsonl"
    out.write_text("last run's telemetry\n")
    done = playspace("run", bad, "--headless", "--trace", trace, "--telemetry", out)
    assert done.returncode == 2
    assert out.read_text() == "last run's telemetry\n"
    assert [p.name for p in tmp_path.iterdir() if "partial" in p.name] == []


@pytest.mark.slow
@pytest.mark.parametrize(
    ("option", "value"),
    [("--seconds", "1e308"), ("--fixed-hz", "1e308"), ("--fixed-hz", "1e-7"), ("--seconds", "0")],
)
def test_options_out_of_range_exit_2_saying_the_range(scene: Path, option: str, value: str) -> None:
    done = playspace("run", scene, "--headless", option, value)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert f"{option} must be a number" in done.stderr and "<=" in done.stderr


def test_nesting_too_deep_for_a_scene_or_a_trace_is_named(scene: Path, tmp_path: Path) -> None:
    deep_scene = tmp_path / "deep.toml"
    deep_scene.write_text("x = " + "[" * 50_000 + "]" * 50_000 + "\n")
    deep_trace = tmp_path / "deep.jsonl"
    header = '{"format": "playspace-trace", "version": 1}\n'
    deep_trace.write_text(header + '{"t": 0, "head": ' + "[" * 100_000 + "\n")
    for done in (
        playspace("run", deep_scene, "--headless"),
        playspace("run", scene, "--headless", "--trace", deep_trace),
    ):
        assert done.returncode == 2 and "Traceback" not in done.stderr
        assert "nested too deeply" in done.stderr


def test_options_a_run_would_ignore_are_refused(scene: Path, trace: Path) -> None:
    for options in (("--vr", "--trace", trace), ("--vr", "--headless"), ("--screenshot", "a.jpg")):
        done = playspace("run", scene, "--headless", *options)
        assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
        assert "is not for --vr" in done.stderr or "screenshots are PNG" in done.stderr


def test_without_headless_it_says_how_to_run(scene: Path) -> None:
    done = playspace("run", scene)
    assert done.returncode == 2
    assert "--headless" in done.stderr


def test_an_example_module_runs_with_its_own_trace(tmp_path: Path) -> None:
    out = tmp_path / "t.jsonl"
    done = playspace("run", "examples/snowball.py", "--headless", "--telemetry", out)
    assert done.returncode == 0, done.stderr
    kinds = [e["type"] for step in read_telemetry(out).steps for e in step["events"]]
    assert "target_hit" in kinds
    assert done.stdout.splitlines()[-1].startswith("target hits: ")  # snowball.py's summary


def test_neither_a_scene_nor_an_example_exits_2(tmp_path: Path) -> None:
    other = tmp_path / "notes.txt"
    other.write_text("hello")
    done = playspace("run", other, "--headless")
    assert done.returncode == 2
    assert "neither a scene (.toml) nor an example module (.py)" in done.stderr
    module = tmp_path / "half.py"
    module.write_text("SCENE = 'x.toml'\n")
    done = playspace("run", module, "--headless")
    assert done.returncode == 2
    assert "must define build(world)" in done.stderr


def said_events(line: str) -> dict[str, int]:
    """``events: grabbed 1, released 1 (throws 0), hit 1; ...`` as {kind: count}."""
    assert line.startswith("events: "), line
    listed = line.removeprefix("events: ").split(";")[0]
    found = re.findall(r"(\w+) (\d+)(?: \(throws \d+\))?", listed)
    return {kind: int(count) for kind, count in found}


@pytest.mark.parametrize(
    ("target", "trace"),
    [
        ("examples/kitchen.py", None),  # grab, release, hit, the pan ghosting in the wall
        ("examples/snowball.py", None),  # a throw, and the game's own target_hit
        ("examples/roomscale.toml", "examples/traces/roomscale.jsonl"),  # turns, a teleport
    ],
)
def test_a_headless_run_says_what_happened_as_its_telemetry_does(
    target: str, trace: str | None, tmp_path: Path
) -> None:
    out = tmp_path / "t.jsonl"
    traced = ["--trace", trace] if trace else []
    done = playspace("run", target, "--headless", *traced, "--telemetry", out)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""  # input was given: no hint
    line = next(x for x in done.stdout.splitlines() if x.startswith("events: "))
    steps = read_telemetry(out).steps
    written = Counter(e["type"] for s in steps for e in s["events"])
    assert said_events(line) == dict(written) and written
    ghosted = sum(any(o["ghost"] for o in s["objects"]) for s in steps)
    assert (f"; a held object ghosted in {ghosted} steps" in line) == (ghosted > 0)


def test_a_scene_run_with_no_input_says_how_to_give_one(scene: Path, trace: Path) -> None:
    done = playspace("run", scene, "--headless")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [f"{scene}: 1 fixed steps (0.01 s) headless", "events: none"]
    assert done.stderr == (
        "playspace run: no input was given, so the player stood still for a single fixed step; "
        "play a recording with --trace FILE, or stand still for S seconds with --seconds S\n"
    )
    for given in (["--seconds", "0.1"], ["--trace", str(trace)]):
        done = playspace("run", scene, "--headless", *given)
        assert done.returncode == 0 and done.stderr == "", done.stderr
