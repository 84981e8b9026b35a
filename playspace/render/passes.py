"""The passes every display draws over the scene: the preview, captures and a headset's eyes.

One place says which passes a player sees and in what order, so a window, a capture and a
headset never disagree: panels first (surfaces in the world, hidden by what stands in front
of them), then the physics debug view (on top, so shapes inside walls show), then text (labels,
the teleport's refusal and the game's screen text, on top of everything but the comfort
overlay). Each is free in a world that has nothing for it.
"""

from __future__ import annotations

from playspace.render.lines import DebugLinesPass
from playspace.render.panels import PanelPass
from playspace.render.renderer import Renderer
from playspace.render.text import TextPass


def add_standard_passes(renderer: Renderer) -> Renderer:
    """Add the panels, physics debug and text passes to `renderer`; returns it."""
    ctx = renderer.ctx
    for made in (PanelPass(ctx), DebugLinesPass(ctx), TextPass(ctx)):
        renderer.add_pass(made)
    return renderer
