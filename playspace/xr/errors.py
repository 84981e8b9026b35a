"""OpenXR's exceptions as playspace's two: no session (opening), a broken session (running).

pyopenxr raises one exception class per ``XrResult``; the layer above never sees them. An
error while opening says which step failed (:class:`~playspace.xr.state.XrUnavailable`, so the
user is told how to run without a headset); an error from a call the frame loop makes names
that call (:class:`~playspace.xr.state.XrFailed`), and the loop stops with one message; a
call that says the session is being lost (:class:`~playspace.xr.state.XrLost`) stops it as the
LOSS_PENDING state does.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import ParamSpec, TypeVar

import xr  # type: ignore[import-untyped]

from playspace.xr.state import FailureKind, XrFailed, XrLost, XrUnavailable

P = ParamSpec("P")
R = TypeVar("R")


@contextmanager
def failing_as(kind: FailureKind, step: str = "") -> Iterator[None]:
    """Turn an OpenXR error inside the block into XrUnavailable(`kind`), naming the error and
    the `step` where the kind alone does not say where it happened."""
    try:
        yield
    except xr.XrException as error:
        where = f"{step}: " if step else ""
        raise XrUnavailable(kind, f"{where}{type(error).__name__}: {error}") from error


def mid_session(call: str) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Mark a method the frame loop calls: an OpenXR error from it becomes XrFailed(`call`),
    and "the session is being lost" (pyopenxr raises that success code too) becomes XrLost.

    The other results a running session expects (not focused, frame discarded) are handled
    inside the methods and never reach this.
    """

    def wrap(method: Callable[P, R]) -> Callable[P, R]:
        @functools.wraps(method)
        def guarded(*args: P.args, **kwargs: P.kwargs) -> R:
            try:
                return method(*args, **kwargs)
            except xr.SessionLossPending as error:
                raise XrLost(call) from error
            except xr.XrException as error:
                raise XrFailed(call, f"{type(error).__name__}: {error}") from error

        return guarded

    return wrap
