"""Tracking: the input source's poses, read once a frame and sampled once per fixed step.

A live source (a headset, the desktop simulator) is polled once a frame in INPUT, for the
frame's time; every fixed step then samples the source at the time the step brings the world
to, so a step sees the poses of its own time whatever the display rate, and a replayed trace
drives the world the same way whatever frame rate it was recorded or replayed at. Poses stay in
tracking space here; the rig maps them into the world through the origin. A device the source
does not report keeps its last pose with ``tracked`` False, so nothing downstream is flung by a
pose made up of zeros, and every frame passes one gate (:mod:`playspace.systems.input.gate`):
a device the world cannot use (a NaN, a rotation of no length) is untracked for the step.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from playspace.components import DeviceRole, TrackedDevice
from playspace.components.input import DevicePose, InputFrame, InputState
from playspace.components.rig import Rig
from playspace.components.tracking import HandControls
from playspace.ecs import Phase, World, system
from playspace.ecs.clock import NS_PER_S
from playspace.systems.input.gate import gate
from playspace.systems.input.sources import read_frame
from playspace.systems.sets import FixedSet


@dataclass(frozen=True, slots=True)
class TrackingRejected:
    """The input source gave a device the world cannot use this step (a NaN, an infinite
    velocity, a rotation of no length): it was taken as untracked. `devices` names them."""

    kind: ClassVar[str] = "tracking_rejected"
    devices: tuple[str, ...]
    player: int = 0  # which player's source (``Rig.player``)


def sample_of(frame: InputFrame, role: DeviceRole) -> DevicePose | None:
    """The device `role` in `frame`; None when it is not tracked there."""
    if role is DeviceRole.HEAD:
        return frame.head
    return frame.left.pose if role is DeviceRole.LEFT_HAND else frame.right.pose


@system(Phase.INPUT, writes=(InputState,))
def poll_input(world: World) -> None:
    """Read each player's devices once a frame, for the time the frame brings the world to."""
    now = world.time.elapsed
    for _, state in world.each(InputState):
        state.latest = _gated(state, read_frame(state.source, now))[0]


def _gated(state: InputState, raw: InputFrame) -> tuple[InputFrame, tuple[str, ...]]:
    """`raw` through the gate, once: frames are frozen, so the same object gates the same."""
    last = state.gated
    if last is not None and last[0] is raw:
        return last[1], last[2]
    frame, rejected = gate(raw)
    state.gated = (raw, frame, rejected)
    return frame, rejected


@system(
    Phase.FIXED,
    in_set=FixedSet.TRACKING,
    reads=(Rig,),
    writes=(TrackedDevice, HandControls, InputState, TrackingRejected),
)
def tracking_system(world: World) -> None:
    """Sample each player's source at this step's time into that player's tracked devices and
    the hands' controls, through the gate."""
    for _, (rig, state) in world.query(Rig, InputState):
        raw = state.source.sample(world.fixed_time.elapsed)
        frame, rejected = _gated(state, raw)
        state.frame = frame
        if rejected:
            world.send(TrackingRejected(rejected, rig.player))
        stamp = round(frame.time * NS_PER_S)
        _track(world.get(rig.head, TrackedDevice), frame.head, stamp)
        hands = ((rig.left_hand, frame.left, raw.left), (rig.right_hand, frame.right, raw.right))
        for entity, hand, given in hands:
            device, controls = world.get(entity, TrackedDevice), world.get(entity, HandControls)
            device.joints, device.bare = hand.joints, given.pose is None and hand.pose is not None
            controls.grip, controls.trigger = hand.grip, hand.trigger
            controls.stick, controls.buttons = hand.stick, hand.buttons
            _track(device, hand.pose, stamp)


def _track(device: TrackedDevice, sample: DevicePose | None, stamp: int) -> None:
    """Give `device` the sample, or mark it lost (keeping its last pose) when there is none."""
    if sample is None:
        device.tracked = False
        return
    device.pose = sample.pose
    device.linear_velocity = sample.linear_velocity
    device.angular_velocity = sample.angular_velocity
    device.tracked = True
    device.time_ns = stamp
