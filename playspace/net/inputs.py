"""A seated player's input at the host: their frames queued by client step and taken one per
host step after a short playout buffer (:class:`InputQueue`), and played as an input source
(:class:`NetSource`). See :mod:`playspace.net.host`."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field, replace

from playspace.components.input import DevicePose, InputFrame
from playspace.systems.input import standing_frame
from playspace.systems.input.sources import device_between

DEFAULT_PLAYOUT = 2  # frames buffered before the host starts taking a player's input
MAX_PLAYOUT = 18  # the deepest the playout grows (200 ms at 90 Hz)
CALM = 270  # host steps in a row that found their frame before it grows shallower (3 s)
# host steps in a row with more than twice the playout waiting before the host catches up
# with the playout: frames that came in a burst (a jittery link) are played, not dropped; a
# client that runs ahead for half a second is caught up with
BEHIND = 45
# host steps over which the head and hands ease from where the host last played them to where
# the frames after a catch-up put them (0.1 s at 90 Hz)
EASE = 9


@dataclass(slots=True)
class InputQueue:
    """One player's frames by client step, taken one per host step (see the module).

    The playout adapts, as a voice call's jitter buffer does: each host step that finds the
    next frame not yet there (the rig holds its last frame: a hand frozen while the body walks
    on, then a jump when the host catches up) makes it one frame deeper, up to
    :data:`MAX_PLAYOUT`; after :data:`CALM` steps in a row that found their frame, one frame
    is dropped to make it one shallower again, down to the `playout` it began with. A link
    with 30 ms of jitter settles a few frames deep; a steady one stays where it began. When
    more than twice the playout has waited for :data:`BEHIND` steps in a row (a client running
    ahead, not a burst), the host drops down to the playout at once.

    Neither a lost frame nor catching up makes the hands jump. A frame lost with every copy is
    played as the motion between the frames either side of it (:func:`between`: the one taken
    last and the next that came), not as the one before again: repeated, the hands stood still
    for as many steps as frames were lost and then jumped the whole way the player's hands had
    moved (20 cm and more after a burst of a dozen lost messages), and a held object with them.
    Catching up drops the waiting frames at once, so the body loses their motion in one go and
    the player's client corrects it once (dropped a frame a step, the body fell behind a step
    at a time, and the client corrected it again and again); the head and hands, which the
    dropped frames would make jump, ease over the next :data:`EASE` steps from where they were
    played to where the frames put them (:func:`eased`), the controls played as they came.
    Either way the host plays one frame a step and records it, so its match still replays byte
    for byte."""

    playout: int = DEFAULT_PLAYOUT
    frames: dict[int, InputFrame] = field(default_factory=dict)
    next: int | None = None  # the client step the host takes next; None before the playout
    newest: float = -1.0  # the time of the last frame taken
    taken: int = 0  # the client step of the last frame taken (echoed in the state)
    arrived: float = 0.0  # when that frame arrived here (time.monotonic)
    arrivals: dict[int, float] = field(default_factory=dict)
    starved: int = 0  # host steps that held the last frame: nothing had arrived
    skipped: int = 0  # client frames dropped to catch up
    filled: int = 0  # client frames lost with every copy: played as between their neighbours
    last: InputFrame | None = None  # the frame played last for one that came (eased or not)
    last_step: int = 0  # its client step
    least: int = 0  # the playout it began with (set from `playout` at first)
    calm: int = 0  # steps in a row that found their frame
    behind: int = 0  # steps in a row with over twice the playout waiting
    easing: int = 0  # steps left to ease the poses back onto the frames' after a catch-up

    def __post_init__(self) -> None:
        self.least = self.least or self.playout

    def offer(self, frames: tuple[tuple[int, InputFrame], ...]) -> None:
        for step, frame in frames:
            fresh = self.next is None or step >= self.next
            if fresh and frame.time > self.newest and step not in self.frames:
                self.frames[step] = frame
                self.arrivals[step] = time.monotonic()

    def take(self) -> InputFrame | None:
        """The frame for this host step, or None to hold the last one."""
        if not self.frames:
            if self.next is not None:
                self._starve()
            return None
        if self.next is None:
            if len(self.frames) < self.playout:
                return None
            self.next = min(self.frames)
        late = max(self.frames) - self.next + 1
        self.behind = self.behind + 1 if late > 2 * self.playout else 0
        if self.behind >= BEHIND:  # fallen behind for a while, not a burst: down to the playout
            self.behind = 0
            self._drop(late - self.playout)
            self.easing = EASE
        steady = self.calm >= CALM and self.playout > self.least and late > self.playout
        if steady and self.next + 1 in self.frames:  # steady again: one frame shallower
            self.calm, self.playout = 0, self.playout - 1
            self._drop(1)
        if self.next not in self.frames and late > self.playout and self.last is not None:
            # every copy of this frame was lost: play the motion between the frames either side
            # of it, so the host's steps stay the client's one for one (skipping it would put
            # the body a step behind the client's own, and correct it) and the hands move on
            # rather than stand still and then jump
            after = min(self.frames)  # every frame waiting is later than this one
            share = (self.next - self.last_step) / (after - self.last_step)
            self.filled += 1
            self.taken, self.arrived = self.next, time.monotonic()
            self.next += 1
            return between(self.last, self.frames[after], share)
        frame = self.frames.pop(self.next, None)
        if frame is None:
            self._starve()
            return None
        self.calm += 1
        self.taken, self.arrived = self.next, self.arrivals.pop(self.next, 0.0)
        self.last_step = self.next
        self.next += 1
        self.newest = frame.time
        if self.easing and self.last is not None:
            frame = eased(self.last, frame, 1.0 / self.easing)
            self.easing -= 1
        self.last = frame
        return frame

    def _drop(self, frames: int) -> None:
        """Drop the next `frames` client steps' frames, those that came counted as skipped."""
        start = self.next
        assert start is not None  # only a queue that has begun drops
        for step in range(start, start + frames):
            self.arrivals.pop(step, None)
            self.skipped += self.frames.pop(step, None) is not None
        self.next = start + frames

    def _starve(self) -> None:
        """This step's frame is not there: the rig holds, and the playout grows a frame."""
        self.starved += 1
        self.calm = 0
        self.playout = min(self.playout + 1, MAX_PLAYOUT)


