"""The GL context a headset run draws with, chosen by ``playspace run --vr --gl``.

OpenXR binds the GL context that is current when the session is created
(:mod:`playspace.xr.graphics` names it to the runtime), so the context must exist, and be
current, before :func:`~playspace.loops.headset.run_vr` opens the session. Which one depends on
the runtime:

- **EGL** (``--gl egl``): ModernGL's standalone EGL context, no window and no X server. Only
  runtimes offering ``XR_MNDX_egl_enable`` take it (Monado, WiVRn).
- **a window's context** (``--gl glx``): a small hidden glfw window, its context made current
  and ModernGL put on top of it. On Linux that is a GLX context on the X server (SteamVR takes
  nothing else; Monado takes it too); on Windows the same window gives a WGL context, which
  is what every Windows runtime takes. The window shows nothing: the eyes are drawn into the
  runtime's swapchain images, and a hidden window is a drawable all the same (pyopenxr's own
  examples bind hidden glfw windows too).
- ``--gl auto`` (the default) asks the runtime for its extensions and takes EGL where it is
  offered, else the window. With no runtime it takes EGL on Linux, so the run goes on to
  report "no OpenXR runtime" as it always has.

:func:`headset_gl` makes the chosen context and releases everything on leaving; it raises
:class:`~playspace.render.context.GLUnavailableError` with the reason when it cannot.
"""

from __future__ import annotations

import contextlib
import os
import re
import sys
import warnings
from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass
from typing import Any

import moderngl

from playspace.ecs import World
from playspace.render.context import GL_VERSION, GLUnavailableError, create_context
from playspace.spatial import Pose
from playspace.xr.graphics import BindingKind, choose_binding
from playspace.xr.state import XrUnavailable
from playspace.xr.views import EyeTarget, Fov, RenderEye

WINDOW_SIZE = (64, 64)  # the hidden window's size: it is never shown nor drawn into
WINDOW_TITLE = "playspace (headset)"


def offered_extensions() -> list[str] | None:
    """The active runtime's instance extensions; None when there is no runtime, or when
    pyopenxr cannot load at all (it raises NotImplementedError on macOS)."""
    try:
        from playspace.xr.backend import runtime_extensions
    except (ImportError, OSError, NotImplementedError):
        return None
    try:
        return runtime_extensions()
    except XrUnavailable:
        return None


def choose_gl(
    requested: str,
    platform: str = sys.platform,
    offered: Callable[[], Collection[str] | None] = offered_extensions,
) -> BindingKind:
    """The binding ``--gl requested`` means here (only ``auto`` asks the runtime, through
    `offered`); XrUnavailable when this platform cannot have it
    (:func:`~playspace.xr.graphics.choose_binding`)."""
    extensions = offered() if requested == "auto" else None
    return choose_binding(requested, platform, extensions)


