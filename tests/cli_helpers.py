"""Running the ``playspace`` command as a user does: a fresh interpreter, its output kept."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# the command, failing if the run loaded GL: a headless run that draws nothing must not
_WITHOUT_GL = (
    "import sys; from playspace.cli import main; code = main(sys.argv[1:]); "
    "assert 'moderngl' not in sys.modules, 'headless must not load GL'; sys.exit(code)"
)


def playspace(
    *args: str | Path,
    timeout: float = 120,
    env: Mapping[str, str] | None = None,
    cwd: Path = ROOT,
    without_gl: bool = False,
) -> subprocess.CompletedProcess[str]:
    """``playspace ARGS`` in a fresh interpreter, from the repository root (or `cwd`);
    `without_gl` also fails the run if it loaded moderngl."""
    command = ["-c", _WITHOUT_GL] if without_gl else ["-m", "playspace.cli"]
    return subprocess.run(
        [sys.executable, *command, *map(str, args)],
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