def between(a: InputFrame, b: InputFrame, share: float) -> InputFrame:
    """The frame the fraction `share` of the way from `a` to `b`: what a lost frame between
    the two most likely was. The head and hands (poses and velocities) move on in a straight
    line; the controls stay `a`'s until `b` itself is played: the stick drawn toward `b`'s
    walked the body off the path the player's own client walked it (7 corrections a minute
    under the internet-100 profile, against 5 with `a`'s), and buttons, a hand's joints and
    whether it is tracked have no in-between."""
    return replace(_moved(a, a, b, share), time=a.time + (b.time - a.time) * share)


def eased(a: InputFrame, b: InputFrame, share: float) -> InputFrame:
    """Frame `b` with its head and hands the fraction `share` of the way from `a`'s poses to
    its own: the poses brought back onto the frames' over a few steps, the controls `b`'s."""
    return _moved(b, a, b, share)


def _moved(frame: InputFrame, a: InputFrame, b: InputFrame, share: float) -> InputFrame:
    """`frame` with its head and hands the fraction `share` of the way from `a`'s to `b`'s;
    a device not tracked in either keeps `frame`'s own (tracking lost or found: no way
    between)."""

    def device(
        x: DevicePose | None, y: DevicePose | None, own: DevicePose | None
    ) -> DevicePose | None:
        return own if x is None or y is None else device_between(x, y, share)

    return replace(
        frame,
        head=device(a.head, b.head, frame.head),
        left=replace(frame.left, pose=device(a.left.pose, b.left.pose, frame.left.pose)),
        right=replace(frame.right, pose=device(a.right.pose, b.right.pose, frame.right.pose)),
    )


class NetSource:
    """A seat's input as an input source: one queued frame per new step time, the last one
    held between (a frame's poll never takes a frame); the standing frame while nobody sits
    (`queue` None), so a rig left behind does not walk on with its last stick. `fresh` says
    whether the last step took a new frame (rather than holding the last one)."""

    def __init__(self, lock: threading.Lock) -> None:
        self.lock = lock
        self.queue: InputQueue | None = None
        self.current = standing_frame()
        self.fresh = False
        self._time = -1.0

    @property
    def duration(self) -> float | None:
        return None

    def poll(self, time: float) -> InputFrame:
        return replace(self.current, time=time)

    def sample(self, time: float) -> InputFrame:
        if time > self._time:
            self._time = time
            with self.lock:
                queue = self.queue
                frame = queue.take() if queue is not None else None
            self.fresh = frame is not None
            if frame is not None:
                self.current = frame
            elif queue is None:
                self.current = standing_frame()
        return replace(self.current, time=time)
