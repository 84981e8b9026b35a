"""The headset display over pyopenxr: the GL binding, the eyes' swapchains and the frame calls.

Part of the thin OpenXR layer (with :mod:`~playspace.xr.backend`, which owns the session).
One frame is ``wait_frame`` (``xrWaitFrame`` + ``xrBeginFrame``), ``locate_views`` for the
frame's predicted display time, then ``end_frame``, which draws each eye through the caller's
callback into that eye's colour and depth swapchain images and submits them as one projection
layer. Drawing itself is the renderer's: this module never imports ModernGL, it hands out GL
texture names (:class:`~playspace.xr.views.EyeTarget`).

The GL binding is read from the context current on this thread, so the runtime shares the
renderer's context: an EGL context (``XR_MNDX_egl_enable``, no X server needed) or a GLX one
(``XR_KHR_opengl_enable`` on Xlib), whose FBConfig must be filled in: pyopenxr's default leaves
it NULL and runtimes refuse the session with ``XR_ERROR_GRAPHICS_DEVICE_INVALID`` (NOTES.md).
"""

from __future__ import annotations

import contextlib
import ctypes
import sys
from collections.abc import Callable, Sequence
from ctypes import POINTER, byref, c_int, c_void_p
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import xr  # type: ignore[import-untyped]

from playspace.xr.errors import mid_session
from playspace.xr.state import FailureKind, XrUnavailable
from playspace.xr.views import EyeTarget, EyeView, Fov, FrameTiming, choose_formats

if TYPE_CHECKING:
    from playspace.xr.backend import OpenXRBackend

STEREO = xr.ViewConfigurationType.PRIMARY_STEREO
_EGL_CONFIG_ID, _EGL_NONE = 0x3028, 0x3038


def current_gl_binding(egl_enabled: bool) -> Any:
    """The graphics binding of the GL context current on this thread (EGL, else GLX)."""
    if not sys.platform.startswith("linux"):
        raise XrUnavailable(
            FailureKind.SESSION_REFUSED,
            f"playspace binds GL to OpenXR on Linux (EGL or GLX) only, not on {sys.platform}",
        )
    import xr.platform.linux as xr_linux  # type: ignore[import-untyped]  # Linux's types

    binding = _current_egl(xr_linux)
    if binding is not None:
        if not egl_enabled:
            raise XrUnavailable(
                FailureKind.SESSION_REFUSED,
                "the renderer's EGL context needs XR_MNDX_egl_enable, which this runtime "
                "does not offer: run with a window (GLX) instead",
            )
        return binding
    binding = _current_glx(xr_linux)
    if binding is None:
        raise XrUnavailable(FailureKind.SESSION_REFUSED, "no GL context is current to render")
    return binding


def _current_egl(xr_linux: Any) -> Any | None:
    try:
        egl = ctypes.CDLL("libEGL.so.1")
    except OSError:
        return None
    egl.eglGetCurrentContext.restype = egl.eglGetCurrentDisplay.restype = c_void_p
    context = egl.eglGetCurrentContext()
    if not context:
        return None
    display = egl.eglGetCurrentDisplay()
    egl.eglQueryContext.argtypes = [c_void_p, c_void_p, c_int, POINTER(c_int)]
    egl.eglChooseConfig.argtypes = [
        c_void_p,
        POINTER(c_int),
        POINTER(c_void_p),
        c_int,
        POINTER(c_int),
    ]
    config_id, config, count = c_int(), c_void_p(), c_int()
    egl.eglQueryContext(display, context, _EGL_CONFIG_ID, byref(config_id))
    wanted = (c_int * 3)(_EGL_CONFIG_ID, config_id.value, _EGL_NONE)
    if not egl.eglChooseConfig(display, wanted, byref(config), 1, byref(count)) or not count.value:
        return None
    return xr.GraphicsBindingEGLMNDX(
        get_proc_address=ctypes.cast(egl.eglGetProcAddress, xr.PFN_xrEglGetProcAddressMNDX),
        display=ctypes.cast(c_void_p(display), xr_linux.EGLDisplay),
        config=ctypes.cast(config, xr_linux.EGLConfig),
        context=ctypes.cast(c_void_p(context), xr_linux.EGLContext),
    )


def _current_glx(xr_linux: Any) -> Any | None:
    glx = xr_linux.GLX  # PyOpenGL's GLX, which pyopenxr loads and types its binding with
    context = glx.glXGetCurrentContext()
    if not context:
        return None
    display = glx.glXGetCurrentDisplay()
    fbconfig_id, screen, count, visual = c_int(), c_int(), c_int(), c_int()
    glx.glXQueryContext(display, context, glx.GLX_FBCONFIG_ID, byref(fbconfig_id))
    glx.glXQueryContext(display, context, glx.GLX_SCREEN, byref(screen))
    wanted = (c_int * 3)(int(glx.GLX_FBCONFIG_ID), fbconfig_id.value, 0)
    configs = glx.glXChooseFBConfig(display, screen.value, wanted, byref(count))
    if not count.value:
        return None
    glx.glXGetFBConfigAttrib(display, configs[0], glx.GLX_VISUAL_ID, byref(visual))
    return xr.GraphicsBindingOpenGLXlibKHR(
        x_display=display,
        visualid=visual.value,
        glx_fbconfig=configs[0],
        glx_drawable=glx.glXGetCurrentDrawable(),
        glx_context=context,
    )