@dataclass(frozen=True, slots=True)
class HeadsetGL:
    """A GL context made current for a headset run: `binding` is how OpenXR will name it,
    `where` what it lives in, for the user."""

    ctx: moderngl.Context
    binding: BindingKind
    where: str

    def describe(self) -> str:
        """``GLX (a hidden glfw window; llvmpipe (LLVM 15.0.6, 256 bits), OpenGL 4.5)``."""
        major, minor = divmod(self.ctx.version_code // 10, 10)
        renderer = self.ctx.info.get("GL_RENDERER", "unknown renderer")
        return f"{self.binding.value} ({self.where}; {renderer}, OpenGL {major}.{minor})"


@contextlib.contextmanager
def headset_gl(binding: BindingKind) -> Iterator[HeadsetGL]:
    """A ModernGL context for `binding`, current on this thread until the block ends, then
    released (and its window destroyed); GLUnavailableError when it cannot be made."""
    if binding is BindingKind.EGL:
        ctx = create_context()
        try:
            yield HeadsetGL(ctx, binding, "no window")
        finally:
            ctx.release()
        return
    with hidden_window(binding):
        try:
            ctx = moderngl.create_context(require=GL_VERSION)
        except Exception as error:  # glcontext raises bare Exceptions with the driver's words
            raise GLUnavailableError(
                f"ModernGL could not use the window's {binding.value} context: {error}"
            ) from error
        try:
            yield HeadsetGL(ctx, binding, "a hidden glfw window")
        finally:
            ctx.release()


@contextlib.contextmanager
def hidden_window(binding: BindingKind) -> Iterator[Any]:
    """A hidden glfw window with an OpenGL 3.3 core context made current (on X11 through GLX,
    whatever else the desktop offers: OpenXR's Linux binding is Xlib's), destroyed and glfw
    terminated on leaving; GLUnavailableError with glfw's reason when it cannot open."""
    if binding is BindingKind.GLX and not os.environ.get("DISPLAY"):
        raise GLUnavailableError(
            "no X display for the window whose GLX context OpenXR binds ($DISPLAY is unset); "
            "where the runtime offers XR_MNDX_egl_enable, --gl egl needs none"
        )
    import glfw

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", glfw.GLFWError)  # glfw says why as a warning
        if binding is BindingKind.GLX and glfw.get_version() >= (3, 4, 0):
            glfw.init_hint(glfw.PLATFORM, glfw.PLATFORM_X11)  # not Wayland: GLX is X11's
        if not glfw.init():
            raise GLUnavailableError(f"glfw could not start: {_glfw_reasons(caught)}")
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", glfw.GLFWError)
            glfw.default_window_hints()
            glfw.window_hint(glfw.VISIBLE, glfw.FALSE)
            glfw.window_hint(glfw.CONTEXT_CREATION_API, glfw.NATIVE_CONTEXT_API)  # GLX, WGL
            glfw.window_hint(glfw.CONTEXT_VERSION_MAJOR, GL_VERSION // 100)
            glfw.window_hint(glfw.CONTEXT_VERSION_MINOR, GL_VERSION // 10 % 10)
            glfw.window_hint(glfw.OPENGL_PROFILE, glfw.OPENGL_CORE_PROFILE)
            glfw.window_hint(glfw.OPENGL_FORWARD_COMPAT, glfw.TRUE)
            window = glfw.create_window(*WINDOW_SIZE, WINDOW_TITLE, None, None)
            if not window:
                raise GLUnavailableError(
                    f"glfw could not open a window with an OpenGL {GL_VERSION // 100}."
                    f"{GL_VERSION // 10 % 10} core context: {_glfw_reasons(caught)}"
                )
        try:
            glfw.make_context_current(window)
            yield window
        finally:
            glfw.destroy_window(window)  # detaches its context from this thread first
    finally:
        glfw.terminate()


def _glfw_reasons(caught: list[warnings.WarningMessage]) -> str:
    """glfw's words without pyGLFW's wrapping: ``(65550) b'X11: ...'`` is ``X11: ...``."""
    said = []
    for warning in caught:
        text = str(warning.message)
        found = re.fullmatch(r"\(\d+\) b(['\"])(.*)\1", text, re.DOTALL)
        said.append(found.group(2) if found else text)
    return "; ".join(said) or "no reason given"


@dataclass(slots=True)
class DrawnCount:
    """How many headset frames and eye images a run drew (``playspace run --vr`` says it at
    the end: the runtime took the binding and frames reached it)."""

    frames: int = 0
    eyes: int = 0

    def counting(self, make: Callable[[World], RenderEye]) -> Callable[[World], RenderEye]:
        """`make` (a maker of eye drawers) whose drawers count here what they draw."""

        def counted_make(world: World) -> RenderEye:
            draw = make(world)
            last_frame = -1

            def counted(pose: Pose, fov: Fov, target: EyeTarget) -> None:
                nonlocal last_frame
                draw(pose, fov, target)
                self.eyes += 1
                if world.time.frame != last_frame:
                    last_frame = world.time.frame
                    self.frames += 1

            return counted

        return counted_make
