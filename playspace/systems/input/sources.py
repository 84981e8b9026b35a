"""Input sources without a headset: a replayed trace, and a script for tests and examples.

Every source answers :meth:`InputSource.sample`: the input frame at a time on the source's
clock. The tracking system samples once per fixed step at the step's time, so a trace drives the
world the same way whatever frame rate it was recorded or replayed at; that is why replay
interpolates between samples instead of handing out the nearest one.

:class:`Recorder` passes any source through and writes what it gave the rig into a trace, so a
preview session replays headless to the same state.

The builders at the end (:func:`device_pose`, :func:`hand_input`, :func:`standing_frame`) make the
frames tests start from, in tracking space: floor at y = 0, looking down -Z.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Iterable
from dataclasses import replace
from itertools import pairwise
from typing import Protocol, runtime_checkable

from playspace.components.input import (
    Button,
    DevicePose,
    Gamepad,
    HandInput,
    HandJoints,
    InputFrame,
    InputSource,
)
from playspace.formats.trace import Trace
from playspace.spatial import Pose, Vec3, lerp_pose, vec3_from, yaw_rotation

_Triple = tuple[float, float, float]


@runtime_checkable
class Polled(Protocol):
    """A source read once a display frame, in the world's INPUT phase, besides once a step
    (:class:`~playspace.systems.input.live.LiveSource`)."""

    def poll(self, time: float) -> InputFrame:
        """Read the devices for the frame ending at world time `time`, keep and return it."""
        ...


def read_frame(source: InputSource, time: float) -> InputFrame:
    """A display frame's read of `source`: its poll when it is :class:`Polled`, else its sample.

    The method is looked up rather than tested with ``isinstance(source, Polled)``: a
    runtime-checkable protocol's check walks the protocol's members, about 7 µs, paid every
    frame; the lookup answers the same (a ``poll`` attribute that is not None) in 0.04 µs.
    """
    poll = getattr(source, "poll", None)
    return poll(time) if poll is not None else source.sample(time)


def _at(frame: InputFrame, time: float) -> InputFrame:
    return frame if frame.time == time else replace(frame, time=time)


class ReplaySource:
    """Plays a trace back, interpolating between the two samples around each time asked for.

    Positions, velocities and analog controls move linearly; rotations slerp the short way;
    a hand's joints move joint by joint as poses do; buttons, and a device (or a hand's
    joints) tracked in only one of the two samples, keep the earlier sample's
    state, so a press or a loss of tracking starts where it was recorded and nothing is made
    up between a lost and a found pose. Before the first sample the source holds the first;
    after :attr:`duration` it holds the last.

    A sample costs a binary search at worst; stepping forward in time, as a replay does, checks
    the interval of the last call first. The last frame made is kept: a headless replay asks
    for each step's time twice (the frame's poll, then the step's sample), and the frame, a
    pure function of the time, is made once (about 8 µs, a fixed cost of every step).
    """

    def __init__(self, trace: Trace) -> None:
        self.trace = trace
        self._samples = trace.samples
        self._times = [sample.time for sample in trace.samples]
        if not self._times:
            raise ValueError(f"{trace.path}: a trace with no samples cannot be replayed")
        if any(b <= a for a, b in pairwise(self._times)):
            raise ValueError(f"{trace.path}: sample times must strictly increase")
        self._index = 0  # the interval [times[i], times[i + 1]) of the last sample
        self._last: tuple[float, InputFrame] | None = None  # the last time asked, its frame

    @property
    def duration(self) -> float:
        return self.trace.duration

    def sample(self, time: float) -> InputFrame:
        last = self._last
        if last is not None and last[0] == time:
            return last[1]
        frame = self._between(time)
        self._last = (time, frame)
        return frame

    def _between(self, time: float) -> InputFrame:
        times = self._times
        if time <= times[0]:
            return _at(self._samples[0], time)
        if time >= times[-1]:
            return _at(self._samples[-1], time)
        i = self._index
        if time >= times[i + 1]:
            i = bisect_right(times, time, i + 1) - 1
        elif time < times[i]:
            i = bisect_right(times, time, 0, i) - 1
        self._index = i
        a, b = self._samples[i], self._samples[i + 1]
        if time == a.time:
            return a
        return frame_between(a, b, (time - a.time) / (b.time - a.time), time)


def frame_between(a: InputFrame, b: InputFrame, f: float, time: float) -> InputFrame:
    """The frame `f` of the way from `a` to `b`, stamped `time`: poses, velocities and analog
    controls moved, buttons as in `a` (see :class:`ReplaySource`)."""
    return InputFrame(
        time,
        device_between(a.head, b.head, f),
        _hand(a.left, b.left, f),
        _hand(a.right, b.right, f),
        tuple(_pad(pa, pb, f) for pa, pb in zip(a.pads, b.pads, strict=False))
        + a.pads[len(b.pads) :],
    )


def _mix(a: float, b: float, f: float) -> float:
    return a + (b - a) * f


def _stick(a: tuple[float, float], b: tuple[float, float], f: float) -> tuple[float, float]:
    return (_mix(a[0], b[0], f), _mix(a[1], b[1], f))


def _vector(a: Vec3 | None, b: Vec3 | None, f: float) -> Vec3 | None:
    return a if a is None or b is None else a + (b - a) * f


def device_between(a: DevicePose | None, b: DevicePose | None, f: float) -> DevicePose | None:
    """A device `f` of the way from `a` to `b`; as `a` when either is untracked, so nothing
    is made up between a lost and a found pose."""
    if a is None or b is None:
        return a
    return DevicePose(
        lerp_pose(a.pose, b.pose, f),
        _vector(a.linear_velocity, b.linear_velocity, f),
        _vector(a.angular_velocity, b.angular_velocity, f),
    )


def joints_between(a: HandJoints | None, b: HandJoints | None, f: float) -> HandJoints | None:
    """A hand's joints `f` of the way from `a` to `b`, each joint as a device moves; as `a`
    when either is untracked."""
    if a is None or b is None:
        return a
    return HandJoints(
        tuple(lerp_pose(pa, pb, f) for pa, pb in zip(a.poses, b.poses, strict=True)),
        tuple(_mix(ra, rb, f) for ra, rb in zip(a.radii, b.radii, strict=True)),
    )


def _hand(a: HandInput, b: HandInput, f: float) -> HandInput:
    return HandInput(
        device_between(a.pose, b.pose, f),
        _mix(a.grip, b.grip, f),
        _mix(a.trigger, b.trigger, f),
        _stick(a.stick, b.stick, f),
        a.buttons,
        joints_between(a.joints, b.joints, f),
    )


def _pad(a: Gamepad, b: Gamepad, f: float) -> Gamepad:
    return Gamepad(
        _stick(a.left_stick, b.left_stick, f), _stick(a.right_stick, b.right_stick, f), a.buttons
    )


class ScriptedSource:
    """Frames from a function of time, for tests and examples: ``script(t)`` says what the
    player does at ``t``. The source stamps each frame with ``t``, so a script may return the
    same frame every time (``ScriptedSource(lambda t: standing_frame())``)."""

    def __init__(
        self, script: Callable[[float], InputFrame], duration: float | None = None
    ) -> None:
        self.script = script
        self.duration = duration

    def sample(self, time: float) -> InputFrame:
        return _at(self.script(time), time)


class FrameSink(Protocol):
    """Where a :class:`Recorder` puts each new frame: a trace file, or the network."""

    def write(self, frame: InputFrame) -> None: ...


class Recorder:
    """Passes a source's frames through and writes each new one to `writer` as it goes (a
    :class:`TraceWriter`, or a match's link to its host).

    The rig samples its source once per fixed step at the step's time, so these are exactly the
    frames the session ran on: replayed at the same fixed rate (and seed), a ReplaySource hands
    back the very same frames at the very same times, and the session replays to the same
    state. A time already written (a second sample at the same time) is not written again.
    """

    def __init__(self, source: InputSource, writer: FrameSink) -> None:
        self.source = source
        self.writer = writer
        self.samples = 0  # frames written
        self._last: float | None = None

    @property
    def duration(self) -> float | None:
        return self.source.duration

    def poll(self, time: float) -> InputFrame:
        """Pass a frame's poll through (what is written are the steps' samples)."""
        return read_frame(self.source, time)

    def sample(self, time: float) -> InputFrame:
        frame = self.source.sample(time)
        if self._last is None or time > self._last:
            self.writer.write(frame)
            self._last = time
            self.samples += 1
        return frame


def device_pose(
    position: _Triple,
    yaw: float = 0.0,
    velocity: _Triple | None = None,
    angular_velocity: _Triple | None = None,
) -> DevicePose:
    """A tracked pose at ``position`` (metres, tracking space) turned ``yaw`` radians to the
    left of -Z, with velocities (m/s, rad/s) when given."""
    return DevicePose(
        Pose(vec3_from(position), yaw_rotation(yaw)),
        None if velocity is None else vec3_from(velocity),
        None if angular_velocity is None else vec3_from(angular_velocity),
    )


def hand_input(
    position: _Triple,
    yaw: float = 0.0,
    *,
    grip: float = 0.0,
    trigger: float = 0.0,
    stick: tuple[float, float] = (0.0, 0.0),
    buttons: Iterable[Button] = (),
) -> HandInput:
    """A tracked controller at ``position`` turned ``yaw`` to the left, with its controls."""
    return HandInput(device_pose(position, yaw), grip, trigger, stick, frozenset(buttons))


def standing_frame(head_height: float = 1.7) -> InputFrame:
    """A player standing still at the tracking-space origin, looking down -Z, hands relaxed at
    their sides (0.2 m out, 0.8 m below the eyes): the neutral frame a test starts from."""
    hands_y = head_height - 0.8
    return InputFrame(
        0.0,
        device_pose((0.0, head_height, 0.0)),
        hand_input((-0.2, hands_y, 0.0)),
        hand_input((0.2, hands_y, 0.0)),
    )
