"""OpenXR without a headset: the pure layer from scripted and recorded runtime output, the loop
against a scripted runtime, and the real loader's "no runtime" path as a user meets it."""

from __future__ import annotations

import math
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import xr  # type: ignore[import-untyped]

from playspace import spatial
from playspace.components import DeviceRole
from playspace.components.haptics import HapticPulse, HapticQueue
from playspace.components.input import Button
from playspace.components.interaction import GrabSettings, Hand, Holding
from playspace.components.rig import LocalPlayer, Rig
from playspace.components.session import SessionState
from playspace.ecs import World
from playspace.loops.headset import run_vr
from playspace.loops.vr_loop import XrBackend
from playspace.render import create_context
from playspace.render.projection import fov_projection, view_matrix
from playspace.systems.interaction.events import GRAB_EVENTS, Grabbed, Hit, Released
from playspace.systems.interaction.haptics import DEFAULT_PULSES, HapticsPlugin, pulse_for
from playspace.xr import bindings, views
from playspace.xr.mapping import (
    ActionStates,
    FloorEstimate,
    HandActions,
    LocatedPose,
    LocatedPoses,
    Tracking,
    map_input,
)
from playspace.xr.state import Command as C
from playspace.xr.state import (
    FailureKind,
    InstanceLossPending,
    ReferenceSpaceChanged,
    SessionLifecycle,
    StateChanged,
    XrEvent,
    XrFailed,
    XrLost,
    XrUnavailable,
)
from playspace.xr.views import EyeView, Fov

S = SessionState
SCENE = '[[box]]\nname = "floor"\nsize = [6, 0.2, 6]\nposition = [0, -0.1, 0]\n'
TOUCH = "/interaction_profiles/oculus/touch_controller"
TRACKED = 0x0F  # orientation and position, valid and tracked


@pytest.fixture
def scene(tmp_path: Path) -> Path:
    path = tmp_path / "tiny.toml"
    path.write_text(SCENE)
    return path


def feed(lifecycle: SessionLifecycle, *states: SessionState) -> list[C]:
    return [c for state in states for c in lifecycle.on_event(StateChanged(state))]


# --- the session's life ----------------------------------------------------------------------


def test_session_states_mirror_openxr() -> None:
    assert {s.name: s.value for s in S} == {s.name: s.value for s in xr.SessionState}


def test_bring_up_begins_on_ready_and_takes_input_only_while_focused() -> None:
    life = SessionLifecycle()
    assert feed(life, S.IDLE, S.READY) == [C.BEGIN_SESSION]
    assert life.running and not life.visible and not life.input_active
    assert feed(life, S.SYNCHRONIZED, S.VISIBLE) == []
    assert life.visible
    assert feed(life, S.FOCUSED) == [C.RESUME_INPUT]
    assert feed(life, S.VISIBLE) == [C.PAUSE_INPUT]  # the runtime's menu has the controllers
    assert feed(life, S.FOCUSED) == [C.RESUME_INPUT]


def test_runtime_stops_the_session_and_starts_it_again() -> None:
    life = SessionLifecycle()
    feed(life, S.IDLE, S.READY, S.SYNCHRONIZED, S.VISIBLE, S.FOCUSED)
    assert feed(life, S.VISIBLE, S.SYNCHRONIZED, S.STOPPING) == [C.PAUSE_INPUT, C.END_SESSION]
    assert not life.running and not life.finished
    assert feed(life, S.IDLE, S.READY) == [C.BEGIN_SESSION]


def test_quitting_asks_waits_for_stopping_ends_then_destroys() -> None:
    """Monado can crash when a session that is still running is destroyed (seen against it):
    ask to exit, wait for STOPPING, end the session, and only then destroy it."""
    life = SessionLifecycle()
    feed(life, S.IDLE, S.READY, S.SYNCHRONIZED, S.VISIBLE, S.FOCUSED)
    assert life.request_exit("done") == [C.REQUEST_EXIT]
    assert life.request_exit("again") == []
    assert feed(life, S.VISIBLE, S.SYNCHRONIZED) == [C.PAUSE_INPUT]
    assert feed(life, S.STOPPING) == [C.END_SESSION]
    assert feed(life, S.IDLE) == [C.DESTROY, C.STOP]
    assert life.finished and life.reason == "done"
    assert feed(life, S.EXITING) == []


