"""The player's comfort choices that are not the rig's: how the vignette darkens smooth motion.

The world carries them (a resource), so an options menu in the game changes them in a fixed
step, like any other setting, and every display reads the same choice.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(slots=True)
class VignetteSettings:
    """The comfort vignette, a resource a game's options menu may change at any time (a
    renderer made without one in the world uses its own).

    `strength` is how dark the edge gets at full vignette (0: off, 1: black); the darkening
    starts at `inner` and is full at `outer`, both in half screen heights from the centre of
    view (1 is the top edge of the picture).
    """

    enabled: bool = True
    strength: float = 0.8
    inner: float = 0.6
    outer: float = 1.2
    ramp: float = 0.2

    def __post_init__(self) -> None:
        if not 0 <= self.strength <= 1:
            raise ValueError(f"vignette strength must be in [0, 1], got {self.strength!r}")
        if not 0 <= self.inner < self.outer:
            raise ValueError(
                f"vignette needs 0 <= inner < outer, got {self.inner!r}, {self.outer!r}"
            )
        if not self.ramp >= 0:
            raise ValueError(f"vignette ramp must be >= 0 seconds, got {self.ramp!r}")
