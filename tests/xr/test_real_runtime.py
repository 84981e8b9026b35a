"""playspace in a real OpenXR runtime: Monado, its remote driver playing the examples' traces.

Each test runs ``playspace run ... --vr --drive TRACE`` in a fresh process, as a user would,
against Monado with the null compositor (no display, no GPU) at the display rate the test
chooses, and checks what a player would notice against the headless replay of the same trace:
the grabs, ghosts and hits of the kitchen, the snowball's speed and the target it hits, the
floor snapping on the stairs, a recording that replays the session, and how a run ends (Ctrl-C,
the runtime killed, focus taken away and given back). They run only where ``XR_RUNTIME_JSON``
names a runtime (see :mod:`realxr`), and take about a minute together.

How the comparison can hold at all: the trace's clock starts when the session is first FOCUSED
(:mod:`playspace.xr.monado`), and the world starts at the session's first frame a few frames
earlier, so the headset run sees the trace some tens of milliseconds later in world time than
the replay does, and never at the same phase of the fixed steps. Events are compared by what
they are and in what order, not by step.
"""

from __future__ import annotations

import io
import math
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from dataclasses import replace
from pathlib import Path

import pytest

from playspace import spatial
from playspace.components import Transform
from playspace.loops.replay import run_headless
from playspace.net import Client, Host, Network
from playspace.net.session import paced
from playspace.systems.input import device_pose, hand_input, load_trace, standing_frame, write_trace
from tests.realxr import (
    CALL,
    EXAMPLES,
    Live,
    Run,
    Telemetry,
    needs_display_rate,
    needs_runtime,
    playspace,
    remote_port,
    runtime_manifest,
    service,
    vr_env,
)
from tests.rig_helpers import rig_of

pytestmark = needs_runtime

KITCHEN = EXAMPLES / "kitchen.py"
KITCHEN_TRACE = EXAMPLES / "traces/kitchen.jsonl"
SNOWBALL = EXAMPLES / "snowball.py"
SNOWBALL_TRACE = EXAMPLES / "traces/snowball.jsonl"
STAIRS = EXAMPLES / "stairs.toml"
STAIRS_TRACE = EXAMPLES / "traces/stairs.jsonl"

THROW_TOLERANCE = 0.05  # a release speed within 5 % of the headless replay's
PHASES = 4  # headless replays, each with the trace a quarter step later (see snowball_reference)
FOCUSED = r"^OpenXR: controllers: Valve Index"  # printed when the session is first FOCUSED


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    runtime_manifest()  # XR_RUNTIME_JSON is set: a missing manifest fails here, once
    return tmp_path_factory.mktemp("realxr")


def vr_run(target: Path, trace: Path, hz: int, seconds: float, *extra: str | Path) -> Run:
    with remote_port():
        return playspace(
            "run", target, "--vr", "--drive", trace, "--seconds", str(seconds), *extra,
            env=vr_env(hz),
        )  # fmt: skip


def headless(target: Path, telemetry: Path, *extra: str | Path) -> Telemetry:
    done = playspace("run", target, "--headless", "--telemetry", telemetry, *extra)
    assert done.returncode == 0, done.describe()
    return Telemetry.read(telemetry)


def test_doctor_finds_monado_and_the_remote_headset(workdir: Path) -> None:
    with remote_port():
        done = playspace("doctor", env=vr_env(90))
    assert done.returncode == 0, done.describe()
    assert re.search(r"^OpenXR runtime: Monado", done.stdout, re.MULTILINE), done.describe()
    assert "OpenXR headset: Monado: Remote HMD" in done.stdout, done.describe()


