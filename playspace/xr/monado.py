"""Play a recorded trace into Monado's ``remote`` driver, so a real OpenXR runtime reports it.

Monado (the open-source OpenXR runtime) has a ``remote`` driver: a headset and two Valve Index
controllers whose poses and controls a program sends over TCP. Started with
``P_OVERRIDE_ACTIVE_CONFIG=remote``, the runtime listens on port 4242 (all interfaces; one
client at a time) once an OpenXR instance has made its system. :class:`RemoteDriver` is that
program for any input frames; ``playspace run SCENE --vr --drive TRACE`` plays a trace through
it (:mod:`playspace.loops.drive`), so a game is tested end to end through a real runtime (its
action system, its spaces, its frame timing) with scripted input, and ``playspace drive TRACE``
feeds a trace from a separate process, for a developer watching their own application.

The wire format
---------------
Everything is whole packets of 376 bytes, ``struct r_remote_data`` of Monado's
``src/xrt/drivers/remote/r_interface.h`` in C layout, little-endian (x86-64); the offsets below
are what ``offsetof`` gives on that header (upstream commit ebc3f6530):

==========  =====  ===========================================================================
offset      bytes  field
==========  =====  ===========================================================================
0           8      header: the bytes ``mndrmt3\\0`` (the protocol's version)
8           96     head.views[2]: fov (4 floats: left, right, up, down, radians), pose
                   (quaternion x y z w, position x y z), 4 bytes padding
104         28     head.center: the head's pose
132         4      head.per_view_data_valid (bool), 3 bytes padding
136         120    left controller (below)
256         120    right controller
==========  =====  ===========================================================================

A controller: pose (28), linear velocity (3 floats), angular velocity (3 floats),
hand_curl[5], trigger value, squeeze value, squeeze force, thumbstick x y, trackpad force,
trackpad x y (floats), then 16 one-byte bools: hand_tracking_active, active, system click and
touch, a click and touch, b click and touch, trigger click and touch, thumbstick click and
touch, trackpad touch, 3 padding.

On connecting, the driver sends two packets, its reset state and its current one; from then on
the client sends whole packets whenever it likes, and the runtime answers every question
(``xrLocateSpace`` at any time, ``xrSyncActions``) with the newest packet: no prediction, no
interpolation. Closing the connection keeps the last packet; the driver then waits for the
next client.

What the runtime makes of a packet (read from Monado's ``r_device.c`` and ``r_hub.c``):

- Poses are in the STAGE space with no offset, which is exactly a trace's tracking space, so
  they are sent unchanged.
- A controller is tracked while ``active``: its pose and both velocities are then reported
  valid and tracked; while not active its pose flags are zero and every input reads inactive
  and zero. So a trace's controls on a hand that is not tracked cannot reach the application.
- The angular velocity sent is taken in the controller's own frame: the runtime reports
  ``q * w * conj(q)`` (``math_quat_rotate_derivative``). To have it report ``w`` (tracking
  space, as traces and OpenXR write it) this sends ``conj(q) * w * q``.
- The controls map onto the Index profile: grip -> squeeze/value, trigger -> trigger/value
  (click past 0.9, touch above 0), stick -> thumbstick (touch off centre or pressed), the
  trace's ``a``/``x`` -> a/click and ``b``/``y`` -> b/click (playspace reads an Index's left
  ``a`` as ``X``), ``stick`` -> thumbstick/click. ``menu`` has no Index binding (the system
  button belongs to the runtime) and is not sent.
- A hand with joints (trace format v2) turns on ``hand_tracking_active`` and sends its finger
  curls (read from the joints by the driver's `hand_shape`, little finger first as the packet
  wants); Monado then makes up a hand of 26 joints from the curls, posed from the
  controller (``u_hand_sim_simulate_for_valve_index_knuckles``), which it reports only while
  the controller is ``active``: a hand with joints and no pose is sent at its palm's pose. The
  curls are what survives: Monado's hand is its own, not the trace's joints.
- The head has no velocities in the packet; its views keep the runtime's own eyes
  (``per_view_data_valid`` false) and only the centre pose moves. A sample without a head keeps
  the last head pose sent.

Velocities: a real runtime always measures them, so a trace without ``v``/``w`` is played
with the velocities a tracker would have measured
(:func:`~playspace.systems.input.velocities.with_velocities`).

Timing
------
The trace's clock must start when the application's session is FOCUSED, not when this
connects: the runtime comes up, the session goes READY, SYNCHRONIZED, VISIBLE and FOCUSED over
a few tenths of a second, and a clock started at connection would play the trace's first
moments (a grab, say) before the application can see input at all. So :meth:`RemoteDriver.start`
connects and holds the trace's first sample; :meth:`RemoteDriver.start_clock` (the headset loop
calls it the first time the session is FOCUSED) starts the trace's time from then on, measured
on the monotonic clock. Packets go at :data:`SEND_HZ`, on a fixed schedule, well above any
display rate, so the newest packet is never more than a few milliseconds old when the runtime
is asked. After the trace's end the last sample is held, still (zero velocities).
"""

