"""The programs that draw surfaces, for one quality: the lit surface in the shading the quality
asks for (specular per pixel, or lit at the vertices; shadowed or not), the shadow map's depth
and the ghost, each for rigid instances and for skinned surfaces; and the sky and the comfort
overlay, which a view draws with them.

Shadows and specular are compiled in or out, not switched by a uniform: a software renderer
runs both sides of a branch (llvmpipe shades 4x4 pixels at once, masked), so an unused shadow
lookup behind ``if (taps == 0)`` still cost the kitchen 9 ms a frame at 1280x720. A quality
that changes what is compiled gets new programs (the renderer remakes what drew with the old).

What a view draws is compiled for one eye and, at the first stereo frame, once more for both
eyes in one pass (:meth:`SurfacePrograms.both_eyes`); the shadow map is drawn once a frame,
from the light, so its depth programs are the same for both.
"""

from __future__ import annotations

from collections.abc import Callable

import moderngl

from playspace.render import shaders
from playspace.render.gpu import Program
from playspace.render.quality import Quality

LIT, GHOST = 0, 1  # each kind's programs for a view, in this order


class EyePrograms:
    """What draws a view's passes: `rigid` and `skinned` (lit, ghost) programs, the `sky` and
    the comfort `overlay` (with a vertex array each: they draw from no buffer), for one eye or,
    given the `extension` that writes ``gl_Layer``, both eyes in one pass (each instance drawn
    :attr:`repeat` times)."""

    def __init__(
        self, ctx: moderngl.Context, key: tuple[bool, bool], extension: str | None
    ) -> None:
        self.repeat = 1 if extension is None else 2
        eyes: Callable[[str], str] = (
            (lambda source: source)
            if extension is None
            else (lambda source: shaders.stereo(source, extension))
        )

        def made(vertex: str, fragment: str) -> Program:
            return Program(ctx, eyes(vertex), eyes(fragment), repeat=self.repeat)

        vertex, fragment = shaders.surface_sources(*key)
        ghost_vertex, ghost = shaders.SURFACE_VERTEX, shaders.GHOST_FRAGMENT
        self.rigid = (made(vertex, fragment), made(ghost_vertex, ghost))
        bent, bent_ghost = shaders.skinned(vertex), shaders.skinned(ghost_vertex)
        self.skinned = (made(bent, fragment), made(bent_ghost, ghost))
        self.sky = made(shaders.SKY_VERTEX, shaders.SKY_FRAGMENT)
        self.overlay = made(shaders.OVERLAY_VERTEX, shaders.OVERLAY_FRAGMENT)
        self.screens = {p: ctx.vertex_array(p.program, []) for p in (self.sky, self.overlay)}

    def release(self) -> None:
        for array in self.screens.values():
            array.release()
        for program in (*self.rigid, *self.skinned, self.sky, self.overlay):
            program.release()


class SurfacePrograms:
    """The shadow map's `depth` and `skinned_depth` programs and the view's programs for one
    eye (`one_eye`), made for `key` (a quality's specular and shadows)."""

    def __init__(self, ctx: moderngl.Context, quality: Quality) -> None:
        self.ctx = ctx
        self.key = shading_key(quality)
        self.depth = Program(ctx, shaders.DEPTH_VERTEX, shaders.DEPTH_FRAGMENT)
        skinned_depth = shaders.skinned(shaders.DEPTH_VERTEX)
        self.skinned_depth = Program(ctx, skinned_depth, shaders.DEPTH_FRAGMENT)
        self.one_eye = EyePrograms(ctx, self.key, None)
        self._both: EyePrograms | None = None

    def both_eyes(self, extension: str) -> EyePrograms:
        """The view's programs drawing both eyes in one pass, made at the first call."""
        if self._both is None:
            self._both = EyePrograms(self.ctx, self.key, extension)
        return self._both

    def release(self) -> None:
        self.depth.release()
        self.skinned_depth.release()
        self.one_eye.release()
        if self._both is not None:
            self._both.release()


def shading_key(quality: Quality) -> tuple[bool, bool]:
    """What a quality compiles into the lit surface: specular, shadows."""
    return quality.specular, quality.shadows