def test_a_headset_run_plays_through_the_sound_device_it_is_given(workdir: Path) -> None:
    """``--vr --audio-device``: the name reaches the headset run's sound; on OpenAL's null
    device a name that is not there is said, with the names that are (the control: the
    null device's own name is opened and nothing is said)."""
    said = "no sound device named 'Valve Index' (there are: No Output)"
    for device, heard in (("Valve Index", True), ("No Output", False)):
        with remote_port():
            done = playspace(
                "run", STAIRS, "--vr", "--drive", STAIRS_TRACE, "--seconds", "1",
                "--audio-device", device, env={**vr_env(90), "ALSOFT_DRIVERS": "null"},
            )  # fmt: skip
        assert done.returncode == 0, done.describe()
        assert (said in done.stderr) == heard, done.describe()


# --- the kitchen: grab, ghost, hit ---------------------------------------------------------


@pytest.mark.slow
def test_the_kitchen_grabs_ghosts_and_hits_as_the_headless_replay_does(workdir: Path) -> None:
    replayed = headless(KITCHEN, workdir / "kitchen-headless.jsonl")
    run = vr_run(KITCHEN, KITCHEN_TRACE, 90, 7.5, "--telemetry", workdir / "kitchen-vr.jsonl")
    assert run.returncode == 0, run.describe()
    played = Telemetry.read(workdir / "kitchen-vr.jsonl")
    kinds = ("grabbed", "hit", "released")
    assert replayed.happenings(*kinds) == [
        ("grabbed", "pan"), ("hit", "pan"), ("released", "pan"),
    ]  # fmt: skip
    assert played.happenings(*kinds) == replayed.happenings(*kinds), run.describe()
    bees = [played.name(e["opponent"]) for _, e in played.events("hit")]
    assert bees == [replayed.name(e["opponent"]) for _, e in replayed.events("hit")]
    # the pan pushed into the pantry wall shows as a ghost there, about as long as replayed
    assert played.ghost_steps() >= replayed.ghost_steps() // 2 > 0, run.describe()
    assert "bees hit: 1" in run.stdout.splitlines(), run.describe()


# --- the snowball: the throw's speed and the target ----------------------------------------


@pytest.fixture(scope="module")
def snowball_reference(workdir: Path) -> float:
    """The release speed of the headless replay of the snowball's trace (which carries the
    hand's velocities, as a headset recording does, and as the remote driver reports them).
    Averaged over PHASES replays, each with the trace a fraction of a step later: the hand is
    slowing down when the grip opens, so the speed depends on where between two steps the
    release falls (7.3-7.6 m/s at 90 Hz), and a headset run falls anywhere."""
    trace = load_trace(SNOWBALL_TRACE)
    speeds = []
    for k in range(PHASES):
        shift = k / PHASES / 90.0
        shifted = [replace(frame, time=round(frame.time + shift, 9)) for frame in trace.samples]
        path = workdir / f"snowball-phase{k}.jsonl"
        write_trace(path, shifted)
        telemetry = io.StringIO()
        run_headless(SNOWBALL, path, telemetry, None, 90.0)
        released = Telemetry.parse(telemetry.getvalue())
        assert len(released.release_speeds()) == 1
        speeds += released.release_speeds()
    return sum(speeds) / len(speeds)


@pytest.fixture(scope="module")
def snowball_at_90(workdir: Path) -> Run:
    """The snowball at a 90 Hz display, its session recorded too."""
    return vr_run(
        SNOWBALL, SNOWBALL_TRACE, 90, 3.5,
        "--telemetry", workdir / "snowball-90.jsonl", "--record", workdir / "snowball-90-rec.jsonl",
    )  # fmt: skip


def assert_the_throw(run: Run, telemetry: Telemetry, reference: float) -> None:
    assert run.returncode == 0, run.describe()
    speeds = telemetry.release_speeds()
    assert len(speeds) == 1, f"throws: {speeds}\n{run.describe()}"
    for speed in speeds:
        assert abs(speed - reference) <= THROW_TOLERANCE * reference, (
            f"released at {speed:.3f} m/s, the headless replay at {reference:.3f} m/s\n"
            f"{run.describe()}"
        )
    assert re.search(r"^target hits: .*target 5m: [1-9]", run.stdout, re.MULTILINE), run.describe()