from __future__ import annotations

import ctypes
import logging
import math
import socket
import threading
import time
from collections.abc import Callable
from typing import ClassVar, Final, TypeAlias

from playspace import spatial
from playspace.components.input import Button, DevicePose, HandInput, HandJoints, InputFrame
from playspace.spatial import Pose, Vec3

Curls: TypeAlias = tuple[float, float, float, float, float]
HandShape: TypeAlias = Callable[[HandJoints], tuple[Curls, Pose]]
"""A tracked hand's finger curls (thumb first, 0 open, 1 closed) and its palm's pose, from
its 26 joints: what the packet carries of a hand."""

logger = logging.getLogger(__name__)

PORT: Final = 4242  # where Monado's remote driver listens (its default; config.json may move it)
HEADER: Final = b"mndrmt3\x00"  # protocol version 3 of struct r_remote_data
PACKET_SIZE: Final = 376
# Packets a second. The runtime answers with the newest packet, so a pose is up to 1/SEND_HZ
# old when located; at 250 that age (0-4 ms) made every fourth 90 Hz step of a throw move
# 0.66x-1.25x as far as its neighbours, at 500 0.85x-1.17x. A packet takes ~30 us to make.
SEND_HZ: Final = 500.0
CONNECT_SECONDS: Final = 5.0  # how long start() keeps retrying a refused connection
RETRY_SECONDS: Final = 0.05
IO_TIMEOUT: Final = 2.0  # a socket call that blocks longer than this fails the feed
TRIGGER_CLICK: Final = 0.9  # the trigger's value past which it reads as clicked


class RemoteVec3(ctypes.Structure):
    """``struct xrt_vec3``."""

    _fields_: ClassVar = [("x", ctypes.c_float), ("y", ctypes.c_float), ("z", ctypes.c_float)]
    x: float
    y: float
    z: float


class RemoteQuat(ctypes.Structure):
    """``struct xrt_quat``, vector part first (x, y, z, w) as OpenXR and playspace write it."""

    _fields_: ClassVar = [(name, ctypes.c_float) for name in "xyzw"]
    x: float
    y: float
    z: float
    w: float


class RemotePose(ctypes.Structure):
    """``struct xrt_pose``: orientation, then position (28 bytes)."""

    _fields_: ClassVar = [("orientation", RemoteQuat), ("position", RemoteVec3)]
    orientation: RemoteQuat
    position: RemoteVec3


class RemoteFov(ctypes.Structure):
    """``struct xrt_fov``: the four half-angles of a view, radians."""

    _fields_: ClassVar = [
        (name, ctypes.c_float) for name in ("angle_left", "angle_right", "angle_up", "angle_down")
    ]
    angle_left: float
    angle_right: float
    angle_up: float
    angle_down: float


class RemoteView(ctypes.Structure):
    """One eye of the head: its field of view and pose relative to the centre (48 bytes)."""

    _fields_: ClassVar = [("fov", RemoteFov), ("pose", RemotePose), ("_pad", ctypes.c_uint32)]
    fov: RemoteFov
    pose: RemotePose


