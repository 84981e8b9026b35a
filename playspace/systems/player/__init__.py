"""The player: the rig (origin, head, hands and body) and how it moves: room-scale following,
locomotion providers (smooth movement, teleport, turning), recentering, the separation fade
and dynamic slope quantization (DESIGN.md, "The rig").

Add :class:`RigPlugin` after the PhysicsPlugin, with the input source that drives the first
player (a replayed trace, a test script, the desktop simulator or OpenXR); more players join
with :func:`spawn_player` (:mod:`playspace.systems.player.players`). A game adds a way of
moving as a provider of its own (:mod:`playspace.systems.player.providers`).
"""

from __future__ import annotations

from playspace.components.drawn import DrawnView
from playspace.components.input import InputSource
from playspace.components.locomotion import Locomotion
from playspace.components.rig import RigSettings, SeparationPolicy, TurnMode
from playspace.components.scene import PlayerStart
from playspace.ecs import PluginError, World
from playspace.systems.input.placement import place_tracked
from playspace.systems.input.tracking import poll_input, tracking_system
from playspace.systems.physics import Physics
from playspace.systems.player.events import PLAYER_REQUESTS, RIG_EVENTS
from playspace.systems.player.follow import body_follow, separation, view_fade
from playspace.systems.player.locomotion import carry_origin, recenter, smooth_move, turning
from playspace.systems.player.looks import show_players
from playspace.systems.player.platforms import ride_platforms
from playspace.systems.player.players import (
    PlayerSetups,
    despawn_player,
    local_rig,
    set_up_players,
    spawn_player,
    spawn_rig,
)
from playspace.systems.player.providers import add_provider, locomotion_start
from playspace.systems.player.rescue import keep_in_world
from playspace.systems.player.roster import Arrival, Roster, join_players
from playspace.systems.player.slope import slope_quantization
from playspace.systems.player.teleport import teleport
from playspace.systems.sets import add_fixed_sets, add_late_sets


class RigPlugin:
    """The player's rig, driven by `source`; settings from `settings` and the scene's start."""

    def __init__(self, source: InputSource, settings: RigSettings | None = None) -> None:
        self.source = source
        self.settings = settings

    def build(self, world: World) -> None:
        if world.try_resource(Physics) is None:
            raise PluginError("RigPlugin needs the PhysicsPlugin: add it first")
        start = world.try_resource(PlayerStart) or world.insert_resource(PlayerStart())
        settings = self.settings or RigSettings(
            slope_quantization=start.slope_quantization,
            policy=SeparationPolicy(start.policy),
            turn_mode=TurnMode(start.turn),
        )
        world.insert_resource(settings)
        world.insert_resource(PlayerSetups())
        world.insert_resource(Roster())
        world.insert_resource(Locomotion())
        world.insert_resource(DrawnView())
        for kind in (*RIG_EVENTS, *PLAYER_REQUESTS):
            world.add_event(kind)
        add_fixed_sets(world)
        add_late_sets(world)
        world.add_systems(
            poll_input,
            join_players,
            tracking_system,
            body_follow,
            recenter,
            locomotion_start,
            ride_platforms,
            carry_origin,
            separation,
            keep_in_world,
            view_fade,
            slope_quantization,
            place_tracked,
            show_players,
        )
        for provider in (smooth_move, teleport, turning):
            add_provider(world, provider)
        spawn_player(world, self.source, start, local=True)


__all__ = [
    "Arrival",
    "RigPlugin",
    "Roster",
    "despawn_player",
    "local_rig",
    "set_up_players",
    "spawn_player",
    "spawn_rig",
]
