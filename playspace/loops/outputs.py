"""Files a run writes as it goes (telemetry): nothing written is ever lost.

A run can end any way: finished, Ctrl-C, SIGTERM or SIGHUP, a game system's exception, a
Rust panic, a full disk, SIGKILL. Telemetry is the evidence of what happened up to then, so it
is written under the name asked for, one whole line at a time, each line handed to the system
as it is written: whatever ends the process, the file holds every step written before, and
ends on a whole line (a disk that fills mid-line is the one exception, and the readers take a
file cut mid-line up to its last whole line).

The file is opened at the first line, not before: a run refused before it starts (a bad scene,
a bad trace) leaves what the file held. ``-`` writes to standard output, for a pipe. A run's
sound (``--audio-out``) is written the same way, a frame's samples at a time.
"""

from __future__ import annotations

import os
import stat
import sys
import wave
from pathlib import Path
from types import TracebackType

import numpy as np
import numpy.typing as npt


def output_problem(path: Path) -> str | None:
    """Why a run could not write `path`, found before the run starts; None when it can.

    A folder, a name that is no name (``""``, ``.``, ``..``), a folder that does not exist or
    cannot be written are refused. What already exists and is not a folder is written as it
    is, deliberately: a pipe (FIFO) or ``/dev/null`` take the stream, a symbolic link writes
    the file it points to; ``-`` is standard output."""
    text = str(path)
    if text == "-":
        return None
    if text in ("", ".", "..") or path.name in ("", ".", ".."):
        return "is not a file name"
    if path.is_dir():
        return "is a folder, not a file"
    parent = path.parent
    if not parent.is_dir():
        return f"cannot be written: the folder {parent} does not exist"
    if path.exists():
        mode = path.stat().st_mode
        writable = os.access(path, os.W_OK)
        if not writable and not stat.S_ISFIFO(mode):
            return "cannot be written: permission denied"
    elif not os.access(parent, os.W_OK):
        return f"cannot be written: the folder {parent} is not writable"
    return None


class LineStream:
    """A text file written line by line, opened at the first write; counts its lines.

    Only what telemetry needs of a file is served: ``write`` (whole lines), ``flush`` and
    ``close``. An OSError names the file.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self.lines = 0
        self._fd: int | None = None

    @property
    def name(self) -> str:
        return "standard output" if str(self.path) == "-" else str(self.path)

    def _open(self) -> int:
        if str(self.path) == "-":
            sys.stdout.flush()
            return sys.stdout.fileno()
        try:
            return os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o666)
        except OSError as error:
            raise OSError(error.errno, error.strerror, str(self.path)) from None

    def write(self, text: str) -> int:
        """Write whole lines, each in one system call: a signal that ends the run (its handler
        runs between calls, never inside one) cannot leave half a line behind."""
        fd = self._fd
        if fd is None:
            fd = self._fd = self._open()
        data = memoryview(text.encode("utf-8"))
        try:
            while data:
                data = data[os.write(fd, data) :]
        except OSError as error:
            raise OSError(error.errno, error.strerror, str(self.path)) from None
        self.lines += text.count("\n")
        return len(text)

    def flush(self) -> None:
        """Nothing is held back: every line went to the system as it was written."""

    def close(self) -> None:
        fd, self._fd = self._fd, None
        if fd is not None and str(self.path) != "-":
            os.close(fd)

    def __enter__(self) -> LineStream:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()


class WaveStream:
    """A 16-bit stereo WAV file written a block of samples at a time, its header made right
    after every block (Python's ``wave`` patches the sizes as it writes), so a run that stops
    anywhere leaves a file that plays up to its last block."""

    def __init__(self, path: Path) -> None:
        self.path, self.frames = path, 0
        self._file: wave.Wave_write | None = None

    def write(self, samples: npt.NDArray[np.float32], rate: int) -> None:
        """Append (frames, 2) samples in [-1, 1] (beyond it, clipped), `rate` a second (the
        first block's rate is the file's)."""
        if self._file is None:
            try:
                self._file = wave.open(str(self.path), "wb")  # noqa: SIM115 (closed in close)
            except OSError as error:
                raise OSError(error.errno, error.strerror, str(self.path)) from None
            self._file.setnchannels(2)
            self._file.setsampwidth(2)
            self._file.setframerate(rate)
        pcm = np.clip(np.round(samples * 32767.0), -32768, 32767).astype("<i2")
        self._file.writeframes(pcm.tobytes())
        self.frames += len(samples)

    def close(self) -> None:
        """The file as written (``contextlib.closing`` closes it at the end of a run)."""
        file, self._file = self._file, None
        if file is not None:
            file.close()