class RemoteHead(ctypes.Structure):
    """``struct r_head_data`` (128 bytes)."""

    _fields_: ClassVar = [
        ("views", RemoteView * 2),
        ("center", RemotePose),
        ("per_view_data_valid", ctypes.c_bool),
        ("_pad", ctypes.c_bool * 3),
    ]
    views: ctypes.Array[RemoteView]
    center: RemotePose
    per_view_data_valid: bool


_CONTROLLER_BOOLS = (
    "hand_tracking_active", "active", "system_click", "system_touch", "a_click", "a_touch",
    "b_click", "b_touch", "trigger_click", "trigger_touch", "thumbstick_click",
    "thumbstick_touch", "trackpad_touch", "_pad0", "_pad1", "_pad2",
)  # fmt: skip


class RemoteController(ctypes.Structure):
    """``struct r_remote_controller_data`` (120 bytes): one Index controller."""

    _fields_: ClassVar = [
        ("pose", RemotePose),
        ("linear_velocity", RemoteVec3),
        ("angular_velocity", RemoteVec3),
        ("hand_curl", ctypes.c_float * 5),
        ("trigger_value", ctypes.c_float),
        ("squeeze_value", ctypes.c_float),
        ("squeeze_force", ctypes.c_float),
        ("thumbstick", ctypes.c_float * 2),
        ("trackpad_force", ctypes.c_float),
        ("trackpad", ctypes.c_float * 2),
        *((name, ctypes.c_bool) for name in _CONTROLLER_BOOLS),
    ]
    pose: RemotePose
    linear_velocity: RemoteVec3
    angular_velocity: RemoteVec3
    hand_curl: ctypes.Array[ctypes.c_float]
    trigger_value: float
    squeeze_value: float
    squeeze_force: float
    thumbstick: ctypes.Array[ctypes.c_float]
    trackpad_force: float
    trackpad: ctypes.Array[ctypes.c_float]
    hand_tracking_active: bool
    active: bool
    system_click: bool
    system_touch: bool
    a_click: bool
    a_touch: bool
    b_click: bool
    b_touch: bool
    trigger_click: bool
    trigger_touch: bool
    thumbstick_click: bool
    thumbstick_touch: bool
    trackpad_touch: bool


class RemotePacket(ctypes.Structure):
    """``struct r_remote_data``: one whole packet, both ways (376 bytes)."""

    _fields_: ClassVar = [
        ("header", ctypes.c_uint64),
        ("head", RemoteHead),
        ("left", RemoteController),
        ("right", RemoteController),
    ]
    header: int
    head: RemoteHead
    left: RemoteController
    right: RemoteController

    @classmethod
    def blank(cls) -> RemotePacket:
        """A packet with the header set and everything else zero (a head at the origin)."""
        packet = cls()
        packet.header = int.from_bytes(HEADER, "little")
        packet.head.center.orientation.w = 1.0
        for controller in (packet.left, packet.right):
            controller.pose.orientation.w = 1.0
        return packet

    @classmethod
    def decode(cls, data: bytes) -> RemotePacket:
        """A packet from its 376 bytes; ValueError when the size or the header is wrong."""
        if len(data) != PACKET_SIZE:
            raise ValueError(f"a remote packet is {PACKET_SIZE} bytes, got {len(data)}")
        if data[:8] != HEADER:
            raise ValueError(f"not a remote packet of version 3: header {data[:8]!r}")
        return cls.from_buffer_copy(data)


assert ctypes.sizeof(RemoteController) == 120, ctypes.sizeof(RemoteController)
assert ctypes.sizeof(RemoteHead) == 128, ctypes.sizeof(RemoteHead)
assert ctypes.sizeof(RemotePacket) == PACKET_SIZE, ctypes.sizeof(RemotePacket)


def _set_pose(target: RemotePose, pose: spatial.Pose) -> None:
    p, q = pose.position, pose.rotation
    target.position.x, target.position.y, target.position.z = p.x, p.y, p.z
    o = target.orientation
    o.x, o.y, o.z, o.w = spatial.quat_to_xyzw(q)


