"""The trace viewer (a recording played in the preview window), the spectator camera and the
physics debug view's switch.

The player is driven directly, with synthetic key names and injected frame times, so each
figure is exact; one test opens the real window under Xvfb and drives it with xdotool.
"""

from __future__ import annotations

import math
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from moderngl import Context
from PIL import Image

from playspace import spatial
from playspace.app.replay import prepare_replay
from playspace.cli import common
from playspace.components.debug import PhysicsDebug
from playspace.components.input import InputFrame
from playspace.loops.preview import debug_actions
from playspace.loops.replay import run_headless
from playspace.loops.viewer import SPEEDS, TracePlayer
from playspace.render.cameras import CAMERAS, HeadCamera, SpectatorCamera
from playspace.render.quality import QUALITY_NAMES
from playspace.systems.audio import Audio
from tests.cli_helpers import playspace
from tests.needs import need_program
from tests.rig_helpers import head_at, rig_world
from tests.window_helpers import transforms, without_display

ROOT = Path(__file__).resolve().parents[2]
SCENE = ROOT / "examples" / "stairs.toml"
TRACE = ROOT / "examples" / "traces" / "stairs.jsonl"
FRAME = 1 / 60  # the injected window frame: a 60 Hz display


@pytest.fixture
def player() -> TracePlayer:
    return TracePlayer(prepare_replay(SCENE, TRACE))


def frames(player: TracePlayer, count: int) -> list[int]:
    """Steps run by each of `count` frames of :data:`FRAME`."""
    return [player.play(FRAME) for _ in range(count)]


def test_it_plays_at_the_recorded_pace_and_the_speed_keys_scale_it(player: TracePlayer) -> None:
    assert player.replay.fixed_hz == 90 and player.speed == 1.0
    assert sum(frames(player, 60)) == 90  # one second of wall time plays one second
    player.key_down("right_bracket")
    assert player.speed == 2.0
    assert frames(player, 30) == [3] * 30  # two seconds a second: 3 steps every 1/60 s
    for _ in range(5):
        player.key_down("left_bracket")
    assert player.speed == SPEEDS[0] == 0.25  # no slower than that
    assert sum(frames(player, 60)) in (22, 23)  # a quarter of 90
    player.key_down("backspace")
    assert player.speed == 1.0
    assert "speed 1x, playing" in player.status_line()


def test_pause_stops_the_world_and_a_single_step_runs_exactly_one(player: TracePlayer) -> None:
    frames(player, 20)
    player.key_down("space")
    at, clock = player.step, player.world.time.elapsed
    assert frames(player, 30) == [0] * 30
    assert (player.step, player.world.time.elapsed) == (at, clock)  # world time stopped
    assert "paused" in player.status_line()
    player.key_down("period")
    assert player.step == at + 1 and player.world.clock.steps == at + 1
    assert player.world.time.elapsed == pytest.approx((at + 1) / 90)
    player.key_down("comma")  # one back: replayed from the start
    assert player.step == at
    player.key_down("space")
    assert sum(frames(player, 60)) == 90 and not player.paused


@pytest.mark.slow
def test_seeking_back_shows_what_a_headless_replay_stopped_there_computes(
    player: TracePlayer,
) -> None:
    total = player.replay.steps
    assert 900 < total < 1350  # the stairs' trace: between 10 and 15 s
    frames(player, 250)  # about 4 s in, climbing the stairs
    first = player.world
    player.key_down("left")  # 5 s back from step 375: the start, clamped
    assert player.step == 0 and player.world is not first
    player.key_down("right")
    assert player.step == 450  # forward, stepped without drawing
    player.key_down("right")
    player.key_down("right")
    assert player.step == total and player.paused  # clamped to the end, which pauses
    player.key_down("left")  # back 5 s: replayed from the start
    assert player.step == total - 450
    headless = run_headless(SCENE, TRACE, None, seconds=player.step / 90)
    assert headless.steps == player.step
    assert transforms(player.world) == transforms(headless.world)  # every body, exactly
    player.key_down("home")
    assert player.step == 0


def test_at_the_end_it_stays_paused_on_the_last_step_and_space_plays_again(
    player: TracePlayer,
) -> None:
    total = player.replay.steps
    player.seek(total - 5)
    ran = frames(player, 10)
    assert sum(ran) == 5 and ran[-5:] == [0] * 5  # it played to the end, and stopped there
    assert player.step == total and player.paused
    assert frames(player, 10) == [0] * 10
    assert f"step {total} of {total}" in player.status_line()
    assert "end (Space plays again)" in player.status_line()
    player.key_down("space")
    assert player.step == 0 and not player.paused
    assert sum(frames(player, 60)) == 90


