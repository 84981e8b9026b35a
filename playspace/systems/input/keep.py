"""The last half minute of a player's input, always kept, so a bug met in play becomes a trace.

:class:`KeepLast` is where a :class:`Recorder` writes a source's step samples. A world's
state at any step is its scene and every input before it, so to replay exactly what was seen
in the last half minute the file needs the whole session's input: each sample is also spooled
to a temporary file (about 50 kB a second of play, removed when the process ends), and a save
(:func:`save_kept`) writes all of it with the step the kept span began at (the trace's
``kept_from``): ``playspace run --trace`` plays the session up to there unwritten and writes
telemetry from there, the very lines the span wrote. The last :data:`KEEP_SECONDS` are held in
memory too. A session longer than :data:`SPOOL_SECONDS` stops spooling (the disk it would
take); a span kept after that begins where the player then stood (the trace's ``start``),
everything else where the scene puts it, and the save says so.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import weakref
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import replace

from playspace.components.input import InputFrame
from playspace.formats.trace import StartPoint, TraceWriter, code_folder

KEEP_SECONDS = 30.0
SPOOL_SECONDS = 3600.0  # the longest session spooled whole: about 180 MB of disk


class KeepLast:
    """The step samples of the last `seconds` (a :class:`Recorder`'s sink: ``Recorder(source,
    keeper)``), each with where the player stood as it was taken (`where`, set once the world
    exists; None before)."""

    def __init__(self, seconds: float = KEEP_SECONDS, spool: float = SPOOL_SECONDS) -> None:
        self.seconds = seconds
        self.spool_seconds = spool
        self.where: Callable[[], StartPoint | None] | None = None
        self._kept: deque[tuple[InputFrame, StartPoint | None]] = deque()
        self._first: float | None = None  # the session's first sample time
        self.samples = 0  # the session's, all told
        descriptor, name = tempfile.mkstemp(prefix="playspace-session-", suffix=".jsonl")
        os.close(descriptor)
        self._spool: TraceWriter | None = TraceWriter(name)
        self._unlink = weakref.finalize(self, _remove, name, self._spool)

    def write(self, frame: InputFrame) -> None:
        if self._first is None:
            self._first = frame.time
        self._kept.append((frame, None if self.where is None else self.where()))
        while self._kept and self._kept[0][0].time < frame.time - self.seconds:
            self._kept.popleft()
        self.samples += 1
        if self._spool is not None:
            if frame.time - self._first > self.spool_seconds:
                self.close()  # too long a session to keep whole: the last half minute only
            else:
                self._spool.write(frame)

    def name_code(self, code: Mapping[str, str]) -> None:
        """The game's files and their digests as the session began (before its first step),
        for the session's header: a reload marked on :attr:`spool` and the code of each span
        kept beside it (``SPOOL.code``) replay with the code each span ran."""
        if self._spool is not None:
            self._spool.code = dict(code)

    @property
    def spool(self) -> TraceWriter | None:
        """The session's writer while it is kept whole (reloads are marked on it)."""
        return self._spool

    @property
    def spooled(self) -> str | None:
        """The file holding the whole session's samples (one trace line each, after a
        header), while it is kept whole; None after that."""
        return None if self._spool is None else self._spool.path

    def close(self) -> None:
        """Stop spooling and remove the session's file (the last half minute stays)."""
        if self._spool is not None:
            self._spool.close()
            self._spool = None
        self._unlink()

    @property
    def whole(self) -> bool:
        """Whether what is kept began with the session (so it replays exactly)."""
        return bool(self._kept) and self._kept[0][0].time == self._first

    def kept(self) -> tuple[InputFrame, ...]:
        return tuple(frame for frame, _ in self._kept)


def _remove(name: str, spool: TraceWriter) -> None:
    """The session's file closed, and it and the code kept beside it gone (when the keeper
    is closed, or let go: a run that ends keeps no file open and none on disk)."""
    spool.close()
    if os.path.exists(name):
        os.unlink(name)
    shutil.rmtree(code_folder(name), ignore_errors=True)


def save_kept(path: str | os.PathLike[str], keeper: KeepLast, fixed_hz: float) -> str:
    """Write what `keeper` holds as a trace recorded at `fixed_hz`; the line to say about it.
    The whole session when it is spooled, with the step the kept span began at; else the span
    alone, moved to start at the first step's time, its player's start written in the header.
    Raises OSError when the file cannot be written."""
    frames = list(keeper._kept)
    if not frames:
        raise ValueError("nothing kept yet: the world has not stepped")
    seconds = len(frames) / fixed_hz
    said = f"kept the last {seconds:.1f} s of input in {os.fspath(path)}"
    if keeper.spooled is not None:
        kept_from = keeper.samples - len(frames)
        _copy_spool(keeper, path, fixed_hz, kept_from)
        if kept_from == 0:
            return said + " (the whole session: it replays exactly)"
        return (
            f"{said} (from {frames[0][0].time:.1f} s in, with the session before it: it "
            f"replays exactly, telemetry from step {kept_from})"
        )
    start = None
    if not keeper.whole:
        shift = frames[0][0].time - 1.0 / fixed_hz
        start = frames[0][1]
        frames = [(replace(f, time=f.time - shift), w) for f, w in frames]
    with TraceWriter(path, fixed_hz, start=start) as writer:
        for frame, _ in frames:
            writer.write(frame)
    if start is None:
        return said + " (the whole session: it replays exactly)"
    return (
        f"{said} (from {frames[0][0].time + shift:.1f} s in, a session too long to keep whole: "
        "the player starts where they stood, the rest where the scene puts it)"
    )


def _copy_spool(keeper: KeepLast, path: str | os.PathLike[str], hz: float, kept_from: int) -> None:
    """The spooled session as a trace at `path`: a header of its own (the rate, where the
    span began), then the spool's lines as they are."""
    spool = keeper.spool
    assert spool is not None
    header = TraceWriter(path, hz, kept_from=kept_from, code=spool.code)
    header.close()  # the header alone
    with open(spool.path, "rb") as source, open(path, "ab") as target:
        source.readline()  # the spool's own header
        shutil.copyfileobj(source, target)
    if code_folder(spool.path).is_dir():  # each span's code, for the replay
        shutil.copytree(code_folder(spool.path), code_folder(path), dirs_exist_ok=True)