@pytest.mark.slow
def test_the_snowball_leaves_the_hand_as_replayed_at_90_hz(
    snowball_at_90: Run, snowball_reference: float, workdir: Path
) -> None:
    telemetry = Telemetry.read(workdir / "snowball-90.jsonl")
    assert telemetry.header["fixed_hz"] == 90  # the display's rate
    needs_display_rate(90)
    assert_the_throw(snowball_at_90, telemetry, snowball_reference)


@pytest.mark.slow
def test_the_fixed_rate_follows_a_72_hz_display(workdir: Path) -> None:
    run = vr_run(KITCHEN, KITCHEN_TRACE, 72, 1.0, "--telemetry", workdir / "kitchen-72.jsonl")
    assert run.returncode == 0, run.describe()
    telemetry = Telemetry.read(workdir / "kitchen-72.jsonl")
    assert telemetry.header["fixed_hz"] == 72, telemetry.header
    assert 0.9 * 72 <= len(telemetry.rows) <= 1.3 * 72 + 20, len(telemetry.rows)


@pytest.mark.slow
def test_the_snowball_leaves_the_hand_as_replayed_at_72_hz_with_90_hz_steps(
    snowball_reference: float, workdir: Path
) -> None:
    run = vr_run(
        SNOWBALL, SNOWBALL_TRACE, 72, 3.5,
        "--fixed-hz", "90", "--telemetry", workdir / "snowball-72.jsonl",
    )  # fmt: skip
    telemetry = Telemetry.read(workdir / "snowball-72.jsonl")
    assert telemetry.header["fixed_hz"] == 90
    frames = run.frames_drawn()
    # a 72 Hz display draws fewer frames than the 90 steps a second it runs
    assert frames is not None and frames < 0.9 * len(telemetry.rows), run.describe()
    needs_display_rate(72)
    assert_the_throw(run, telemetry, snowball_reference)


def test_a_recorded_headset_session_replays_to_identical_telemetry(
    snowball_at_90: Run, workdir: Path
) -> None:
    assert snowball_at_90.returncode == 0, snowball_at_90.describe()
    replayed = playspace(
        "run", SNOWBALL, "--headless", "--trace", workdir / "snowball-90-rec.jsonl",
        "--telemetry", workdir / "snowball-90-replayed.jsonl",
    )  # fmt: skip
    assert replayed.returncode == 0, replayed.describe()
    live = (workdir / "snowball-90.jsonl").read_bytes()
    assert (workdir / "snowball-90-replayed.jsonl").read_bytes() == live
    assert len(Telemetry.read(workdir / "snowball-90.jsonl").release_speeds()) == 1


SPIN_AXIS = (1.0 / math.sqrt(2.0), 1.0 / math.sqrt(2.0), 0.0)
SPIN = 8.0  # rad/s


def spinning_trace(path: Path) -> None:
    """The right hand takes a snowball, turns it at SPIN about SPIN_AXIS (tilted, and the hand
    tilted too, so the controller's frame is nowhere near tracking space's) and lets go."""
    axis = spatial.vec3_from(SPIN_AXIS)
    tilt = spatial.from_axis_angle(spatial.vec3(0.0, 0.0, 1.0), 0.7)
    frames = []
    for i in range(round(2.0 * 90) + 1):
        t = i / 90
        turned = spatial.from_axis_angle(axis, SPIN * min(max(t - 0.6, 0.0), 0.7))
        right = hand_input((0.3, 0.92, -0.3), grip=1.0 if 0.3 <= t < 1.2 else 0.0)
        assert right.pose is not None
        pose = spatial.Pose(right.pose.pose.position, spatial.multiply(turned, tilt))
        right = replace(right, pose=replace(right.pose, pose=pose))
        frames.append(replace(standing_frame(), time=round(t, 6), right=right))
    write_trace(path, frames)


