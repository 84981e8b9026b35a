"""The desktop preview: the XR simulator as logic, recording and replaying a session, and the
real window under Xvfb driven by synthetic keys (xdotool), as a user would drive it.

The window tests start their own X server (Xvfb) and skip, saying why, where the machine has
no Xvfb or xdotool; CI installs both (``.ci/run``).
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import re
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from playspace import spatial
from playspace.app import build_world
from playspace.components.input import Button, DevicePose, Gamepad, PadButton
from playspace.components.rig import RigSettings, ViewFade
from playspace.ecs import World
from playspace.formats.scene import load_scene
from playspace.render.preview import frame_view, gamepad_from_state, stats_line
from playspace.spatial import yaw
from playspace.systems.input import (
    LiveSource,
    Recorder,
    ReplaySource,
    TraceWriter,
    load_trace,
    simulator,
)
from playspace.systems.input.simulator import (
    LOOK_RATE,
    MAX_PITCH,
    REACH,
    START_PITCH,
    WALK_SPEED,
    Simulator,
)
from tests.cli_helpers import playspace
from tests.needs import need_program
from tests.rig_helpers import rig_of
from tests.window_helpers import free_display, transforms, without_display

ROOT = Path(__file__).resolve().parents[2]
PLAYGROUND = ROOT / "examples" / "scenes" / "playground.toml"


def position(device: DevicePose | None) -> tuple[float, float, float]:
    """Where a simulated device is (the simulator tracks every device, always)."""
    assert device is not None
    p = device.pose.position
    return (p.x, p.y, p.z)


# --- the simulator, no window ------------------------------------------------------------


def test_mouse_look_turns_and_pitches_the_head() -> None:
    sim = Simulator()
    assert sim.head.pitch == START_PITCH  # looking down at the hands, not at the wall
    sim.mouse_moved(100, 0)  # right: a turn to the right, negative yaw
    head = sim.sample(0.0).head
    assert head is not None and yaw(head.pose.rotation) == pytest.approx(-100 * LOOK_RATE)
    sim.mouse_moved(0, -50)  # up the screen: look up
    assert sim.head.pitch == pytest.approx(START_PITCH + 50 * LOOK_RATE)
    sim.mouse_moved(0, -100_000)
    assert sim.head.pitch == MAX_PITCH  # never over the top, where the yaw would flip
    sim.mouse_moved(math.nan, 3)
    assert sim.head.pitch == MAX_PITCH


def test_wasd_walks_physically_along_the_heads_heading() -> None:
    sim = Simulator()
    sim.mouse_moved(-(math.pi / 2) / LOOK_RATE, 0)  # turn 90 degrees to the left: facing -X
    start = position(sim.sample(0.0).head)
    sim.key_down("w")
    sim.update(0.2)
    x, y, z = position(sim.sample(0.2).head)
    assert (x, y, z) == pytest.approx((start[0] - 0.2 * WALK_SPEED, start[1], start[2]))
    sim.key_down("d")  # and right, now -Z: diagonal at the same speed
    sim.update(0.2)
    moved = np.subtract(position(sim.sample(0.4).head), (x, y, z))
    assert moved[2] < 0 and np.linalg.norm(moved) == pytest.approx(0.2 * WALK_SPEED)
    sim.update(10.0)  # a stalled frame walks no further than the world's clock would let it
    moved = np.subtract(position(sim.sample(0.5).head), (x, y, z))
    assert np.linalg.norm(moved) == pytest.approx(0.45 * WALK_SPEED)
    sim.key_up("w")
    sim.key_up("d")
    sim.key_down("q")  # crouch
    sim.update(0.2)
    assert position(sim.sample(0.7).head)[1] == pytest.approx(y - 0.2)
    sim.update(math.nan)
    sim.update(-1.0)  # a clock that went wrong moves nobody


def test_selected_hand_grips_triggers_and_presses_its_own_buttons() -> None:
    sim = Simulator()
    assert sim.hand == "right"
    for key in ("g", "mouse_right", "b"):
        sim.key_down(key)
    frame = sim.sample(0.0)
    assert (frame.right.grip, frame.right.trigger, frame.right.buttons) == (
        1.0,
        1.0,
        frozenset({Button.A}),
    )
    assert (frame.left.grip, frame.left.trigger) == (0.0, 0.0)
    for key in ("g", "mouse_right", "b"):
        sim.key_up(key)
    sim.key_down("tab")
    sim.key_down("mouse_left")
    sim.key_down("n")
    frame = sim.sample(0.1)
    assert frame.left.grip == 1.0 and frame.left.buttons == frozenset({Button.Y})
    assert frame.right.grip == 0.0 and not frame.right.buttons


def test_hand_mode_moves_the_selected_hand_within_reach() -> None:
    sim = Simulator()
    before = position(sim.sample(0.0).right.pose)
    sim.key_down("h")
    sim.mouse_moved(50, -50)  # right and up
    sim.mouse_scrolled(2)  # two notches away
    x, y, z = position(sim.sample(0.1).right.pose)
    assert x > before[0] and y > before[1] and z < before[2]
    assert sim.head.yaw == 0.0  # the head stayed put
    sim.mouse_scrolled(1000)
    frame = sim.sample(0.2)
    reach = np.subtract(position(frame.right.pose), position(frame.head))
    assert np.linalg.norm(reach) == pytest.approx(REACH)
    sim.key_down("r")
    assert position(sim.sample(0.3).right.pose) == pytest.approx(before)


def test_a_tap_of_snap_turn_is_one_flick_of_the_right_stick() -> None:
    sim = Simulator()
    sim.key_down("c")
    sim.key_up("c")  # both before any fixed step: the rig still sees the flick, once
    assert sim.sample(0.0).right.stick == (1.0, 0.0)
    assert sim.sample(0.1).right.stick == (0.0, 0.0)
    sim.key_down("z")
    assert sim.sample(0.2).right.stick == (-1.0, 0.0)
    assert sim.sample(0.3).right.stick == (-1.0, 0.0)  # held: still pushed, no second turn


def test_a_tap_stays_down_for_the_shortest_press_across_fast_frames() -> None:
    """At 60 frames a second a tap spans frames for 50 ms: the steps between them see the
    stick flicked all the way, not a ramp up and down that never reaches the threshold."""
    sim = Simulator()
    sim.key_down("c")
    sim.key_up("c")
    frames = [sim.sample(n / 60).right.stick[0] for n in range(8)]
    assert frames == [1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0]  # seen at 0, let go at 50 ms


def test_teleport_holds_the_stick_forward_then_lets_go() -> None:
    sim = Simulator()
    sim.key_down("x")
    assert [sim.sample(t).right.stick for t in (0.0, 0.1)] == [(0.0, 1.0)] * 2
    sim.key_up("x")
    assert sim.sample(0.2).right.stick == (0.0, 0.0)


def test_arrows_are_the_left_stick_and_pads_come_from_the_poller() -> None:
    pad = Gamepad((0.5, 0.0), (0.0, 0.0), frozenset({PadButton.A}))
    sim = Simulator(gamepads=lambda: [pad])
    sim.key_down("up")
    sim.key_down("left")
    frame = sim.sample(0.0)
    assert frame.left.stick == (-1.0, 1.0) and frame.pads == (pad,)


def test_the_help_line_lists_the_keys() -> None:
    sim = Simulator()
    line = sim.help_line()
    for words in ("mouse look", "WASD", "Tab", "G/LMB grip", "T/RMB trigger", "Z/C snap turn"):
        assert words in line
    assert "X teleport" in line and "arrows move" in line and "(right)" in line
    sim.key_down("tab")
    assert "(left)" in sim.help_line()


def test_the_help_line_says_the_keys_the_bindings_hold(monkeypatch: pytest.MonkeyPatch) -> None:
    """One place holds each binding: rebound, the key does the job and the help says so."""
    monkeypatch.setattr(simulator, "GRIP", ("f", "mouse_left"))
    monkeypatch.setattr(simulator, "TELEPORT", "space")
    sim = Simulator()
    line = sim.help_line()
    assert "F/LMB grip" in line and "hold Space teleport" in line
    sim.key_down("f")
    sim.key_down("space")
    frame = sim.sample(0.0)
    assert frame.right.grip == 1.0 and frame.right.stick == (0.0, 1.0)


# --- the window's pure parts -------------------------------------------------------------


def test_glfw_gamepad_state_becomes_a_gamepad() -> None:
    axes = [0.5, -1.0, 0.05, 0.02, -1.0, -1.0]  # left stick right and pushed up; right at rest
    buttons = [1, 0, 0, 0, 0, 0, 0, 1] + [0] * 7  # A and START
    pad = gamepad_from_state(axes, buttons)
    assert pad.left_stick == (0.5, 1.0)  # glfw reads up as -1; a Gamepad as +1
    assert pad.right_stick == (0.0, 0.0)  # inside the deadzone
    assert pad.buttons == frozenset({PadButton.A, PadButton.START})


@pytest.fixture(scope="module")
def standing_world() -> Iterator[World]:
    world, _ = build_world(load_scene(PLAYGROUND), Simulator())
    world.advance(0.05)
    yield world
    world.close()


@pytest.mark.parametrize("size", [(1280, 720), (500, 600), (1920, 200)])
def test_the_view_keeps_the_windows_aspect(standing_world: World, size: tuple[int, int]) -> None:
    view = frame_view(standing_world, size)
    assert view is not None
    projection = view.projection
    assert projection[1, 1] / projection[0, 0] == pytest.approx(size[0] / size[1])
    assert frame_view(standing_world, (size[0], 0)) is None  # minimised


def test_stats_line_names_frame_time_steps_and_slowest_systems(standing_world: World) -> None:
    line = stats_line(standing_world, 0.0125)
    assert line.startswith("frame 12.5 ms, 4 fixed steps, slowest: ")
    assert line.count(" ms") == 4


# --- recording a session and replaying it --------------------------------------------------

# A scripted session: at frame N, keys go down (+) or up (-) and the mouse moves (look dx dy).
# The frame times vary as a real window's do.
SESSION: dict[int, tuple[str, ...]] = {
    2: ("+w",),
    40: ("-w", "look -120 40"),
    45: ("+a", "+c"),
    47: ("-c",),
    70: ("-a", "look 0 200", "+x"),  # look down, aim a teleport
    95: ("-x",),
    110: ("+up", "+g", "+q"),
    150: ("-up", "-g", "-q", "+z"),
    151: ("-z",),
}
FRAME_TIMES = (1 / 60, 1 / 144, 1 / 30, 0.004, 1 / 90)


def play(sim: Simulator, event: str) -> None:
    if event.startswith("look "):
        dx, dy = map(float, event.split()[1:])
        sim.mouse_moved(dx, dy)
    elif event.startswith("+"):
        sim.key_down(event[1:])
    else:
        sim.key_up(event[1:])


def test_a_recorded_session_replays_to_the_same_state(tmp_path: Path) -> None:
    scene = load_scene(PLAYGROUND)
    trace = tmp_path / "session.jsonl"
    sim = Simulator()
    with TraceWriter(trace, 90) as writer:
        recorder = Recorder(LiveSource(sim.sample), writer)
        live, _ = build_world(scene, recorder, seed=3)
        start = transforms(live)
        for frame in range(180):
            for event in SESSION.get(frame, ()):
                play(sim, event)
            dt = FRAME_TIMES[frame % len(FRAME_TIMES)]
            sim.update(dt)
            live.advance(dt)
    steps = live.clock.steps
    assert recorder.samples == steps  # one sample per fixed step, as the rig consumed them
    origin = rig_of(live).origin
    travelled = np.subtract(transforms(live)[origin][0], start[origin][0])
    assert np.linalg.norm(travelled) > 1.0  # walked, turned, teleported, moved up the stairs

    recorded = load_trace(trace)
    assert recorded.fixed_hz == 90
    replay, _ = build_world(scene, ReplaySource(recorded), seed=3)
    replay.step(steps)
    assert transforms(replay) == transforms(live)  # exactly: every body, hand and prop


# --- the real window, under Xvfb ---------------------------------------------------------


def test_no_display_says_how_to_run_headless() -> None:
    done = playspace("run", str(PLAYGROUND), env=without_display())
    assert done.returncode == 2
    assert "no display" in done.stderr and "--headless --trace FILE" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_display_that_is_not_there_is_a_message_not_a_traceback() -> None:
    env = {**without_display(), "DISPLAY": f":{free_display()}"}
    done = playspace("run", str(PLAYGROUND), env=env)
    assert done.returncode == 2
    assert "could not open a window" in done.stderr and "--headless" in done.stderr
    assert "Traceback" not in done.stderr


def test_preview_flags_that_belong_to_headless_runs_are_refused() -> None:
    done = playspace("run", str(PLAYGROUND), "--telemetry", "t.jsonl", env=without_display())
    assert done.returncode == 2 and "--telemetry is for headless runs" in done.stderr
    done = playspace(
        "run", str(PLAYGROUND), "--headless", "--record", "r.jsonl", env={**os.environ}
    )
    assert done.returncode == 2 and "for the preview window" in done.stderr


def lines(path: Path) -> int:
    return path.read_text().count("\n") if path.exists() else 0


def flicked(trace: Path) -> bool:
    """Whether a step has seen the right stick flicked right (C), read as the trace is written.
    A step sees the stick between two window frames, so a tap shows as a ramp that passes the
    flick threshold, at 1.0 only where a step falls on a frame."""
    flick = RigSettings().flick_on
    for line in trace.read_text().splitlines()[1:]:
        with contextlib.suppress(ValueError):  # the line being written may be cut short
            if json.loads(line)["right"]["stick"][0] >= flick:
                return True
    return False


def xdo(env: dict[str, str], *words: str) -> str:
    """xdotool on the display of `env`: what it printed (``search`` prints the windows)."""
    return subprocess.run(
        ["xdotool", *words], env=env, capture_output=True, text=True, timeout=30, check=True
    ).stdout


def started(env: dict[str, str], *args: str, cwd: Path = ROOT) -> subprocess.Popen[str]:
    """``playspace ARGS`` started on the display of `env`, its output kept."""
    return subprocess.Popen(
        [sys.executable, "-m", "playspace.cli", *args],
        cwd=cwd,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_the_preview_window_plays_from_the_keyboard(xvfb: str, tmp_path: Path) -> None:
    need_program("xdotool", "xdotool")
    env = {**without_display(), "DISPLAY": xvfb}
    shot, trace = tmp_path / "preview.png", tmp_path / "session.jsonl"
    args = ["--quit-after", "5000", "--screenshot", str(shot), "--record", str(trace)]
    run = started(env, "run", str(PLAYGROUND), *args)

    def xdotool(*words: str) -> str:
        return xdo(env, *words)

    try:
        window = xdotool("search", "--sync", "--name", "playspace: playground.toml").split()[0]
        # The world is built after the window opens; the recording shows when steps run.
        deadline = time.monotonic() + 30
        while run.poll() is None and time.monotonic() < deadline and lines(trace) < 10:
            time.sleep(0.05)
        xdotool("windowsize", window, "640", "480")  # resize first: the pointer stays inside
        time.sleep(0.3)
        xdotool("keydown", "w")
        time.sleep(0.8)
        xdotool("keyup", "w")
        xdotool("key", "c")
        # frames are slow on a loaded machine: close only once a step has seen the flick
        deadline = time.monotonic() + 30
        while run.poll() is None and time.monotonic() < deadline and not flicked(trace):
            time.sleep(0.05)
        xdotool("key", "Escape")
        out, err = run.communicate(timeout=60)
    finally:
        if run.poll() is None:
            run.kill()
            run.wait()
    assert run.returncode == 0, err
    assert "previewed" in out and "screenshot in" in out
    assert re.search(r"^events: .*\bturned [1-9]", out, re.MULTILINE)  # counted as it happened
    picture = np.asarray(Image.open(shot).convert("RGB"))
    assert picture.shape == (480, 640, 3)  # the window's new size, drawn at its new aspect
    assert picture.std() > 10 and len(np.unique(picture.reshape(-1, 3), axis=0)) > 20
    samples = load_trace(trace).samples
    head = samples[-1].head
    assert head is not None and head.pose.position.z < -0.3  # W walked forward (-Z)
    flick = RigSettings().flick_on
    assert any(s.right.stick[0] >= flick for s in samples)  # C flicked the right stick


SCORE_UNDER_THE_HELP = """
    import json
    from pathlib import Path

    import numpy as np

    from playspace.app import build_world
    from playspace.components.text import ScreenText
    from playspace.formats.scene import load_scene
    from playspace.net.scoreline import add_score_line, show_score
    from playspace.render.preview import Preview, frame_view, preview_window
    from playspace.render.text import FONT_PIXELS, rasterise
    from playspace.systems.input import LiveSource
    from playspace.systems.input.simulator import Simulator

    score = [None]
    simulator = Simulator()
    with preview_window("score", (1280, 720)) as window:
        world, _ = build_world(load_scene(Path("examples/scenes/playground.toml")),
                               LiveSource(simulator.sample))
        add_score_line(world, lambda _: score[0])  # as a client shows the host's score
        world.advance(1 / 60)
        preview = Preview(world, simulator, window)
        preview.draw(1 / 60, 1)
        without = preview.read().astype(int)
        score[0] = "host 2 - bob 1"
        show_score(world)
        preview.draw(1 / 60, 1)
        shown = preview.read().astype(int)
        size = window.buffer_size
        view = frame_view(world, size)
    # the plate's size on screen: the rasterised line, at the screen text's angular height
    plate = np.array(rasterise(world.resource(ScreenText).lines[-1])[1], dtype=float)
    pixels = plate * ScreenText().height / FONT_PIXELS * view.projection[1, 1] / 2 * size[1]
    # the figures at the bottom change every frame (the systems' times): the top half only
    rows, columns = np.nonzero(np.abs(shown - without)[: size[1] // 2].max(axis=2) > 8)
    print(json.dumps({
        "help": preview.overlay.top,
        "score": [int(columns.min()), int(rows.min()), int(columns.max()), int(rows.max())],
        "plate": pixels.tolist(),
    }))
"""


@pytest.mark.slow
def test_the_score_line_sits_under_the_key_help_in_a_real_window(xvfb: str) -> None:
    """A networked match's score line (the game's screen text) and the preview's key help
    share the window's top left: the score is drawn below the help's last line, where both
    can be read, not under it (pixels of a real window, with the score shown and not: the
    whole of its plate shows, and starts below the help)."""
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(SCORE_UNDER_THE_HELP)],
        capture_output=True, text=True, timeout=120, check=False, cwd=ROOT,
        env={**without_display(), "DISPLAY": xvfb},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    said = json.loads(done.stdout.splitlines()[-1])
    left, top, right, bottom = said["score"]
    width, height = said["plate"]
    assert said["help"] > 0  # the help at the top
    assert top >= said["help"]  # the score starts below the help...
    assert right - left + 1 == pytest.approx(width, abs=3)  # ...and shows whole, at the left
    assert bottom - top + 1 == pytest.approx(height, abs=3)
    assert left < 1280 / 4


def _escape_until_closed(
    env: dict[str, str], window: str, process: subprocess.Popen[str], seconds: float = 60.0
) -> tuple[str, str]:
    """Escape, sent to the `window` itself and again every half second until its `process`
    exits, and what the process said. A window can be found by its name a moment before it is
    mapped, and with no window manager a key typed goes to the window under the pointer, which
    an earlier test may have left elsewhere: either way a key pressed once can go nowhere."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        escape = ["xdotool", "key", "--window", window, "Escape"]
        subprocess.run(escape, env=env, capture_output=True, timeout=30)  # fails once it is gone
        try:
            return process.communicate(timeout=0.5)
        except subprocess.TimeoutExpired:
            continue
    return process.communicate(timeout=1.0)


def test_the_demo_in_a_window_says_what_plays_the_keys_and_what_happened(
    xvfb: str, tmp_path: Path
) -> None:
    """On opening, what to do in the kitchen and the window's keys (its own help line, made
    from the simulator's bindings); on closing, what happened, as the headless demo says it."""
    need_program("xdotool", "xdotool")
    env = {**without_display(), "DISPLAY": xvfb}
    demo = started(env, "demo", cwd=tmp_path)
    try:
        window = xdo(env, "search", "--sync", "--name", "playspace: kitchen.py").split()[0]
        out, err = _escape_until_closed(env, window, demo)
    finally:
        if demo.poll() is None:
            demo.kill()
            demo.wait()
    assert demo.returncode == 0, err
    plays, keys, *said = out.splitlines()
    assert plays.startswith(
        "playspace demo: the kitchen (BeeBeeQ) in the preview window: grab the pan (hold G/LMB)"
    )
    assert keys.startswith(f"keys: {Simulator().help_line()} | F5 camera (head) | F3 physics")
    assert keys.endswith("Esc quit")
    assert re.fullmatch(
        r"playspace demo: the kitchen \(BeeBeeQ\), [1-9]\d* fixed steps \([\d.]+ s\) played "
        r"in the window",
        said[0],
    )
    assert re.fullmatch(
        r"grabs \d+, throws \d+, hits \d+, floor snaps \d+, steps with a held object ghosted \d+",
        said[1],
    )
    assert re.fullmatch(r"bees hit: \d+", said[2]) and len(said) == 3
    assert not list(tmp_path.iterdir())  # the window writes nothing


def test_ctrl_c_in_the_demos_window_is_said_in_the_demos_name(xvfb: str, tmp_path: Path) -> None:
    need_program("xdotool", "xdotool")
    env = {**without_display(), "DISPLAY": xvfb}
    demo = started(env, "demo", cwd=tmp_path)
    try:
        xdo(env, "search", "--sync", "--name", "playspace: kitchen.py")
        demo.send_signal(signal.SIGINT)
        _, err = demo.communicate(timeout=60)
    finally:
        if demo.poll() is None:
            demo.kill()
            demo.wait()
    assert demo.returncode == 130
    assert _said(err) == "playspace demo: interrupted\n"


def test_a_failing_system_in_the_window_is_one_line(xvfb: str, tmp_path: Path) -> None:
    (tmp_path / "scene.toml").write_text(
        '[[box]]\nname = "floor"\nsize = [4, 0.2, 4]\nposition = [0, -0.1, 0]\n'
    )
    (tmp_path / "game.py").write_text(
        "from playspace.prelude import Phase, World, system\n\nSCENE = 'scene.toml'\n\n\n"
        "@system(Phase.FIXED)\ndef late_bug(world: World) -> None:\n"
        "    if world.fixed_time.step == 9:\n        raise ValueError('no bees')\n\n\n"
        "def build(world: World) -> None:\n    world.add_systems(late_bug)\n"
    )
    env = {**without_display(), "DISPLAY": xvfb}
    window = started(env, "run", "game.py", "--quit-after", "5000", cwd=tmp_path)
    _, err = window.communicate(timeout=120)
    assert window.returncode == 1
    assert _said(err) == (
        "playspace run: system 'late_bug' (game.py:9) failed at fixed step 9: ValueError: no bees\n"
    )


@pytest.mark.parametrize(
    ("device", "said"),
    [
        ("No Output", ""),
        (
            "Valve Index",
            "no sound device named 'Valve Index' (there are: No Output); playing through the "
            "default device\n",
        ),
    ],
    ids=["there", "missing"],
)
def test_the_preview_plays_through_the_sound_device_it_is_given(
    xvfb: str, tmp_path: Path, device: str, said: str
) -> None:
    """``--audio-device`` reaches the window's sound: OpenAL's null device (it mixes and plays
    nowhere) is opened by its name; a name that is not there is said, with the names that
    are, and the window plays through the default device instead."""
    (tmp_path / "scene.toml").write_text(
        '[[box]]\nname = "floor"\nsize = [4, 0.2, 4]\nposition = [0, -0.1, 0]\n'
    )
    env = {**without_display(), "DISPLAY": xvfb, "ALSOFT_DRIVERS": "null"}
    window = started(env, "run", "scene.toml", "--quit-after", "3", "--audio-device", device,
                     cwd=tmp_path)  # fmt: skip
    _, err = window.communicate(timeout=120)
    assert window.returncode == 0, err
    assert err == said


def _said(err: str) -> str:
    """What the window said besides the one line on a machine with no sound device."""
    return "".join(line for line in err.splitlines(True) if not line.startswith("no sound: "))


def test_the_preview_says_why_the_view_went_dark_when_the_player_walked_into_a_wall() -> None:
    """Walked into a wall, the view fades to black: the overlay says why and how to get out;
    standing in the open, or blinking through a teleport, it says nothing."""
    from playspace.components.physics import Box
    from playspace.render.preview import fade_line
    from tests.physics_helpers import static
    from tests.rig_helpers import head_at, rig_world

    def wall(world: World) -> None:
        static(world, Box((4.0, 2.6, 0.2)), spatial.vec3(0.0, 1.3, -1.0))

    walking = rig_world(lambda t: head_at(0.0, 1.7, -min(t, 1.0) * 1.5), build=wall)
    walking.world.step(45)
    assert fade_line(walking.world) is None  # not there yet
    walking.world.step(90)
    said = fade_line(walking.world)
    assert said is not None and "the view is dark" in said and "step back" in said
    standing = rig_world(lambda t: head_at(0.0, 1.7, 0.0))
    standing.world.step(10)
    assert fade_line(standing.world) is None
    rig = rig_of(standing.world)
    standing.world.get(rig.head, ViewFade).amount = 1.0  # a blink: dark, but not blocked
    assert fade_line(standing.world) is None
