"""Bare hands: joints read as a controller (a fist and a pinch grab), joints in traces (format
v2), and hand tracking against the real runtime (Monado's remote driver makes hands from
finger curls)."""

from __future__ import annotations

import functools
import json
import math
import socket
import time
from dataclasses import replace
from pathlib import Path

import pytest

from playspace import spatial
from playspace.components.input import (
    JOINT_COUNT,
    HandInput,
    HandJoint,
    HandJoints,
    InputFrame,
)
from playspace.components.tracking import TrackedDevice
from playspace.ecs import World
from playspace.formats.trace import Trace, TraceError, load_trace, write_trace
from playspace.loops.drive import trace_driver
from playspace.spatial import Pose
from playspace.systems.input import hands
from playspace.systems.input.gate import gate
from playspace.xr.monado import PACKET_SIZE, RemotePacket
from tests.grab_helpers import grab_world, prop
from tests.hand_helpers import hand
from tests.realxr import needs_runtime, remote_port, runtime_manifest, vr_env
from tests.rig_helpers import head_at, rig_of, rig_world

OPEN = (0.0,) * 5
FIST = (1.0,) * 5


# --- joints read as controls ------------------------------------------------------------


def test_an_open_hand_neither_grips_nor_pinches() -> None:
    assert hands.finger_curls(hand()) == (0.0,) * 5
    read = gate(InputFrame(right=HandInput(joints=hand())))[0].right
    assert (read.grip, read.trigger) == (0.0, 0.0)


def test_a_fist_grips_and_a_half_curled_hand_does_not() -> None:
    thumb_out = (0.0, 1.0, 1.0, 1.0, 1.0)  # the thumb straight: no pinch, only the fist grips
    fist = gate(InputFrame(right=HandInput(joints=hand(curls=thumb_out))))[0].right
    assert fist.trigger == 0.0
    half = gate(InputFrame(right=HandInput(joints=hand(curls=(0.0, 0.0, 0.4, 0.4, 0.4)))))[0]
    assert fist.grip == 1.0
    assert half.right.grip < 0.5  # below any grab threshold: a relaxed hand holds nothing


def test_a_pinch_pulls_the_trigger_and_grips_and_a_poke_does_neither() -> None:
    pinch = gate(InputFrame(right=HandInput(joints=hand(curls=(0, 0.3, 0, 0, 0), pinched=True))))
    poke = gate(InputFrame(right=HandInput(joints=hand(curls=(1.0, 0.0, 1.0, 1.0, 1.0)))))
    assert (pinch[0].right.trigger, pinch[0].right.grip) == (1.0, 1.0)
    assert hands.finger_curls(hand(curls=(1.0, 0.0, 1.0, 1.0, 1.0)))[1] == 0.0  # index straight
    assert poke[0].right.trigger == 0.0  # the thumb is tucked in, away from the index tip


def test_a_bare_hand_is_posed_at_its_palm_and_a_controller_keeps_its_own_pose() -> None:
    bare = gate(InputFrame(right=HandInput(joints=hand((0.2, 1.0, -0.3)))))[0].right
    assert bare.pose is not None
    assert spatial.length(bare.pose.pose.position - spatial.vec3(0.2, 1.0, -0.3)) < 1e-12
    forward = spatial.rotate(bare.pose.pose.rotation, spatial.vec3(0, 0, -1))
    up = spatial.rotate(bare.pose.pose.rotation, spatial.vec3(0, 1, 0))
    assert forward.z == pytest.approx(-1.0) and up.x == pytest.approx(-1.0)  # the thumb side
    controller = HandInput(head_at(0, 1.7, 0).left.pose, grip=0.2, joints=hand(curls=FIST))
    held = gate(InputFrame(right=controller))[0].right
    assert held.pose is controller.pose and held.grip == 1.0  # the stronger grip wins


def _holding_out(hand: HandInput, t: float) -> InputFrame:
    return head_at(0, 1.7, 0, right=hand)