@pytest.mark.parametrize(
    ("events", "expected", "reason"),
    [
        ([S.IDLE, S.READY, S.FOCUSED, S.LOSS_PENDING], [C.PAUSE_INPUT, C.DESTROY, C.STOP], "lost"),
        ([S.IDLE, S.READY, S.STOPPING, S.IDLE, S.EXITING], [C.DESTROY, C.STOP], "asked to exit"),
        ([S.IDLE, S.READY, S.FOCUSED, S.EXITING], [C.PAUSE_INPUT, C.DESTROY, C.STOP], "to exit"),
        ([S.IDLE, S.READY, InstanceLossPending()], [C.DESTROY, C.STOP], "went away"),
    ],
)  # fmt: skip
def test_loss_and_exit_stop_without_ending_a_session_that_is_not_stopping(
    events: list[SessionState | XrEvent], expected: list[C], reason: str
) -> None:
    life = SessionLifecycle()
    commands: list[C] = []
    for event in events:
        commands = life.on_event(StateChanged(event) if isinstance(event, S) else event)
    assert commands == expected
    assert life.finished and reason in life.reason


def test_exit_before_the_session_runs_and_a_runtime_that_never_answers() -> None:
    early = SessionLifecycle()
    feed(early, S.IDLE)
    assert early.request_exit("bye") == [C.DESTROY, C.STOP]
    stuck = SessionLifecycle()
    feed(stuck, S.IDLE, S.READY)
    stuck.request_exit("bye")
    assert stuck.give_up("no answer") == [C.DESTROY, C.STOP]  # xrEndSession needs STOPPING
    assert stuck.reason == "bye (no answer)"
    assert stuck.on_event(ReferenceSpaceChanged()) == [] == stuck.give_up("x")


# --- bindings ----------------------------------------------------------------------------------


def test_every_suggested_binding_is_well_formed_and_keeps_the_rule() -> None:
    assert bindings.binding_problems() == []
    paths = {p.path.removeprefix("/interaction_profiles/") for p in bindings.PROFILES}
    assert paths == {
        "khr/simple_controller", "oculus/touch_controller", "valve/index_controller",
        "htc/vive_controller", "microsoft/motion_controller", "bytedance/pico4_controller",
    }  # fmt: skip
    for profile in bindings.PROFILES:
        for hand in bindings.HANDS:
            bound = {a for a, path in profile.bindings if path.startswith(hand + "/")}
            assert {"grip_pose", "grip", "trigger", "haptic"} <= bound, profile.path
            assert ("stick" in bound) == profile.has_stick
    simple = bindings.PROFILES_BY_PATH["/interaction_profiles/khr/simple_controller"]
    select = {a for a, path in simple.bindings if path.endswith("/input/select/click")}
    assert select == {"grip", "trigger"} and not simple.has_stick
    assert all(bindings.path_problem("/x/" + a.name) is None for a in bindings.ACTIONS)


@pytest.mark.parametrize(
    "path",
    ["/user/hand/left/input/Trigger", "/user//hand", "user/hand", "/user/hand/", "/a/../b",
     "/a b", "/" + "a" * 255],
)  # fmt: skip
def test_malformed_paths_are_named(path: str) -> None:
    assert bindings.path_problem(path) is not None


def test_the_validator_catches_broken_profiles() -> None:
    hand = "/user/hand/left/"
    broken = bindings.Profile(
        "/interaction_profiles/acme/wand",
        "wand",
        (
            ("grip_pose", hand + "input/grip/value"),
            ("trigger", hand + "input/Trigger/value"),
            ("haptic", hand + "input/haptic"),
            ("stick", hand + "input/thumbstick"),
            ("jump", hand + "input/a/click"),
        ),
        com_offset=(0.0, 0.5, 0.0),
        has_stick=False,
    )
    problems = "\n".join(bindings.binding_problems([broken]))
    for expected in ("does not fit the pose", "well-formed", "output/haptic", "jump",
                     "does not bind grip", "/user/hand/right does not bind trigger",
                     "has_stick is False", "com_offset"):  # fmt: skip
        assert expected in problems