@pytest.mark.slow
def test_a_spinning_release_keeps_the_spin_of_the_hand(tmp_path: Path) -> None:
    """The runtime reports the angular velocity it is sent turned by the controller's
    orientation; the driver sends it turned back, so the snowball leaves spinning as the hand
    did (sent unturned, it left at [4.0, 4.6, -5.1] rad/s instead of [5.7, 5.7, 0])."""
    trace = tmp_path / "spin.jsonl"
    spinning_trace(trace)
    spin = [SPIN * c for c in SPIN_AXIS]
    replayed = headless(SNOWBALL, tmp_path / "spin-headless.jsonl", "--trace", trace)
    run = vr_run(SNOWBALL, trace, 90, 2.3, "--telemetry", tmp_path / "spin-vr.jsonl")
    assert run.returncode == 0, run.describe()
    played = Telemetry.read(tmp_path / "spin-vr.jsonl")
    for telemetry in (replayed, played):
        releases = [e["angular"] for _, e in telemetry.events("released")]
        assert len(releases) == 1, run.describe()
        error = math.dist(releases[0], spin)
        assert error <= THROW_TOLERANCE * SPIN, f"spin {releases[0]}, expected {spin}"


# --- the stairs: the floor snaps -----------------------------------------------------------


@pytest.mark.slow
def test_the_floor_snaps_on_the_stairs_as_replayed(workdir: Path) -> None:
    """Walking up the stairs (four snaps up), then smooth movement down (one down) by 8 s."""
    horizon = 8.0
    replayed = headless(
        STAIRS, workdir / "stairs-headless.jsonl", "--trace", STAIRS_TRACE,
        "--seconds", str(horizon),
    )  # fmt: skip
    run = vr_run(
        STAIRS, STAIRS_TRACE, 90, horizon + 0.5, "--telemetry", workdir / "stairs-vr.jsonl"
    )
    assert run.returncode == 0, run.describe()
    played = Telemetry.read(workdir / "stairs-vr.jsonl")

    def snaps(telemetry: Telemetry) -> list[str]:
        return [
            "up" if e["dy"] > 0 else "down"
            for t, e in telemetry.events("floor_snapped")
            if t <= horizon
        ]

    assert snaps(replayed) == ["up", "up", "up", "up", "down"]
    assert snaps(played) == snaps(replayed), run.describe()


# --- a panel: pointed at and clicked with the controller ----------------------------------


@pytest.mark.slow
def test_the_settings_menu_is_clicked_through_the_headset_as_replayed(workdir: Path) -> None:
    """The settings example's trace aims the right controller at the panel and pulls the
    trigger on four widgets: through the runtime's controller actions, the same choices."""
    settings = EXAMPLES / "settings.py"
    replayed = playspace("run", settings, "--headless")
    assert replayed.returncode == 0, replayed.describe()
    chosen = "chosen: turn smooth, snap 45, slope off, vignette off;"
    assert chosen in replayed.stdout, replayed.describe()
    run = vr_run(settings, EXAMPLES / "traces/settings.jsonl", 90, 6.0)
    assert run.returncode == 0, run.describe()
    assert chosen in run.stdout, run.describe()


# --- how a run ends ------------------------------------------------------------------------


def test_ctrl_c_ends_the_run_cleanly(workdir: Path) -> None:
    with (
        remote_port(),
        Live(
            "run", KITCHEN, "--vr", "--drive", KITCHEN_TRACE, "--seconds", "60",
            "--telemetry", workdir / "ctrl-c.jsonl", env=vr_env(90),
        ) as app,
    ):  # fmt: skip
        app.wait_for_line(FOCUSED)
        time.sleep(1.0)
        interrupted = time.monotonic()
        app.signal(signal.SIGINT)
        run = app.finish(30)
    assert run.returncode == 130, run.describe()  # as a shell says a Ctrl-C'd command ended
    written = (workdir / "ctrl-c.jsonl").read_text()
    assert written.endswith("\n") and len(written.splitlines()) > 50  # kept, whole lines
    assert "OpenXR: stopped: interrupted" in run.stdout, run.describe()
    assert "Traceback" not in run.stderr and not run.own_errors, run.describe()
    assert run.seconds - (interrupted - app.started) < 10, run.describe()


