"""A scripted OpenXR runtime for the headset loop, as strict as Monado where it matters.

It answers the loop's backend calls the way Monado does: the session reaches SYNCHRONIZED only
after the first frames are submitted, then VISIBLE and FOCUSED; ``should_render`` is False until
VISIBLE; actions read as inactive while the session is not FOCUSED; a session being lost says
so from ``xrWaitFrame`` (the loop's display answers None) and then in the next poll. A frame
begun and never ended is discarded and counted, and drawing a frame the runtime said not to
render fails the test. It can do what a real runtime cannot be made to do on demand: fail a
chosen call, lose the session at a chosen frame, never answer an exit request, change its
refresh rate mid-session.

The player's motion comes from a trace (`player`): head and hands are located for each frame's
predicted display time, so the loop meets what a runtime fed the same trace would report.
"""

from __future__ import annotations

from collections.abc import Callable

from playspace.components.haptics import HapticPulse
from playspace.components.input import Button, DevicePose, HandInput, InputFrame, InputSource
from playspace.components.session import SessionState as S
from playspace.spatial import quat_to_xyzw
from playspace.xr import views
from playspace.xr.mapping import ActionStates, HandActions, LocatedPose, LocatedPoses
from playspace.xr.state import (
    InteractionProfileChanged,
    RefreshRateChanged,
    StateChanged,
    XrEvent,
    XrFailed,
    XrLost,
)
from playspace.xr.views import EyeTarget, EyeView, Fov, FrameTiming

TOUCH = "/interaction_profiles/oculus/touch_controller"
TRACKED = 0x0F  # orientation and position, valid and tracked
EYE_FOV = Fov(-0.9, 0.7, 0.8, -0.85)
FRAMES_TO_SYNC = 2  # frames submitted before the runtime says SYNCHRONIZED


def period_of(hz: float) -> int:
    return round(1e9 / hz)


def located(device: DevicePose | None) -> LocatedPose | None:
    """A device as a runtime locates it: velocities flagged valid where the trace has them."""
    if device is None:
        return None
    p, v, w = device.pose.position, device.linear_velocity, device.angular_velocity
    flags = (1 if v is not None else 0) | (2 if w is not None else 0)
    return LocatedPose(
        (p.x, p.y, p.z),
        quat_to_xyzw(device.pose.rotation),
        TRACKED,
        (0.0, 0.0, 0.0) if v is None else (v.x, v.y, v.z),
        (0.0, 0.0, 0.0) if w is None else (w.x, w.y, w.z),
        flags,
    )


def hand_actions(hand: HandInput) -> HandActions:
    pressed = hand.buttons
    return HandActions(
        hand.grip,
        hand.trigger,
        hand.stick,
        bool(pressed & {Button.A, Button.X}),
        bool(pressed & {Button.B, Button.Y}),
        Button.MENU in pressed,
        Button.STICK in pressed,
    )


class FakeDisplay:
    def __init__(self, runtime: FakeRuntime) -> None:
        self.runtime = runtime

    def wait_frame(self) -> FrameTiming | None:
        rt = self.runtime
        rt.calls.append("wait_frame")
        if rt.frame_open:  # begun and never ended: the runtime discards it
            rt.discarded += 1
        if rt.frames + 1 == rt.fails_at:
            raise XrFailed("xrWaitFrame", "RuntimeFailureError: the compositor crashed")
        rt.t += rt.period
        rt.frames += 1
        if rt.frames == rt.lost_at:
            rt.pending.append(StateChanged(S.LOSS_PENDING))
            return None  # xrWaitFrame said XR_SESSION_LOSS_PENDING
        rt.pending += rt.script.pop(rt.frames, [])
        rt.head_y = rt.heights.pop(rt.frames, rt.head_y)
        if rt.frames in rt.rates:
            rt.period = period_of(rt.rates.pop(rt.frames))
        visible = rt.state in (S.VISIBLE, S.FOCUSED)
        rt.frame_open, rt.should_render = True, visible
        return FrameTiming(rt.t, rt.period, visible)

    def locate_views(self, at: int) -> list[EyeView]:
        y = self.runtime.head_y
        return [EyeView((x, y, 0.0), (0.0, 0.0, 0.0, 1.0), EYE_FOV) for x in (-0.032, 0.032)]

    def end_frame(self, frame: FrameTiming, draw: object) -> None:
        rt = self.runtime
        rt.calls.append("end_frame")
        rt.frame_open = False
        if callable(draw) and not rt.should_render:
            raise AssertionError("the loop drew a frame the runtime said not to render")
        if rt.frames == rt.end_lost_at:
            raise XrLost("xrEndFrame")
        rt.submitted += 1
        if rt.submitted == FRAMES_TO_SYNC and rt.state is S.READY:
            rt.go(S.SYNCHRONIZED, S.VISIBLE, S.FOCUSED)
            rt.pending.append(InteractionProfileChanged())
        if callable(draw):
            rt.drawn_frames += 1
            for eye in range(2):
                draw(eye, EyeTarget(10 + eye, None, 64, 64, views.GL_RGBA8, None))


