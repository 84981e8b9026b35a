"""What every test shares: the GL context fixtures, and the markers.

Markers (``pytest -m "not slow"`` is the quick loop): ``gl`` on a test that draws (it takes the
``gl`` or ``ctx`` fixture, or its module says so), ``xr`` on one that runs against a real
OpenXR runtime (checked here: without one it is skipped, or failed under CI), ``net`` on every
test under ``tests/net``, and ``slow`` on those that take seconds (their own decorator).
"""

from __future__ import annotations

import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from moderngl import Context

from playspace.render import GLUnavailableError, create_context
from tests.needs import missing, need_program, need_runtime
from tests.window_helpers import free_display

TESTS = Path(__file__).resolve().parent


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        folder = item.path.relative_to(TESTS).parts[0]
        if folder == "net":
            item.add_marker(pytest.mark.net)
        fixtures = getattr(item, "fixturenames", ())
        if "gl" in fixtures or "ctx" in fixtures:
            item.add_marker(pytest.mark.gl)


def pytest_runtest_setup(item: pytest.Item) -> None:
    if item.get_closest_marker("xr") is not None:
        need_runtime()


@pytest.fixture(scope="module")
def ctx() -> Iterator[Context]:
    try:
        context = create_context()
    except GLUnavailableError as error:
        missing(f"no OpenGL context on this machine: {error}")
    yield context
    context.release()


@pytest.fixture
def gl(ctx: Context) -> Iterator[Context]:
    """The context, checked for GL errors before and after the test."""
    assert ctx.error == "GL_NO_ERROR"
    yield ctx
    assert ctx.error == "GL_NO_ERROR"


@pytest.fixture(scope="module")
def xvfb() -> Iterator[str]:
    """A fresh X server of its own (Xvfb, 1280x720), stopped afterwards."""
    need_program("Xvfb", "xvfb xauth")
    display = f":{free_display()}"
    server = subprocess.Popen(
        ["Xvfb", display, "-screen", "0", "1280x720x24", "-nolisten", "tcp"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        socket = Path(f"/tmp/.X11-unix/X{display[1:]}")
        deadline = time.monotonic() + 10
        while not socket.exists() and server.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        if not socket.exists():
            pytest.fail(f"Xvfb {display} did not start (exit status {server.poll()})")
        yield display
    finally:
        server.terminate()
        server.wait(timeout=10)
