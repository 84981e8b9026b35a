"""Materials and light: what a surface looks like, and the light that shows it.

A material is glTF 2.0's metallic-roughness surface: a base color (and an optional texture
multiplied into it), `roughness`, `metallic` and an `emissive` color. The renderer shades it
physically (Cook-Torrance: GGX distribution, Smith visibility, Schlick's fresnel, plus a
Lambert diffuse) under one directional light with shadows and a hemisphere ambient: light
from the sky above, bounced from the ground below. Every color here is *linear* (light adds
up linearly); the renderer encodes to sRGB only when it writes a pixel, so a linear 0.5 shows
as the display value 0.735, as glTF and every PBR engine mean it.

Instances are batched by mesh and material, so a material is a value: two equal materials
share a batch and a draw call. Things without a ``Appearance`` are colored by what they are, from a
stable palette: scenery grey, props warm, opponents yellow, hands blue, the head marker white.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from playspace.components.renamed import renamed_fields
from playspace.render.assets import Texture

RGBA = tuple[float, float, float, float]
RGB = tuple[float, float, float]


def _check_color(color: tuple[float, ...], what: str, top: float = 1.0) -> None:
    if not all(isinstance(c, int | float) and math.isfinite(c) and 0 <= c <= top for c in color):
        limit = "[0, 1]" if top == 1.0 else "0 or more"
        raise ValueError(f"{what} components must be numbers in {limit}, got {color!r}")


def _check_unit(value: float, what: str) -> None:
    if not (isinstance(value, int | float) and 0 <= value <= 1):
        raise ValueError(f"{what} must be a number in [0, 1], got {value!r}")


@renamed_fields(colour="color")
@dataclass(frozen=True, slots=True)
class Material:
    """A metallic-roughness surface. `color` is the linear base color (RGBA in [0, 1]),
    multiplied by `texture` where there is one (its texels are sRGB, decoded when sampled, as
    glTF's base color textures are); `roughness` 0 is a mirror, 1 fully matte; `metallic` 1
    is a metal (the base color tints reflections, no diffuse); `emissive` linear light the
    surface gives off, lit or not (0 or more)."""

    color: RGBA
    texture: Texture | None = None
    roughness: float = 0.8
    metallic: float = 0.0
    emissive: RGB = (0.0, 0.0, 0.0)

    def __post_init__(self) -> None:
        if len(self.color) != 4:
            raise ValueError(f"material color must be (r, g, b, a), got {self.color!r}")
        _check_color(self.color, "material color")
        _check_unit(self.roughness, "material roughness")
        _check_unit(self.metallic, "material metallic")
        if len(self.emissive) != 3:
            raise ValueError(f"material emissive must be (r, g, b), got {self.emissive!r}")
        _check_color(self.emissive, "material emissive", math.inf)


def srgb(r: float, g: float, b: float, a: float = 1.0) -> RGBA:
    """The linear color of display (sRGB) values: ``srgb(0.5, 0.5, 0.5)`` is the grey a
    color picker shows as 50%, 0.214 in linear light."""

    def decode(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    return (decode(r), decode(g), decode(b), a)


@renamed_fields(colour="color")
@dataclass(frozen=True, slots=True)
class Lighting:
    """One directional light (the sun) and a hemisphere ambient.

    `direction` is where the light travels (world space, any length): the default comes from
    above, behind the right shoulder of a player facing -Z, so what they face is lit.
    `color` is its linear intensity (a white surface square to it reflects that much); the
    ambient light comes from `sky` above and `ground` below, blended by how far a surface
    turns up or down. All colors are linear, 0 or more.
    """

    direction: tuple[float, float, float] = (-0.4, -1.0, -0.6)
    color: RGB = (1.6, 1.52, 1.4)
    sky: RGB = (0.3, 0.36, 0.45)
    ground: RGB = (0.14, 0.12, 0.1)

    def __post_init__(self) -> None:
        if not any(self.direction) or not all(map(math.isfinite, self.direction)):
            raise ValueError(f"light direction must be finite and non-zero: {self.direction!r}")
        _check_color(self.color, "light color", math.inf)
        _check_color(self.sky, "sky ambient color", math.inf)
        _check_color(self.ground, "ground ambient color", math.inf)

    def towards_light(self) -> RGB:
        """The unit vector from a surface towards the light, as the shader wants it."""
        x, y, z = self.direction
        n = math.sqrt(x * x + y * y + z * z)
        return (-x / n, -y / n, -z / n)


def _kind(r: float, g: float, b: float, roughness: float = 0.8) -> Material:
    return Material(srgb(r, g, b), roughness=roughness)


@dataclass(frozen=True, slots=True)
class Palette:
    """The material of each kind of thing the renderer draws when it has no ``Appearance``."""

    static: Material = field(default_factory=lambda: _kind(0.62, 0.63, 0.65, 0.9))
    prop: Material = field(default_factory=lambda: _kind(0.86, 0.45, 0.22, 0.55))
    opponent: Material = field(default_factory=lambda: _kind(0.95, 0.8, 0.15, 0.5))
    hand: Material = field(default_factory=lambda: _kind(0.25, 0.45, 0.95, 0.4))
    skin: Material = field(default_factory=lambda: _kind(0.87, 0.68, 0.55, 0.6))
    visor: Material = field(default_factory=lambda: _kind(0.08, 0.09, 0.11, 0.15))
    head: Material = field(default_factory=lambda: _kind(0.97, 0.97, 0.97))
    other: Material = field(default_factory=lambda: _kind(0.7, 0.55, 0.75))
    hover: Material = field(
        default_factory=lambda: Material(srgb(0.55, 0.85, 1.0), emissive=(0.1, 0.2, 0.3))
    )
    aim_valid: Material = field(
        default_factory=lambda: Material(srgb(0.2, 0.9, 0.35), emissive=(0.05, 0.4, 0.1))
    )
    aim_refused: Material = field(
        default_factory=lambda: Material(srgb(0.95, 0.2, 0.15), emissive=(0.4, 0.04, 0.02))
    )