def test_the_palm_pose_has_the_grip_pose_s_x_and_only_a_bare_hand_is_posed_by_its_palm() -> None:
    """The palm's normal is the pose's X, as in OpenXR's grip pose: out of the back of a right
    hand (palm down: up), out of the palm of a left one (palm down: down; the right hand
    mirrored across X). A physics hand turns its shape for a hand posed by its palm, not for a
    controller that also reports joints (an Index): tracking says which (`bare`)."""
    right = hand((0.2, 1.0, -0.3))
    left = HandJoints(
        tuple(
            Pose(spatial.vec3(-p.position.x, p.position.y, p.position.z), p.rotation)
            for p in right.poses
        ),
        right.radii,
    )
    for joints, normal in ((right, 1.0), (left, -1.0)):
        x = spatial.rotate(hands.palm_pose(joints).rotation, spatial.vec3(1, 0, 0))
        assert x.y == pytest.approx(normal)
    controller = replace(head_at(0, 1.7, 0).right, joints=right)
    for given, bare in ((HandInput(joints=right), True), (controller, False)):
        run = rig_world(functools.partial(_holding_out, given))
        run.world.step(1)
        device = run.world.get(rig_of(run.world).right_hand, TrackedDevice)
        assert device.tracked and device.bare is bare


def test_a_hand_with_a_lost_joint_is_not_tracked_by_its_joints() -> None:
    good = hand((0.2, 1.0, -0.3), FIST)
    broken = list(good.poses)
    broken[HandJoint.INDEX_TIP] = Pose(spatial.vec3(math.nan, 0, 0), spatial.identity())
    frame, rejected = gate(
        InputFrame(right=HandInput(joints=HandJoints(tuple(broken), good.radii)))
    )
    assert rejected == ("right.joints",)
    assert frame.right.joints is None and frame.right.pose is None and frame.right.grip == 0.0


@pytest.mark.parametrize(
    ("curls", "grabs"), [(FIST, 1), ("pinch", 1), (OPEN, 0)], ids=["fist", "pinch", "open"]
)
def test_a_bare_hand_grabs_the_ball_in_it(curls: object, grabs: int) -> None:
    """What a player notices: closing the bare hand (or pinching) on a floating ball picks it
    up; leaving it open does not."""
    at = (0.25, 1.1, -0.3)  # grab_helpers.HAND, where the ball floats

    def script(t: float) -> InputFrame:
        if t < 0.2:
            joints = hand(at)
        elif curls == "pinch":
            joints = hand(at, (0, 0.3, 0, 0, 0), pinched=True)
        else:
            joints = hand(at, curls)  # type: ignore[arg-type]
        return head_at(0, 1.7, 0, right=HandInput(joints=joints))

    def build(world: World) -> None:
        prop(world, "ball", spatial.vec3(*at), gravity_scale=0.0)

    run = grab_world(script, build)
    run.world.step(45)
    assert len(run.events("grabbed")) == grabs


def test_the_hand_entities_carry_their_joints_while_tracked_by_them() -> None:
    """A game reads a bare hand's joints from the hand's TrackedDevice, in tracking space,
    for this step; a hand holding a controller (no joints) has none."""
    at = (0.25, 1.1, -0.3)

    def script(t: float) -> InputFrame:
        joints = hand(at) if t < 0.3 else None
        return head_at(0, 1.7, 0, right=HandInput(joints=joints))

    run = grab_world(script, lambda world: None)
    rig = rig_of(run.world)
    run.world.step(9)
    device = run.world.get(rig.right_hand, TrackedDevice)
    assert device.joints is not None and len(device.joints.poses) == JOINT_COUNT
    tip = device.joints.pose(HandJoint.INDEX_TIP).position
    assert spatial.length(tip - spatial.vec3(*at)) < 0.25  # a finger's length from the palm
    assert run.world.get(rig.left_hand, TrackedDevice).joints is None
    run.world.step(45)
    assert device.joints is None


# --- traces: version 2 ------------------------------------------------------------------


