"""The programs that draw surfaces, for one quality: the lit surface in the shading the quality
asks for (specular per pixel, or lit at the vertices; shadowed or not), the shadow map's depth
and the ghost, each for rigid instances and for skinned surfaces; and the sky and the comfort
overlay, which a view draws with them.

Shadows, their taps and specular are compiled in or out, not switched by a uniform: a software
renderer runs both sides of a branch (llvmpipe shades 4x4 pixels at once, masked), so an unused
shadow lookup behind ``if (taps == 0)`` still cost the kitchen 9 ms a frame at 1280x720. So are
a material's texture and the scenery's floor grid, a lit program for each mix a frame draws,
made at its first use (:meth:`EyePrograms.lit`): the kitchen's high frame drew 5 shadow lookups,
a texture read and two grids at every pixel before, 4 lookups and only what the batch shows
after (39 -> 31 ms here). A quality that changes what is compiled gets new programs (the
renderer remakes what drew with the old).

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


class EyePrograms:
    """What draws a view's passes: the lit surfaces (:meth:`lit`, a program for each shading a
    batch asks for), the `ghost` and `skinned_ghost`, the `sky` and the comfort `overlay`
    (with a vertex array each: they draw from no buffer), for one eye or, given the
    `extension` that writes ``gl_Layer``, both eyes in one pass (each instance drawn
    :attr:`repeat` times)."""

    def __init__(self, ctx: moderngl.Context, key: tuple[bool, int], extension: str | None) -> None:
        self.key, self.repeat = key, 1 if extension is None else 2
        self._eyes: Callable[[str], str] = (
            (lambda source: source)
            if extension is None
            else (lambda source: shaders.stereo(source, extension))
        )
        self._ctx = ctx
        ghost_vertex, ghost = shaders.SURFACE_VERTEX, shaders.GHOST_FRAGMENT
        self.ghost = self._made(ghost_vertex, ghost)
        self.skinned_ghost = self._made(shaders.skinned(ghost_vertex), ghost)
        self.sky = self._made(shaders.SKY_VERTEX, shaders.SKY_FRAGMENT)
        self.overlay = self._made(shaders.OVERLAY_VERTEX, shaders.OVERLAY_FRAGMENT)
        self.screens = {p: ctx.vertex_array(p.program, []) for p in (self.sky, self.overlay)}
        self._lit: dict[tuple[bool, bool, bool], Program] = {}

    def _made(self, vertex: str, fragment: str) -> Program:
        return Program(self._ctx, self._eyes(vertex), self._eyes(fragment), repeat=self.repeat)

    def lit(self, *, textured: bool, grid: bool = False, skinned: bool = False) -> Program:
        """The lit surface program for a batch: its material `textured` or not, with the floor
        `grid` (scenery rows) or not, bending a `skinned` surface or not; made at first use."""
        program = self._lit.get((textured, grid, skinned))
        if program is None:
            specular, taps = self.key
            shading = shaders.Shading(specular, taps, textured=textured, grid=grid)
            vertex, fragment = shaders.surface_sources(shading)
            program = self._made(shaders.skinned(vertex) if skinned else vertex, fragment)
            self._lit[textured, grid, skinned] = program
        return program

    def release(self) -> None:
        for array in self.screens.values():
            array.release()
        made = (*self._lit.values(), self.ghost, self.skinned_ghost, self.sky, self.overlay)
        for program in made:
            program.release()
        self._lit = {}


class SurfacePrograms:
    """The shadow map's `depth` and `skinned_depth` programs and the view's programs for one
    eye (`one_eye`), made for `key` (a quality's specular and shadow taps)."""

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


def shading_key(quality: Quality) -> tuple[bool, int]:
    """What a quality compiles into every lit surface: specular, shadow taps (0: none)."""
    return quality.specular, quality.shadow_taps if quality.shadows else 0
