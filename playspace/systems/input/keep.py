"""The last half minute of a player's input, always kept, so a bug met in play becomes a trace.

:class:`KeepLast` is where a :class:`Recorder` writes a source's step samples: it keeps
those of the last :data:`KEEP_SECONDS` in memory (a deque: a few megabytes). Saved, they
are a trace like any other (:func:`save_kept`); ``playspace run --trace`` replays it. A span
that began with the session replays exactly what was seen. One kept from later begins where
the player then stood (the trace's ``start``), with everything else where the scene puts it:
what the player did before the span is not in it, and the save says so.
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Callable
from dataclasses import replace

from playspace.components.input import InputFrame
from playspace.formats.trace import StartPoint, TraceWriter

KEEP_SECONDS = 30.0


class KeepLast:
    """The step samples of the last `seconds` (a :class:`Recorder`'s sink: ``Recorder(source,
    keeper)``), each with where the player stood as it was taken (`where`, set once the world
    exists; None before)."""

    def __init__(self, seconds: float = KEEP_SECONDS) -> None:
        self.seconds = seconds
        self.where: Callable[[], StartPoint | None] | None = None
        self._kept: deque[tuple[InputFrame, StartPoint | None]] = deque()
        self._first: float | None = None  # the session's first sample time

    def write(self, frame: InputFrame) -> None:
        if self._first is None:
            self._first = frame.time
        self._kept.append((frame, None if self.where is None else self.where()))
        while self._kept and self._kept[0][0].time < frame.time - self.seconds:
            self._kept.popleft()

    @property
    def whole(self) -> bool:
        """Whether what is kept began with the session (so it replays exactly)."""
        return bool(self._kept) and self._kept[0][0].time == self._first

    def kept(self) -> tuple[InputFrame, ...]:
        return tuple(frame for frame, _ in self._kept)


def save_kept(path: str | os.PathLike[str], keeper: KeepLast, fixed_hz: float) -> str:
    """Write what `keeper` holds as a trace recorded at `fixed_hz`; the line to say about it.
    A span from mid-session is moved to start at the first step's time, its player's start
    written in the header. Raises OSError when the file cannot be written."""
    frames = list(keeper._kept)
    if not frames:
        raise ValueError("nothing kept yet: the world has not stepped")
    start = None
    if not keeper.whole:
        shift = frames[0][0].time - 1.0 / fixed_hz
        start = frames[0][1]
        frames = [(replace(f, time=f.time - shift), w) for f, w in frames]
    with TraceWriter(path, fixed_hz, start=start) as writer:
        for frame, _ in frames:
            writer.write(frame)
    seconds = len(frames) / fixed_hz
    said = f"kept the last {seconds:.1f} s of input in {os.fspath(path)}"
    if start is None:
        return said + " (the whole session: it replays exactly)"
    return (
        f"{said} (from {frames[0][0].time + shift:.1f} s in: the player starts where they "
        "stood, the rest where the scene puts it)"
    )
