"""Fixtures the GL tests share: one context per module, checked for GL errors per test."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from moderngl import Context

from playspace.render import GLUnavailableError, create_context


@pytest.fixture(scope="module")
def ctx() -> Iterator[Context]:
    try:
        context = create_context()
    except GLUnavailableError as error:
        pytest.skip(f"no OpenGL context on this machine: {error}")
    yield context
    context.release()


@pytest.fixture
def gl(ctx: Context) -> Iterator[Context]:
    """The context, checked for GL errors before and after the test."""
    assert ctx.error == "GL_NO_ERROR"
    yield ctx
    assert ctx.error == "GL_NO_ERROR"