def test_f3_switches_the_physics_debug_view_and_a_seek_back_keeps_it(
    player: TracePlayer,
) -> None:
    hidden = player.world.try_resource(PhysicsDebug)
    assert hidden is None or not hidden.shown
    words, toggle = debug_actions(lambda: player.world)["f3"]
    assert words == "F3 physics"
    toggle()
    assert player.world.resource(PhysicsDebug).shown
    frames(player, 30)
    player.key_down("home")  # a new world, replayed from the start
    assert player.world.resource(PhysicsDebug).shown
    toggle()
    assert not player.world.resource(PhysicsDebug).shown


def test_debug_physics_starts_a_run_with_the_view_shown() -> None:
    shown = run_headless(SCENE, TRACE, None, seconds=0.1, debug_physics=True)
    assert shown.world.resource(PhysicsDebug).shown
    plain = run_headless(SCENE, TRACE, None, seconds=0.1)
    debug = plain.world.try_resource(PhysicsDebug)
    assert debug is None or not debug.shown


# --- the spectator camera -----------------------------------------------------------------


def test_the_spectator_follows_behind_and_above_and_smooths_jitter_and_turns() -> None:
    def jittery(t: float) -> InputFrame:
        shake = 0.01 if int(t * 90) % 2 else -0.01  # 2 cm of shake every step
        return head_at(shake, 1.7, 0.0, yaw=0.0 if t < 1.0 else math.pi / 2)

    run = rig_world(jittery)
    world, spectator, head = run.world, SpectatorCamera(), HeadCamera()
    eyes, heads = [], []
    for _ in range(80):
        world.step(1)
        eyes.append(spectator.view(world, 16 / 9).pose.position)
        heads.append(head.view(world, 16 / 9).pose.position)
    eye, at = eyes[-1], heads[-1]
    assert eye.y - at.y == pytest.approx(0.6, abs=0.01)  # above the head
    assert eye.z - at.z == pytest.approx(1.8, abs=0.02)  # behind it: the head looks down -Z
    shaken = np.ptp([p.x for p in heads[-20:]])
    steady = np.ptp([p.x for p in eyes[-20:]])
    assert shaken == pytest.approx(0.02, abs=1e-6) and steady < shaken / 10
    world.step(9)  # to just before t = 1 s
    spectator.view(world, 16 / 9)
    world.step(1)  # where the head snaps a quarter turn to the left
    turned = spatial.yaw(spectator.view(world, 16 / 9).pose.rotation)
    assert 0.0 < turned < 0.2 * math.pi / 2  # a glide, not a jolt
    for _ in range(135):
        world.step(1)
        view = spectator.view(world, 16 / 9)
    assert spatial.yaw(view.pose.rotation) == pytest.approx(math.pi / 2, abs=0.01)
    world.step(180)  # 2 s without a picture: the next one is in place at once
    fresh = spectator.view(world, 16 / 9).pose.position
    assert fresh.x - heads[-1].x == pytest.approx(1.8, abs=0.05)  # behind a head facing -X


