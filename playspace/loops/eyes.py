"""The renderer drawing into a headset's eyes: OpenXR's swapchain images as framebuffers.

``playspace run --vr`` hands :func:`headset_eyes` to the headset loop, which calls the drawer
once per eye per frame with that eye's pose in the world and field of view (located for the
frame's predicted display time) and the swapchain images to draw into. The world is prepared
once a frame, before the first eye; each image (pair) is wrapped once and kept, since
swapchains reuse a few images.

Where the renderer draws both eyes in one pass (``Renderer.one_pass_stereo``) and the display
hands out both eyes' images at once (``EyeTarget.eyes``), the first eye's call only notes its
view; the second draws both into a layered target of the renderer's
(``Renderer.draw_stereo``) and copies each layer, color and depth, into its eye's images. The
compositor gets the same images either way; eyes of different sizes, or a renderer that
cannot, draw each eye as its own view (two passes).

Two things make an eye match the preview and help the compositor:

- **sRGB.** The loop takes a ``GL_SRGB8_ALPHA8`` color image whenever the runtime offers
  one; the compositor reads it through sRGB decoding (it works in linear light). The renderer
  shades in linear light and its shaders write sRGB-encoded values, with GL's own encoding
  (``GL_FRAMEBUFFER_SRGB``) off, so an eye holds the same bytes as the preview and the
  compositor's decoding gives back the light the renderer computed.
- **Depth.** When the runtime takes a depth layer, the eye's depth swapchain image is the
  framebuffer's depth attachment, so the depth test draws the scene's depth straight into
  what the compositor re-projects with. ModernGL takes only its own depth textures as a depth
  attachment (an external one is an "invalid depth attachment"), so the framebuffer is made
  with a stand-in depth renderbuffer and the swapchain's image is attached in its place with
  one GL call (``glFramebufferTexture2D``, through ctypes); the stand-in is then freed.
"""

from __future__ import annotations

from collections.abc import Callable

import moderngl

from playspace.ecs import World
from playspace.render.projection import fov_projection
from playspace.render.renderer import Renderer
from playspace.render.stereo import EYES, GL_DEPTH_COMPONENT24, LayeredTarget, libgl
from playspace.render.views import View
from playspace.spatial import FloatArray, Pose
from playspace.xr.views import EyeTarget, Fov, RenderEye

_GL_FRAMEBUFFER, _GL_TEXTURE_2D, _GL_FRAMEBUFFER_COMPLETE = 0x8D40, 0x0DE1, 0x8CD5
_GL_DEPTH_ATTACHMENT, _GL_DEPTH_STENCIL_ATTACHMENT = 0x8D00, 0x821A


def eye_framebuffer(ctx: moderngl.Context, target: EyeTarget) -> moderngl.Framebuffer:
    """A framebuffer drawing into `target`'s color image and, when it has one, its depth
    image (else into a depth renderbuffer of its own)."""
    size = (target.width, target.height)
    color = ctx.external_texture(target.color_texture, size, 4, 0, "f1")
    stand_in = ctx.depth_renderbuffer(size)  # the eye's own depth, when it has no depth image
    framebuffer = ctx.framebuffer([color], stand_in)
    if target.depth_texture is None:
        return framebuffer
    gl, bound = libgl(), ctx.fbo
    framebuffer.use()
    attachment = _GL_DEPTH_STENCIL_ATTACHMENT if target.depth_stencil else _GL_DEPTH_ATTACHMENT
    gl.glFramebufferTexture2D(_GL_FRAMEBUFFER, attachment, _GL_TEXTURE_2D, target.depth_texture, 0)
    status = int(gl.glCheckFramebufferStatus(_GL_FRAMEBUFFER))
    if bound is not None:
        bound.use()  # as it was: never leave bound a framebuffer that may be released
    if status != _GL_FRAMEBUFFER_COMPLETE:
        framebuffer.release()
        stand_in.release()
        raise RuntimeError(
            f"the eye's depth image (GL texture {target.depth_texture}, format "
            f"0x{target.depth_format or 0:04X}) cannot be drawn into: framebuffer status "
            f"0x{status:04X}"
        )
    stand_in.release()  # detached: the swapchain's image holds the depth now
    return framebuffer


def headset_eyes(renderer: Renderer) -> Callable[[World], RenderEye]:
    """A maker of eye drawers for `renderer` (its context current when they run)."""

    def make(world: World) -> RenderEye:
        return _EyeDrawer(renderer, world).draw

    return make


class _EyeDrawer:
    """One run's eye drawer: the frame prepared once, each swapchain image (pair) wrapped once,
    and both eyes drawn in one pass where the renderer and the display allow it."""

    def __init__(self, renderer: Renderer, world: World) -> None:
        self.renderer, self.world = renderer, world
        self._framebuffers: dict[tuple[int, int | None, int, int], moderngl.Framebuffer] = {}
        self._layered: LayeredTarget | None = None
        self._prepared = -1
        self._waiting: list[tuple[View, EyeTarget]] = []  # this frame's eyes not drawn yet

    def draw(self, pose: Pose, fov: Fov, target: EyeTarget) -> None:
        renderer = self.renderer
        if self.world.time.frame != self._prepared:
            renderer.prepare(self.world)
            self._prepared = self.world.time.frame
        view = View(pose, eye_projection(fov, target))
        if target.eyes != EYES or not renderer.one_pass_stereo:
            renderer.draw(view, self._framebuffer(target))
            return
        if target.eye == 0:
            self._waiting.clear()
        self._waiting.append((view, target))
        if target.eye == EYES - 1:
            self._draw_both(self._waiting)
            self._waiting = []

    def _draw_both(self, eyes: list[tuple[View, EyeTarget]]) -> None:
        sizes = {(target.width, target.height) for _, target in eyes}
        if len(eyes) != EYES or len(sizes) != 1:
            for view, target in eyes:
                self.renderer.draw(view, self._framebuffer(target))
            return
        (size,), depth = sizes, eyes[0][1].depth_format or GL_DEPTH_COMPONENT24
        layered = self._layered
        if layered is None or (layered.size, layered.depth_format) != (size, depth):
            if layered is not None:
                layered.release()
            layered = self._layered = LayeredTarget(self.renderer.ctx, size, depth)
        self.renderer.draw_stereo([view for view, _ in eyes], layered)
        for layer, (_, target) in enumerate(eyes):
            layered.copy(layer, self._framebuffer(target))

    def _framebuffer(self, target: EyeTarget) -> moderngl.Framebuffer:
        key = (target.color_texture, target.depth_texture, target.width, target.height)
        framebuffer = self._framebuffers.get(key)
        if framebuffer is None:
            framebuffer = self._framebuffers[key] = eye_framebuffer(self.renderer.ctx, target)
        return framebuffer


def eye_projection(fov: Fov, target: EyeTarget) -> FloatArray:
    """The eye's asymmetric projection from OpenXR's four angles, between the target's clip
    planes (the ones the compositor is told with the eye's depth)."""
    angles = (fov.angle_left, fov.angle_right, fov.angle_up, fov.angle_down)
    return fov_projection(*angles, target.near, target.far)
