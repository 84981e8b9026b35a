"""A body that moves on its own along a path: a lift, a ferry, a sliding platform.

Plain data; :mod:`playspace.systems.physics.movers` moves it. The body is kinematic, so
physics drives it to its Transform each step and whatever stands on it rides along (the
player's body through ``ride_platforms``).
"""

from __future__ import annotations

from dataclasses import dataclass

from playspace.spatial import Vec3


@dataclass(slots=True)
class Mover:
    """Goes from `start` to `to` and back every `period` seconds, easing in and out at each
    end (half a cosine: no jolt when it sets off or stops), as a lift does. `elapsed` is the
    time it has been moving; a game sets it to put the mover elsewhere along its way."""

    start: Vec3
    to: Vec3
    period: float  # seconds, there and back
    elapsed: float = 0.0