def test_joints_round_trip_through_a_version_2_trace(tmp_path: Path) -> None:
    frames = [
        InputFrame(0.0, right=HandInput(joints=hand((0.2, 1.0, -0.3)))),
        InputFrame(0.1, right=HandInput(grip=0.5, joints=hand((0.2, 1.0, -0.3), FIST))),
        InputFrame(0.2),
    ]
    path = tmp_path / "hands.jsonl"
    write_trace(path, frames)
    header, second = path.read_text().splitlines()[:2]
    assert json.loads(header)["version"] == 2
    joints = json.loads(second)["right"]["joints"]
    assert len(joints) == JOINT_COUNT and set(joints[0]) == {"p", "q", "r"}
    assert load_trace(path).samples == tuple(frames)


def test_a_version_1_trace_reads_as_before_and_may_not_carry_joints(tmp_path: Path) -> None:
    path = tmp_path / "v1.jsonl"
    path.write_text(
        '{"format": "playspace-trace", "version": 1}\n'
        '{"t": 0.0, "right": {"p": [0.2, 1.0, 0.0], "q": [0, 0, 0, 1], "grip": 1.0}}\n'
    )
    (sample,) = load_trace(path).samples
    assert sample.right.grip == 1.0 and sample.right.joints is None
    joint = {"p": [0, 1, 0], "q": [0, 0, 0, 1], "r": 0.01}
    path.write_text(
        '{"format": "playspace-trace", "version": 1}\n'
        + json.dumps({"t": 0.0, "right": {"joints": [joint] * JOINT_COUNT}})
        + "\n"
    )
    with pytest.raises(TraceError) as refused:
        load_trace(path)
    assert (refused.value.line, refused.value.field) == (2, "right.joints")
    assert "version 2" in str(refused.value)


def _v2(tmp_path: Path, joints: object) -> TraceError | None:
    path = tmp_path / "bad.jsonl"
    sample = {"t": 0.0, "left": {"joints": joints}}
    path.write_text('{"format": "playspace-trace", "version": 2}\n' + json.dumps(sample) + "\n")
    try:
        load_trace(path)
    except TraceError as error:
        return error
    return None


JOINT = {"p": [0.0, 1.0, 0.0], "q": [0.0, 0.0, 0.0, 1.0], "r": 0.01}


@pytest.mark.parametrize(
    ("joints", "field", "said"),
    [
        ([JOINT] * 25, "left.joints", "a list of 26 joint objects"),
        ([JOINT] * 25 + [{"p": [0, 1, 0], "q": [0, 0, 0, 1]}], "left.joints[25].r", "missing"),
        ([JOINT] * 3 + [JOINT | {"r": -1}] + [JOINT] * 22, "left.joints[3].r", "in [0, 0.1]"),
        ([JOINT | {"q": [0, 0, 0, 0]}] + [JOINT] * 25, "left.joints[0].q", "not all zero"),
        ([JOINT | {"s": 1}] + [JOINT] * 25, "left.joints[0].s", "unknown key"),
        ([JOINT] * 26, None, None),  # control: the same file, well formed, loads
    ],
)
def test_a_malformed_joint_names_file_line_and_key(
    tmp_path: Path, joints: object, field: str | None, said: str | None
) -> None:
    error = _v2(tmp_path, joints)
    if field is None:
        assert error is None
        return
    assert error is not None and (error.line, error.field) == (2, field)
    assert said is not None and said in str(error)
    assert str(error).startswith(f"{tmp_path / 'bad.jsonl'}:2:")


def test_a_lost_joint_in_a_trace_leaves_the_hand_untracked_by_joints(tmp_path: Path) -> None:
    path = tmp_path / "lost.jsonl"
    joints = json.dumps([JOINT] * 5 + [{"p": [0, 1, 0], "q": [0, 0, 0, 1], "r": 0.01}] * 21)
    lost = joints.replace("[0, 1, 0]", "[NaN, 1, 0]", 1)
    path.write_text(
        '{"format": "playspace-trace", "version": 2}\n'
        f'{{"t": 0.0, "left": {{"joints": {lost}}}}}\n'
    )
    trace = load_trace(path)
    assert trace.samples[0].left.joints is None
    assert any("left.joints[5].p" in warning for warning in trace.warnings)


# --- driving Monado's remote driver ---------------------------------------------------------


