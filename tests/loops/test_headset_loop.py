"""The headset loop against a scripted runtime (tests/xr_fake.py): the session's life, input at
each fixed step's own time at any display rate, the fixed rate following the display, haptics,
recording and telemetry, and what ``run_vr`` prints."""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from playspace.app import build_world
from playspace.components import DeviceRole, TrackedDevice, Transform
from playspace.components.haptics import HapticPulse, HapticQueue
from playspace.components.input import InputSource, InputState
from playspace.components.interaction import GrabSettings
from playspace.components.session import HeadsetSession, SessionState
from playspace.ecs import Phase, SystemFailed, World, system
from playspace.formats.scene import load_scene
from playspace.loops.headset import run_vr
from playspace.loops.replay import run_headless
from playspace.loops.vr_loop import EXIT_GRACE, VrLoop
from playspace.spatial import Pose, length
from playspace.systems.input import ReplaySource, load_trace
from playspace.systems.input.session import session_focused
from playspace.systems.interaction.events import Released
from playspace.xr import bindings
from playspace.xr.state import ReferenceSpaceChanged, StateChanged
from playspace.xr.views import EyeTarget, Fov
from tests.rig_helpers import rig_of
from tests.xr_fake import EYE_FOV, TOUCH, FakeRuntime

ROOT = Path(__file__).resolve().parents[2]
SNOWBALL = ROOT / "examples" / "snowball.py"
SCENE = '[[box]]\nname = "floor"\nsize = [6, 0.2, 6]\nposition = [0, -0.1, 0]\n'


@pytest.fixture
def scene(tmp_path: Path) -> Path:
    path = tmp_path / "tiny.toml"
    path.write_text(SCENE)
    return path


Drawn = tuple[Pose, Fov, EyeTarget, float]
LoopOn = Callable[..., tuple[VrLoop, list[Drawn]]]


@pytest.fixture
def loop_on(scene: Path) -> Iterator[LoopOn]:
    loops: list[VrLoop] = []

    def make(
        runtime: FakeRuntime,
        render: bool = True,
        fixed_hz: float | None = None,
        plugins: tuple[object, ...] = (),
    ) -> tuple[VrLoop, list[Drawn]]:
        drawn: list[Drawn] = []

        def build(source: InputSource, hz: float) -> World:
            return build_world(load_scene(scene), source, hz, plugins=plugins)[0]

        def eyes(world: World) -> Callable[[Pose, Fov, EyeTarget], None]:
            def render_eye(pose: Pose, fov: Fov, target: EyeTarget) -> None:
                drawn.append(
                    (
                        pose,
                        fov,
                        target,
                        world.get(rig_of(world).origin, InputState).frame.right.grip,
                    )
                )
                if len(drawn) == 1:
                    world.resource(HapticQueue).send(HapticPulse(DeviceRole.RIGHT_HAND, 0.5, 0.01))

            return render_eye

        loop = VrLoop(
            runtime, build, fixed_hz=fixed_hz, eyes=eyes if render else None,
            out=io.StringIO(), clock=runtime.clock, sleep=runtime.sleep,
        )  # fmt: skip
        loops.append(loop)
        return loop, drawn

    yield make
    for loop in loops:
        if loop.world is not None:
            loop.world.close()


def printed(loop: VrLoop) -> str:
    out = loop.out
    assert isinstance(out, io.StringIO)
    return out.getvalue()


# --- the session's life -------------------------------------------------------------------