def test_a_killed_runtime_ends_the_run_with_one_line(tmp_path: Path) -> None:
    with (
        remote_port(),
        service(90, tmp_path) as monado,
        Live(
            "run", KITCHEN, "--vr", "--drive", KITCHEN_TRACE, "--seconds", "60",
            env=monado.env(),
        ) as app,
    ):  # fmt: skip
        app.wait_for_line(FOCUSED)
        time.sleep(1.0)
        killed = time.monotonic()
        monado.kill()
        run = app.finish(30)
    assert run.returncode == 1, run.describe()
    assert "Traceback" not in run.stderr, run.describe()
    assert len(run.own_errors) == 1, run.describe()
    (line,) = run.own_errors
    assert line.startswith("playspace run --vr: stopped:") and CALL.search(line), line
    assert run.seconds - (killed - app.started) < 15, run.describe()


# --- focus taken away and given back -------------------------------------------------------

SQUEEZES = ((1.0, 1.8), (3.6, 4.4))  # seconds of the focus trace with the grip squeezed
FOCUS_BACK = 2.6  # seconds after the first focus when the focus is given back
PROBE = "left_hand"  # the hand that keeps moving, so held tracking shows
FOCUS_RUN_SECONDS = 5.5
FOCUS_TRACE_SECONDS = 6.5  # longer than the run: the probe never stops with the trace's end


def focus_trace(path: Path) -> None:
    """The right hand over the snowball pile squeezing twice; the left hand moving all the
    while, away from everything (its pose stops in the telemetry while the session is not
    FOCUSED: the world gets no hands then)."""
    frames = []
    for i in range(round(FOCUS_TRACE_SECONDS * 90) + 1):
        t = i / 90
        squeezed = any(start <= t < end for start, end in SQUEEZES)
        probe = (-0.3 + 0.1 * math.sin(2 * math.pi * t), 1.0, -0.1)
        frames.append(
            replace(
                standing_frame(),
                time=round(t, 6),
                left=hand_input(probe),
                right=hand_input((0.3, 0.92, -0.3), grip=1.0 if squeezed else 0.0),
            )
        )
    write_trace(path, frames)


@pytest.mark.slow
def test_no_grab_while_another_application_has_the_focus(tmp_path: Path) -> None:
    """A second application takes the focus (``monado-ctl -p``) right after the first is
    FOCUSED and gives it back at FOCUS_BACK: the squeeze in between grabs nothing, the one
    after grabs, as in the headless replay where both do."""
    trace = tmp_path / "focus.jsonl"
    focus_trace(trace)
    replayed = headless(SNOWBALL, tmp_path / "focus-headless.jsonl", "--trace", trace)
    grabs = [t for t, _ in replayed.events("grabbed")]
    assert len(grabs) == 2 and SQUEEZES[0][0] <= grabs[0] <= SQUEEZES[0][1] + 0.1

    telemetry = tmp_path / "focus-vr.jsonl"
    with (
        remote_port(),
        service(90, tmp_path) as monado,
        Live("run", STAIRS, "--vr", "--seconds", "60", env=monado.env()) as other,
    ):
        other.wait_for_line(r"^OpenXR: controllers")  # the other application is running
        with Live(
            "run", SNOWBALL, "--vr", "--drive", trace, "--seconds", str(FOCUS_RUN_SECONDS),
            "--telemetry", telemetry, env=monado.env(),
        ) as app:  # fmt: skip
            focused = app.wait_for_line(FOCUSED)
            clients = monado.clients()
            monado.ctl("-p", str(clients["stairs"]))
            taken = time.monotonic() - focused
            time.sleep(max(FOCUS_BACK - (time.monotonic() - focused), 0.0))
            monado.ctl("-p", str(clients["snowball"]))
            back = time.monotonic() - focused
            run = app.finish(60)
    assert run.returncode == 0, run.describe()
    played = Telemetry.read(telemetry)
    held = played.still_spans(PROBE, 0.5)
    timing = f"focus taken {taken:.2f} s and given back {back:.2f} s after the first focus"
    assert len(held) == 1, f"{timing}; hands held at {held}\n{run.describe()}"
    (lost, found) = held[0]
    # the focus was away over the whole first squeeze, and back before the second
    assert lost < SQUEEZES[0][0] and SQUEEZES[0][1] < found < SQUEEZES[1][0], (
        f"{timing}; hands held from {lost:.2f} to {found:.2f} s"
    )
    grabbed = [t for t, _ in played.events("grabbed")]
    assert len(grabbed) == 1 and found < grabbed[0] < SQUEEZES[1][1] + 0.2, (
        f"{timing}; hands held from {lost:.2f} to {found:.2f} s; grabs at {grabbed}"
    )


