"""How dark the view's edges and the whole view should be this frame: vignette and fade.

The comfort vignette narrows the field of view while the player moves artificially (smooth
movement, smooth turning): optic flow at the edges of vision is what makes vection sickening,
and darkening it is the standard remedy (Fernandes and Feiner, "Combating VR sickness
through subtle dynamic field-of-view modification", 2016; Google Earth VR, XR Interaction
Toolkit's tunnelling vignette). Snap turns and teleports are not smooth motion and get none;
the fade (``Rig.fade``, from the separation policy and teleport's blink) covers those.

The rig flags smooth movement (``Rig.smooth_moving``); smooth turning is read off the origin's
heading, which turns a little every fixed step while the stick is held (a snap turn jumps by
far more in one step). The vignette eases in and out over `ramp` seconds, so it never pops.
This is the renderer's own state; it writes nothing into the world.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from playspace import spatial
from playspace.components import Transform
from playspace.components.rig import Rig
from playspace.ecs import World

_SNAP_JUMP = 0.15  # radians of heading in one fixed step: more is a snap turn, not smooth


@dataclass(slots=True)
class VignetteSettings:
    """The comfort vignette, which a game's options menu may change at any time.

    `strength` is how dark the edge gets at full vignette (0: off, 1: black); the darkening
    starts at `inner` and is full at `outer`, both in half screen heights from the centre of
    view (1 is the top edge of the picture). `turn_rate` (rad/s) is the slowest heading change
    counted as turning.
    """

    enabled: bool = True
    strength: float = 0.8
    inner: float = 0.6
    outer: float = 1.2
    ramp: float = 0.2
    turn_rate: float = 0.2

    def __post_init__(self) -> None:
        if not 0 <= self.strength <= 1:
            raise ValueError(f"vignette strength must be in [0, 1], got {self.strength!r}")
        if not 0 <= self.inner < self.outer:
            raise ValueError(
                f"vignette needs 0 <= inner < outer, got {self.inner!r}, {self.outer!r}"
            )
        if not (self.ramp >= 0 and self.turn_rate >= 0):
            raise ValueError("vignette ramp and turn rate must be >= 0")


class Comfort:
    """Tracks the vignette amount from frame to frame; :meth:`update` once a frame."""

    def __init__(self, settings: VignetteSettings | None = None) -> None:
        self.settings = settings or VignetteSettings()
        self.vignette = 0.0
        self.turning = False
        self._heading: float | None = None
        self._steps = 0
        self._elapsed: float | None = None

    def update(self, world: World) -> tuple[float, float]:
        """This frame's (vignette, fade), each 0..1."""
        rig = world.try_resource(Rig)
        if rig is None:
            return 0.0, 0.0
        self._watch_turning(world, rig)
        settings = self.settings
        moving = rig.smooth_moving or self.turning
        target = settings.strength if settings.enabled and moving else 0.0
        now = world.time.elapsed
        dt = 0.0 if self._elapsed is None else max(now - self._elapsed, 0.0)
        self._elapsed = now
        if not settings.enabled or settings.ramp <= 0:
            self.vignette = target
        else:
            step = dt / settings.ramp * max(settings.strength, 1e-9)
            self.vignette += max(-step, min(step, target - self.vignette))
        return self.vignette, min(max(rig.fade, 0.0), 1.0)

    def _watch_turning(self, world: World, rig: Rig) -> None:
        origin = world.try_get(rig.origin, Transform)
        if origin is None:
            return
        steps = world.fixed_time.step
        heading = spatial.yaw(origin.rotation)
        if self._heading is not None and steps > self._steps:
            turned = abs(math.remainder(heading - self._heading, math.tau)) / (steps - self._steps)
            rate = turned * world.fixed_time.hz
            self.turning = self.settings.turn_rate < rate and turned < _SNAP_JUMP
        self._heading, self._steps = heading, steps
