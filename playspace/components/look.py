"""How an entity looks: a surface material in glTF's metallic-roughness terms.

Scene files say the same keys on any shape (``color``, ``texture``, ``roughness``,
``metallic``, ``emissive``) or name a material once in ``[materials]``; a game changes how an
entity looks by replacing its ``Look`` (``world.add_component(entity, Look(...))``). A ``Look``
is frozen, so a change is always a replacement, which the renderer sees as the world's
structure changing; editing fields in place would go unseen. An entity without one is drawn in
its kind's colour from the renderer's palette.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True, slots=True)
class Look:
    """A metallic-roughness surface, as glTF 2.0 defines one.

    `color` is the base colour, linear RGBA in [0, 1] (alpha below 1 is drawn opaque: the
    renderer has no sorted transparency); `texture` an image file multiplied into it, sampled
    with the mesh's uvs (a primitive's uvs span each face); `roughness` and `metallic` in
    [0, 1]; `emissive` linear RGB light the surface gives off whatever lights it.
    """

    color: tuple[float, float, float, float] = (0.8, 0.8, 0.8, 1.0)
    roughness: float = 0.8
    metallic: float = 0.0
    emissive: tuple[float, float, float] = (0.0, 0.0, 0.0)
    texture: Path | None = None
