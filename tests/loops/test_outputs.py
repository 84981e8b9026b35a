"""Nothing lost: what a run wrote survives however it ends, and readers take a cut last line."""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from playspace.formats.telemetry import Telemetry, parse_telemetry, read_telemetry
from playspace.systems.input import TraceWriter, load_trace, standing_frame, write_trace
from tests.cli_helpers import playspace

ROOT = Path(__file__).resolve().parents[2]
KITCHEN = ROOT / "examples" / "kitchen.toml"


def start(*args: str | Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "playspace.cli", *map(str, args)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
    )  # fmt: skip


def wait_for_steps(path: Path, count: int, run: subprocess.Popen[str]) -> None:
    """Until the telemetry at `path` holds `count` whole step records (its header line and
    any event lines are not steps)."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and run.poll() is None:
        if path.exists() and path.read_text().count('{"step":') >= count + 1:
            return  # one more begun: the first `count` are whole lines
        time.sleep(0.05)
    raise AssertionError(f"{path} never reached {count} steps (exit {run.poll()})")


def whole(path: Path) -> Telemetry:
    """The telemetry at `path`, which must end on a whole line."""
    assert path.read_text().endswith("\n")
    return read_telemetry(path)


@pytest.mark.parametrize(
    ("sent", "name"),
    [(signal.SIGINT, "Ctrl-C"), (signal.SIGTERM, "SIGTERM"), (signal.SIGHUP, "SIGHUP")],
)
def test_a_run_ended_by_a_signal_keeps_its_telemetry_and_says_how_far_it_got(
    tmp_path: Path, sent: signal.Signals, name: str
) -> None:
    telemetry = tmp_path / "long.jsonl"
    run = start("run", KITCHEN, "--headless", "--seconds", "3600", "--telemetry", telemetry)
    wait_for_steps(telemetry, 50, run)
    run.send_signal(sent)
    _, err = run.communicate(timeout=60)
    assert run.returncode == 130, err
    assert err.splitlines() == [err.splitlines()[0]] and "Traceback" not in err
    steps = whole(telemetry).steps
    assert len(steps) >= 50
    assert f"interrupted; telemetry of {len(steps)} steps in {telemetry}" in err


def test_ctrl_c_in_the_headless_demo_is_said_in_the_demos_name(tmp_path: Path) -> None:
    demo = start("demo", "--headless", "--no-render", "--out", tmp_path)
    telemetry = tmp_path / "kitchen-telemetry.jsonl"
    wait_for_steps(telemetry, 50, demo)
    demo.send_signal(signal.SIGINT)
    _, err = demo.communicate(timeout=60)
    assert demo.returncode == 130, err
    steps = len(whole(telemetry).steps)
    assert (
        err == f"playspace demo: interrupted after {steps} steps; telemetry so far in {telemetry}\n"
    )


def test_a_game_systems_error_leaves_the_telemetry_written_up_to_it(tmp_path: Path) -> None:
    game = tmp_path / "buggy.py"
    game.write_text(
        f"SCENE = {str(KITCHEN)!r}\n"
        "from playspace.prelude import FixedSet, Phase, system\n"
        "@system(Phase.FIXED, in_set=FixedSet.GAME)\n"
        "def bug(world):\n"
        "    if world.fixed_time.step == 120:\n"
        "        raise RuntimeError('the game broke at step 120')\n"
        "def build(world):\n"
        "    world.add_systems(bug)\n"
    )
    telemetry = tmp_path / "t.jsonl"
    done = playspace("run", game, "--headless", "--seconds", "5", "--telemetry", telemetry)
    assert done.returncode != 0 and "the game broke at step 120" in done.stderr
    steps = whole(telemetry).steps
    assert [s["step"] for s in steps] == list(range(120))


def test_telemetry_dash_streams_to_standard_output(tmp_path: Path) -> None:
    done = playspace("run", KITCHEN, "--headless", "--seconds", "0.2", "--telemetry", "-")
    assert done.returncode == 0, done.stderr
    records = "".join(line + "\n" for line in done.stdout.splitlines() if line.startswith("{"))
    assert len(parse_telemetry(records, "stdout").steps) == 18


def test_a_trace_and_telemetry_cut_mid_line_are_read_up_to_there(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    trace = tmp_path / "cut.jsonl"
    write_trace(
        trace,
        [
            standing_frame(),
            *(type(standing_frame())(t / 90, standing_frame().head) for t in (1, 2)),
        ],
    )
    data = trace.read_bytes()
    trace.write_bytes(data[: -len(data.splitlines()[-1]) // 2 - 1])  # the last sample, half
    loaded = load_trace(trace)
    assert len(loaded.samples) == 2 and "cut short; read up to line 3" in loaded.warnings[0]
    telemetry = tmp_path / "cut-telemetry.jsonl"
    assert (
        playspace(
            "run", KITCHEN, "--headless", "--seconds", "0.1", "--telemetry", telemetry
        ).returncode
        == 0
    )
    whole = telemetry.read_text()
    telemetry.write_text(whole[: len(whole) - 40])
    _, steps = read_telemetry(telemetry)
    assert len(steps) == 8 and "cut short" in caplog.text


@pytest.mark.slow
@pytest.mark.parametrize("name", [".", "..", "", "{tmp}", "{tmp}/missing/t.jsonl"])
def test_an_output_that_cannot_be_written_is_said_before_the_run(tmp_path: Path, name: str) -> None:
    target = name.format(tmp=tmp_path)
    # said at once: ten minutes of kitchen would outlast the timeout
    done = playspace(
        "run", KITCHEN, "--headless", "--seconds", "600", "--telemetry", target, timeout=60
    )
    assert done.returncode == 2 and len(done.stderr.splitlines()) <= 3, done.stderr
    assert "--telemetry" in done.stderr and "Traceback" not in done.stderr


def test_a_pipe_takes_the_telemetry_as_it_is_written(tmp_path: Path) -> None:
    fifo = tmp_path / "telemetry.fifo"
    os.mkfifo(fifo)
    run = start("run", KITCHEN, "--headless", "--seconds", "0.5", "--telemetry", fifo)
    with open(fifo, encoding="utf-8") as reader:
        written = parse_telemetry(reader.read(), str(fifo))
    assert run.wait(timeout=60) == 0
    assert len(written.steps) == 45
    assert stat.S_ISFIFO(fifo.stat().st_mode)  # still the pipe, not replaced by a file


def test_a_full_disk_is_named(tmp_path: Path) -> None:
    """/dev/full answers every write with ENOSPC, as a disk that filled up does."""
    done = playspace("run", KITCHEN, "--headless", "--seconds", "0.2", "--telemetry", "/dev/full")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.strip() == "playspace run: /dev/full: No space left on device"
    writer = TraceWriter("/dev/full", 90)
    with pytest.raises(OSError) as full:
        writer.write(standing_frame())
    assert full.value.filename == "/dev/full" and "No space left" in str(full.value)
    with pytest.raises(OSError):
        writer.close()  # what it holds cannot be written either
    assert writer.closed  # but the file is not left open
