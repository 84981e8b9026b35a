"""The ``playspace`` command, run as a user runs it."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from playspace import __version__
from playspace.cli import main


def playspace(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "playspace.cli", *args],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_version() -> None:
    done = playspace("--version")
    assert done.returncode == 0
    assert done.stdout.strip() == f"playspace {__version__}"


def test_help_lists_the_commands() -> None:
    done = playspace("--help")
    assert done.returncode == 0
    assert "demo" in done.stdout and "--version" in done.stdout


def test_demo_says_what_happened() -> None:
    done = playspace("demo")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    frames, steps = map(int, re.search(r"frames (\d+), fixed steps (\d+)", out).groups())  # type: ignore[union-attr]
    # 3 s at 90 Hz, less the 0.15 s cut off the 0.4 s hitch, less the steps the cap dropped
    dropped = int(re.search(r"dropped steps (\d+)", out).group(1))  # type: ignore[union-attr]
    assert abs(steps + dropped - (3.0 - 0.15) * 90) <= 2
    assert 150 < frames < 260
    assert "clamped frames 1, capped frames 1" in out
    bounces = int(re.search(r"bounces (\d+)", out).group(1))  # type: ignore[union-attr]
    assert bounces >= 3
    # a ball dropped from 2 m (centre 1.9 m above its resting point) lands after sqrt(2h/g)
    first = float(re.search(r"first at ([\d.]+) s", out).group(1))  # type: ignore[union-attr]
    assert first == pytest.approx((2 * 1.9 / 9.81) ** 0.5, abs=0.02)


def test_demo_refuses_a_nonsense_duration(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["demo", "--seconds", "-1"])
    assert exit_info.value.code == 2
    assert "--seconds must be between 0 and 3600" in capsys.readouterr().err


def test_vr_without_a_runtime_exits_2_quickly_with_one_clear_message() -> None:
    import time

    start = time.monotonic()
    done = playspace("run", "examples/kitchen.toml", "--vr")
    took = time.monotonic() - start
    assert done.returncode == 2
    assert (
        "no OpenXR runtime" in done.stderr and "playspace run examples/kitchen.toml" in done.stderr
    )
    assert "Traceback" not in done.stderr
    assert took < 10  # the real loader answers at once; this bounds a failure path


def test_doctor_reports_what_it_found() -> None:
    done = playspace("doctor")
    assert done.returncode == 0, done.stderr
    for topic in ("OpenXR loader", "OpenXR runtime", "GL:", "display", "gamepads"):
        assert topic in done.stdout
