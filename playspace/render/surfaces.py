"""The programs that draw surfaces, for one quality: the lit surface in the shading the quality
asks for (specular per pixel, or lit at the vertices; shadowed or not), the shadow map's depth
and the ghost, each for rigid instances and for skinned surfaces.

Shadows and specular are compiled in or out, not switched by a uniform: a software renderer
runs both sides of a branch (llvmpipe shades 4x4 pixels at once, masked), so an unused shadow
lookup behind ``if (taps == 0)`` still cost the kitchen 9 ms a frame at 1280x720. A quality
that changes what is compiled gets new programs (the renderer remakes what drew with the old).
"""

from __future__ import annotations

import moderngl

from playspace.render import shaders
from playspace.render.gpu import Program
from playspace.render.quality import Quality

LIT, DEPTH, GHOST = 0, 1, 2  # each kind's programs, in this order


class SurfacePrograms:
    """`rigid` and `skinned`: the (lit, depth, ghost) programs for instances and skinned
    surfaces, made for `key` (a quality's specular and shadows)."""

    def __init__(self, ctx: moderngl.Context, quality: Quality) -> None:
        self.key = shading_key(quality)
        vertex, fragment = shaders.surface_sources(*self.key)
        self.rigid = (
            Program(ctx, vertex, fragment),
            Program(ctx, shaders.DEPTH_VERTEX, shaders.DEPTH_FRAGMENT),
            Program(ctx, shaders.SURFACE_VERTEX, shaders.GHOST_FRAGMENT),
        )
        self.skinned = (
            Program(ctx, shaders.skinned(vertex), fragment),
            Program(ctx, shaders.skinned(shaders.DEPTH_VERTEX), shaders.DEPTH_FRAGMENT),
            Program(ctx, shaders.skinned(shaders.SURFACE_VERTEX), shaders.GHOST_FRAGMENT),
        )

    def release(self) -> None:
        for program in (*self.rigid, *self.skinned):
            program.release()


def shading_key(quality: Quality) -> tuple[bool, bool]:
    """What a quality compiles into the lit surface: specular, shadows."""
    return quality.specular, quality.shadows