def test_the_profile_chooses_the_throws_centre_of_mass() -> None:
    assert tuple(bindings.com_offset_for(TOUCH)) == bindings.PROFILES_BY_PATH[TOUCH].com_offset
    assert tuple(bindings.com_offset_for(None)) == tuple(GrabSettings().com_offset)
    assert bindings.profile_name(TOUCH) == "Meta Touch"
    assert bindings.profile_name("/interaction_profiles/x/y") == "/interaction_profiles/x/y"


# --- action states and located poses to the input frame ----------------------------------------


def test_recorded_states_map_into_the_input_frame() -> None:
    half = math.sqrt(0.5)  # a quarter turn left
    poses = LocatedPoses(
        head=LocatedPose((0.0, 1.7, 0.0), (0.0, 0.0, 0.0, 1.0), TRACKED),
        right_grip=LocatedPose(
            (0.2, 1.0, -0.3), (0.0, half, 0.0, half), TRACKED, (1.0, 2.0, 3.0), (0.0, 0.0, 5.0), 3
        ),
        left_grip=LocatedPose((-0.2, 1.0, -0.3), (0, 0, 0, 1), 0x07, (9, 9, 9), (9, 9, 9), 0),
        right_aim=LocatedPose((0.2, 1.0, -0.4), (0, 0, 0, 1), TRACKED),
    )
    actions = ActionStates(
        left=HandActions(grip=0.5, stick=(0.3, -2.0), primary=True, secondary=True, menu=True),
        right=HandActions(trigger=float("nan"), grip=1.7, primary=True, stick_click=True),
    )
    mapped = map_input(2.5, actions, poses)
    frame = mapped.frame
    assert frame.time == 2.5 and frame.head is not None
    right = frame.right.pose
    assert right is not None and tuple(right.pose.position) == (0.2, 1.0, -0.3)
    assert spatial.yaw(right.pose.rotation) == pytest.approx(math.pi / 2)
    assert right.linear_velocity == spatial.vec3(1, 2, 3)
    assert right.angular_velocity == spatial.vec3(0, 0, 5)
    left = frame.left.pose  # valid but its position not tracked (0x07): still used
    assert left is not None and left.linear_velocity is None and left.angular_velocity is None
    assert mapped.tracking.right is Tracking.TRACKED and mapped.tracking.left is Tracking.VALID
    assert frame.left.buttons == {Button.X, Button.Y, Button.MENU}
    assert frame.right.buttons == {Button.A, Button.STICK}
    assert (frame.left.grip, frame.left.stick) == (0.5, (0.3, -1.0))
    assert (frame.right.grip, frame.right.trigger) == (1.0, 0.0)
    assert mapped.aim[1] is not None and mapped.aim[0] is None


@pytest.mark.parametrize(
    "located",
    [
        LocatedPose((0, 1, 0), (0, 0, 0, 1), 0x05),  # orientation only: no position-valid
        LocatedPose((0, 1, 0), (0, 0, 0, 1), 0),  # lost
        LocatedPose((float("nan"), 1, 0), (0, 0, 0, 1), TRACKED),
        LocatedPose((0, 1, 0), (0, 0, 0, 0), TRACKED),
    ],
)
def test_unusable_poses_read_as_untracked(located: LocatedPose) -> None:
    mapped = map_input(0.0, ActionStates(), LocatedPoses(head=located, left_grip=located))
    assert mapped.frame.head is None and mapped.frame.left.pose is None
    assert mapped.tracking.head is Tracking.LOST


def test_local_space_puts_the_floor_an_eye_height_below_the_first_head() -> None:
    assert FloorEstimate(stage=True).update(LocatedPose((0, 1.8, 0), (0, 0, 0, 1), 3)) == 0.0
    floor = FloorEstimate(stage=False)
    assert floor.update(None) == 1.6
    assert floor.update(LocatedPose((0, 0.05, 0), (0, 0, 0, 1), 3)) == pytest.approx(1.55)
    assert floor.update(LocatedPose((0, 0.5, 0), (0, 0, 0, 1), 3)) == pytest.approx(1.55)
    floor.reset()  # recentring moved LOCAL's origin back to the head
    assert floor.update(LocatedPose((0, -0.1, 0), (0, 0, 0, 1), 3)) == pytest.approx(1.7)
    head = map_input(
        0, ActionStates(), LocatedPoses(LocatedPose((0, -0.1, 0), (0, 0, 0, 1), 3)), 1.7
    )
    assert head.frame.head is not None and head.frame.head.pose.position.y == pytest.approx(1.6)


