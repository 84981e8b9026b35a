"""A world drawn into a picture for a pixel test: unlit, before a plain dark blue sky, at the
low preset, so only what glows (an emissive look) shows, and shows in its own color."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from playspace.ecs import World
from playspace.render import Lighting, Offscreen, Renderer, Sky, View
from playspace.render.quality import LOW

if TYPE_CHECKING:
    from moderngl import Context

DARK = Lighting(color=(0.0, 0.0, 0.0), sky=(0.0, 0.0, 0.0), ground=(0.0, 0.0, 0.0))
BLUE = (0.0, 0.0, 0.3)


def drawn_dark(gl: Context, world: World, view: View, size: tuple[int, int]) -> np.ndarray:
    """`world` seen from `view`: (rows, columns, 3) colors in [0, 1]."""
    renderer = Renderer(gl, lighting=DARK, sky=Sky(BLUE, BLUE, BLUE, sun=(0, 0, 0)), quality=LOW)
    target = Offscreen(gl, size)
    try:
        renderer.prepare(world)
        renderer.draw(view, target.framebuffer)
        image: np.ndarray = target.read() / 255.0
        return image
    finally:
        target.release()
        renderer.release()
