"""Live input: devices read once a display frame, handed to every fixed step at its own time.

A headset reports head and hands once a display frame (located for the frame's predicted
display time), the desktop simulator moves once a window frame; the world samples its input
once a fixed step. When the two rates differ (a 72 Hz Quest and 90 Hz steps) some frames run
two steps and some none. Handing every step the newest frame, stamped with the step's time,
makes a step repeat a pose or carry more than a step of motion, and a throw measured over those
steps leaves at the wrong speed. :class:`LiveSource` keeps the last few frames, each stamped
with the world time it was read for, and gives each step the poses *at the step's time*:
interpolated between the frames around it (positions and velocities linearly, rotations by
slerp), and never past the newest frame, which is read for the frame's own time.

Buttons come from the newest frame at or before the step: a button is never pressed between
two frames that do not both say so. Analog controls (grip, trigger, sticks) move between the
frames as the poses do, the way a trace replays: a grip let go between two 60 Hz frames lets
go at the step it would have at any rate, so a throw released there leaves at the same speed
(held to the newest frame, the release came up to a frame late, and throws at 60 Hz left 6 %
slow). Where the display runs faster than the steps, some frames give their controls to no
step; the next step then takes them joined in (buttons held in any of them, grip and trigger
at their most, the stick as far as it went), so a tap of a button or a flick of the stick is
never lost between steps.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import replace

from playspace.components.input import HandInput, InputFrame
from playspace.systems.input.sources import device_between, frame_between, joints_between

KEPT = 8  # frames kept: more than any step looks back (a frame is at least a step's length)


class LiveSource:
    """Frames read by `read(time)` once a display frame, sampled per fixed step in between.

    `read` returns what the devices say for the frame ending at world time `time`; the INPUT
    phase calls :meth:`poll` with that time, the tracking system :meth:`sample` with each
    step's. A live source never ends.
    """

    duration: float | None = None

    def __init__(self, read: Callable[[float], InputFrame]) -> None:
        self.read = read
        self._frames: deque[tuple[int, InputFrame]] = deque(maxlen=KEPT)
        self._count = 0  # frames polled so far: each frame's number
        self._taken = 0  # the number of the newest frame a sample took its controls from

    @property
    def latest(self) -> InputFrame | None:
        """The newest frame polled, read for the display time of its frame."""
        return self._frames[-1][1] if self._frames else None

    def poll(self, time: float) -> InputFrame:
        frame = self.read(time)
        frame = frame if frame.time == time else replace(frame, time=time)
        if self._frames and time <= self._frames[-1][1].time:
            self._frames.pop()  # a frame of no duration: the newer reading stands
        self._count += 1
        self._frames.append((self._count, frame))
        return frame

    def sample(self, time: float) -> InputFrame:
        frames = self._frames
        if not frames:
            return InputFrame(time)
        after = len(frames)
        while after > 0 and frames[after - 1][1].time > time:
            after -= 1
        if after == 0:  # before the first frame: hold it
            return replace(frames[0][1], time=time)
        number, before = frames[after - 1]
        controls = self._controls(after - 1)
        self._taken = max(self._taken, number)
        if after == len(frames) or before.time == time:  # at or past the newest: no guessing
            at = before if before.time == time else replace(before, time=time)
            return _with_controls(at, controls)  # at the frame's time: the frame polled
        later = frames[after][1]
        f = (time - before.time) / (later.time - before.time)
        if controls is before:  # every control seen: analog ones move too, as in a replay
            return frame_between(before, later, f, time)
        return InputFrame(
            time,
            device_between(before.head, later.head, f),
            _hand_between(controls.left, later.left, f),
            _hand_between(controls.right, later.right, f),
            controls.pads,
        )

    def _controls(self, index: int) -> InputFrame:
        """Frame `index`, with the controls of frames since the last one a step took its
        controls from (which no step has seen) joined in, so no press is lost."""
        frame = self._frames[index][1]
        skipped = [f for n, f in list(self._frames)[:index] if n > self._taken]
        if not skipped:
            return frame
        return replace(
            frame,
            left=_joined(frame.left, [f.left for f in skipped]),
            right=_joined(frame.right, [f.right for f in skipped]),
        )


def _joined(hand: HandInput, unseen: list[HandInput]) -> HandInput:
    """`hand` with every button held in `unseen` held too, grip and trigger at their most,
    and the stick as far as it went (the newest where none went further)."""
    every = [*unseen, hand]
    return replace(
        hand,
        grip=max(h.grip for h in every),
        trigger=max(h.trigger for h in every),
        stick=max(reversed(every), key=lambda h: h.stick[0] ** 2 + h.stick[1] ** 2).stick,
        buttons=hand.buttons.union(*(h.buttons for h in unseen)),
    )


def _with_controls(frame: InputFrame, controls: InputFrame) -> InputFrame:
    if controls is frame or (controls.left is frame.left and controls.right is frame.right):
        return frame
    return replace(frame, left=controls.left, right=controls.right)


def _hand_between(a: HandInput, b: HandInput, f: float) -> HandInput:
    """`a`'s controls with its pose and joints moved `f` of the way to `b`'s."""
    return replace(
        a, pose=device_between(a.pose, b.pose, f), joints=joints_between(a.joints, b.joints, f)
    )