def test_a_headset_run_from_ready_to_exit(loop_on: LoopOn) -> None:
    runtime = FakeRuntime()
    loop, drawn = loop_on(runtime)
    assert loop.run(seconds=0.5) == "0.5 s are over"
    calls = runtime.calls
    assert calls[0] == "begin" and calls[-2:] == ["end", "destroy"]  # only then destroy
    assert "wait_frame" in calls[calls.index("request_exit") :]  # frames until STOPPING
    frames = calls.count("wait_frame")
    assert frames == calls.count("end_frame") and 45 <= frames <= 50  # 0.5 s at 90 Hz, then stop
    world = loop.world
    assert world is not None
    assert world.fixed_time.elapsed == pytest.approx(frames * runtime.period / 1e9, abs=0.012)
    assert runtime.drawn_frames < frames  # nothing drawn before VISIBLE, nor after
    assert runtime.discarded == 0  # every frame begun was ended
    eye, fov, target, _ = drawn[0]
    assert fov == EYE_FOV and target.color_texture == 10
    start = world.get(rig_of(world).origin, Transform).position
    assert tuple(eye.position) == pytest.approx((start.x - 0.032, start.y + 1.6, start.z), abs=1e-5)
    assert max(d[3] for d in drawn) == 1.0 and drawn[-1][3] == 0.0  # input only while focused
    head = world.get(rig_of(world).head, TrackedDevice)
    assert head.tracked and head.pose.position.y == pytest.approx(1.6)
    assert runtime.pulses == [HapticPulse(DeviceRole.RIGHT_HAND, 0.5, 0.01)]
    com = world.resource(GrabSettings).com_offset
    assert tuple(com) == bindings.PROFILES_BY_PATH[TOUCH].com_offset
    assert printed(loop).splitlines() == ["OpenXR: controllers: Meta Touch"]
    session = world.resource(HeadsetSession)
    assert session is loop.session and session.controllers == "Meta Touch"
    assert session.state is SessionState.IDLE and not session.focused  # ended in order


def test_no_controllers_bound_is_said_once() -> None:
    runtime = FakeRuntime(profile=None)
    loop = VrLoop(runtime, lambda source, hz: World(hz), out=io.StringIO(),
                  clock=runtime.clock, sleep=runtime.sleep)  # fmt: skip
    loop.run(seconds=0.2)
    assert printed(loop).splitlines() == ["OpenXR: controllers: none bound"]


def test_a_system_can_run_only_while_the_session_is_focused(loop_on: LoopOn) -> None:
    states: list[tuple[SessionState, bool]] = []

    def watch(world: World) -> None:
        @system(Phase.FIXED, run_if=session_focused)
        def focused_only(w: World) -> None:
            states.append((w.resource(HeadsetSession).state, True))

        world.add_systems(focused_only)

    runtime = FakeRuntime()
    loop, _ = loop_on(runtime, plugins=(watch,))
    loop.run(seconds=0.3)
    world = loop.world
    assert world is not None
    assert states and {state for state, _ in states} == {SessionState.FOCUSED}
    assert len(states) < world.clock.steps  # not in the frames before FOCUSED, nor after
    with World() as headless:  # no headset: such a system runs as always
        assert session_focused(headless)


def test_recentring_in_local_space_snaps_the_rig_and_remeasures_the_floor(loop_on: LoopOn) -> None:
    from playspace.systems.player.events import Recentered

    runtime = FakeRuntime(stage=False)
    runtime.head_y = 0.4  # LOCAL's origin was set while seated; the player stands now...
    runtime.heights = {8: 0.0}  # ...and recentres: the origin is at the head again
    runtime.script[8] = [ReferenceSpaceChanged()]
    recentred: list[object] = []

    def count(world: World) -> None:
        world.add_systems(system(Phase.LATE, reads=(Recentered,))(
            lambda w: recentred.extend(w.read_events(Recentered, reader="test"))
        ))  # fmt: skip

    loop, _ = loop_on(runtime, plugins=(count,))
    loop.run(seconds=0.15)
    assert loop.world is not None
    head = loop.world.get(rig_of(loop.world).head, TrackedDevice)
    assert head.pose.position.y == pytest.approx(1.6)  # not 1.2: the floor was measured again
    assert len(recentred) == 1


def test_a_session_lost_in_wait_frame_is_destroyed_without_ending_it(loop_on: LoopOn) -> None:
    runtime = FakeRuntime()
    runtime.lost_at = 10
    loop, _ = loop_on(runtime)
    assert loop.run(seconds=5) == "the OpenXR session was lost"
    assert "end" not in runtime.calls and runtime.calls[-1] == "destroy"
    assert runtime.calls.count("wait_frame") == 10 and runtime.calls.count("end_frame") == 9


def test_a_runtime_failing_mid_session_is_destroyed_and_named(loop_on: LoopOn) -> None:
    """Every call fails from frame 12 on (the runtime died): asked to exit, it fails again,
    and the session is destroyed."""
    runtime = FakeRuntime()
    runtime.fails_at = 12
    loop, _ = loop_on(runtime)
    reason = loop.run(seconds=5)
    assert reason == (
        "the OpenXR runtime failed (xrWaitFrame: RuntimeFailureError: the compositor crashed)"
    )
    assert loop.lifecycle.failed and not loop.lifecycle.input_active
    assert "end" not in runtime.calls and runtime.calls[-1] == "destroy"
    assert "request_exit" in runtime.calls
    assert runtime.calls.count("wait_frame") == 13


