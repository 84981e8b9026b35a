"""What the player can ask to see of the simulation's insides, as plain data."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(slots=True)
class PhysicsDebug:
    """A resource: whether the physics shapes and contacts are drawn over the scene (the
    preview's key and the command's option switch `shown`)."""

    shown: bool = False
