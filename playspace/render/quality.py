"""How much the renderer spends on a frame: shadow map size and filtering, and multisampling.

Three presets: ``low`` for slow machines (no shadow map, no multisampling, no specular
highlights: one cheap lit pass per view), ``high`` (a 2048 shadow map filtered with four
percentage-closer taps) and ``ultra`` (high with 4x multisampling, which a GPU does almost
for free but which doubles a frame's cost on a software renderer, so ``high`` leaves it out).
A game picks one with ``Renderer(ctx, quality=quality_named("low"))`` or changes it at any
time with ``renderer.quality = HIGH``; the shadow map and the multisampled buffers follow on
the next drawn view.

``auto``, what the command and the preview use unless told, is ``high`` on a GPU and ``low`` on
a software rasteriser (Mesa's llvmpipe and softpipe, SwiftShader), where ``high`` costs a
window its smoothness: as games choose their defaults from the hardware they find.
"""

from __future__ import annotations

from dataclasses import dataclass

import moderngl


@dataclass(frozen=True, slots=True)
class Quality:
    """What a frame costs. `shadow_size` is the shadow map's side in texels (0: no shadows);
    `shadow_taps` how many filtered shadow-map lookups a pixel takes (1 or 4: each lookup is
    already a 2x2 percentage-closer filter); `samples` the multisampling (0 or 1: none; more
    is capped at what the GPU offers); `shadow_distance` how far from the eye, in metres,
    shadows reach (the map covers the scene, cut to a box this size around the eye);
    `specular` the highlights and glossy reflections of the metallic-roughness model (off:
    diffuse light and a rough reflection of the sky, two thirds of the pixel cost)."""

    name: str
    shadow_size: int
    shadow_taps: int
    samples: int
    shadow_distance: float = 12.0
    specular: bool = True

    def __post_init__(self) -> None:
        if self.shadow_size < 0 or self.shadow_size > 8192:
            raise ValueError(f"shadow_size must be 0 (off) to 8192, got {self.shadow_size!r}")
        if self.shadow_taps not in (1, 4):
            raise ValueError(f"shadow_taps must be 1 or 4, got {self.shadow_taps!r}")
        if not 0 <= self.samples <= 16:
            raise ValueError(f"samples must be 0 to 16, got {self.samples!r}")
        if not self.shadow_distance > 0:
            raise ValueError(f"shadow_distance must be > 0 metres, got {self.shadow_distance!r}")

    @property
    def shadows(self) -> bool:
        return self.shadow_size > 0


LOW = Quality("low", shadow_size=0, shadow_taps=1, samples=0, specular=False)
HIGH = Quality("high", shadow_size=2048, shadow_taps=4, samples=0)
ULTRA = Quality("ultra", shadow_size=2048, shadow_taps=4, samples=4)
PRESETS = {preset.name: preset for preset in (LOW, HIGH, ULTRA)}


AUTO = "auto"
QUALITY_NAMES = (AUTO, *PRESETS)  # what --quality takes
SOFTWARE_RENDERERS = ("llvmpipe", "softpipe", "swiftshader", "software rasterizer")


def quality_named(name: str, ctx: moderngl.Context | None = None) -> Quality:
    """The preset called `name` (``"low"``, ``"high"`` or ``"ultra"``), or for ``"auto"`` the
    one that suits `ctx`'s GPU (see the module docstring; ``high`` without a context); any
    other name is a ValueError that lists the choices."""
    if name == AUTO:
        return LOW if ctx is not None and software_renderer(ctx) else HIGH
    try:
        return PRESETS[name]
    except KeyError:
        known = ", ".join(QUALITY_NAMES)
        raise ValueError(f"unknown render quality {name!r}: expected one of {known}") from None


def software_renderer(ctx: moderngl.Context) -> bool:
    """Whether `ctx` draws on the CPU (GL_RENDERER names a software rasteriser)."""
    renderer = str(ctx.info.get("GL_RENDERER", "")).lower()
    return any(name in renderer for name in SOFTWARE_RENDERERS)
