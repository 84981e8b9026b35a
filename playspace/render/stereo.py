"""Both eyes in one pass: which way this GL driver allows it, and the layered target it draws
into.

A headset frame draws the same prepared scene from two eyes. Drawn as two views, each batch
costs its Python work (material uniforms, a draw call) twice; in one pass each batch is set up
and submitted once for both eyes, and the GPU does the rest. The path is chosen once, when the
renderer starts, from the context's extensions (:func:`stereo_path`):

- **instanced layered** (``GL_ARB_shader_viewport_layer_array`` or
  ``GL_AMD_vertex_shader_layer``): a draw call draws each instance twice, the instance's
  attributes advancing every second instance drawn; the low bit of ``gl_InstanceID`` is the
  eye, whose view-projection the vertex shader uses and whose layer of a 2-layer texture array
  (:class:`LayeredTarget`) it writes to ``gl_Layer``. Mesa's llvmpipe offers both extensions.
- **two passes**: each eye drawn as its own view, into its own layer, as before.

Multiview (``GL_OVR_multiview2``, where the driver itself repeats each draw for each view) is
not offered: no driver on the machines this is tested on has it, and a path never run is not
kept. Drivers that have it (NVIDIA's, Adreno's) have the layer extensions too.

GL objects ModernGL does not make (a depth texture array, layered attachments) are made here
with libGL's own entry points, which act on the context current on this thread, as ModernGL's
do.
"""

from __future__ import annotations

import ctypes
import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import moderngl
import numpy as np

from playspace.render import shaders
from playspace.render.gpu import Program

GL_DEPTH_COMPONENT24 = 0x81A6  # a view's own depth buffer's format
# depth-stencil formats, drawn with the depth format of their precision (no stencil is used)
_DEPTH_OF = {0x88F0: GL_DEPTH_COMPONENT24, 0x8CAD: 0x8CAC}

LAYERED = "instanced layered"
TWO_PASSES = "two passes"
EYES = 2

_GL_FRAMEBUFFER, _GL_FRAMEBUFFER_COMPLETE = 0x8D40, 0x8CD5
_GL_COLOR_ATTACHMENT0, _GL_DEPTH_ATTACHMENT = 0x8CE0, 0x8D00
_GL_TEXTURE_2D_ARRAY, _GL_TEXTURE0 = 0x8C1A, 0x84C0
_GL_DEPTH_COMPONENT, _GL_FLOAT = 0x1902, 0x1406
_GL_TEXTURE_MIN_FILTER, _GL_TEXTURE_MAG_FILTER, _GL_NEAREST = 0x2801, 0x2800, 0x2600
_GL_TEXTURE_MAX_LEVEL, _GL_FRAMEBUFFER_SRGB = 0x813D, 0x8DB9


@functools.cache
def libgl() -> Any:
    """libGL, whose entry points dispatch to the context current on this thread (EGL or GLX,
    through GLVND): the library ModernGL itself loads."""
    gl = ctypes.CDLL("libGL.so.1")
    gl.glCheckFramebufferStatus.restype = ctypes.c_uint
    return gl


@dataclass(frozen=True, slots=True)
class StereoPath:
    """How both eyes are drawn: `name` (:data:`LAYERED` or :data:`TWO_PASSES`) and the
    extension the vertex shader writes ``gl_Layer`` with (None for two passes)."""

    name: str
    extension: str | None = None
    why: str = "the driver offers no extension to write gl_Layer with"

    @property
    def one_pass(self) -> bool:
        return self.extension is not None

    def describe(self) -> str:
        """A line for people (``playspace doctor``)."""
        if self.extension is None:
            return f"{self.name} ({self.why})"
        return f"one pass, {self.name} ({self.extension})"


def stereo_path(ctx: moderngl.Context) -> StereoPath:
    """The best way `ctx`'s driver offers to draw both eyes."""
    offered = [e for e in shaders.LAYER_EXTENSIONS if e in ctx.extensions]
    if not offered:
        return StereoPath(TWO_PASSES)
    try:  # the layered target is made through libGL's entry points, which must be found
        libgl()
    except OSError:
        return StereoPath(TWO_PASSES, why="no libGL.so.1 to make the layered target with")
    return StereoPath(LAYERED, offered[0])