def test_a_runtime_refusing_one_call_is_ended_in_order_not_destroyed_running(
    loop_on: LoopOn,
) -> None:
    """One frame's call fails but the runtime lives on (it refused a layer, say): destroying
    the running session could crash it, so it is asked to exit and ended, drawing no more."""
    runtime = FakeRuntime()
    runtime.fails_at = 12
    loop, drawn = loop_on(runtime)
    real_wait = runtime.display.wait_frame  # type: ignore[union-attr]

    def fail_once() -> object:
        failing = runtime.frames + 1 == runtime.fails_at
        try:
            return real_wait()
        finally:
            if failing:
                runtime.fails_at = None

    runtime.display.wait_frame = fail_once  # type: ignore[union-attr, method-assign]
    reason = loop.run(seconds=5)
    assert reason.startswith("the OpenXR runtime failed (xrWaitFrame"), reason
    assert loop.lifecycle.failed
    calls = runtime.calls
    assert calls[-2:] == ["end", "destroy"] and "request_exit" in calls
    drawn_after = runtime.drawn_frames
    assert drawn_after <= 12 and len(drawn) == 2 * drawn_after


def test_a_call_saying_loss_pending_stops_as_a_lost_session(loop_on: LoopOn) -> None:
    runtime = FakeRuntime()
    runtime.end_lost_at = 7
    loop, _ = loop_on(runtime)
    assert loop.run(seconds=5) == "the OpenXR session was lost"
    assert not loop.lifecycle.failed
    assert "end" not in runtime.calls and runtime.calls[-1] == "destroy"
    assert runtime.calls.count("end_frame") == 7


def test_a_runtime_that_never_stops_is_given_up_on(loop_on: LoopOn) -> None:
    runtime = FakeRuntime(answers_exit=False)
    loop, _ = loop_on(runtime)
    assert "did not stop the session" in loop.run(seconds=0.1)
    assert runtime.calls[-1] == "destroy" and "end" not in runtime.calls
    assert runtime.clock() == pytest.approx(0.1 + EXIT_GRACE, abs=0.05)


def test_hands_rest_untracked_while_not_focused_and_the_head_still_moves(loop_on: LoopOn) -> None:
    runtime = FakeRuntime()
    loop, _ = loop_on(runtime)
    runtime.script[20] = [StateChanged(SessionState.VISIBLE)]  # the runtime's menu
    loop.run(seconds=0.3)
    world = loop.world
    assert world is not None
    latest = world.get(rig_of(world).origin, InputState).latest
    assert latest.head is not None and latest.right.pose is None and latest.right.grip == 0.0


# --- input-only sessions ------------------------------------------------------------------


def test_an_input_only_session_locates_at_the_runtimes_clock_at_an_even_rate(
    loop_on: LoopOn,
) -> None:
    runtime = FakeRuntime(display=False)
    work = 0.004  # seconds each frame's work takes: the pacing must not add it to the period
    loop, drawn = loop_on(runtime, render=False)
    real_sync, times = runtime.sync, []

    def slow_sync(at: int):  # type: ignore[no-untyped-def]
        times.append(at)
        runtime.sleep(work)
        return real_sync(at)

    runtime.sync = slow_sync  # type: ignore[method-assign]
    loop.run(seconds=2.0)
    assert drawn == [] and runtime.calls[-2:] == ["end", "destroy"]
    rate = (len(times) - 1) / ((times[-1] - times[0]) / 1e9)
    assert rate == pytest.approx(90, rel=0.01)


# --- input at each step's own time, at any display rate ------------------------------------


def release_speeds(into: list[float]) -> Callable[[World], None]:
    """A plugin keeping how fast each released object left the hand."""

    def build(world: World) -> None:
        @system(Phase.LATE, reads=(Released,))
        def released(w: World) -> None:
            into.extend(length(r.linear) for r in w.read_events(Released, reader=released))

        world.add_systems(released)

    return build


