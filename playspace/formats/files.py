"""What a file a user names must be before playspace reads it: a file, and of a sane size.

Scenes, traces and meshes are read whole or line by line; a name that is not a regular file
would make that go wrong in ways a user cannot read: ``/dev/zero`` reads forever and runs out
of memory, a FIFO waits for a writer that never comes, a folder fails deep inside a parser.
:func:`input_problem` says what is wrong in one line instead, before anything is read.
"""

from __future__ import annotations

import os
import stat

MB = 1 << 20


def input_problem(path: str | os.PathLike[str], largest: int) -> str | None:
    """Why `path` cannot be read as an input of at most `largest` bytes; None when it can."""
    try:
        status = os.stat(path)
    except OSError as error:
        return f"cannot read the file: {error.strerror}"
    mode = status.st_mode
    if stat.S_ISDIR(mode):
        return "is a folder, not a file"
    if not stat.S_ISREG(mode):
        kind = "a pipe (FIFO)" if stat.S_ISFIFO(mode) else "a device or special file"
        return f"is {kind}, not a file: save it to a file first"
    if status.st_size > largest:
        return (
            f"is {status.st_size / MB:.0f} MB, more than the {largest // MB} MB a file here may be"
        )
    return None
