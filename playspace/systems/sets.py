"""The named sets of the fixed step, in the order DESIGN.md's frame gives them.

Plugins put their systems in these sets rather than naming each other's systems, so the
tracking, rig, interaction and physics plugins can be added in any order. A game system that
must see this step's physics results goes in ``game``; one with no set runs in the order it was
added, subject to its own ``before``/``after``.
"""

from playspace.ecs import Phase, World

FIXED_SETS = (
    "physics_prepare",
    "tracking",
    "rig",
    "locomotion",
    "character",
    "separation",
    "slope",
    "grab",
    "throw",
    "layers",
    "physics_step",
    "physics_writeback",
    "game",
    "telemetry",
)


def add_fixed_sets(world: World) -> None:
    """Give the world the fixed-step sets (harmless when another plugin already did)."""
    world.schedule.add_sets(Phase.FIXED, *FIXED_SETS)