def _set_vec3(target: RemoteVec3, v: Vec3) -> None:
    target.x, target.y, target.z = v.x, v.y, v.z


class RemoteDriver:
    """Feeds input frames into Monado's remote driver from a daemon thread; see the module
    docstring. `frames` gives the frame at a time of the played input, whose samples span
    `span` (first, last: seconds); `hand_shape` reads a tracked hand's curls and palm.

    :meth:`start` connects (retrying for :data:`CONNECT_SECONDS`, the runtime may still be
    coming up) and sends the first sample until :meth:`start_clock`; :meth:`stop` ends the feed.
    A test reads :attr:`connected` (set once the driver's two greeting packets arrived),
    :attr:`sent` (packets sent), :attr:`last_time` (the trace time of the newest packet, None
    before any), :attr:`reset` (the driver's reset packet) and :attr:`error`: why the feed
    ended other than :meth:`stop` (a refused connection, the runtime closing it), None
    otherwise. Nothing is raised from the thread.
    """

    def __init__(
        self,
        frames: Callable[[float], InputFrame],
        span: tuple[float, float],
        hand_shape: HandShape,
        *,
        port: int = PORT,
        hz: float = SEND_HZ,
        connect_seconds: float = CONNECT_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if not (math.isfinite(hz) and hz > 0):
            raise ValueError(f"hz must be a positive number, got {hz}")
        self.frames, self.span, self.hand_shape = frames, span, hand_shape
        self.port, self.hz, self.connect_seconds = port, hz, connect_seconds
        self.clock = clock
        self._head = spatial.Pose(spatial.vec3(0.0, 1.6, 0.0), spatial.identity())
        self._started_at: float | None = None
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None
        self.connected = threading.Event()
        self.sent = 0
        self.last_time: float | None = None
        self.reset: RemotePacket | None = None
        self.error: str | None = None

    # --- control, from any thread ------------------------------------------------------

    def start(self) -> None:
        """Start the feeding thread (once; a second call does nothing)."""
        if self._thread is not None:
            return
        self._thread = threading.Thread(target=self._run, name="monado-remote", daemon=True)
        self._thread.start()

    def start_clock(self) -> None:
        """The trace's time starts now (only the first call counts)."""
        if self._started_at is None:
            self._started_at = self.clock()

    @property
    def clock_started(self) -> bool:
        return self._started_at is not None

    def trace_time(self) -> float:
        """Seconds of the trace to send now: 0 (its first sample) until :meth:`start_clock`."""
        started = self._started_at
        return 0.0 if started is None else max(self.clock() - started, 0.0)

    def stop(self, timeout: float = 3.0) -> None:
        """Stop feeding and close the connection; idempotent. Waits up to `timeout` seconds."""
        self._stopping.set()
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout)

    @property
    def running(self) -> bool:
        thread = self._thread
        return thread is not None and thread.is_alive()

    # --- packets -----------------------------------------------------------------------

    def packet(self, at: float, base: RemotePacket | None = None) -> RemotePacket:
        """The packet for trace time `at`: `base` (the driver's reset packet, else a blank
        one) with the head, both controllers and their controls of the trace at that time.
        Before the first sample and after the last the replay holds a sample: the hands are
        still there, and their velocities are zero."""
        packet = RemotePacket.from_buffer_copy(bytes(base or RemotePacket.blank()))
        frame = self.frames(at)
        held = not self.span[0] < at < self.span[1]
        if frame.head is not None:
            self._head = frame.head.pose
        _set_pose(packet.head.center, self._head)
        packet.head.per_view_data_valid = False
        self._controller(packet.left, frame.left, held)
        self._controller(packet.right, frame.right, held)
        return packet

    def _controller(self, target: RemoteController, hand: HandInput, held: bool) -> None:
        device = hand.pose
        joints = hand.joints
        target.hand_tracking_active = joints is not None  # without joints: no made-up hands
        if joints is not None:
            curls, palm = self.hand_shape(joints)
            for i, curl in enumerate(reversed(curls)):  # little finger first
                target.hand_curl[i] = curl
            if device is None:  # Monado places the hand it makes at the controller's pose
                device = DevicePose(palm)
        target.active = device is not None
        if device is not None:
            _set_pose(target.pose, device.pose)
            zero = spatial.vec3(0.0, 0.0, 0.0)
            linear, angular = device.linear_velocity, device.angular_velocity
            if held or linear is None or angular is None:
                linear = angular = zero
            _set_vec3(target.linear_velocity, linear)
            # the driver rotates what it gets by the controller's orientation: undo that
            body = spatial.rotate(spatial.inverse(device.pose.rotation), angular)
            _set_vec3(target.angular_velocity, body)
        target.squeeze_value = hand.grip
        target.squeeze_force = 0.0
        target.trigger_value = hand.trigger
        target.trigger_click = hand.trigger > TRIGGER_CLICK
        target.trigger_touch = hand.trigger > 0.0
        target.thumbstick[0], target.thumbstick[1] = hand.stick
        buttons = hand.buttons
        target.thumbstick_click = Button.STICK in buttons
        target.thumbstick_touch = hand.stick != (0.0, 0.0) or target.thumbstick_click
        target.a_click = target.a_touch = bool(buttons & {Button.A, Button.X})
        target.b_click = target.b_touch = bool(buttons & {Button.B, Button.Y})
        target.system_click = target.system_touch = False

    # --- the thread --------------------------------------------------------------------

    def _run(self) -> None:
        """The thread: connect, read the greeting, feed. A failure before the feed began (the
        run will see no input) is a warning; the runtime closing the connection later is only
        for debugging, since the application then reports the runtime's end itself (and the
        headset loop shows the ``playspace.xr`` loggers' info lines)."""
        connection = self._connect()
        if connection is None:
            if self.error is not None:
                logger.warning("playspace.xr.monado: %s", self.error)
            return
        try:
            with connection:
                self.reset = RemotePacket.decode(_receive(connection, PACKET_SIZE))
                _receive(connection, PACKET_SIZE)  # the current state: ours replaces it
                self.connected.set()
                self._feed(connection)
        except (OSError, ValueError) as error:
            if self._stopping.is_set():
                return
            self.error = f"{type(error).__name__}: {error}"
            if self.connected.is_set():
                logger.debug("playspace.xr.monado: the feed stopped: %s", self.error)
            else:
                logger.warning("playspace.xr.monado: %s", self.error)

    def _connect(self) -> socket.socket | None:
        """A connection to the driver, retrying a refused one (the runtime may be starting)."""
        deadline = self.clock() + self.connect_seconds
        while not self._stopping.is_set():
            try:
                connection = socket.create_connection(("127.0.0.1", self.port), IO_TIMEOUT)
            except OSError as error:
                if self.clock() >= deadline:
                    self.error = (
                        f"no remote driver on 127.0.0.1:{self.port} after "
                        f"{self.connect_seconds:g} s ({error.strerror or error}); is the runtime "
                        "Monado started with P_OVERRIDE_ACTIVE_CONFIG=remote?"
                    )
                    return None
                self._stopping.wait(RETRY_SECONDS)
                continue
            connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            return connection
        return None

    def _feed(self, connection: socket.socket) -> None:
        """Send a packet every 1/hz seconds on a fixed schedule until stopped; a stall restarts
        the schedule instead of sending a burst to catch up."""
        period = 1.0 / self.hz
        due = self.clock()
        while not self._stopping.is_set():
            at = self.trace_time()
            connection.sendall(bytes(self.packet(at, self.reset)))
            self.sent += 1
            self.last_time = at
            due += period
            now = self.clock()
            if now - due > period:
                due = now
            self._stopping.wait(max(due - now, 0.0))


def _receive(connection: socket.socket, size: int) -> bytes:
    """Exactly `size` bytes; ConnectionError when the peer closes first."""
    data = bytearray()
    while len(data) < size:
        chunk = connection.recv(size - len(data))
        if not chunk:
            raise ConnectionError(
                f"the remote driver closed the connection after {len(data)} bytes"
            )
        data += chunk
    return bytes(data)
