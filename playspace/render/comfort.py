"""How dark the view's edges and the whole view should be this frame: vignette and fade.

The comfort vignette narrows the field of view while the player moves artificially (smooth
movement, smooth turning): optic flow at the edges of vision is what makes vection sickening,
and darkening it is the standard remedy (Fernandes and Feiner, "Combating VR sickness
through subtle dynamic field-of-view modification", 2016; Google Earth VR, XR Interaction
Toolkit's tunnelling vignette). Snap turns and teleports are not smooth motion and get none;
the fade (from the separation policy and the blink of a teleport or a rescue) covers those.

Both come from the view LATE wrote (``DrawnView``): its fade, and whether a locomotion provider
carried the player continuously (smooth movement, smooth turning, a game's flying), so the
vignette needs no knowledge of any of them. It eases in and out over `ramp` seconds, so it
never pops. The
player's choice is the world's ``VignetteSettings`` resource when there is one (a menu changes
it), else the renderer's own. The amount is the renderer's own state; it writes nothing into
the world.
"""

from __future__ import annotations

from playspace.components.comfort import VignetteSettings
from playspace.components.drawn import DrawnView
from playspace.ecs import World


class Comfort:
    """Tracks the vignette amount from frame to frame; :meth:`update` once a frame.

    `settings` is used when the world has no ``VignetteSettings``; `used` is what the last
    update used, which the overlay draws with."""

    def __init__(self, settings: VignetteSettings | None = None) -> None:
        self.settings = settings or VignetteSettings()
        self.used = self.settings
        self.vignette = 0.0
        self._elapsed: float | None = None

    def update(self, world: World) -> tuple[float, float]:
        """This frame's (vignette, fade), each 0..1."""
        view = world.try_resource(DrawnView)
        if view is None:
            return 0.0, 0.0
        settings = self.used = world.try_resource(VignetteSettings) or self.settings
        target = settings.strength if settings.enabled and view.carried else 0.0
        now = world.time.elapsed
        dt = 0.0 if self._elapsed is None else max(now - self._elapsed, 0.0)
        self._elapsed = now
        if not settings.enabled or settings.ramp <= 0:
            self.vignette = target
        else:
            step = dt / settings.ramp * max(settings.strength, 1e-9)
            self.vignette += max(-step, min(step, target - self.vignette))
        return self.vignette, view.fade