@pytest.fixture(scope="module")
def headless_throws() -> list[float]:
    """The snowball example's throws, replayed headless at 90 Hz (the reference)."""
    from playspace.app import load_target

    scene, example = load_target(SNOWBALL)
    assert example is not None and example.trace is not None
    speeds: list[float] = []
    world, _ = build_world(
        scene, ReplaySource(load_trace(example.trace)), 90.0,
        plugins=[release_speeds(speeds), example.build],
    )  # fmt: skip
    with world:
        world.step(round(load_trace(example.trace).duration * 90) + 1)
    assert speeds and max(speeds) > 5.0
    return speeds


@pytest.mark.parametrize("display_hz", [60.0, 72.0, 90.0, 120.0])
def test_throws_leave_at_the_headless_speed_at_any_display_rate(
    display_hz: float, headless_throws: list[float]
) -> None:
    """90 Hz steps under a 60-120 Hz display: each step sees the hand at its own time, so the
    snowball leaves as it does headless (the runtime reports no velocities here, as a trace
    without them: the throw is measured from the poses alone)."""
    trace = load_trace(ROOT / "examples" / "traces" / "snowball.jsonl")
    runtime = FakeRuntime(hz=display_hz, player=ReplaySource(trace))
    speeds: list[float] = []
    out = io.StringIO()
    status = run_vr(
        SNOWBALL, plugins=[release_speeds(speeds)], seconds=trace.duration + 0.2, fixed_hz=90.0,
        opener=lambda name, graphics: runtime, out=out, clock=runtime.clock, sleep=runtime.sleep,
    )  # fmt: skip
    assert status == 0, out.getvalue()
    thrown = [s for s in speeds if s > 1.0]
    expected = [s for s in headless_throws if s > 1.0]
    assert len(thrown) == len(expected)
    for got, want in zip(thrown, expected, strict=True):
        assert got == pytest.approx(want, rel=0.05)
    assert "target hits: target 5m: 1;" in out.getvalue()


# --- the fixed rate follows the display ---------------------------------------------------


@pytest.mark.parametrize("extension", [False, True])
def test_the_fixed_rate_is_the_displays_and_follows_a_change(
    loop_on: LoopOn, extension: bool
) -> None:
    """From the refresh-rate extension where the runtime offers it, else the frame period."""
    runtime = FakeRuntime(hz=72.0, refresh_rate=extension)
    runtime.change_rate(40, 120.0)
    rates: list[float] = []

    def watch(world: World) -> None:
        world.add_systems(system(Phase.FIXED)(lambda w: rates.append(w.fixed_time.hz)))

    loop, _ = loop_on(runtime, plugins=(watch,))
    loop.run(seconds=0.8)
    assert rates[0] == pytest.approx(72.0) and rates[-1] == pytest.approx(120.0)
    assert loop.session.display_hz == pytest.approx(120.0)
    first_120 = rates.index(rates[-1])
    assert set(rates[:first_120]) == {rates[0]}  # one change, at the new rate's first frame


def test_a_games_fixed_rate_stands_whatever_the_display(loop_on: LoopOn) -> None:
    runtime = FakeRuntime(hz=72.0)
    loop, _ = loop_on(runtime, fixed_hz=90.0)
    loop.run(seconds=0.5)
    assert loop.world is not None and loop.world.clock.hz == 90.0
    assert loop.session.display_hz == pytest.approx(72.0)


# --- run_vr: what the command runs ---------------------------------------------------------


def test_run_vr_reports_the_runtime_and_why_it_stopped(scene: Path) -> None:
    out, runtime = io.StringIO(), FakeRuntime()
    status = run_vr(scene, seconds=0.05, opener=lambda name, graphics: runtime, out=out,
                    clock=runtime.clock, sleep=runtime.sleep)  # fmt: skip
    assert status == 0
    assert out.getvalue().splitlines() == [
        "OpenXR: Fake 1.0; headset: Fake HMD; STAGE",
        "OpenXR: controllers: Meta Touch",
        "OpenXR: stopped: 0.05 s are over",
    ]


