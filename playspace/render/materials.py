"""Materials and light: what a surface looks like, and the one light that shows it.

A material is a base colour and an optional texture, lit by one directional light plus an
ambient term (Lambert: enough to read shapes and depth in a preview, cheap on a software
renderer). Instances are batched by mesh and material, so a material is a value: two equal
materials share a batch and a draw call.

Until scene files can name a material, things are coloured by what they are, from a stable
palette: scenery grey, props warm, opponents yellow, hands blue, the head marker white.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from playspace.render.assets import Texture

RGBA = tuple[float, float, float, float]
RGB = tuple[float, float, float]


def _check_colour(colour: tuple[float, ...], what: str) -> None:
    if not all(isinstance(c, int | float) and math.isfinite(c) and 0 <= c <= 1 for c in colour):
        raise ValueError(f"{what} components must be numbers in [0, 1], got {colour!r}")


@dataclass(frozen=True, slots=True)
class Material:
    """A base `colour` (linear RGBA in [0, 1]), multiplied by `texture` where there is one."""

    colour: RGBA
    texture: Texture | None = None

    def __post_init__(self) -> None:
        if len(self.colour) != 4:
            raise ValueError(f"material colour must be (r, g, b, a), got {self.colour!r}")
        _check_colour(self.colour, "material colour")


@dataclass(frozen=True, slots=True)
class Lighting:
    """One directional light and an ambient term. `direction` is where the light travels
    (world space, any length): the default comes from above, behind the right shoulder of a
    player facing -Z, so what they face is lit."""

    direction: tuple[float, float, float] = (-0.4, -1.0, -0.6)
    colour: RGB = (0.75, 0.75, 0.72)
    ambient: RGB = (0.32, 0.33, 0.36)

    def __post_init__(self) -> None:
        if not any(self.direction) or not all(map(math.isfinite, self.direction)):
            raise ValueError(f"light direction must be finite and non-zero: {self.direction!r}")
        _check_colour(self.colour, "light colour")
        _check_colour(self.ambient, "ambient colour")

    def towards_light(self) -> RGB:
        """The unit vector from a surface towards the light, as the shader wants it."""
        x, y, z = self.direction
        n = math.sqrt(x * x + y * y + z * z)
        return (-x / n, -y / n, -z / n)


@dataclass(frozen=True, slots=True)
class Palette:
    """The material of each kind of thing the renderer draws."""

    static: Material = field(default_factory=lambda: Material((0.62, 0.63, 0.65, 1.0)))
    prop: Material = field(default_factory=lambda: Material((0.86, 0.45, 0.22, 1.0)))
    opponent: Material = field(default_factory=lambda: Material((0.95, 0.8, 0.15, 1.0)))
    hand: Material = field(default_factory=lambda: Material((0.25, 0.45, 0.95, 1.0)))
    head: Material = field(default_factory=lambda: Material((0.97, 0.97, 0.97, 1.0)))
    other: Material = field(default_factory=lambda: Material((0.7, 0.55, 0.75, 1.0)))
    hover: Material = field(default_factory=lambda: Material((0.55, 0.85, 1.0, 1.0)))
    aim_valid: Material = field(default_factory=lambda: Material((0.2, 0.9, 0.35, 1.0)))
    aim_refused: Material = field(default_factory=lambda: Material((0.95, 0.2, 0.15, 1.0)))