def test_a_hand_with_joints_turns_on_the_remote_driver_s_hand_tracking() -> None:
    frames = (
        InputFrame(0.0, right=HandInput(joints=hand((0.2, 1.0, -0.3), FIST))),
        InputFrame(1.0, left=HandInput(joints=hand((-0.2, 1.0, -0.3)))),
    )
    driver = trace_driver(Trace(frames))
    fist, opened = driver.packet(0.0), driver.packet(1.0)
    assert fist.right.hand_tracking_active and fist.right.active
    thumb = hands.finger_curls(frames[0].right.joints)[0]  # type: ignore[arg-type]
    assert list(fist.right.hand_curl) == pytest.approx([1.0, 1.0, 1.0, 1.0, thumb])  # little first
    assert thumb > 0.9
    assert not fist.left.hand_tracking_active and not fist.left.active
    assert opened.left.hand_tracking_active and list(opened.left.hand_curl) == [0.0] * 5
    assert opened.left.pose.position.z == pytest.approx(-0.3)  # sent at the palm's pose


# --- the real runtime -------------------------------------------------------------------


@needs_runtime
def test_monado_s_hands_are_tracked_and_a_fist_grips(monkeypatch: pytest.MonkeyPatch) -> None:
    """Monado's remote driver with hand tracking on: the backend locates 26 joints per hand
    (``XR_EXT_hand_tracking``) and, through the gate, a fist made from curls reads as a full
    grip and an open hand as none; with hand tracking off the hand has no joints."""
    from playspace.xr.backend import OpenXRBackend
    from playspace.xr.mapping import ActionStates, map_input
    from playspace.xr.state import StateChanged

    for key, value in vr_env(90, runtime_manifest()).items():
        monkeypatch.setenv(key, value)
    with remote_port():
        backend = OpenXRBackend("hand tracking test", graphics=False)
        try:
            assert backend.hand_tracking, backend.enabled
            _focus(backend, StateChanged)
            with socket.create_connection(("127.0.0.1", 4242), timeout=5) as connection:
                reset = _greeting(connection)
                seen = {}
                for name, curls, tracking in (  # little finger first, the thumb last
                    ("fist", (1.0, 1.0, 1.0, 1.0, 0.0), True),
                    ("open", (0.0,) * 5, True),
                    ("off", (1.0,) * 5, False),
                ):
                    connection.sendall(bytes(_packet(reset, curls, tracking)))
                    time.sleep(0.2)
                    _, poses = backend.sync(backend.now())
                    frame = map_input(0.0, ActionStates(), poses).frame
                    seen[name] = gate(frame)[0].right
            backend.request_exit()
        finally:
            backend.destroy()
    assert seen["fist"].joints is not None and seen["fist"].grip == 1.0  # the thumb out
    assert seen["fist"].trigger == 0.0
    assert seen["open"].joints is not None and seen["open"].grip == 0.0
    assert seen["off"].joints is None and seen["off"].grip == 0.0


def _focus(backend: object, changed: type) -> None:
    from playspace.components.session import SessionState

    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        for event in backend.poll_events():  # type: ignore[attr-defined]
            if isinstance(event, changed):
                if event.state is SessionState.READY:  # type: ignore[attr-defined]
                    backend.begin()  # type: ignore[attr-defined]
                if event.state is SessionState.FOCUSED:  # type: ignore[attr-defined]
                    return
        time.sleep(0.02)
    pytest.fail("the session never became FOCUSED")


def _greeting(connection: socket.socket) -> RemotePacket:
    data = b""
    while len(data) < 2 * PACKET_SIZE:
        data += connection.recv(4096)
    return RemotePacket.decode(data[:PACKET_SIZE])


def _packet(reset: RemotePacket, curls: tuple[float, ...], tracking: bool) -> RemotePacket:
    packet = RemotePacket.from_buffer_copy(bytes(reset))
    for controller, x in ((packet.left, -0.2), (packet.right, 0.2)):
        controller.active = True
        controller.hand_tracking_active = tracking
        controller.pose.orientation.w = 1.0
        controller.pose.position.x, controller.pose.position.y = x, 1.0
        for i, curl in enumerate(curls):
            controller.hand_curl[i] = curl
    return packet
