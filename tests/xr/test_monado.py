"""``playspace.xr.monado``: the remote-driver feeder, against a stand-in for Monado's driver.

No runtime is needed: :class:`FakeRemoteDriver` listens on a free loopback port, greets a
client as Monado's ``remote`` driver does (two 376-byte packets: its reset state, then its
current one) and keeps every packet it receives. Packets are decoded here with ``struct`` at
the offsets a C compiler gives for ``struct r_remote_data`` (Monado's
``src/xrt/drivers/remote/r_interface.h``), not with the module's own ctypes classes, so a
wrong layout there cannot agree with itself.
"""

from __future__ import annotations

import itertools
import math
import socket
import struct
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path

import pytest

from playspace import spatial
from playspace.cli import main
from playspace.components.input import Button, HandInput, InputFrame
from playspace.loops.drive import trace_driver
from playspace.spatial import Quat
from playspace.systems.input import Trace, device_pose, hand_input, write_trace
from playspace.systems.input.velocities import with_velocities
from playspace.xr.monado import (
    HEADER,
    PACKET_SIZE,
    RemoteDriver,
    RemotePacket,
)

WAIT = 10.0  # seconds a test waits for the feeder's thread: generous on a loaded machine

# --- the wire format, from offsetof() on Monado's structs --------------------------------

HEAD_CENTER = 104  # struct r_remote_data: header 8 bytes, head.views 2 x 48
PER_VIEW_VALID = 132
HANDS = {"left": 136, "right": 256}  # struct r_remote_controller_data, 120 bytes each
LINEAR, ANGULAR, TRIGGER, SQUEEZE, SQUEEZE_FORCE, STICK = 28, 40, 72, 76, 80, 84
BOOLS = 104  # hand_tracking_active, active, system click/touch, a click/touch, b click/touch,
# trigger click/touch, thumbstick click/touch, trackpad touch, 3 padding
BOOL_NAMES = (
    "hand_tracking_active", "active", "system_click", "system_touch", "a_click", "a_touch",
    "b_click", "b_touch", "trigger_click", "trigger_touch", "thumbstick_click",
    "thumbstick_touch", "trackpad_touch",
)  # fmt: skip


@dataclass(frozen=True)
class Hand:
    position: tuple[float, ...]
    orientation: tuple[float, ...]  # x, y, z, w
    linear: tuple[float, ...]
    angular: tuple[float, ...]  # as sent: in the controller's own frame
    trigger: float
    squeeze: float
    squeeze_force: float
    stick: tuple[float, ...]
    flags: dict[str, bool]


@dataclass(frozen=True)
class Packet:
    head_position: tuple[float, ...]
    head_orientation: tuple[float, ...]
    per_view_valid: bool
    left: Hand
    right: Hand


def _pose(data: bytes, offset: int) -> tuple[tuple[float, ...], tuple[float, ...]]:
    q = struct.unpack_from("<4f", data, offset)
    p = struct.unpack_from("<3f", data, offset + 16)
    return p, q


def decode(data: bytes) -> Packet:
    assert len(data) == PACKET_SIZE
    assert data[:8] == b"mndrmt3\x00"
    hands = {}
    for name, at in HANDS.items():
        position, orientation = _pose(data, at)
        flags = struct.unpack_from(f"<{len(BOOL_NAMES)}?", data, at + BOOLS)
        hands[name] = Hand(
            position,
            orientation,
            struct.unpack_from("<3f", data, at + LINEAR),
            struct.unpack_from("<3f", data, at + ANGULAR),
            struct.unpack_from("<f", data, at + TRIGGER)[0],
            struct.unpack_from("<f", data, at + SQUEEZE)[0],
            struct.unpack_from("<f", data, at + SQUEEZE_FORCE)[0],
            struct.unpack_from("<2f", data, at + STICK),
            dict(zip(BOOL_NAMES, flags, strict=True)),
        )
    head_position, head_orientation = _pose(data, HEAD_CENTER)
    return Packet(
        head_position,
        head_orientation,
        struct.unpack_from("<?", data, PER_VIEW_VALID)[0],
        hands["left"],
        hands["right"],
    )


def runtime_reports(sent: Hand) -> spatial.Vec3:
    """The angular velocity Monado's remote driver reports for what it was sent: it rotates it
    by the controller's orientation, ``q * w * conj(q)`` (``math_quat_rotate_derivative``)."""
    return spatial.rotate(spatial.quat_from_xyzw(sent.orientation), spatial.vec3_from(sent.angular))


# --- a stand-in for the remote driver ----------------------------------------------------


def _greeting(head_y: float) -> bytes:
    """A packet as the driver sends it on connect: its reset state, head `head_y` high."""
    data = bytearray(PACKET_SIZE)
    data[:8] = b"mndrmt3\x00"
    struct.pack_into("<4f3f", data, HEAD_CENTER, 0, 0, 0, 1, 0, head_y, 0)
    return bytes(data)


