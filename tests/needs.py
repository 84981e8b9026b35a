"""What a test needs from the machine, and what happens without it.

On a developer's machine a test whose part is missing (OpenGL, Xvfb, xdotool, an OpenXR
runtime) is skipped, saying what to install. Under CI (``PLAYSPACE_CI=1``, which ``.ci/run``
sets once it has installed every part) it fails instead: a CI machine that lacks GL or Xvfb
must not pass quietly with the tests that need them unrun. The OpenXR runtime is Monado built
beside the checkout (``../shared/xr-runtime``): where it is, CI must run against it; where it
is not, its tests are skipped, saying so, under CI too.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import NoReturn

import pytest

IN_CI = os.environ.get("PLAYSPACE_CI") == "1"
RUNTIME_JSON = os.environ.get("XR_RUNTIME_JSON", "")
BESIDE = Path(__file__).resolve().parents[2] / "shared" / "xr-runtime" / "monado.json"


def missing(what: str) -> NoReturn:
    """Skip the test for want of `what` (failing it under CI)."""
    if IN_CI:
        pytest.fail(f"{what}; .ci/run installs it, so under CI its absence is a failure")
    pytest.skip(what)


def need_program(name: str, package: str) -> None:
    """The program `name` on the PATH, from Debian's `package`."""
    if shutil.which(name) is None:
        missing(f"{name} is not installed (apt-get install {package})")


def need_runtime() -> None:
    """An OpenXR runtime named by ``XR_RUNTIME_JSON`` (Monado with its remote driver)."""
    if RUNTIME_JSON:
        return
    reason = (
        "XR_RUNTIME_JSON is not set: no OpenXR runtime (Monado with its remote driver) to run "
        "against; .ci/run sets it when ../shared/xr-runtime is beside the checkout"
    )
    if BESIDE.is_file():
        missing(reason)
    pytest.skip(reason)
