"""Running the ``playspace`` command as a user does: a fresh interpreter, its output kept."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path


def playspace(
    *args: str | Path,
    timeout: float = 120,
    env: Mapping[str, str] | None = None,
    cwd: Path | None = None,
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "playspace.cli", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
        env=None if env is None else dict(env),
        cwd=cwd,
    )


def without_runtime() -> dict[str, str]:
    """This environment with no OpenXR runtime named (CI names Monado for its runtime tests)."""
    return {k: v for k, v in os.environ.items() if k not in ("XR_RUNTIME_JSON", "XR_LOADER_DEBUG")}