# --- views and projections ---------------------------------------------------------------------

# Tangents left -1, right 0.5, up 0.75, down -1.25: a wide, off-centre eye.
FOV = Fov(-math.atan(1.0), math.atan(0.5), math.atan(0.75), -math.atan(1.25))


def eye_projection(fov: Fov, near: float, far: float) -> np.ndarray:
    """An eye's projection as the headset's drawer makes it from OpenXR's angles."""
    return fov_projection(fov.angle_left, fov.angle_right, fov.angle_up, fov.angle_down, near, far)


def test_asymmetric_projection_matches_the_hand_computed_matrix() -> None:
    expected = [
        [2 / 1.5, 0, -0.5 / 1.5, 0],
        [0, 1.0, -0.25, 0],
        [0, 0, -100.1 / 99.9, -20 / 99.9],
        [0, 0, -1, 0],
    ]
    projection = eye_projection(FOV, 0.1, 100.0)
    assert projection.shape == (4, 4)
    np.testing.assert_allclose(projection, np.array(expected), rtol=1e-6, atol=1e-7)
    for axis, tangent, edge in ((0, -1.0, -1), (0, 0.5, 1), (1, 0.75, 1), (1, -1.25, -1)):
        point = [0.0, 0.0, -2.0, 1.0]  # the frustum's edge, 2 m out
        point[axis] = 2.0 * tangent
        clip = projection @ point
        assert clip[axis] / clip[3] == pytest.approx(edge, abs=1e-6)
    for z, depth in ((-0.1, -1.0), (-100.0, 1.0)):
        _, _, zc, w = projection @ (0, 0, z, 1.0)
        assert zc / w == pytest.approx(depth, abs=1e-5)
    with pytest.raises(ValueError, match="right > left"):
        eye_projection(Fov(0.5, -0.5, 0.5, -0.5), 0.1, 100.0)


def test_eyes_are_placed_through_the_rig_origin() -> None:
    """Origin at (2, 0, -3) turned a quarter left; eye 1.5 m up, 0.1 m right, facing ahead.
    World eye: (2, 1.5, -3) + R(0.1, 0, 0) = (2, 1.5, -3.1); view = [R^T | -R^T p]."""
    half = math.sqrt(0.5)
    origin = spatial.Pose(spatial.vec3(2, 0, -3), spatial.quat(0, half, 0, half))
    recorded = EyeView((0.1, 1.5, 0.0), (0.0, 0.0, 0.0, 1.0), FOV)
    eye = views.eye_pose(recorded, origin)
    assert tuple(eye.position) == pytest.approx((2.0, 1.5, -3.1))
    expected = [[0, 0, -1, -3.1], [0, 1, 0, -1.5], [1, 0, 0, -2], [0, 0, 0, 1]]
    np.testing.assert_allclose(view_matrix(eye), np.array(expected), atol=1e-6)
    lifted = views.eye_pose(recorded, origin, space_height=1.6)
    assert lifted.position.y == pytest.approx(3.1)


def test_swapchain_formats_take_srgb_then_the_runtimes_preference() -> None:
    offered = [0x881A, views.GL_SRGB8_ALPHA8, views.GL_RGBA8, views.GL_DEPTH_COMPONENT32F]
    chosen = views.choose_formats(offered)
    assert (chosen.color, chosen.depth) == (views.GL_SRGB8_ALPHA8, views.GL_DEPTH_COMPONENT32F)
    # sRGB even where the runtime prefers linear: the renderer writes sRGB-encoded values
    assert views.choose_formats([views.GL_RGBA8, views.GL_SRGB8_ALPHA8]).color == (
        views.GL_SRGB8_ALPHA8
    )
    assert views.choose_formats([views.GL_RGBA8]).color == views.GL_RGBA8
    assert views.choose_formats([views.GL_RGBA8]).depth is None
    with pytest.raises(ValueError, match="0x881A"):
        views.choose_formats([0x881A])


