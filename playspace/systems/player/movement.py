"""Jump, sprint and crouch: the movement providers of Godot XR Tools (``movement_jump``,
``movement_sprint``, ``movement_crouch``), each a plugin a game adds from code.

None is on by default: as XR Tools makes each a node the developer adds to a controller, a
game adds :class:`JumpPlugin`, :class:`SprintPlugin` or :class:`CrouchPlugin` after the rig.
Each puts its settings (a resource the game may change) and state in the world and adds a
locomotion provider (:mod:`playspace.systems.player.providers`), so it takes its place in the
order and can be switched off like the built-in ones.

- **Jump** (A on the right controller): a body standing on walkable ground leaves it at the
  settings' speed; gravity brings it down (the character controller's vertical move) and it
  lands. A press in the air does nothing, and holding the button does not jump again on
  landing. The view rides the arc: the origin keeps the height above the feet it had at
  take-off, as the player chose to jump and expects to see what they jumped for. No floor snap
  is made in the air (the body is not grounded), none on landing (the view came down with the
  body), and one jumped onto a ledge has the view already on the ledge: a jump is not a
  roller coaster the player did not ask for, which is what slope quantization is against.
- **Sprint** (hold the left stick's click): smooth movement goes at twice its speed.
- **Crouch** (click the right stick): the view goes down by 0.6 m and the capsule is 0.6 m
  shorter, so a player standing in a small room fits under what the body could not enter
  standing; another click stands up, unless the standing body would not fit there.
"""

from __future__ import annotations

from playspace import spatial
from playspace.components import DeviceRole, Transform
from playspace.components.input import Button
from playspace.components.locomotion import (
    CrouchSettings,
    CrouchState,
    JumpSettings,
    JumpState,
    SprintSettings,
    SprintState,
)
from playspace.components.physics import Capsule, CharacterBody, CharacterMotion
from playspace.components.rig import Crouch, MoveState, Rig, RigSettings, Seated
from playspace.components.tracking import HandControls, TrackedDevice
from playspace.ecs import Phase, PluginError, World, system
from playspace.systems.physics import Layers, Physics
from playspace.systems.player.events import (
    Crouched,
    FloorSnapRequested,
    Jumped,
    Landed,
    SprintEnded,
    SprintStarted,
    StandRefused,
    StoodUp,
)
from playspace.systems.player.follow import body_layers
from playspace.systems.player.locomotion import carry_origin
from playspace.systems.player.players import on_origin, set_up_players
from playspace.systems.player.poses import hand_entity
from playspace.systems.player.providers import add_provider, locomotion_provider
from playspace.systems.sets import FixedSet

CROUCH_ORDER = 2  # first: the capsule it asks for is the one the step's moves are made with
SPRINT_ORDER = 4  # before walking (5), which reads the speed it sets
JUMP_ORDER = 20  # Godot XR Tools' order, after turning (15)
FALL = 0.1  # seconds in the air before coming down is a landing, not a stair's edge
HEADROOM = 0.02  # metres kept above a standing capsule when checking it fits


def _buttons(world: World, rig: Rig, role: DeviceRole) -> frozenset[Button]:
    """The buttons held on the player's hand `role`."""
    return world.get(hand_entity(rig, role), HandControls).buttons


def _check(plugin: str, role: DeviceRole, amount: float, what: str) -> None:
    """Refuse settings that could not work, naming the plugin and the setting."""
    if role not in (DeviceRole.LEFT_HAND, DeviceRole.RIGHT_HAND):
        raise PluginError(f"{plugin}: hand must be left_hand or right_hand, got {role}")
    if not amount > 0.0 or amount == float("inf"):
        raise PluginError(f"{plugin}: {what} must be a positive number, got {amount!r}")


@locomotion_provider(
    JUMP_ORDER,
    reads=(Rig, HandControls, JumpSettings, Transform),
    writes=(JumpState, CharacterMotion, Jumped),
)
def jump(world: World, rig: Rig, disabled: bool) -> bool:
    """Launch the body upward on a fresh press of the button, when it stands on the ground."""
    settings, state = world.resource(JumpSettings), world.get(rig.origin, JumpState)
    pressed = settings.button in _buttons(world, rig, settings.hand)
    fresh, state.armed = pressed and state.armed, not pressed
    motion = world.get(rig.body, CharacterMotion)
    if disabled or not fresh or state.jumping or not motion.grounded:
        return False
    feet = world.get(rig.body, Transform).position.y
    motion.vertical_speed = settings.speed
    state.jumping, state.airtime = True, 0.0
    state.lag = world.get(rig.origin, Transform).position.y - feet
    world.send(Jumped(settings.speed, rig.player))
    return True


@system(
    Phase.FIXED,
    in_set=FixedSet.CARRY,
    after=(carry_origin,),
    reads=(Rig, CharacterMotion),
    writes=(JumpState, Transform, Landed),
)
def jump_flight(world: World) -> None:
    """Carry each player's view along a jump's arc by the body's vertical travel; say when it
    lands."""
    for _, (rig, state) in world.query(Rig, JumpState):
        _fly(world, rig, state)