class LayeredTarget:
    """Both eyes' pictures, of one size: a 2-layer color texture array (RGBA8) and depth (in
    `depth_format`: by default 24 bits, as a view's own depth buffer; an eye's swapchain
    format, so that the depth test and the depth copied out are those of drawing into the
    eye's image), with a :attr:`framebuffer` drawing into both layers
    at once (each primitive goes to the layer its vertex shader names), one framebuffer a layer
    (:attr:`layers`, for what draws an eye at a time), and :meth:`copy` of a layer, color and
    depth, into another framebuffer (an eye's swapchain images)."""

    def __init__(
        self, ctx: moderngl.Context, size: tuple[int, int], depth_format: int = GL_DEPTH_COMPONENT24
    ) -> None:
        self.ctx, self.size, self.depth_format = ctx, size, depth_format
        gl = libgl()
        self.color = ctx.texture_array((*size, EYES), 4)
        self._depth = _depth_array(size, _DEPTH_OF.get(depth_format, depth_format))
        self.framebuffer = self._attached(
            lambda point, name: gl.glFramebufferTexture(_GL_FRAMEBUFFER, point, name, 0)
        )
        self.layers = tuple(
            self._attached(functools.partial(_attach_layer, layer=layer)) for layer in range(EYES)
        )
        self._copy = Program(ctx, shaders.OVERLAY_VERTEX, shaders.COPY_LAYER_FRAGMENT)
        self._copy_array = ctx.vertex_array(self._copy.program, [])

    def _attached(self, attach: Callable[[int, int], None]) -> moderngl.Framebuffer:
        """A framebuffer of this size with the color array and depth array attached by
        `attach(point, texture)`: ModernGL attaches only textures of its own kinds, so it is
        made with stand-ins and the arrays take their places."""
        ctx, bound = self.ctx, self.ctx.fbo
        color, depth = ctx.texture(self.size, 4), ctx.depth_renderbuffer(self.size)
        framebuffer = ctx.framebuffer([color], depth)
        framebuffer.use()
        attach(_GL_COLOR_ATTACHMENT0, self.color.glo)
        attach(_GL_DEPTH_ATTACHMENT, self._depth)
        status = int(libgl().glCheckFramebufferStatus(_GL_FRAMEBUFFER))
        if bound is not None:
            bound.use()
        color.release()
        depth.release()
        if status != _GL_FRAMEBUFFER_COMPLETE:
            framebuffer.release()
            raise RuntimeError(f"a layered framebuffer is incomplete: status 0x{status:04X}")
        return framebuffer

    def read(self, layer: int) -> np.ndarray:
        """Layer `layer`'s picture as (height, width, 3) RGB bytes, top row first."""
        width, height = self.size
        pictures = np.frombuffer(self.color.read(), dtype=np.uint8)
        return pictures.reshape(EYES, height, width, 4)[layer, ::-1, :, :3]

    def copy(self, layer: int, framebuffer: moderngl.Framebuffer) -> None:
        """Layer `layer`, color and depth, into all of `framebuffer` (of this size), whatever its
        formats; the bytes as they are (GL's own sRGB encoding off)."""
        ctx, gl = self.ctx, libgl()
        ctx.disable_direct(_GL_FRAMEBUFFER_SRGB)
        framebuffer.use()
        ctx.enable_only(moderngl.DEPTH_TEST)
        ctx.depth_func = "1"  # always: the layer's depth replaces what was there
        self.color.use(0)
        gl.glActiveTexture(_GL_TEXTURE0 + 1)
        gl.glBindTexture(_GL_TEXTURE_2D_ARRAY, self._depth)
        self._copy.set("u_picture", 0)
        self._copy.set("u_depth", 1)
        self._copy.set("u_layer", layer)
        self._copy_array.render(moderngl.TRIANGLES, vertices=3)
        ctx.depth_func = "<"
        ctx.enable_only(moderngl.NOTHING)

    def release(self) -> None:
        ctx = self.ctx
        if ctx.fbo in (self.framebuffer, *self.layers):
            (ctx.screen or ctx.detect_framebuffer(0)).use()  # never leave a freed one bound
        for framebuffer in (self.framebuffer, *self.layers):
            framebuffer.release()
        self._copy_array.release()
        self._copy.release()
        self.color.release()
        libgl().glDeleteTextures(1, ctypes.byref(ctypes.c_uint(self._depth)))


def _attach_layer(point: int, texture: int, layer: int) -> None:
    libgl().glFramebufferTextureLayer(_GL_FRAMEBUFFER, point, texture, 0, layer)


def _depth_array(size: tuple[int, int], depth_format: int) -> int:
    """A 2-layer depth texture array in `depth_format` (GL's name), sampled texel by texel."""
    gl, name = libgl(), ctypes.c_uint()
    gl.glGenTextures(1, ctypes.byref(name))
    gl.glBindTexture(_GL_TEXTURE_2D_ARRAY, name)
    width, height = size
    gl.glTexImage3D(
        _GL_TEXTURE_2D_ARRAY,
        0,
        depth_format,
        width,
        height,
        EYES,
        0,
        _GL_DEPTH_COMPONENT,
        _GL_FLOAT,
        None,
    )
    for parameter, value in (
        (_GL_TEXTURE_MIN_FILTER, _GL_NEAREST),
        (_GL_TEXTURE_MAG_FILTER, _GL_NEAREST),
        (_GL_TEXTURE_MAX_LEVEL, 0),
    ):
        gl.glTexParameteri(_GL_TEXTURE_2D_ARRAY, parameter, value)
    gl.glBindTexture(_GL_TEXTURE_2D_ARRAY, 0)
    return name.value