# --- an input-only session ----------------------------------------------------------------

PACED = """
import sys, time
from playspace.loops.headset import open_backend, run_vr
stamps = []
def opener(name, graphics):
    backend = open_backend(name, graphics)
    sync = backend.sync
    def timed(at):
        stamps.append(time.monotonic())
        return sync(at)
    backend.sync = timed
    return backend
status = run_vr(sys.argv[1], seconds=3.0, opener=opener)
later = stamps[20:]
print("rate", (len(later) - 1) / (later[-1] - later[0]))
sys.exit(status)
"""


@pytest.mark.slow
def test_an_input_only_session_keeps_its_rate_within_1_percent(workdir: Path) -> None:
    """No GL, no frames to pace the loop (``XR_MND_headless``): it reads the runtime on a
    schedule of its own, 90 times a second, whatever each turn's work costs."""
    with remote_port():
        done = subprocess.run(
            [sys.executable, "-c", PACED, str(EXAMPLES / "kitchen.toml")],
            cwd=EXAMPLES.parent, env=vr_env(90), capture_output=True, text=True,
            timeout=60, check=False,
        )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    rate = float(done.stdout.split("rate")[-1])
    assert rate == pytest.approx(90.0, rel=0.01)


# --- a networked match, joined from the headset ----------------------------------------------


@pytest.mark.slow
def test_a_player_joins_a_match_from_the_headset_and_walks_the_host_s_rig(
    workdir: Path,
) -> None:
    """``playspace join --vr``: the headset's player (Monado, driven by a trace walking 1 m
    forward physically) takes the host's seat, and the host's body of that player walks with
    them (when they leave, the seat's rig stands again where the room starts)."""
    walk = workdir / "walk.jsonl"
    frames = [
        replace(
            standing_frame(), time=i / 90, head=device_pose((0.0, 1.7, -0.5 * min(i / 90, 2.0)))
        )
        for i in range(round(3.0 * 90))
    ]
    write_trace(walk, frames, 90.0)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        endpoint = f"tcp/127.0.0.1:{probe.getsockname()[1]}"
    host = Host(SNOWBALL, Network("vr", listen=[endpoint]))
    stop, feet = False, list[float]()

    def step() -> None:
        host.step()
        feet.append(host.world.get(rig_of(host.world).body, Transform).position.z)

    hosting = threading.Thread(target=lambda: paced(step, 90.0, None, lambda: stop))
    hosting.start()
    try:
        with remote_port():
            run = playspace(
                "join", SNOWBALL, "--vr", "--drive", walk, "--seconds", "4", "--player", "vic",
                "--session", "vr", "--connect", endpoint, env=vr_env(90),
            )  # fmt: skip
        assert run.returncode == 0, run.describe()
    finally:
        stop = True
        hosting.join()
        host.close()
    assert "joined session 'vr' as vic" in run.stdout, run.describe()
    assert min(feet) < -0.9, run.describe()  # walked 1 m forward in the room, on the host


