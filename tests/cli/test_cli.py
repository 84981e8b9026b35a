"""The ``playspace`` command, run as a user runs it."""

from __future__ import annotations

import os
import re
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from playspace import __version__
from tests.cli_helpers import playspace, without_runtime


def test_version() -> None:
    done = playspace("--version")
    assert done.returncode == 0
    assert done.stdout.strip() == f"playspace {__version__}"


def test_help_lists_the_commands() -> None:
    done = playspace("--help")
    assert done.returncode == 0
    assert "demo" in done.stdout and "--version" in done.stdout


@pytest.mark.slow
def test_demo_replays_the_kitchen_and_says_what_happened(tmp_path: Path) -> None:
    done = playspace("demo", "--out", str(tmp_path), "--headless")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "the kitchen (BeeBeeQ)" in out
    grabs, hits = map(int, re.search(r"grabs (\d+), throws \d+, hits (\d+)", out).groups())  # type: ignore[union-attr]
    assert grabs >= 1 and hits >= 1
    assert int(re.search(r"ghosted (\d+)", out).group(1)) > 0  # type: ignore[union-attr]
    assert "bees hit: 1" in out
    telemetry = (tmp_path / "kitchen-telemetry.jsonl").read_text().splitlines()
    assert '"playspace-telemetry"' in telemetry[0] and len(telemetry) > 600
    picture = np.asarray(Image.open(tmp_path / "kitchen.png").convert("RGB")).astype(int)
    # seen from behind the player: the bees (yellow) and the player's white head block
    yellow = (picture[..., 0] > 200) & (picture[..., 1] > 150) & (picture[..., 2] < 90)
    white = picture.min(axis=2) > 235
    assert yellow.sum() > 2_000 and white.sum() > 500


def test_demo_without_rendering_still_simulates(tmp_path: Path) -> None:
    done = playspace("demo", "--out", str(tmp_path), "--no-render", "--headless")
    assert done.returncode == 0, done.stderr
    assert "screenshot: not drawn (--no-render)" in done.stdout
    assert not (tmp_path / "kitchen.png").exists()


def test_vr_without_a_runtime_exits_2_with_one_clear_message() -> None:
    done = playspace("run", "examples/kitchen.toml", "--vr", env=without_runtime(), timeout=60)
    assert done.returncode == 2
    assert (
        "no OpenXR runtime" in done.stderr and "playspace run examples/kitchen.toml" in done.stderr
    )
    assert "Traceback" not in done.stderr


def test_doctor_reports_what_it_found() -> None:
    done = playspace("doctor")
    assert done.returncode == 0, done.stderr
    for topic in ("OpenXR loader", "OpenXR runtime", "GL:", "sound:", "display", "gamepads"):
        assert topic in done.stdout


def _heard_after_ms(settings: Path | None) -> int:
    """How soon `playspace doctor` says a sound is heard on OpenAL Soft's null device (it
    mixes in real time as speakers do, and plays nowhere), with playspace's settings or, given
    `settings`, with that file's."""
    env = {**os.environ, "ALSOFT_DRIVERS": "null"}
    env.pop("ALSOFT_CONF", None)
    if settings is not None:
        env["ALSOFT_CONF"] = str(settings)
    done = playspace("doctor", env=env)
    assert done.returncode == 0, done.stderr
    (line,) = [line for line in done.stdout.splitlines() if line.startswith("sound: ")]
    found = re.search(r"HRTF on; a sound is heard (\d+) ms after it starts", line)
    assert found is not None, line
    return int(found.group(1))


def test_doctor_lists_the_sound_devices_to_name() -> None:
    done = playspace("doctor", env={**os.environ, "ALSOFT_DRIVERS": "null"})
    assert done.returncode == 0, done.stderr
    (line,) = [line for line in done.stdout.splitlines() if line.startswith("sound: ")]
    assert line.startswith("sound: No Output, ") and line.endswith(
        "; devices (--audio-device): No Output"
    ), line


@pytest.mark.parametrize(
    "args",
    [
        ["run", "examples/kitchen.py", "--headless"],
        ["join", "examples/snowball_fight.py", "--trace", "x.jsonl"],
        ["host", "examples/snowball_fight.py"],
        ["host", "examples/snowball_fight.py", "--play", "--trace", "x.jsonl"],
        ["demo", "--headless"],
    ],
    ids=["headless", "join-trace", "host", "host-trace", "demo-headless"],
)
def test_a_sound_device_is_only_for_runs_that_play_sound(args: list[str]) -> None:
    done = playspace(*args, "--audio-device", "No Output")
    assert done.returncode == 2, done.stderr
    said = r"--audio-device is for (a host that plays in )?the preview window"
    assert re.search(said, done.stderr), done.stderr


def test_a_sound_device_is_named() -> None:
    done = playspace("run", "examples/kitchen.py", "--audio-device", " ")
    assert done.returncode == 2
    assert "--audio-device: expected a sound device's name" in done.stderr, done.stderr


def test_doctor_says_a_sound_is_heard_within_30_ms(tmp_path: Path) -> None:
    assert _heard_after_ms(None) < 30
    defaults = tmp_path / "alsoft.conf"  # the control: OpenAL Soft's own update and queue
    defaults.write_text("[general]\nperiod_size = 1024\nperiods = 3\n")
    assert _heard_after_ms(defaults) > 50


@pytest.mark.slow
@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--vr"], "--vr is for a host that plays too: add --play"),
        (["--play", "--vr", "--trace", "x.jsonl"], "--vr plays from the headset: drop --trace"),
        (["--play", "--drive", "x.jsonl"], "--drive feeds the headset's runtime: add --vr"),
    ],
    ids=["vr-without-play", "vr-with-trace", "drive-without-vr"],
)
def test_a_host_in_the_headset_needs_play_and_no_trace(args: list[str], said: str) -> None:
    done = playspace("host", "examples/snowball.py", *args)
    assert done.returncode == 2 and f"playspace host: error: {said}" in done.stderr, done.stderr


def test_a_host_in_the_headset_without_a_runtime_exits_2_hosting_nothing() -> None:
    """No session opens: run_vr's one line and status, and no match was ever hosted (the host
    is built at the session's first frame)."""
    done = playspace(
        "host", "examples/snowball.py", "--play", "--vr", "--listen", "tcp/127.0.0.1:0",
        env=without_runtime(),
    )  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert "no OpenXR runtime" in done.stderr and "Traceback" not in done.stderr, done.stderr
    assert "hosting" not in done.stdout and "fixed steps hosted" not in done.stdout, done.stdout