# --- haptics -----------------------------------------------------------------------------------


def test_default_pulses_and_the_queue() -> None:
    assert set(DEFAULT_PULSES) == {"grabbed", "released", "hit"}
    grab = pulse_for("grabbed", DeviceRole.LEFT_HAND)
    hit = pulse_for("hit", DeviceRole.LEFT_HAND)
    assert grab is not None and hit is not None and grab.amplitude < hit.amplitude
    assert all(shape[1] <= 0.1 for shape in DEFAULT_PULSES.values())
    assert pulse_for("teleported", DeviceRole.LEFT_HAND) is None
    for bad in ((DeviceRole.HEAD, 0.5, 0.1), (DeviceRole.LEFT_HAND, 1.5, 0.1),
                (DeviceRole.LEFT_HAND, 0.5, float("nan"))):  # fmt: skip
        with pytest.raises(ValueError):
            HapticPulse(*bad)
    queue = HapticQueue()
    right = HapticPulse(DeviceRole.RIGHT_HAND, 0.3, 0.02)
    for pulse in (right, grab, hit, grab):
        queue.send(pulse)
    assert queue.drain() == [hit, right] and queue.drain() == []


def test_grab_release_and_hit_buzz_the_hands_they_are_about() -> None:
    """Of the player this process shows: another player's grab (on a host) is not felt in
    this headset's controllers."""
    with World() as world:
        world.add_plugin(HapticsPlugin(GRAB_EVENTS))
        origin = world.spawn()
        world.add(origin, Rig(origin, 0, 0, 0, 0), LocalPlayer())
        left = world.spawn(Hand(DeviceRole.LEFT_HAND))
        world.spawn(Hand(DeviceRole.RIGHT_HAND), Holding(object=7))
        theirs = world.spawn(Hand(DeviceRole.LEFT_HAND, player=1))
        world.spawn(Hand(DeviceRole.RIGHT_HAND, player=1), Holding(object=8))
        world.send(Grabbed(hand=theirs, object=4))
        world.send(Hit(object=7, opponent=9, speed=4.0))
        world.step()
        assert world.resource(HapticQueue).drain() == [
            HapticPulse(DeviceRole.RIGHT_HAND, *DEFAULT_PULSES["hit"])
        ]
        world.send(Hit(object=8, opponent=9, speed=4.0))
        world.send(Grabbed(hand=left, object=3))
        world.step()
        assert world.resource(HapticQueue).drain() == [
            HapticPulse(DeviceRole.LEFT_HAND, *DEFAULT_PULSES["grabbed"])
        ]
        zero = spatial.vec3(0, 0, 0)
        world.send(Released(hand=left, object=3, linear=zero, angular=zero))
        world.step()
        assert [p.amplitude for p in world.resource(HapticQueue).drain()] == [0.2]


# --- opening: the real loader, and the failures it reports -------------------------------------


