"""The player: the rig (origin, head, hands and body) and how it moves: room-scale following,
locomotion providers (smooth movement, teleport, turning), recentering, the separation fade
and dynamic slope quantization (DESIGN.md, "The rig").

Add :class:`RigPlugin` after the PhysicsPlugin, with the input source that drives it (a replayed
trace, a test script, the desktop simulator or OpenXR). A game adds a way of moving as a
provider of its own (:mod:`playspace.systems.player.providers`).
"""

from __future__ import annotations

from playspace import spatial
from playspace.components import DeviceRole, TrackedDevice, Transform
from playspace.components.locomotion import Locomotion
from playspace.components.physics import CharacterBody, CharacterMotion
from playspace.components.rig import (
    Crouch,
    MoveState,
    Origin,
    OriginMotion,
    PlayerBody,
    Rig,
    RigSettings,
    Seated,
    Separation,
    SeparationPolicy,
    TeleportAim,
    TurnMode,
    TurnState,
    ViewFade,
)
from playspace.components.scene import PlayerStart
from playspace.components.tracking import HandControls
from playspace.ecs import PluginError, World
from playspace.systems.input import InputSource
from playspace.systems.physics import Physics
from playspace.systems.player.events import PLAYER_REQUESTS, RIG_EVENTS, FloorSnapRequested
from playspace.systems.player.follow import body_follow, separation, view_fade
from playspace.systems.player.locomotion import carry_origin, recenter, smooth_move, turning
from playspace.systems.player.platforms import ride_platforms
from playspace.systems.player.providers import add_provider, locomotion_start
from playspace.systems.player.rescue import SafeGround, keep_in_world
from playspace.systems.player.slope import place_tracked, slope_quantization
from playspace.systems.player.teleport import teleport
from playspace.systems.sets import add_fixed_sets
from playspace.systems.tracking import InputState, poll_input, tracking_system


def spawn_rig(world: World, start: PlayerStart, settings: RigSettings) -> Rig:
    """Spawn the origin where the player starts, the tracked devices and the body."""
    facing = spatial.yaw_rotation(start.yaw)
    origin = world.spawn(
        Transform(position=spatial.Vec3(start.position), rotation=facing),
        Origin(),
        OriginMotion(),
        TeleportAim(),
        TurnState(),
        MoveState(),
        Crouch(),
        Seated(),
    )
    head, left_hand, right_hand = (
        world.spawn(TrackedDevice(role), Transform(position=spatial.Vec3(start.position)))
        for role in (DeviceRole.HEAD, DeviceRole.LEFT_HAND, DeviceRole.RIGHT_HAND)
    )
    world.add(head, ViewFade())
    world.add(left_hand, HandControls())
    world.add(right_hand, HandControls())
    body = world.spawn(
        Transform(position=spatial.Vec3(start.position), rotation=facing),
        CharacterBody(radius=settings.body_radius),
        CharacterMotion(grounded=True),
        PlayerBody(),
        Separation(),
    )
    return Rig(origin, head, left_hand, right_hand, body)


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
        world.insert_resource(InputState(self.source))
        world.insert_resource(spawn_rig(world, start, settings))
        world.insert_resource(SafeGround())
        world.insert_resource(Locomotion())
        for kind in (*RIG_EVENTS, *PLAYER_REQUESTS):
            world.add_event(kind)
        add_fixed_sets(world)
        world.add_systems(
            poll_input,
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
        )
        for provider in (smooth_move, teleport, turning):
            add_provider(world, provider)
        world.send(FloorSnapRequested())  # the view starts on the body's floor


__all__ = ["RigPlugin", "spawn_rig"]
