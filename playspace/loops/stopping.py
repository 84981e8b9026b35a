"""Ctrl-C, SIGTERM and SIGHUP as a request the loops look at between steps.

Python turns a signal into an exception raised wherever the interpreter happens to be: inside
a callback Rapier is making into Python (a query's filter, say), where the Rust side swallows
it, and the run goes on as if nothing happened; or in the middle of writing a line. So the
command installs :class:`StopRequest`'s handlers, which only note the signal, and each loop
asks ``stop()`` between fixed steps (the headless replay), between frames (the preview) or each
turn of the frame loop (the headset), and ends there: telemetry whole, a session ended in
order.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

STOPPING = ("SIGINT", "SIGTERM", "SIGHUP")
INTERRUPTED = 130  # the exit status of a run so stopped (128 + SIGINT), as shells use


class StopRequest:
    """Whether a stop was asked for (``request()`` is truthy), and by which signal."""

    def __init__(self) -> None:
        self.signal: str | None = None

    def __call__(self) -> bool:
        return self.signal is not None

    def _note(self, signum: int, frame: FrameType | None) -> None:
        self.signal = signal.Signals(signum).name

    @contextmanager
    def installed(self) -> Iterator[StopRequest]:
        """These handlers in place of Python's (on the main thread only; elsewhere nothing
        changes), the previous ones back on leaving."""
        if threading.current_thread() is not threading.main_thread():
            yield self
            return
        previous = {}
        for name in STOPPING:
            number = getattr(signal, name, None)
            if number is not None:
                previous[number] = signal.signal(number, self._note)
        try:
            yield self
        finally:
            for number, handler in previous.items():
                signal.signal(number, handler)
