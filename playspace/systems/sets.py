"""The named sets of the fixed step, in the order DESIGN.md's frame gives them.

Plugins put their systems in these sets rather than naming each other's systems, so the
tracking, rig, interaction and physics plugins can be added in any order. A game has two sets,
as Bevy's FixedPreUpdate and FixedUpdate: ``game_before_physics`` runs after tracking, before
the player moves and physics steps (steering its own bodies, spawning, reading this step's
input), and ``game`` runs after physics has written back (scoring, reacting to contacts and
hits). A fixed-step system added with neither a set nor a ``before``/``after`` lands in
``game``.
"""

from playspace.ecs import Phase, World

FIXED_SETS = (
    "physics_prepare",
    "tracking",
    "game_before_physics",
    "rig",
    "locomotion",
    "character",
    "separation",
    "slope",
    "placement",
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
    world.schedule.set_default_set(Phase.FIXED, "game")
