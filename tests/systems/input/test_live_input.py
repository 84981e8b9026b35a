"""Live input: frames read once a display frame, handed to each fixed step at its own time."""

from __future__ import annotations

import pytest

from playspace.components.input import Button, InputFrame, InputState
from playspace.ecs import Phase, World, system
from playspace.systems.input import LiveSource, device_pose, hand_input, tracking
from playspace.systems.input.gate import gate
from playspace.systems.input.tracking import tracking_system
from playspace.systems.physics import PhysicsPlugin
from playspace.systems.player import RigPlugin
from tests.rig_helpers import rig_of


def frame_at(
    x: float, grip: float = 0.0, buttons: tuple[Button, ...] = (), stick: float = 0.0
) -> InputFrame:
    """The right hand at x (m), with its grip, buttons and the stick pushed right by `stick`."""
    return InputFrame(
        0.0,
        device_pose((0.0, 1.7, 0.0)),
        hand_input((-0.2, 1.0, 0.0)),
        hand_input((x, 1.0, 0.0), grip=grip, buttons=buttons, stick=(stick, 0.0)),
    )


class Scripted:
    """A device whose next reading the test sets."""

    def __init__(self) -> None:
        self.next: InputFrame = frame_at(0.0)

    def __call__(self, time: float) -> InputFrame:
        return self.next


def x_of(frame: InputFrame) -> float:
    assert frame.right.pose is not None
    return frame.right.pose.pose.position.x


def test_steps_between_frames_see_the_poses_of_their_own_time() -> None:
    device = Scripted()
    live = LiveSource(device)
    assert live.sample(0.0) == InputFrame(0.0)  # nothing read yet: nothing tracked
    device.next = frame_at(0.0)
    live.poll(0.010)
    device.next = frame_at(1.0, buttons=(Button.A,))
    live.poll(0.030)
    assert x_of(live.sample(0.005)) == 0.0  # before the first frame: held
    assert x_of(live.sample(0.015)) == pytest.approx(0.25)
    assert x_of(live.sample(0.025)) == pytest.approx(0.75)
    assert live.sample(0.025).right.buttons == frozenset()  # buttons: the frame before
    assert x_of(live.sample(0.030)) == 1.0 and live.sample(0.030).right.buttons == {Button.A}
    assert x_of(live.sample(0.040)) == 1.0  # never guessed past the newest frame
    assert live.latest is not None and live.latest.time == 0.030


def test_analog_controls_move_between_frames_as_poses_do() -> None:
    device = Scripted()
    live = LiveSource(device)
    device.next = frame_at(0.0, grip=1.0)
    live.poll(0.0)
    device.next = frame_at(0.0, grip=0.0)
    live.poll(1 / 60)
    assert live.sample(1 / 90).right.grip == pytest.approx(1 / 3)  # let go by then


def test_a_tap_in_a_frame_no_step_saw_reaches_the_next_step() -> None:
    """A 120 Hz display over 90 Hz steps: some frames run no step."""
    device = Scripted()
    live = LiveSource(device)
    device.next = frame_at(0.0)
    live.poll(0.0)
    assert live.sample(0.0).right.buttons == frozenset()
    device.next = frame_at(0.0, buttons=(Button.B,), stick=1.0, grip=0.8)
    live.poll(0.004)  # a frame with no step
    device.next = frame_at(0.0)
    live.poll(0.008)
    seen = live.sample(0.009)
    assert seen.right.buttons == {Button.B} and seen.right.stick == (1.0, 0.0)
    assert seen.right.grip == 0.8
    after = live.sample(0.010)
    assert after.right.buttons == frozenset() and after.right.stick == (0.0, 0.0)


def test_a_frame_of_no_duration_replaces_the_reading() -> None:
    device = Scripted()
    live = LiveSource(device)
    device.next = frame_at(0.0)
    live.poll(0.01)
    device.next = frame_at(0.5)
    live.poll(0.01)
    assert x_of(live.sample(0.01)) == 0.5


def test_the_world_polls_once_a_frame_and_samples_once_a_step() -> None:
    device = Scripted()
    live = LiveSource(device)
    seen: list[tuple[float, float]] = []

    @system(Phase.FIXED, after=(tracking_system,))
    def watch(world: World) -> None:
        seen.append(
            (world.fixed_time.elapsed, x_of(world.get(rig_of(world).origin, InputState).frame))
        )

    with World(fixed_hz=90) as world:
        world.add_plugin(PhysicsPlugin())
        world.add_plugin(RigPlugin(live))
        world.add_systems(watch)
        for x in (0.0, 1.0):  # two 60 Hz frames: the second runs two steps between them
            device.next = frame_at(x)
            world.advance(1 / 60)
        assert world.get(rig_of(world).origin, InputState).latest.time == pytest.approx(2 / 60)
    times, xs = zip(*seen, strict=True)
    assert times == pytest.approx((1 / 90, 2 / 90, 3 / 90))
    assert xs == pytest.approx((0.0, (2 / 90 - 1 / 60) * 60, 1.0))


def test_a_step_at_the_frame_s_own_time_uses_the_frame_as_gated_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A headset frame that runs one step at its own time reads one frame for both (the pose
    drawn and the pose stepped), and the gate checks it once, not once for each."""
    gated: list[InputFrame] = []

    def counted(frame: InputFrame) -> tuple[InputFrame, tuple[str, ...]]:
        gated.append(frame)
        return gate(frame)

    monkeypatch.setattr(tracking, "gate", counted)
    device = Scripted()
    with World(fixed_hz=90) as world:
        world.add_plugin(PhysicsPlugin())
        world.add_plugin(RigPlugin(LiveSource(device)))
        state = world.get(rig_of(world).origin, InputState)
        for x in (0.0, 0.5):
            device.next = frame_at(x)
            world.step(1)
            assert state.frame is state.latest  # one frame, drawn and stepped
            assert x_of(state.frame) == pytest.approx(x)
    assert len(gated) == 2  # one a frame
