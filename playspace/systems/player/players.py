"""Players: each a rig (origin, head, hands, body) driven by an input source of its own.

A world holds one player per person in it. Most hold one: the player this process shows, whose
origin carries the `LocalPlayer` marker (what is drawn from the eyes of, and what the
telemetry's head and hands follow: :func:`local_rig` finds them). The host of a networked match
holds one per client. Each player's origin carries its own `Rig` and `InputState`, and every
player system runs for each player, from that player's own input, with that player's own
state: two players in one world never move each other except through physics.

A plugin that gives every player something (the grab gives the hands their `Hand`, the jump
gives the origin its `JumpState`) says so once with :func:`set_up_players`; the setup is put
on every player there is and on every one who joins later, so a plugin does not care whether
it was added before or after a player joined.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from playspace import spatial
from playspace.components import DeviceRole, TrackedDevice, Transform
from playspace.components.drawn import Figure, Markers, Model
from playspace.components.input import InputSource, InputState
from playspace.components.physics import CharacterBody, CharacterMotion
from playspace.components.rig import (
    Crouch,
    LocalPlayer,
    MoveState,
    Origin,
    OriginMotion,
    PlayerBody,
    Rig,
    RigSettings,
    SafeGround,
    Seated,
    Separation,
    TeleportAim,
    TurnState,
    ViewFade,
)
from playspace.components.scene import PlayerStart
from playspace.components.tracking import HandControls
from playspace.ecs import PluginError, World
from playspace.systems.player.events import FloorSnapRequested

PlayerSetup = Callable[[World, Rig], None]


@dataclass(slots=True)
class PlayerSetups:
    """What every player is given besides the rig itself, in the order the plugins asked; a
    resource."""

    setups: list[PlayerSetup] = field(default_factory=list)


def set_up_players(world: World, setup: PlayerSetup) -> None:
    """Give `setup` to every player in the world now and to every player who joins later."""
    setups = world.try_resource(PlayerSetups)
    if setups is None:
        raise PluginError("giving players something needs the player's plugin: add it first")
    setups.setups.append(setup)
    for _, rig in world.each(Rig):
        setup(world, rig)


def on_origin(make: Callable[[], object]) -> PlayerSetup:
    """An setup putting a fresh ``make()`` on each player's origin (a provider's state)."""

    def setup(world: World, rig: Rig) -> None:
        world.add(rig.origin, make())

    return setup


def spawn_rig(world: World, start: PlayerStart, settings: RigSettings, player: int = 0) -> Rig:
    """Spawn the origin where the player starts, the tracked devices and the body; the head
    and the controllers are drawn as the renderer's models (the controllers once tracked)."""
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
        Markers(),
    )
    head, left_hand, right_hand = (
        world.spawn(TrackedDevice(role), Transform(position=spatial.Vec3(start.position)), look)
        for role, look in (
            (DeviceRole.HEAD, Figure(Model.HEAD)),
            (DeviceRole.LEFT_HAND, Figure(Model.LEFT_CONTROLLER, shown=False)),
            (DeviceRole.RIGHT_HAND, Figure(Model.RIGHT_CONTROLLER, shown=False)),
        )
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
        SafeGround(),
    )
    return Rig(origin, head, left_hand, right_hand, body, player)


def spawn_player(
    world: World, source: InputSource, start: PlayerStart | None = None, *, local: bool = False
) -> Rig:
    """Add a player driven by `source`, standing at `start` (the scene's start if None), with
    every setup the world's plugins give players; its number follows the highest there is.
    With `local`, it is the player this process shows (``LocalPlayer``; one a world)."""
    if world.try_resource(PlayerSetups) is None:
        raise PluginError("spawn_player needs the player's plugin (RigPlugin): add it first")
    if local and local_rig(world) is not None:
        raise PluginError("this world already has the player this process shows (LocalPlayer)")
    numbers = [rig.player for _, rig in world.each(Rig)]
    start = start or world.resource(PlayerStart)
    rig = spawn_rig(world, start, world.resource(RigSettings), max(numbers, default=-1) + 1)
    world.add(rig.origin, rig, InputState(source))
    if local:
        world.add(rig.origin, LocalPlayer())
    for setup in world.resource(PlayerSetups).setups:
        setup(world, rig)
    world.send(FloorSnapRequested(player=rig.player))  # the view starts on the body's floor
    return rig


def local_rig(world: World) -> Rig | None:
    """The rig of the player this process shows (``LocalPlayer``); None in a world without."""
    found = world.query(Rig, LocalPlayer)
    return found[0][1][0] if found else None


def player_rig(world: World, number: int) -> Rig | None:
    """The rig of player `number` (``Rig.player``); None when no such player is in the world."""
    return next((rig for _, rig in world.each(Rig) if rig.player == number), None)


def despawn_player(world: World, rig: Rig) -> None:
    """Remove a player who left (not the one this process shows: ``LocalPlayer``)."""
    if world.has(rig.origin, LocalPlayer):
        raise PluginError(f"player {rig.player} is this process's own and cannot leave")
    for entity in (rig.head, rig.left_hand, rig.right_hand, rig.body, rig.origin):
        world.despawn(entity)


__all__ = [
    "PlayerSetups",
    "despawn_player",
    "local_rig",
    "on_origin",
    "player_rig",
    "set_up_players",
    "spawn_player",
    "spawn_rig",
]