class FakeRuntime:
    """Answers the loop the way Monado does; `script` adds events at given frame numbers."""

    runtime, headset = "Fake 1.0", "Fake HMD"

    def __init__(
        self,
        stage: bool = True,
        display: bool = True,
        answers_exit: bool = True,
        hz: float = 90.0,
        refresh_rate: bool = False,
        player: InputSource | Callable[[float], InputFrame] | None = None,
        profile: str | None = TOUCH,
    ) -> None:
        self.stage, self.answers_exit = stage, answers_exit
        self.display = FakeDisplay(self) if display else None
        self.period = period_of(hz)
        self.refresh = refresh_rate  # offers XR_FB_display_refresh_rate
        self.profile = profile
        self.calls: list[str] = []
        self.state = S.UNKNOWN
        self.pending: list[XrEvent] = []
        self.go(S.IDLE, S.READY)
        self.script: dict[int, list[XrEvent]] = {}  # events, by the frame they arrive in
        self.heights: dict[int, float] = {}  # head heights, by the frame they start at
        self.rates: dict[int, float] = {}  # new refresh rates, by the frame they start at
        self.t = self.frames = self.submitted = self.drawn_frames = self.discarded = 0
        self.frame_open = self.should_render = False
        self.first_frame: int | None = None  # the display time of the first synced frame
        self.head_y = 1.6
        self.pulses: list[HapticPulse] = []
        self.fails_at: int | None = None  # the frame whose xrWaitFrame fails, if any
        self.lost_at: int | None = None  # the frame whose xrWaitFrame says loss pending
        self.end_lost_at: int | None = None  # the frame whose xrEndFrame says loss pending
        if player is None:
            self.player: Callable[[float], InputFrame] | None = None
        else:
            self.player = player.sample if hasattr(player, "sample") else player

    def go(self, *states: S) -> None:
        self.pending += [StateChanged(state) for state in states]

    def clock(self) -> float:
        return self.t / 1e9

    def sleep(self, seconds: float) -> None:
        self.t += round(seconds * 1e9)

    def poll_events(self) -> list[XrEvent]:
        events, self.pending = self.pending, []
        for event in events:
            if isinstance(event, StateChanged):
                self.state = event.state
        return events

    def begin(self) -> None:
        self.calls.append("begin")
        if self.display is None:  # no frames to submit: a headless session syncs at once
            self.go(S.SYNCHRONIZED, S.VISIBLE, S.FOCUSED)
            self.pending.append(InteractionProfileChanged())

    def request_exit(self) -> None:
        self.calls.append("request_exit")
        if self.answers_exit:  # over a few frames, as a runtime does
            self.script[self.frames + 2] = [StateChanged(S.VISIBLE)]
            self.script[self.frames + 4] = [StateChanged(S.SYNCHRONIZED), StateChanged(S.STOPPING)]

    def end(self) -> None:
        self.calls.append("end")
        self.go(S.IDLE, S.EXITING)

    def destroy(self) -> None:
        self.calls.append("destroy")

    def abandon(self) -> None:
        self.calls.append("abandon")

    def interaction_profile(self) -> str | None:
        return self.profile

    def refresh_rate(self) -> float | None:
        return 1e9 / self.period if self.refresh else None

    def change_rate(self, frame: int, hz: float) -> None:
        """From `frame` on the display runs at `hz`, and (with the extension) says so."""
        self.rates[frame] = hz
        if self.refresh:
            self.script.setdefault(frame, []).append(RefreshRateChanged(hz))

    def now(self) -> int:
        self.frames += 1
        self.pending += self.script.pop(self.frames, [])
        return self.t

    def sync(self, at: int) -> tuple[ActionStates, LocatedPoses]:
        self.calls.append("sync")
        if self.first_frame is None:
            self.first_frame = at - self.period
        focused = self.state is S.FOCUSED
        if self.player is not None:
            frame = self.player((at - self.first_frame) / 1e9)
            poses = LocatedPoses(
                located(frame.head), located(frame.left.pose), located(frame.right.pose)
            )
            actions = ActionStates(hand_actions(frame.left), hand_actions(frame.right))
        else:
            hand = LocatedPose((0.2, self.head_y - 0.6, -0.2), (0, 0, 0, 1), TRACKED)
            head = LocatedPose((0.0, self.head_y, 0.0), (0, 0, 0, 1), TRACKED)
            poses = LocatedPoses(head, hand, hand)
            actions = ActionStates(right=HandActions(grip=1.0))
        return (actions if focused else ActionStates()), poses

    def apply_haptics(self, pulses: list[HapticPulse]) -> None:
        self.pulses += pulses
