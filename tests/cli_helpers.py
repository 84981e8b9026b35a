"""Running the ``playspace`` command as a user does: a fresh interpreter, its output kept."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def playspace(*args: str | Path, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "playspace.cli", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
