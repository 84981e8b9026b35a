"""The player: the rig's plugin, players joining and leaving, locomotion providers and the
movement plugins a scene can turn on."""

from playspace.systems.player import Arrival, RigPlugin, Roster, despawn_player
from playspace.systems.player.climb import ClimbPlugin
from playspace.systems.player.movement import CrouchPlugin, JumpPlugin, SprintPlugin
from playspace.systems.player.players import local_rig, on_origin, set_up_players, spawn_player
from playspace.systems.player.poses import horizontal
from playspace.systems.player.providers import add_provider, locomotion_provider
from playspace.systems.player.seated import SeatedPlugin, calibrate_seated

__all__ = [
    "Arrival",
    "ClimbPlugin",
    "CrouchPlugin",
    "JumpPlugin",
    "RigPlugin",
    "Roster",
    "SeatedPlugin",
    "SprintPlugin",
    "add_provider",
    "calibrate_seated",
    "despawn_player",
    "horizontal",
    "local_rig",
    "locomotion_provider",
    "on_origin",
    "set_up_players",
    "spawn_player",
]
