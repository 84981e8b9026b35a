"""Velocities a trace does not record, filled in as a tracker would have measured them.

A real runtime always measures a controller's velocities, and playspace prefers a runtime's
velocities when it reports them valid (the throw takes them for its newest sample). A trace
without ``v``/``w`` (the example traces have none) played into a real runtime gets them here
first, so ``playspace run --headless --trace`` of ``with_velocities(trace)`` sees exactly the
velocities the runtime reports: the reference a headset run driven by the trace is compared with.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from playspace import spatial
from playspace.components.input import DevicePose, HandInput, InputFrame
from playspace.formats.trace import Trace
from playspace.spatial import Vec3
from playspace.systems.input.sources import ReplaySource

DIFF_SECONDS = 0.005  # half the window of the central difference


def angular_velocity_between(a: spatial.Quat, b: spatial.Quat, dt: float) -> Vec3:
    """The angular velocity (tracking space, axis times rad/s) turning `a` into `b` in `dt`
    seconds at a constant rate, the short way round."""
    axis, angle = spatial.to_axis_angle(spatial.multiply(b, spatial.inverse(a)))
    return axis * (angle / dt)


def with_velocities(trace: Trace) -> Trace:
    """`trace` with every tracked hand's missing ``v`` and ``w`` filled in, as a tracker would
    have measured them: a central difference of the replayed trace over :data:`DIFF_SECONDS`
    either side of the sample (one-sided at the ends and where the hand is not tracked on one
    side). Velocities a sample has are kept; the head is left alone (the remote driver has no
    head velocities). The trace itself is returned when nothing is missing."""
    replay = ReplaySource(trace)
    end = trace.duration
    changed = False
    samples = []
    for frame in trace.samples:
        hands = []
        for hand, side in ((frame.left, _left), (frame.right, _right)):
            device = hand.pose
            if device is not None and (
                device.linear_velocity is None or device.angular_velocity is None
            ):
                device = _differentiated(device, replay, side, frame.time, end)
                hand = replace(hand, pose=device)
                changed = True
            hands.append(hand)
        samples.append(replace(frame, left=hands[0], right=hands[1]))
    return replace(trace, samples=tuple(samples)) if changed else trace


def _left(frame: InputFrame) -> HandInput:
    return frame.left


def _right(frame: InputFrame) -> HandInput:
    return frame.right


def _differentiated(
    device: DevicePose,
    replay: ReplaySource,
    side: Callable[[InputFrame], HandInput],
    at: float,
    end: float,
) -> DevicePose:
    """`device` (sampled at `at`) with its missing velocities from the replay around `at`."""
    early, late = max(at - DIFF_SECONDS, 0.0), min(at + DIFF_SECONDS, end)
    a = side(replay.sample(early)).pose
    b = side(replay.sample(late)).pose
    if a is None:
        a, early = device, at
    if b is None:
        b, late = device, at
    linear, angular = device.linear_velocity, device.angular_velocity
    if late > early:
        dt = late - early
        if linear is None:
            linear = (b.pose.position - a.pose.position) / dt
        if angular is None:
            angular = angular_velocity_between(a.pose.rotation, b.pose.rotation, dt)
    zero = spatial.vec3(0.0, 0.0, 0.0)
    return replace(
        device,
        linear_velocity=zero if linear is None else linear,
        angular_velocity=zero if angular is None else angular,
    )
