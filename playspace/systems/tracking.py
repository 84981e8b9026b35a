"""Tracking: the input source's poses, sampled once per fixed step, on the tracked devices.

The source is sampled at the time the step brings the world to, so a replayed trace drives the
world the same way whatever the frame rate was when it was recorded. Poses stay in tracking
space here; the rig maps them into the world through the origin. A device the source does not
report keeps its last pose with ``tracked`` False, so nothing downstream is flung by a pose
made up of zeros.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from playspace.components import DeviceRole, TrackedDevice
from playspace.components.input import DevicePose, InputFrame
from playspace.ecs import Phase, World, system
from playspace.ecs.clock import NS_PER_S
from playspace.systems.input import InputSource


@dataclass(slots=True)
class InputState:
    """The input source and the frame it gave for the current fixed step; a resource."""

    source: InputSource
    frame: InputFrame = field(default_factory=InputFrame)


def _sample_of(frame: InputFrame, role: DeviceRole) -> DevicePose | None:
    if role is DeviceRole.HEAD:
        return frame.head
    return frame.left.pose if role is DeviceRole.LEFT_HAND else frame.right.pose


@system(Phase.FIXED, in_set="tracking", writes=(TrackedDevice, InputState))
def tracking_system(world: World) -> None:
    """Sample the source at this step's time into the tracked devices."""
    state = world.resource(InputState)
    frame = state.frame = state.source.sample(world.fixed_time.elapsed)
    stamp = round(frame.time * NS_PER_S)
    for _, device in world.each(TrackedDevice):
        sample = _sample_of(frame, device.role)
        if sample is None:
            device.tracked = False
            continue
        device.pose = sample.pose
        device.linear_velocity = sample.linear_velocity
        device.angular_velocity = sample.angular_velocity
        device.tracked = True
        device.time_ns = stamp
