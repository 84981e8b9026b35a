"""Players joining and leaving a running world, at a fixed step's start (part of the
:class:`~playspace.systems.player.RigPlugin`).

A networked host learns of a player on its network thread, and a replay of a match learns of
them from the recording; both must add the player at the same fixed step for the replay to be
the match again. So neither touches the world then: each puts the player in the
:class:`Roster` (the host from the thread that steps the world, between steps), and
:func:`join_players`, the first thing of the fixed step's ``tracking`` set, spawns those
arriving and removes those leaving, before any player's input is read that step.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from playspace.components.input import InputSource
from playspace.components.rig import Rig
from playspace.components.scene import PlayerStart
from playspace.ecs import Phase, World, system
from playspace.systems.input.tracking import tracking_system
from playspace.systems.player.events import PlayerJoined, PlayerLeft
from playspace.systems.player.players import despawn_player, player_rig, spawn_player
from playspace.systems.sets import FixedSet


@dataclass(frozen=True, slots=True)
class Arrival:
    """A player to add: their input, where they start (None: the scene's start) and their
    name (the network's, or the recording's)."""

    source: InputSource
    start: PlayerStart | None = None
    name: str = ""


@dataclass(slots=True)
class Roster:
    """Who joins and who leaves at the next fixed step's start, and each present player's name
    by number; a resource."""

    arriving: list[Arrival] = field(default_factory=list)
    leaving: list[int] = field(default_factory=list)  # player numbers
    names: dict[int, str] = field(default_factory=dict)


@system(
    Phase.FIXED,
    in_set=FixedSet.TRACKING,
    before=(tracking_system,),
    reads=(Rig,),
    writes=(Roster, PlayerJoined, PlayerLeft),
)
def join_players(world: World) -> None:
    """Remove the players leaving, then spawn those arriving, in the order they came."""
    roster = world.resource(Roster)
    for number in roster.leaving:
        rig = player_rig(world, number)
        if rig is not None:
            despawn_player(world, rig)
            world.send(PlayerLeft(number, roster.names.pop(number, "")))
    roster.leaving.clear()
    for arrival in roster.arriving:
        rig = spawn_player(world, arrival.source, arrival.start)
        roster.names[rig.player] = arrival.name
        world.send(PlayerJoined(rig.player, arrival.name))
    roster.arriving.clear()


__all__ = ["Arrival", "Roster", "join_players"]