# --- a networked match, hosted by a player in the headset ------------------------------------

HOST_PLAYER = "hana"
# seconds the host's player stands before walking, counted from the headset's start: the host
# starts its world and publishes, and the watcher connects (on a busy two-core CI run, 1.5 s
# was once too few: the watcher's first sight was already 16 cm along the walk)
HOST_STANDS = 3.0
HOST_SECONDS = HOST_STANDS + 3.5  # the walk's 2 s and a little standing at its end


def forward(t: float) -> float:
    """Metres walked by `t`: standing for HOST_STANDS, then 0.5 m/s for 2 s."""
    return min(max(t - HOST_STANDS, 0.0), 2.0) * 0.5


@pytest.mark.slow
def test_the_host_plays_in_the_headset_and_a_watcher_sees_them_walk(workdir: Path) -> None:
    """``playspace host --play --vr``: the host's own player is in the headset (Monado, driven
    by a trace walking 1 m forward physically), the host's world steps with the headset's
    frames and hosts the match from them, and a watcher on the network sees the host's player
    walk that metre; the host's report lines still print once the session ends, and the
    match's recording replays headless to the host's telemetry."""
    walk = workdir / "host-walk.jsonl"
    frames = [
        replace(standing_frame(), time=i / 90, head=device_pose((0.0, 1.7, -forward(i / 90))))
        for i in range(round((HOST_SECONDS - 0.5) * 90))
    ]
    write_trace(walk, frames, 90.0)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        endpoint = f"tcp/127.0.0.1:{probe.getsockname()[1]}"
    telemetry, record = workdir / "host-vr.jsonl", workdir / "host-vr-match.jsonl"
    head = f"{HOST_PLAYER}/head"
    seen: list[float] = []  # the host's player's head, forward (z), as the watcher draws it
    with (
        remote_port(),
        Live(
            "host", SNOWBALL, "--play", "--vr", "--drive", walk, "--seconds", str(HOST_SECONDS),
            "--session", "vrh", "--listen", endpoint, "--player", HOST_PLAYER,
            "--telemetry", telemetry, "--record", record, env=vr_env(90),
        ) as app,
    ):  # fmt: skip
        watcher = Client(Network("vrh", connect=[endpoint]), "obs", observer=True)
        try:
            watcher.wait_for_host(60.0)
            while app.process.poll() is None:
                names = {name: entity for entity, name in watcher.remote.names.items()}
                pose = watcher.poses().get(names.get(head, -1))
                if pose is not None:
                    seen.append(pose.position.z)
                time.sleep(0.05)
        finally:
            watcher.close()
        run = app.finish(60)
    assert run.returncode == 0, run.describe()
    assert f"playing as {HOST_PLAYER}" in run.stdout, run.describe()
    assert re.search(r"^\d+ fixed steps hosted; refused messages: none$", run.stdout,
                     re.MULTILINE), run.describe()  # fmt: skip
    assert re.search(r"^\d+ bytes of state and events published$", run.stdout, re.MULTILINE)
    # the example's summary, once: the headset run prints it, the host's report does not again
    assert len(re.findall(r"^target hits:", run.stdout, re.MULTILINE)) == 1, run.describe()
    assert len(seen) > 20, f"the watcher saw {head} {len(seen)} times\n{run.describe()}"
    # from where they stood when the watcher came, a metre forward, and staying there
    walked = f"{head} z: {[round(z, 2) for z in seen]}\n{run.describe()}"
    assert seen[0] > -0.1 and min(seen) < -0.9 and seen[-1] < -0.9, walked
    # the match played from the headset is a recording, as every match: it replays headless
    # to the host's telemetry, byte for byte
    replayed = workdir / "host-vr-replayed.jsonl"
    done = playspace("run", SNOWBALL, "--headless", "--trace", record, "--telemetry", replayed)
    assert done.returncode == 0, done.describe()
    assert replayed.read_bytes() == telemetry.read_bytes()
