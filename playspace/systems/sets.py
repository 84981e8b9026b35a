"""The fixed step's sets, in the order DESIGN.md's frame gives them, and the LATE phase's.

Plugins put their systems in these sets rather than naming each other's systems, so the
tracking, rig, interaction and physics plugins can be added in any order, and a game orders its
own systems the same way. A game has two sets, as Bevy's FixedPreUpdate and FixedUpdate:
``GAME_BEFORE_PHYSICS`` runs after tracking, before the player moves and physics steps
(steering its own bodies, spawning, reading this step's input), and ``GAME`` runs after physics
has written back (scoring, reacting to contacts and hits). A fixed-step system added with
neither a set nor a ``before``/``after`` lands in ``GAME``. docs/systems.md lists what runs in
each.
"""

from enum import Enum

from playspace.ecs import Phase, World


class FixedSet(Enum):
    """The sets of the fixed step, in the order they run; each value is the set's name in
    docs and messages."""

    DESPAWNED = "despawned"  # what went is let go of: hands, sockets, pulls
    PHYSICS_PREPARE = "physics_prepare"  # components into the engine: bodies, edits, moves
    ARRIVALS = "arrivals"  # who joins or leaves this step: a host's seats, a replay's players
    TRACKING = "tracking"  # their rigs spawned and despawned; every player's input sampled
    GAME_BEFORE_PHYSICS = "game_before_physics"  # the game, before anything moves
    RIG = "rig"  # recentering, seated calibration; the body follows the head
    CORRECTION = "correction"  # a networked player's body put where the host has it
    LOCOMOTION = "locomotion"  # movement providers: turn, move, teleport, climb
    CHARACTER = "character"  # the body's move through the level (the character controller)
    CARRY = "carry"  # what that move carries: platforms ridden, the origin, a jump's flight
    SEPARATION = "separation"  # the head apart from the body: the fade, the rescue
    SLOPE = "slope"  # slope quantization: the view's floor
    PLACEMENT = "placement"  # the head and hands placed in the world through the origin
    GRAB = "grab"  # grab, hold, let go, sockets, interactables driven by the hands
    THROW = "throw"  # release velocities
    LAYERS = "layers"  # held-object collision layers and ghosts
    PHYSICS_STEP = "physics_step"  # Rapier's step
    PHYSICS_WRITEBACK = "physics_writeback"  # the engine's poses and contacts into components
    REPORT = "report"  # what physics did, said as events before the game reads them
    GAME = "game"  # the game, after physics: scores, hits, reactions
    TELEMETRY = "telemetry"  # what the step did, written down


FIXED_SETS = tuple(FixedSet)


def add_fixed_sets(world: World) -> None:
    """Give the world the fixed-step sets (harmless when another plugin already did)."""
    world.schedule.add_sets(Phase.FIXED, *FIXED_SETS)
    world.schedule.set_default_set(Phase.FIXED, FixedSet.GAME)


class LateSet(Enum):
    """The sets of the LATE phase, in the order they run: what is drawn placed for the display
    time, then how the features look (docs/rendering.md)."""

    PLACEMENT = "placement"  # bodies between steps, every player's head and hands: DrawnPoses
    REMOTE = "remote"  # a networked client's view of the host: its bodies, other players
    VIEW = "view"  # the player's: the view drawn from, its fade and vignette, figures, aims
    HANDS = "hands"  # the hands': what they would grab, ghosts, sockets' zones
    SOUND = "sound"  # what is heard: the listener at the drawn head, sounds where drawn


LATE_SETS = tuple(LateSet)


def add_late_sets(world: World) -> None:
    """Give the world the LATE phase's sets (harmless when another plugin already did)."""
    world.schedule.add_sets(Phase.LATE, *LATE_SETS)
