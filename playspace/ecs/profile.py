"""A run's timeline as a Chrome trace (the Trace Event Format that ui.perfetto.dev and
chrome://tracing open): every system run, fixed step and frame, and whatever else a loop marks
(the OpenXR calls of a headset frame), each a span on the thread that ran it.

Profiling is process-wide, as Python's own profilers are: :func:`profiling` makes a
:class:`Profile` the active one for a block, and every world records into it (a world asks
one attribute per system run when none is active). The file is the format's JSON array form,
one event a line, written as the run goes and flushed after each frame: a run cut short
leaves a file the viewers still open (the format lets the closing bracket be missing).

The spans are the very measurements the world keeps for its inspector (a system's
:class:`~playspace.ecs.schedule.SystemStats`): one clock read before and after, two readers.
A system its run condition skipped has no span; the profile counts the skips.
"""

from __future__ import annotations

import contextlib
import json
import os
import threading
from collections.abc import Iterator
from pathlib import Path
from time import perf_counter_ns
from typing import IO, Any, ClassVar

SKIPPED_NAMED = 6  # the systems skipped most, named in the line a command prints


class Profile:
    """The timeline being written (see the module). `active` is the one worlds record into."""

    active: ClassVar[Profile | None] = None

    def __init__(self, path: Path) -> None:
        self.path = path
        self._file: IO[str] = open(path, "w", encoding="utf-8", buffering=1 << 16)  # noqa: SIM115 (closed in close)
        self._origin = perf_counter_ns()
        self._pid = os.getpid()
        self._lock = threading.Lock()  # a host's world and Zenoh's threads may both write
        self._named: set[int] = set()
        self.events = 0
        self.skipped: dict[str, int] = {}  # system name -> times its run condition said no
        self._file.write("[\n")
        self._meta("process_name", {"name": "playspace"}, 0)

    def span(self, name: str, category: str, start_ns: int, end_ns: int, **args: Any) -> None:
        """A span of `category` ("system", "step", "frame", "openxr") from `start_ns` to
        `end_ns` (``perf_counter_ns``), on the calling thread; `args` shown beside it."""
        thread = threading.get_native_id()
        event: dict[str, Any] = {
            "name": name, "cat": category, "ph": "X", "pid": self._pid, "tid": thread,
            "ts": (start_ns - self._origin) / 1000.0, "dur": (end_ns - start_ns) / 1000.0,
        }  # fmt: skip
        if args:
            event["args"] = args
        with self._lock:
            if thread not in self._named:
                self._named.add(thread)
                self._meta("thread_name", {"name": threading.current_thread().name}, thread)
            self._file.write(json.dumps(event, separators=(",", ":")) + ",\n")
            self.events += 1

    def skip(self, name: str) -> None:
        """A system its run condition skipped: counted, not drawn (a span of nothing)."""
        self.skipped[name] = self.skipped.get(name, 0) + 1

    def said(self) -> str:
        """What the run recorded, for the line a command prints."""
        line = f"{self.events} spans in {self.path} (open it in ui.perfetto.dev)"
        if not self.skipped:
            return line
        most = sorted(self.skipped.items(), key=lambda item: (-item[1], item[0]))
        named = ", ".join(f"{name} {times}" for name, times in most[:SKIPPED_NAMED])
        more = f" and {len(most) - SKIPPED_NAMED} more" if len(most) > SKIPPED_NAMED else ""
        return f"{line}; skipped by their run conditions: {named}{more}"

    @contextlib.contextmanager
    def timed(self, name: str, category: str, **args: Any) -> Iterator[None]:
        """A span around the block."""
        start = perf_counter_ns()
        try:
            yield
        finally:
            self.span(name, category, start, perf_counter_ns(), **args)

    def flush(self) -> None:
        with self._lock:
            self._file.flush()

    def close(self) -> None:
        with self._lock:
            if not self._file.closed:
                self._file.write("{}]\n")  # the last comma's object: the array stays JSON
                self._file.close()

    def _meta(self, name: str, args: dict[str, str], thread: int) -> None:
        event = {"name": name, "ph": "M", "pid": self._pid, "tid": thread, "args": args}
        self._file.write(json.dumps(event) + ",\n")


@contextlib.contextmanager
def profiling(path: Path | None) -> Iterator[Profile | None]:
    """Record the block's runs into a new trace at `path` (nothing when None)."""
    if path is None:
        yield None
        return
    profile = Profile.active = Profile(path)
    try:
        yield profile
    finally:
        Profile.active = None
        profile.close()


@contextlib.contextmanager
def marked(name: str, category: str, **args: Any) -> Iterator[None]:
    """A span around the block in the active profile, if there is one (a loop's calls)."""
    profile = Profile.active
    if profile is None:
        yield
        return
    with profile.timed(name, category, **args):
        yield
