"""How an entity looks: a surface material in glTF's metallic-roughness terms.

Scene files say the same keys on any shape (``color``, ``texture``, ``roughness``,
``metallic``, ``emissive``) or name a material once in ``[materials]``; a glTF mesh brings its
own. A game changes how an entity looks by replacing its ``Appearance``
(``world.add(entity, Appearance(...))``). A ``Appearance`` is frozen, so a change is always a
replacement, which the renderer sees as the world's structure changing; editing fields in place
would go unseen. An entity without one is drawn in its kind's color from the renderer's
palette.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True, slots=True)
class Appearance:
    """A metallic-roughness surface, as glTF 2.0 defines one.

    `color` is the base color, linear RGBA in [0, 1] (alpha below 1 is drawn opaque: the
    renderer has no sorted transparency); `texture` an image file multiplied into it, sampled
    with the mesh's uvs (a primitive's uvs span each face); `roughness` and `metallic` in
    [0, 1]; `emissive` linear RGB, 0 or more, light the surface gives off whatever lights it
    (glTF's ``emissiveFactor``, times its ``KHR_materials_emissive_strength`` when brighter
    than 1).

    Every value is checked here, so a look a game builds is refused where it is made, with the
    field named, rather than drawn black or NaN-grey frames later.
    """

    color: tuple[float, float, float, float] = (0.8, 0.8, 0.8, 1.0)
    roughness: float = 0.8
    metallic: float = 0.0
    emissive: tuple[float, float, float] = (0.0, 0.0, 0.0)
    texture: Path | None = None

    def __post_init__(self) -> None:
        _numbers(self.color, 4, "color", "four numbers (linear RGBA) in [0, 1]", 1.0)
        _numbers((self.roughness,), 1, "roughness", "a number in [0, 1]", 1.0)
        _numbers((self.metallic,), 1, "metallic", "a number in [0, 1]", 1.0)
        _numbers(self.emissive, 3, "emissive", "three numbers (linear RGB), 0 or more", math.inf)
        if self.texture is not None and not isinstance(self.texture, Path):
            raise TypeError(
                "Appearance texture must be a pathlib.Path or None, got "
                f"{type(self.texture).__name__}"
            )


def _numbers(values: object, count: int, field: str, expected: str, top: float) -> None:
    """Refuse anything but `count` finite numbers from 0 to `top` (one: `values` holds it)."""
    if (
        not isinstance(values, tuple | list)
        or len(values) != count
        or not all(
            isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v)
            for v in values
        )
        or not all(0.0 <= v <= top for v in values)
    ):
        shown = values[0] if count == 1 and isinstance(values, tuple) else values
        raise ValueError(f"Appearance {field} must be {expected}, got {shown!r}")
