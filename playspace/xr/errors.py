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

from playspace.ecs.profile import marked
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


def failed_call(error: BaseException, default: str) -> str:
    """The OpenXR function that raised `error` (``xrAcquireSwapchainImage``), read from the
    traceback: each pyopenxr wrapper calls one ``raw_functions.xr...``; `default` where none
    is found. A method making several calls (``end_frame`` acquires, waits on and releases
    swapchain images before ``xrEndFrame``) is then reported by the call that really failed."""
    found = default
    trace = error.__traceback__
    while trace is not None:
        frame = trace.tb_frame
        if str(frame.f_globals.get("__name__", "")).startswith("xr."):
            names = [n for n in frame.f_code.co_names if n[:2] == "xr" and n[2:3].isupper()]
            found = names[0] if names else found
        trace = trace.tb_next
    return found


def mid_session(call: str) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Mark a method the frame loop calls: an OpenXR error from it becomes XrFailed naming the
    OpenXR function that failed (`call` where it cannot be told), and "the session is being
    lost" (pyopenxr raises that success code too) becomes XrLost.

    The other results a running session expects (not focused, frame discarded) are handled
    inside the methods and never reach this. A profiled run (:mod:`playspace.ecs.profile`)
    shows each call as a span named `call`.
    """

    def wrap(method: Callable[P, R]) -> Callable[P, R]:
        @functools.wraps(method)
        def guarded(*args: P.args, **kwargs: P.kwargs) -> R:
            try:
                with marked(call, "openxr"):
                    return method(*args, **kwargs)
            except xr.SessionLossPending as error:
                raise XrLost(call) from error
            except xr.XrException as error:
                step = failed_call(error, call)
                gone = isinstance(error, xr.InstanceLostError)
                raise XrFailed(step, f"{type(error).__name__}: {error}", gone) from error

        return guarded

    return wrap