def test_no_runtime_exits_2_with_one_message(scene: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("XR_RUNTIME_JSON", "XR_LOADER_DEBUG")}
    code = "import sys; from playspace.loops.headset import run_vr; sys.exit(run_vr(sys.argv[1]))"
    done = subprocess.run(
        [sys.executable, "-c", code, str(scene)],
        capture_output=True, text=True, env=env, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert done.stdout == "" and len(done.stderr.splitlines()) == 1, done.stderr
    message = done.stderr
    assert "no OpenXR runtime" in message and "RuntimeUnavailableError" in message
    assert f"playspace run {scene}" in message and "--headless --trace FILE" in message
    assert "Traceback" not in message and "OpenXR-Loader" not in message


def test_a_manifest_naming_a_missing_runtime_is_no_runtime_too(
    scene: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    manifest = tmp_path / "runtime.json"
    manifest.write_text(
        '{"file_format_version": "1.0.0", "runtime": {"library_path": "./libnothing.so"}}'
    )
    monkeypatch.setenv("XR_RUNTIME_JSON", str(manifest))
    monkeypatch.delenv("XR_LOADER_DEBUG", raising=False)
    assert run_vr(scene) == 2
    assert "no OpenXR runtime" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("kind", "words"),
    [(FailureKind.NO_HEADSET, "no headset"),
     (FailureKind.SESSION_REFUSED, "the runtime refused the session")],
)  # fmt: skip
def test_each_failure_is_named_with_the_way_to_the_preview(
    scene: Path, capsys: pytest.CaptureFixture[str], kind: FailureKind, words: str
) -> None:
    asked: list[tuple[str, bool]] = []

    def opener(name: str, graphics: bool) -> XrBackend:
        asked.append((name, graphics))
        raise XrUnavailable(kind, "XR_ERROR_SOMETHING")

    assert run_vr(scene, opener=opener) == 2
    err = capsys.readouterr().err
    assert words in err and "XR_ERROR_SOMETHING" in err and f"playspace run {scene}" in err
    assert asked == [("tiny", False)]  # the scene's name; no render_eye: input-only


def test_a_bad_scene_fails_before_opening_openxr(tmp_path: Path) -> None:
    def opener(name: str, graphics: bool) -> XrBackend:
        raise AssertionError("OpenXR was opened for a scene that does not load")

    assert run_vr(tmp_path / "missing.toml", opener=opener) == 2


def test_an_openxr_error_mid_session_names_the_call() -> None:
    from playspace.xr import errors

    @errors.mid_session("xrSyncActions")
    def sync() -> None:
        raise xr.SessionLostError()

    with pytest.raises(XrFailed) as caught:
        sync()
    assert caught.value.step == "xrSyncActions"
    assert caught.value.detail.startswith("SessionLostError")

    @errors.mid_session("xrEndFrame")
    def end_frame() -> None:
        raise xr.SessionLossPending()

    with pytest.raises(XrLost):
        end_frame()

    @errors.mid_session("xrEndFrame")
    def end_frame_acquiring() -> None:  # the real call inside fails first, with no instance
        xr.acquire_swapchain_image(None, xr.SwapchainImageAcquireInfo())

    with pytest.raises(XrFailed) as caught:
        end_frame_acquiring()
    assert caught.value.step == "xrAcquireSwapchainImage"


def test_openxr_errors_are_classified_by_the_step_that_failed() -> None:
    from playspace.xr import errors

    with pytest.raises(XrUnavailable) as caught, errors.failing_as(FailureKind.NO_HEADSET):
        raise xr.FormFactorUnavailableError()
    assert caught.value.kind is FailureKind.NO_HEADSET
    assert caught.value.detail.startswith("FormFactorUnavailableError: ")


def test_the_renderers_egl_context_becomes_the_session_binding() -> None:
    from playspace.xr import graphics

    ctx = create_context()
    try:
        binding = graphics.current_gl_binding(egl_enabled=True)
        assert type(binding).__name__ == "GraphicsBindingEGLMNDX" and binding.context
        with pytest.raises(XrUnavailable, match="XR_MNDX_egl_enable"):
            graphics.current_gl_binding(egl_enabled=False)
    finally:
        ctx.release()


def test_doctor_lists_what_it_found(monkeypatch: pytest.MonkeyPatch) -> None:
    from playspace.cli.doctor import doctor_report

    monkeypatch.delenv("XR_RUNTIME_JSON", raising=False)

    def probe() -> str:
        ctx = create_context()
        try:
            return f"{ctx.info['GL_RENDERER']} (OpenGL {ctx.version_code})"
        finally:
            ctx.release()

    lines = doctor_report(probe, environ={})
    assert lines[0].startswith("OpenXR loader: bundled with pyopenxr 1.1")
    assert lines[1].startswith("OpenXR runtime: none") and "RuntimeUnavailableError" in lines[1]
    assert lines[2].startswith("GL: ") and "OpenGL" in lines[2]
    assert lines[3:] == [
        "display: none ($DISPLAY and $WAYLAND_DISPLAY unset): no preview window",
        "gamepads: need a display",
    ]
    assert doctor_report(environ={})[2] == "GL: not checked"


def test_the_pure_layer_loads_neither_pyopenxr_nor_gl() -> None:
    code = (
        "import sys; from playspace.xr import state, bindings, mapping, views; "
        "from playspace.loops import headset; from playspace.cli import doctor; "
        "assert 'xr' not in sys.modules and 'moderngl' not in sys.modules, 'loaded'"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
