"""The headset display over pyopenxr: the GL binding, the eyes' swapchains and the frame calls.

Part of the thin OpenXR layer (with :mod:`~playspace.xr.backend`, which owns the session).
One frame is ``wait_frame`` (``xrWaitFrame`` + ``xrBeginFrame``), ``locate_views`` for the
frame's predicted display time, then ``end_frame``, which draws each eye through the caller's
callback into that eye's color and depth swapchain images and submits them as one projection
layer. Both eyes' images are acquired before the first is drawn, so the drawer may draw both
eyes in one pass. Drawing itself is the renderer's: this module never imports ModernGL, it
hands out GL texture names (:class:`~playspace.xr.views.EyeTarget`). The session's GL binding is
:mod:`~playspace.xr.graphics`'s.

Depth goes to the compositor with ``XR_KHR_composition_layer_depth``: each projection view
carries an ``XrCompositionLayerDepthInfoKHR`` naming its depth image and how to read it (the
depth range 0..1 and the near and far planes of the projection drawn with). A frame is shown a
little after the head pose it was drawn for was predicted; the compositor re-projects it to the
newest pose just before scan-out. With color alone it can only rotate the picture (each
pixel as if infinitely far away); with depth it knows how far each pixel is, so it can also
shift near things against far ones for the head's movement (positional reprojection), and
layers can occlude each other by depth. A runtime without the extension gets no depth
swapchain at all: the renderer then uses a depth buffer of its own, never submitted.
"""

from __future__ import annotations

import contextlib
import ctypes
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import xr  # type: ignore[import-untyped]

from playspace.xr.errors import mid_session
from playspace.xr.state import FailureKind, XrUnavailable
from playspace.xr.views import EyeTarget, EyeView, Fov, FrameTiming, choose_formats

if TYPE_CHECKING:
    from playspace.xr.backend import OpenXRBackend

STEREO = xr.ViewConfigurationType.PRIMARY_STEREO
DEPTH_LAYER = "XR_KHR_composition_layer_depth"


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
    """The eyes' swapchains (color, and depth where the runtime takes a depth layer: the
    runtime's preferred formats that the renderer draws into) and the frame calls, on
    `backend`'s session.

    :attr:`submits_depth` says whether each eye's depth is drawn into a swapchain and submitted
    (``XR_KHR_composition_layer_depth`` enabled on the instance and a depth format offered).
    """

    def __init__(self, backend: OpenXRBackend) -> None:
        self._backend = backend
        self._session = backend.session
        instance, system = backend.instance, backend.system
        self._blend = xr.enumerate_environment_blend_modes(instance, system, STEREO)[0]
        try:
            offered = list(xr.enumerate_swapchain_formats(self._session))
            formats = choose_formats(offered, submit_depth=DEPTH_LAYER in backend.enabled)
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
        self.submits_depth = formats.depth is not None
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
        projection layer, with each eye's depth where :attr:`submits_depth`; an empty frame
        when there is nothing to show."""
        layers = []
        depths: list[Any] = []  # the views' `next` points into these: alive until xrEndFrame
        if draw is not None and frame.should_render and self._views:
            shown = self._draw_eyes(draw, depths)
            layer = xr.CompositionLayerProjection(space=self._backend.space, views=shown)
            layers.append(ctypes.byref(layer))
        with contextlib.suppress(xr.FrameDiscarded):
            xr.end_frame(self._session, xr.FrameEndInfo(frame.time, self._blend, layers=layers))

    def _draw_eyes(self, draw: Callable[[int, EyeTarget], None], depths: list[Any]) -> list[Any]:
        """Draw every eye and return their projection views; their depth infos (if any) are
        appended to `depths`, which the caller keeps until the frame is submitted. Every
        eye's images are acquired before the first eye is drawn and released after the last,
        so a drawer may draw both eyes in one pass at the last call."""
        targets: list[EyeTarget] = []
        try:
            for index, eye in enumerate(self._eyes):
                targets.append(self._acquire(index, eye))
            for index, target in enumerate(targets):
                draw(index, target)
        finally:
            for eye, _ in zip(self._eyes, targets, strict=False):
                eye.color.release()
                if eye.depth is not None:
                    eye.depth.release()
        pairs = zip(self._eyes, targets, strict=True)
        return [self._shown(i, eye, target, depths) for i, (eye, target) in enumerate(pairs)]

    def _acquire(self, index: int, eye: _Eye) -> EyeTarget:
        depth = eye.depth
        color = eye.color.acquire()
        return EyeTarget(
            color,
            None if depth is None else depth.acquire(),
            eye.width,
            eye.height,
            eye.color.image_format,
            None if depth is None else depth.image_format,
            eye=index,
            eyes=len(self._eyes),
        )

    def _shown(self, index: int, eye: _Eye, target: EyeTarget, depths: list[Any]) -> Any:
        """An eye's projection view, its depth info chained (and kept in `depths`)."""
        view = self._views[index]
        rect = xr.Rect2Di(extent=xr.Extent2Di(eye.width, eye.height))
        sub_image = xr.SwapchainSubImage(swapchain=eye.color.handle, image_rect=rect)
        chained = None
        if eye.depth is not None:
            depth_image = xr.SwapchainSubImage(swapchain=eye.depth.handle, image_rect=rect)
            info = depth_info(depth_image, target.near, target.far)
            depths.append(info)
            chained = ctypes.cast(ctypes.pointer(info), ctypes.c_void_p)
        return xr.CompositionLayerProjectionView(view.pose, view.fov, sub_image, next=chained)


def depth_info(sub_image: Any, near: float, far: float) -> Any:
    """How the compositor reads an eye's depth image: the stored values span the whole depth
    range (GL's default ``glDepthRange(0, 1)``: 0 on the near plane, 1 on the far one) and the
    projection drawn with had these near and far planes (metres, positive), from which it
    recovers each pixel's distance to re-project it."""
    return xr.CompositionLayerDepthInfoKHR(
        sub_image=sub_image, min_depth=0.0, max_depth=1.0, near_z=near, far_z=far
    )


def _eye_view(view: Any) -> EyeView:
    p, q, fov = view.pose.position, view.pose.orientation, view.fov
    return EyeView(
        (p.x, p.y, p.z),
        (q.x, q.y, q.z, q.w),
        Fov(fov.angle_left, fov.angle_right, fov.angle_up, fov.angle_down),
    )