class FakeRemoteDriver:
    """Listens on 127.0.0.1 (a free port), greets one client, keeps the packets it sends.

    `greeting` is what it sends on connect (two packets' worth, as Monado does);
    `hang_up_after` closes the connection once that many packets arrived.
    """

    def __init__(self, greeting: bytes | None = None, hang_up_after: int | None = None) -> None:
        self.greeting = greeting if greeting is not None else _greeting(1.6) * 2
        self.hang_up_after = hang_up_after
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.packets: list[bytes] = []
        self.closed = threading.Event()  # the client closed the connection (or we hung up)
        self.partial = b""  # bytes left over that made no whole packet
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        try:
            connection, _ = self.listener.accept()
        except OSError:  # closed before anyone connected
            return
        buffer = b""
        with connection:
            try:
                connection.sendall(self.greeting)
                while True:
                    chunk = connection.recv(65536)
                    if not chunk:
                        break
                    buffer += chunk
                    while len(buffer) >= PACKET_SIZE:
                        self.packets.append(buffer[:PACKET_SIZE])
                        buffer = buffer[PACKET_SIZE:]
                    if self.hang_up_after is not None and len(self.packets) >= self.hang_up_after:
                        break
            except OSError:  # the client reset the connection: what it sent is kept
                pass
        self.partial = buffer
        self.closed.set()

    def wait_for(self, count: int) -> list[Packet]:
        """The packets received once there are at least `count` more than now."""
        target = len(self.packets) + count
        deadline = time.monotonic() + WAIT
        while len(self.packets) < target:
            assert time.monotonic() < deadline, f"only {len(self.packets)} packets arrived"
            time.sleep(0.005)
        return [decode(p) for p in self.packets]

    def close(self) -> None:
        self.listener.close()


@pytest.fixture
def server() -> Iterator[FakeRemoteDriver]:
    fake = FakeRemoteDriver()
    yield fake
    fake.close()


