"""A frame of a world the inspector may have paused: a loop moves every world through here.

Paused, the world still runs its frame (input, LATE, drawing) with no fixed step, so the
player looks around, points at the inspector and edits what it shows; a single step asked
for runs exactly one fixed step, as ``World.step`` does. Unpaused it is ``World.advance``.
"""

from __future__ import annotations

from playspace.components.debug import Inspector
from playspace.ecs import World


def advance(world: World, seconds: float) -> int:
    """Run one frame of `seconds` as the inspector allows; the fixed steps it ran."""
    inspector = world.try_resource(Inspector)
    if inspector is None or not inspector.paused:
        return world.advance(seconds)
    if inspector.steps > 0:
        inspector.steps -= 1
        world.step(1)
        return 1
    return world.advance(0.0)
