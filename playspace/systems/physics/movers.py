"""Moving kinematic bodies along their paths (:class:`~playspace.components.movers.Mover`).

Each fixed step, before the player moves and physics steps, a mover's Transform is put where its
path is at the step's time. That Transform is the one way a kinematic body is driven: the
physics step moves the body there (Rapier's next kinematic position, so what it pushes gets a
real velocity), and ``ride_platforms`` carries the player's body and view by the same motion.
The position is a function of the time, not a sum of small moves, so a lift does not drift
from its ends however long it runs.
"""

from __future__ import annotations

import math

from playspace.components import Transform
from playspace.components.movers import Mover
from playspace.ecs import Phase, World, system
from playspace.spatial import Vec3
from playspace.systems.sets import FixedSet, add_fixed_sets


def along(mover: Mover) -> Vec3:
    """Where `mover` is after `elapsed` seconds: at `start`, then `to` half a period later,
    and back, following half a cosine each way."""
    share = (1.0 - math.cos(2.0 * math.pi * mover.elapsed / mover.period)) / 2.0
    return mover.start + (mover.to - mover.start) * share


@system(Phase.FIXED, in_set=FixedSet.GAME_BEFORE_PHYSICS, reads=(Mover,), writes=(Mover, Transform))
def movers(world: World) -> None:
    """Advance every mover by a step and put its Transform where its path is then."""
    dt = world.fixed_time.dt
    for _, (mover, transform) in world.query(Mover, Transform):
        mover.elapsed += dt
        transform.position = along(mover)


class MoverPlugin:
    """Bodies with a :class:`Mover` move along their paths."""

    def build(self, world: World) -> None:
        add_fixed_sets(world)
        world.add_systems(movers)


__all__ = ["MoverPlugin", "along", "movers"]