class ManualClock:
    """The driver's clock, moved by the test: the trace's time is then exact."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def driven(
    server: FakeRemoteDriver,
) -> Iterator[tuple[RemoteDriver, FakeRemoteDriver, ManualClock]]:
    clock = ManualClock()
    driver = trace_driver(moving_trace(), port=server.port, clock=clock)
    driver.start()
    assert driver.connected.wait(WAIT), driver.error
    yield driver, server, clock
    driver.stop()


# --- traces ------------------------------------------------------------------------------

AXIS = spatial.vec3(1.0, 1.0, 0.0) / math.sqrt(2.0)  # turning about a tilted axis
SPIN = 3.0  # rad/s
VELOCITY = (1.0, 0.0, -2.0)  # m/s, the right hand's
TILT = spatial.from_axis_angle(spatial.vec3(0.0, 0.0, 1.0), 0.7)


def _right_rotation(t: float) -> Quat:
    return spatial.multiply(spatial.from_axis_angle(AXIS, SPIN * t), TILT)


def moving_trace(seconds: float = 2.0, hz: float = 72.0) -> Trace:
    """The head walking forward, the left hand still with every control, the right hand moving
    at VELOCITY and turning at SPIN about AXIS, with no velocities recorded (as the example
    traces have none)."""
    samples = []
    for i in range(round(seconds * hz) + 1):
        t = i / hz
        right = device_pose((0.3 + VELOCITY[0] * t, 1.0, -0.2 + VELOCITY[2] * t))
        right = replace(right, pose=spatial.Pose(right.pose.position, _right_rotation(t)))
        samples.append(
            InputFrame(
                t,
                device_pose((0.0, 1.7, -0.5 * t)),
                hand_input(
                    (-0.2, 0.9, -0.1),
                    grip=0.8,
                    trigger=0.95,
                    stick=(0.5, -0.25),
                    buttons=(Button.X, Button.STICK),
                ),
                HandInput(right, grip=0.25, trigger=0.5, buttons=frozenset({Button.B})),
            )
        )
    return Trace(tuple(samples))


def close(a: tuple[float, ...] | spatial.Vec3, b: tuple[float, ...], tol: float = 1e-4) -> bool:
    return all(abs(x - y) <= tol for x, y in zip(tuple(a), b, strict=True))


# --- the layout --------------------------------------------------------------------------


def test_the_packet_is_monados_struct_r_remote_data() -> None:
    assert RemotePacket.head.offset == 8
    assert RemotePacket.left.offset == HANDS["left"]
    assert RemotePacket.right.offset == HANDS["right"]
    assert len(bytes(RemotePacket.blank())) == PACKET_SIZE == 376
    assert bytes(RemotePacket.blank())[:8] == HEADER == b"mndrmt3\x00"
    with pytest.raises(ValueError, match="376"):
        RemotePacket.decode(b"\x00" * 375)
    with pytest.raises(ValueError, match="header"):
        RemotePacket.decode(b"mndrmt2\x00" + bytes(368))


def test_a_packet_carries_the_head_both_hands_and_their_controls() -> None:
    trace = moving_trace()
    driver = trace_driver(trace)
    at = 1.0
    packet = decode(bytes(driver.packet(at)))
    expected = trace.samples[72]  # t = 1.0 exactly
    assert expected.time == at
    assert close(packet.head_position, (0.0, 1.7, -0.5))
    assert close(packet.head_orientation, (0.0, 0.0, 0.0, 1.0))
    assert not packet.per_view_valid  # the runtime keeps its own eyes

    left = packet.left
    assert close(left.position, (-0.2, 0.9, -0.1))
    assert left.squeeze == pytest.approx(0.8) and left.squeeze_force == 0.0
    assert left.trigger == pytest.approx(0.95)
    assert close(left.stick, (0.5, -0.25))
    on = {name for name, value in left.flags.items() if value}
    # X is the left hand's lower button: the Index's "a"; the stick pressed in; the trigger
    # past 0.9 clicks; no finger curls, so no hand tracking
    assert on == {
        "active", "a_click", "a_touch", "trigger_click", "trigger_touch",
        "thumbstick_click", "thumbstick_touch",
    }  # fmt: skip

    right = packet.right
    assert close(right.position, (0.3 + 1.0, 1.0, -0.2 - 2.0))
    assert close(right.orientation, spatial.quat_to_xyzw(_right_rotation(at)))
    assert right.squeeze == pytest.approx(0.25) and right.trigger == pytest.approx(0.5)
    on = {name for name, value in right.flags.items() if value}
    assert on == {"active", "b_click", "b_touch", "trigger_touch"}


def test_velocities_are_differentiated_and_the_angular_one_is_sent_in_the_controllers_frame() -> (
    None
):
    packet = decode(bytes(trace_driver(moving_trace()).packet(1.0)))
    right = packet.right
    assert close(right.linear, VELOCITY, 1e-3)
    spin = tuple(AXIS * SPIN)
    # what goes over the wire is conj(q) w q: not the tracking-space spin itself ...
    assert not close(right.angular, spin, 0.1)
    # ... so that the driver, rotating it by q, reports exactly the spin
    assert close(runtime_reports(right), spin, 1e-3)
    assert close(packet.left.linear, (0.0, 0.0, 0.0)) and close(packet.left.angular, (0, 0, 0))


def test_recorded_velocities_are_sent_as_recorded() -> None:
    v, w = (0.5, 0.25, -1.0), (0.0, 0.0, 4.0)
    pose = device_pose((0.2, 1.0, -0.3), yaw=1.0, velocity=v, angular_velocity=w)
    frames = tuple(InputFrame(t, right=HandInput(pose)) for t in (0.0, 1.0))
    right = decode(bytes(trace_driver(Trace(frames)).packet(0.5))).right
    assert close(right.linear, v)
    assert close(runtime_reports(right), w)


def test_with_velocities_fills_in_what_a_trace_lacks_and_keeps_the_rest() -> None:
    trace = moving_trace()
    filled = with_velocities(trace)
    middle = filled.samples[36].right.pose
    assert middle is not None and middle.linear_velocity is not None
    assert close(middle.linear_velocity, VELOCITY, 1e-6)
    assert middle.angular_velocity is not None
    assert close(middle.angular_velocity, tuple(AXIS * SPIN), 1e-6)
    assert filled.samples[36].head == trace.samples[36].head  # no head velocities to send
    assert with_velocities(filled) is filled  # nothing missing: the trace itself


def test_a_hand_that_is_not_tracked_is_inactive_and_a_missing_head_keeps_its_pose() -> None:
    frames = (
        InputFrame(0.0, device_pose((0.0, 1.5, 0.0)), right=hand_input((0.2, 1.0, 0.0))),
        InputFrame(1.0, None, right=HandInput(grip=1.0)),
    )
    driver = trace_driver(Trace(frames))
    driver.packet(0.0)
    packet = decode(bytes(driver.packet(1.5)))
    assert close(packet.head_position, (0.0, 1.5, 0.0))
    assert not packet.right.flags["active"] and not packet.left.flags["active"]


# --- the feed, against the stand-in ------------------------------------------------------


def test_the_first_sample_is_held_until_the_clock_starts(
    driven: tuple[RemoteDriver, FakeRemoteDriver, ManualClock],
) -> None:
    driver, server, clock = driven
    clock.now += 5.0  # time passes, but the trace's clock has not started
    held = server.wait_for(5)
    assert all(close(p.head_position, (0.0, 1.7, 0.0)) for p in held)
    assert all(close(p.right.linear, (0.0, 0.0, 0.0)) for p in held)  # held still
    assert driver.last_time == 0.0 and not driver.clock_started
    assert driver.reset is not None and driver.reset.head.center.position.y == pytest.approx(1.6)

    driver.start_clock()
    clock.now += 1.0
    server.wait_for(3)
    moved = decode(server.packets[-1])
    assert driver.last_time == pytest.approx(1.0)
    assert close(moved.head_position, (0.0, 1.7, -0.5))
    assert close(moved.right.linear, VELOCITY, 1e-3)
    driver.start_clock()  # a second focus does not restart the trace
    assert driver.trace_time() == pytest.approx(1.0)


def test_the_last_sample_is_held_still_after_the_end(
    driven: tuple[RemoteDriver, FakeRemoteDriver, ManualClock],
) -> None:
    driver, server, clock = driven
    driver.start_clock()
    clock.now += 60.0
    server.wait_for(3)
    end = decode(server.packets[-1])
    assert driver.last_time == pytest.approx(60.0)
    assert close(end.head_position, (0.0, 1.7, -1.0))
    assert close(end.right.position, (0.3 + 2.0, 1.0, -0.2 - 4.0))
    assert close(end.right.linear, (0.0, 0.0, 0.0)) and close(end.right.angular, (0.0, 0.0, 0.0))
    assert end.right.flags["active"]


def test_packets_go_whole_at_a_steady_rate_and_stop_closes_the_connection(
    server: FakeRemoteDriver,
) -> None:
    driver = trace_driver(moving_trace(), port=server.port, hz=200.0)
    driver.start()
    assert driver.connected.wait(WAIT), driver.error
    driver.start_clock()
    time.sleep(0.5)
    walked = [decode(p).head_position[2] for p in server.packets[-20:]]
    assert all(later < earlier for earlier, later in itertools.pairwise(walked))  # it streams
    driver.stop()
    driver.stop()  # idempotent
    assert not driver.running
    assert server.closed.wait(WAIT)
    assert server.partial == b""  # nothing but whole packets
    assert driver.error is None and driver.sent == len(server.packets)


def test_a_refused_connection_is_reported_not_raised() -> None:
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
    driver = trace_driver(moving_trace(), port=port, connect_seconds=0.3)
    driver.start()
    deadline = time.monotonic() + WAIT
    while driver.running:
        assert time.monotonic() < deadline
        time.sleep(0.01)
    assert not driver.connected.is_set() and driver.sent == 0
    assert driver.error is not None and f"127.0.0.1:{port}" in driver.error
    assert "P_OVERRIDE_ACTIVE_CONFIG=remote" in driver.error
    driver.stop()


def test_the_runtime_hanging_up_ends_the_feed_with_an_error() -> None:
    fake = FakeRemoteDriver(hang_up_after=3)
    try:
        driver = trace_driver(moving_trace(), port=fake.port)
        driver.start()
        assert fake.closed.wait(WAIT)
        deadline = time.monotonic() + WAIT
        while driver.running:
            assert time.monotonic() < deadline
            time.sleep(0.01)
        assert driver.connected.is_set() and driver.error is not None
        driver.stop()
    finally:
        fake.close()


def test_a_greeting_that_is_not_monados_is_an_error() -> None:
    fake = FakeRemoteDriver(greeting=b"HTTP/1.1" + bytes(PACKET_SIZE * 2 - 8))
    try:
        driver = trace_driver(moving_trace(), port=fake.port)
        driver.start()
        deadline = time.monotonic() + WAIT
        while driver.running:
            assert time.monotonic() < deadline
            time.sleep(0.01)
        assert not driver.connected.is_set()
        assert driver.error is not None and "not a remote packet" in driver.error
    finally:
        fake.close()


def test_the_command_line_feeds_a_trace_from_its_own_process(
    server: FakeRemoteDriver, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    trace = moving_trace(seconds=0.3)
    path = tmp_path / "short.jsonl"
    write_trace(path, trace.samples)
    assert main(["drive", str(path), "--port", str(server.port), "--start-delay", "0.1"]) == 0
    assert server.closed.wait(WAIT)
    packets = [decode(p) for p in server.packets]
    assert len(packets) > 10
    assert close(packets[0].head_position, (0.0, 1.7, 0.0))
    assert close(packets[-1].head_position, (0.0, 1.7, -0.5 * trace.duration))
    err = capsys.readouterr().err
    assert f"sent {len(packets)} packets" in err


def test_the_command_line_names_a_bad_trace(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text('{"format": "playspace-trace", "version": 1}\n{"t": -1}\n')
    assert main(["drive", str(path)]) == 2
    assert "bad.jsonl:2" in capsys.readouterr().err
