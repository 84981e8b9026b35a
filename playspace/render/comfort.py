"""How dark the view's edges and the whole view should be this frame: vignette and fade.

The comfort vignette narrows the field of view while the player moves artificially (smooth
movement, smooth turning): optic flow at the edges of vision is what makes vection sickening,
and darkening it is the standard remedy (Fernandes and Feiner, "Combating VR sickness
through subtle dynamic field-of-view modification", 2016; Google Earth VR, XR Interaction
Toolkit's tunnelling vignette). Snap turns and teleports are not smooth motion and get none;
the fade (the head's ``ViewFade``, from the separation policy and the blink of a teleport or a
rescue) covers those.

Every locomotion provider that carries the player continuously (smooth movement, smooth
turning, a game's flying) says so in the origin's ``OriginMotion``, so the vignette needs no
knowledge of any of them. It eases in and out over `ramp` seconds, so it never pops. This is
the renderer's own state; it writes nothing into the world.
"""

from __future__ import annotations

from dataclasses import dataclass

from playspace.components.rig import OriginMotion, Rig, ViewFade
from playspace.ecs import World


@dataclass(slots=True)
class VignetteSettings:
    """The comfort vignette, which a game's options menu may change at any time.

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


class Comfort:
    """Tracks the vignette amount from frame to frame; :meth:`update` once a frame."""

    def __init__(self, settings: VignetteSettings | None = None) -> None:
        self.settings = settings or VignetteSettings()
        self.vignette = 0.0
        self._elapsed: float | None = None

    def update(self, world: World) -> tuple[float, float]:
        """This frame's (vignette, fade), each 0..1."""
        rig = world.try_resource(Rig)
        if rig is None:
            return 0.0, 0.0
        settings = self.settings
        carried = world.try_get(rig.origin, OriginMotion)
        moving = carried is not None and carried.continuous
        target = settings.strength if settings.enabled and moving else 0.0
        now = world.time.elapsed
        dt = 0.0 if self._elapsed is None else max(now - self._elapsed, 0.0)
        self._elapsed = now
        if not settings.enabled or settings.ramp <= 0:
            self.vignette = target
        else:
            step = dt / settings.ramp * max(settings.strength, 1e-9)
            self.vignette += max(-step, min(step, target - self.vignette))
        fade = world.try_get(rig.head, ViewFade)
        return self.vignette, 0.0 if fade is None else min(max(fade.amount, 0.0), 1.0)
