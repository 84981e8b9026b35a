"""Text a game shows: lines on the screen (a score) and labels floating over entities.

The renderer's text pass (:mod:`playspace.render.text`) draws both. Screen text is
head-locked: it sits at the top left of every view (the preview, captures, each eye of a
headset), so it stays put when the player turns. A label is in the world, a little above its
entity, turned to face whoever looks at it and kept upright.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from playspace.components.renamed import renamed_fields

RGBA = tuple[float, float, float, float]
WHITE: RGBA = (1.0, 1.0, 1.0, 1.0)


def _check(where: str, height: float, color: RGBA) -> None:
    if not (isinstance(height, int | float) and math.isfinite(height) and height > 0):
        raise ValueError(f"{where}: height must be a finite number of metres > 0, got {height!r}")
    if len(color) != 4 or not all(
        isinstance(c, int | float) and math.isfinite(c) and 0 <= c <= 1 for c in color
    ):
        raise ValueError(f"{where}: color must be (r, g, b, a) in [0, 1], got {color!r}")


@renamed_fields(colour="color")
@dataclass(slots=True)
class ScreenText:
    """A resource: the `lines` shown at the top left of every view, in `color`.

    `height` is the height of one line as a tangent of the angle it covers (0.05 is about
    3 degrees, some 27 pixels in a 720p preview): text keeps its apparent size on any display.
    """

    lines: list[str] = field(default_factory=list)
    color: RGBA = WHITE
    height: float = 0.05

    def __post_init__(self) -> None:
        _check("ScreenText", self.height, self.color)


@renamed_fields(colour="color")
@dataclass(slots=True)
class Label:
    """Text over an entity: `offset` metres above its origin (straight up in the world, so it
    does not tumble with the entity), lines `height` metres tall, in `color`; on a dark
    plate so it reads over anything. A ``\\n`` in `text` starts a new line; an empty text
    draws nothing."""

    text: str
    offset: float = 0.3
    height: float = 0.08
    color: RGBA = WHITE

    def __post_init__(self) -> None:
        _check(f"Label {self.text!r}", self.height, self.color)