def test_run_vr_exits_1_with_one_line_when_the_runtime_fails(
    scene: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    runtime = FakeRuntime()
    runtime.fails_at = 3
    status = run_vr(scene, opener=lambda name, graphics: runtime, out=io.StringIO(),
                    clock=runtime.clock, sleep=runtime.sleep)  # fmt: skip
    assert status == 1
    assert capsys.readouterr().err.splitlines() == [
        "playspace run --vr: stopped: the OpenXR runtime failed (xrWaitFrame: "
        "RuntimeFailureError: the compositor crashed)"
    ]


def test_a_games_system_failing_in_the_headset_ends_the_run_and_the_session(scene: Path) -> None:
    """The failure reaches the command (which says it in one line) and the runtime's session
    is destroyed on the way out, not left running behind a dead loop."""

    @system(Phase.FIXED)
    def fails(world: World) -> None:
        if world.fixed_time.step == 5:
            raise ValueError("the game's bug")

    runtime = FakeRuntime()
    with pytest.raises(SystemFailed, match=r"system 'fails' .* at fixed step 5: ValueError"):
        run_vr(scene, plugins=[lambda world: world.add_systems(fails)], seconds=1.0,
               opener=lambda name, graphics: runtime, out=io.StringIO(), clock=runtime.clock,
               sleep=runtime.sleep)  # fmt: skip
    assert runtime.calls[-1] == "destroy"


def test_run_vr_takes_an_example_module_and_the_games_plugins() -> None:
    steps: list[int] = []

    def count(world: World) -> None:
        world.add_systems(system(Phase.FIXED)(lambda w: steps.append(w.fixed_time.step)))

    out, runtime = io.StringIO(), FakeRuntime()
    kitchen = ROOT / "examples" / "kitchen.py"
    status = run_vr(kitchen, plugins=[count], seconds=0.1, opener=lambda name, graphics: runtime,
                    out=out, clock=runtime.clock, sleep=runtime.sleep)  # fmt: skip
    assert status == 0 and steps
    assert out.getvalue().splitlines()[-1] == "bees hit: 0"  # kitchen.py's summary


def test_a_headset_run_records_and_writes_telemetry_that_replays_identically(
    tmp_path: Path,
) -> None:
    """The VR run's recording, replayed headless at the rate it names, writes the same
    telemetry byte for byte, at a 72 Hz display with the steps following it."""
    trace = load_trace(ROOT / "examples" / "traces" / "snowball.jsonl")
    runtime = FakeRuntime(hz=72.0, player=ReplaySource(trace))
    recording, live, replayed = (tmp_path / n for n in ("vr.jsonl", "vr-t.jsonl", "replay.jsonl"))
    with open(live, "w") as telemetry:
        status = run_vr(
            SNOWBALL, seconds=trace.duration, telemetry=telemetry, record=recording,
            opener=lambda name, graphics: runtime, out=io.StringIO(), clock=runtime.clock,
            sleep=runtime.sleep,
        )  # fmt: skip
    assert status == 0
    assert load_trace(recording).fixed_hz == 72.0
    with open(replayed, "w") as telemetry:
        run_headless(SNOWBALL, recording, telemetry)
    assert live.read_bytes() == replayed.read_bytes()
    assert b'"type":"released"' in live.read_bytes() and b'"fixed_hz": 72' in live.read_bytes()


def test_run_vr_steps_a_world_its_caller_builds_and_refuses_what_would_shape_its_own() -> None:
    """``world=``: the caller's world (a networked host's) is built at the session's first
    frame, on the headset's input at its rate, and the headset's loop steps it; options that
    only shape the world run_vr builds are refused rather than dropped."""
    kitchen, built = ROOT / "examples" / "kitchen.toml", list[tuple[World, float]]()

    def world(source: InputSource, hz: float) -> World:
        made, _ = build_world(load_scene(kitchen), source, hz)
        built.append((made, hz))
        return made

    runtime = FakeRuntime(hz=72.0)
    status = run_vr(kitchen, world=world, seconds=0.2, opener=lambda name, graphics: runtime,
                    out=io.StringIO(), clock=runtime.clock, sleep=runtime.sleep)  # fmt: skip
    assert status == 0 and [hz for _, hz in built] == [72.0]
    assert built[0][0].fixed_time.step >= 10  # stepped by the headset's loop
    for shaping in ({"telemetry": io.StringIO()}, {"plugins": [print]}, {"seed": 3}):
        with pytest.raises(ValueError, match=f"run_vr: {next(iter(shaping))} shape"):
            run_vr(kitchen, world=world, **shaping)