def white_in_the_middle(picture: np.ndarray) -> int:
    """Pixels of the headset's white shell (grey-free, bright) in the middle of the picture."""
    height, width, _ = picture.shape
    middle = picture[height // 4 : 3 * height // 4, width // 4 : 3 * width // 4].astype(int)
    return int(np.sum((middle.min(axis=2) > 215) & (np.ptp(middle, axis=2) < 12)))


@pytest.mark.slow
@pytest.mark.parametrize("camera", ("head", "spectator"))
def test_a_spectator_capture_shows_the_head_marker_and_the_eyes_do_not(
    camera: str, tmp_path: Path, ctx: Context
) -> None:
    """(`ctx`: skipped where this machine has no OpenGL for the capture.)"""
    shot = tmp_path / f"{camera}.png"
    done = playspace(
        "run", SCENE, "--headless", "--trace", TRACE, "--seconds", "2", "--screenshot", shot,
        "--camera", camera,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    white = white_in_the_middle(np.asarray(Image.open(shot).convert("RGB")))
    if camera == "spectator":
        assert white > 200  # the headset's shell, near the middle of the picture
    else:
        assert white == 0


# --- the command ---------------------------------------------------------------------------


def test_the_scene_camera_draws_from_the_scene_file_and_a_scene_without_one_is_refused(
    tmp_path: Path, ctx: Context
) -> None:
    """A ``[camera]`` behind and above the player's start, looking at the head: the head
    block is in the middle of the picture (the eyes' own camera never shows it)."""
    scene = tmp_path / "stairs.toml"
    scene.write_text(
        SCENE.read_text() + "\n[camera]\nposition = [0, 2.3, 1.8]\nlook_at = [0, 1.7, 0]\n"
    )
    shot = tmp_path / "scene.png"
    args = ("--headless", "--trace", TRACE, "--seconds", "0.1", "--screenshot", shot)
    done = playspace("run", scene, *args, "--camera", "scene")
    assert done.returncode == 0, done.stderr
    assert white_in_the_middle(np.asarray(Image.open(shot).convert("RGB"))) > 200
    shot.unlink()
    refused = playspace("run", SCENE, *args, "--camera", "scene")
    assert refused.returncode == 2 and not shot.exists()  # refused before anything ran
    assert refused.stderr == (
        f"playspace run: --camera scene: {SCENE} has no [camera] table (its position and "
        "look_at: docs/scene-format.md); use --camera head or --camera spectator\n"
    )


def test_the_commands_cameras_are_the_renderers() -> None:
    assert common.CAMERAS == CAMERAS
    assert common.QUALITY_NAMES == QUALITY_NAMES


def test_options_that_the_viewer_or_a_run_would_ignore_are_refused() -> None:
    env = without_display()
    done = playspace("run", SCENE, "--trace", TRACE, "--telemetry", "t.jsonl", env=env)
    assert done.returncode == 2
    assert "--telemetry is for headless runs" in done.stderr and "the viewer" in done.stderr
    done = playspace("run", SCENE, "--trace", TRACE, "--record", "r.jsonl", env=env)
    assert done.returncode == 2 and "--record is for the live preview" in done.stderr
    done = playspace("run", SCENE, "--headless", "--trace", TRACE, "--camera", "spectator")
    assert done.returncode == 2 and "--camera is for runs that draw" in done.stderr
    done = playspace("run", SCENE, "--camera", "sideways", env=env)
    assert done.returncode == 2 and "invalid choice: 'sideways'" in done.stderr


def test_without_a_display_the_viewer_says_how_to_replay_headless() -> None:
    done = playspace("run", SCENE, "--trace", TRACE, env=without_display())
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "no display for the trace viewer" in done.stderr
    assert f"--headless --trace {TRACE}" in done.stderr


@pytest.mark.slow
def test_the_viewer_window_plays_pauses_and_switches_to_the_spectator(
    xvfb: str,
    tmp_path: Path,
) -> None:
    need_program("xdotool", "xdotool")
    env = {**without_display(), "DISPLAY": xvfb}
    shot = tmp_path / "viewer.png"
    args = ["--trace", str(TRACE), "--quit-after", "5000", "--screenshot", str(shot)]
    run = subprocess.Popen(
        [sys.executable, "-m", "playspace.cli", "run", str(SCENE), *args],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip

    def xdotool(*words: str) -> str:
        return subprocess.run(
            ["xdotool", *words], env=env, capture_output=True, text=True, timeout=30, check=True
        ).stdout

    try:
        xdotool("search", "--sync", "--name", "playspace: stairs.toml, stairs.jsonl")
        time.sleep(1.0)
        xdotool("key", "End")  # the last step, paused
        xdotool("key", "F5")  # the spectator
        time.sleep(1.0)
        xdotool("key", "Escape")
        out, err = run.communicate(timeout=60)
    finally:
        if run.poll() is None:
            run.kill()
            run.wait()
    assert run.returncode == 0, err
    total = prepare_replay(SCENE, TRACE).steps
    assert "stairs.jsonl viewed, left at" in out and f"(step {total} of {total})" in out
    assert white_in_the_middle(np.asarray(Image.open(shot).convert("RGB"))) > 200


def test_the_viewer_is_heard_while_it_plays_and_silent_paused_or_seeking(
    player: TracePlayer,
) -> None:
    watching = player
    audio = watching.world.resource(Audio)
    frames(watching, 3)
    assert not audio.muted  # playing: heard
    watching.key_down("space")
    assert watching.world.resource(Audio).muted  # paused
    watching.key_down("space")
    watching.key_down("right")  # a seek forward while playing: its steps unheard, then heard
    assert not watching.world.resource(Audio).muted
    watching.key_down("left")  # back: a new world, heard as it plays on
    assert not watching.world.resource(Audio).muted
    watching.key_down("period")  # a step while paused: silent
    assert watching.world.resource(Audio).muted