@dataclass(frozen=True, slots=True)
class _Chain:
    handle: Any
    images: tuple[int, ...]
    image_format: int

    def acquire(self) -> int:
        index = xr.acquire_swapchain_image(self.handle, xr.SwapchainImageAcquireInfo())
        wait = xr.SwapchainImageWaitInfo(timeout=xr.INFINITE_DURATION)
        xr.wait_swapchain_image(self.handle, wait)
        return self.images[int(index)]

    def release(self) -> None:
        xr.release_swapchain_image(self.handle, xr.SwapchainImageReleaseInfo())


@dataclass(frozen=True, slots=True)
class _Eye:
    color: _Chain
    depth: _Chain | None
    width: int
    height: int


class XrDisplay:
    """The eyes' swapchains (colour and depth, the runtime's preferred formats that the
    renderer draws into) and the frame calls, on `backend`'s session."""

    def __init__(self, backend: OpenXRBackend) -> None:
        self._backend = backend
        self._session = backend.session
        instance, system = backend.instance, backend.system
        self._blend = xr.enumerate_environment_blend_modes(instance, system, STEREO)[0]
        try:
            formats = choose_formats(list(xr.enumerate_swapchain_formats(self._session)))
        except ValueError as error:
            raise XrUnavailable(FailureKind.SESSION_REFUSED, str(error)) from error
        usage = xr.SwapchainUsageFlags
        self._eyes: list[_Eye] = []
        for view in xr.enumerate_view_configuration_views(instance, system, STEREO):
            w, h = view.recommended_image_rect_width, view.recommended_image_rect_height
            color = self._chain(formats.color, w, h, usage.COLOR_ATTACHMENT_BIT | usage.SAMPLED_BIT)
            depth = None
            if formats.depth is not None:
                depth = self._chain(formats.depth, w, h, usage.DEPTH_STENCIL_ATTACHMENT_BIT)
            self._eyes.append(_Eye(color, depth, w, h))
        self._views: Sequence[Any] = ()

    def _chain(self, image_format: int, width: int, height: int, usage: Any) -> _Chain:
        info = xr.SwapchainCreateInfo(
            usage_flags=usage,
            format=image_format,
            sample_count=1,
            width=width,
            height=height,
            face_count=1,
            array_size=1,
            mip_count=1,
        )
        handle = self._backend.own(xr.destroy_swapchain, xr.create_swapchain(self._session, info))
        images = xr.enumerate_swapchain_images(handle, xr.SwapchainImageOpenGLKHR)
        return _Chain(handle, tuple(int(image.image) for image in images), image_format)

    @mid_session("xrWaitFrame, xrBeginFrame")
    def wait_frame(self) -> FrameTiming | None:
        """Wait for the runtime's next frame and begin it; None if the session is being lost."""
        try:
            state = xr.wait_frame(self._session, xr.FrameWaitInfo())
        except xr.SessionLossPending:
            return None
        with contextlib.suppress(xr.FrameDiscarded):  # a success: the last frame is dropped
            xr.begin_frame(self._session, xr.FrameBeginInfo())
        return FrameTiming(
            state.predicted_display_time, state.predicted_display_period, bool(state.should_render)
        )

    @mid_session("xrLocateViews")
    def locate_views(self, at: int) -> list[EyeView]:
        """The eyes at display time `at`; empty when the runtime cannot place them."""
        info = xr.ViewLocateInfo(STEREO, at, self._backend.space)
        state, views = xr.locate_views(self._session, info)
        valid = xr.ViewStateFlags.POSITION_VALID_BIT | xr.ViewStateFlags.ORIENTATION_VALID_BIT
        self._views = views if state.view_state_flags & valid == valid else ()
        return [_eye_view(view) for view in self._views]

    @mid_session("xrEndFrame")
    def end_frame(self, frame: FrameTiming, draw: Callable[[int, EyeTarget], None] | None) -> None:
        """Draw each eye located last (``draw(eye_index, target)``) and submit them as one
        projection layer; an empty frame when there is nothing to show."""
        layers = []
        if draw is not None and frame.should_render and self._views:
            shown = [self._draw_eye(i, eye, draw) for i, eye in enumerate(self._eyes)]
            layer = xr.CompositionLayerProjection(space=self._backend.space, views=shown)
            layers.append(ctypes.byref(layer))
        with contextlib.suppress(xr.FrameDiscarded):
            xr.end_frame(self._session, xr.FrameEndInfo(frame.time, self._blend, layers=layers))

    def _draw_eye(self, index: int, eye: _Eye, draw: Callable[[int, EyeTarget], None]) -> Any:
        depth = eye.depth
        target = EyeTarget(
            eye.color.acquire(),
            None if depth is None else depth.acquire(),
            eye.width,
            eye.height,
            eye.color.image_format,
            None if depth is None else depth.image_format,
        )
        try:
            draw(index, target)
        finally:
            eye.color.release()
            if depth is not None:
                depth.release()
        view = self._views[index]
        rect = xr.Rect2Di(extent=xr.Extent2Di(eye.width, eye.height))
        sub_image = xr.SwapchainSubImage(swapchain=eye.color.handle, image_rect=rect)
        return xr.CompositionLayerProjectionView(view.pose, view.fov, sub_image)


def _eye_view(view: Any) -> EyeView:
    p, q, fov = view.pose.position, view.pose.orientation, view.fov
    return EyeView(
        (p.x, p.y, p.z),
        (q.x, q.y, q.z, q.w),
        Fov(fov.angle_left, fov.angle_right, fov.angle_up, fov.angle_down),
    )