def _fly(world: World, rig: Rig, state: JumpState) -> None:
    """One player's jump or fall, this step."""
    motion = world.get(rig.body, CharacterMotion)
    if state.jumping or state.settling:
        origin = world.get(rig.origin, Transform)
        origin.position.y = world.get(rig.body, Transform).position.y + state.lag
    state.settling = False
    if not motion.grounded:
        state.airtime += world.fixed_time.dt
        state.falling = -motion.vertical_speed
        return
    if state.jumping or state.airtime >= FALL:
        world.send(Landed(state.airtime, state.falling, rig.player))
    state.settling = state.jumping
    state.jumping, state.airtime, state.falling = False, 0.0, 0.0


@locomotion_provider(
    SPRINT_ORDER,
    reads=(Rig, HandControls, SprintSettings),
    writes=(SprintState, MoveState, SprintStarted, SprintEnded),
)
def sprint(world: World, rig: Rig, disabled: bool) -> bool:
    """Scale smooth movement's speed while the button is held (or, toggling, after a click)."""
    settings, state = world.resource(SprintSettings), world.get(rig.origin, SprintState)
    pressed = settings.button in _buttons(world, rig, settings.hand)
    was = state.sprinting
    if settings.toggle:
        state.sprinting = state.sprinting != (pressed and not state.held)
    else:
        state.sprinting = pressed
    state.held = pressed
    state.sprinting = state.sprinting and not disabled
    if state.sprinting != was:
        world.send(SprintStarted(rig.player) if state.sprinting else SprintEnded(rig.player))
    if state.sprinting:
        world.get(rig.origin, MoveState).speed_scale *= settings.multiplier
    return state.sprinting


@locomotion_provider(
    CROUCH_ORDER,
    reads=(
        Rig,
        HandControls,
        RigSettings,
        CrouchSettings,
        TrackedDevice,
        CharacterBody,
        Physics,
        Layers,
        Transform,
        Seated,
    ),
    writes=(CrouchState, Crouch, FloorSnapRequested, Crouched, StoodUp, StandRefused),
)
def crouch(world: World, rig: Rig, disabled: bool) -> bool:
    """Crouch or stand up on a click; the view's floor moves at once (a floor snap)."""
    settings, state = world.resource(CrouchSettings), world.get(rig.origin, CrouchState)
    pressed = settings.button in _buttons(world, rig, settings.hand)
    fresh, state.held = pressed and not state.held, pressed
    if disabled or not fresh:
        return False
    crouched = world.get(rig.origin, Crouch)
    if crouched.lowered == 0.0:
        crouched.lowered = settings.lowered
        world.send(Crouched(settings.lowered, rig.player))
    elif _room_to_stand(world, rig):
        crouched.lowered = 0.0
        world.send(StoodUp(rig.player))
    else:
        world.send(StandRefused(rig.player))
        return False
    world.send(FloorSnapRequested(player=rig.player))
    return True


def _room_to_stand(world: World, rig: Rig) -> bool:
    """Whether the body at its height standing would fit where it is."""
    settings = world.resource(RigSettings)
    head = world.get(rig.head, TrackedDevice).pose.position.y + world.get(rig.origin, Seated).raised
    body = world.get(rig.body, CharacterBody)
    height = max(settings.crouch_min_height, head + settings.height_margin, 2 * body.radius)
    feet = world.get(rig.body, Transform).position
    centre = feet + spatial.vec3(0.0, height / 2 + HEADROOM, 0.0)
    solid = body_layers(world.resource(Layers))
    shape = Capsule(body.radius, height)
    return not world.resource(Physics).overlap(shape, centre, spatial.identity(), solid, rig.body)


class JumpPlugin:
    """Jumping (after the rig): on the settings' button, off the ground only."""

    def __init__(self, settings: JumpSettings | None = None) -> None:
        self.settings = settings or JumpSettings()

    def build(self, world: World) -> None:
        _check("JumpPlugin", self.settings.hand, self.settings.speed, "speed")
        add_provider(world, jump)
        world.insert_resource(self.settings)
        set_up_players(world, on_origin(JumpState))
        for kind in (Jumped, Landed):
            world.add_event(kind)
        world.add_systems(jump_flight)


class SprintPlugin:
    """Sprinting (after the rig): smooth movement at the settings' multiple while it lasts."""

    def __init__(self, settings: SprintSettings | None = None) -> None:
        self.settings = settings or SprintSettings()

    def build(self, world: World) -> None:
        _check("SprintPlugin", self.settings.hand, self.settings.multiplier, "multiplier")
        add_provider(world, sprint)
        world.insert_resource(self.settings)
        set_up_players(world, on_origin(SprintState))
        for kind in (SprintStarted, SprintEnded):
            world.add_event(kind)


class CrouchPlugin:
    """A crouch toggle (after the rig): the view lower and the capsule shorter."""

    def __init__(self, settings: CrouchSettings | None = None) -> None:
        self.settings = settings or CrouchSettings()

    def build(self, world: World) -> None:
        _check("CrouchPlugin", self.settings.hand, self.settings.lowered, "lowered")
        add_provider(world, crouch)
        world.insert_resource(self.settings)
        set_up_players(world, on_origin(CrouchState))
        for kind in (Crouched, StoodUp, StandRefused):
            world.add_event(kind)


__all__ = ["CrouchPlugin", "JumpPlugin", "SprintPlugin", "crouch", "jump", "sprint"]
