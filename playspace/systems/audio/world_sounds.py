"""The sounds the world makes by itself: what its bodies and its players do, heard without a
game asking.

An impact (physics' :class:`~playspace.systems.physics.events.Impact`: a contact's force rose
past three times the moving body's weight) plays the struck body's material from where it is
drawn, louder for a harder knock: the knock's change of speed (its impulse over the body's
mass), full at 4 m/s, and a little lower in pitch the harder it is, as a bigger blow rings
lower. A held object ghosting inside a wall touches nothing (the held layer collides with no
scenery), so it makes no sound there.

What the hands and the player do sounds as VR players expect it to, each from where it
happens: a grab's click and a let-go's, a throw's whoosh (louder and higher the faster the
throw, from 2 m/s), a socket's latch (taking an object, or calling one back), a button's press
and release, a lever falling into a detent, a dial's step, a teleport's shimmer and a snap
turn's whisk (into both ears: they happen to the listener), footsteps every 0.7 m a body
walks on the ground, a door, drawer or lever thudding at the end of its travel, and a drawer
running on its rails as it is pulled.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from playspace.components import Transform
from playspace.components.audio import PlaySound, SurfaceSound
from playspace.components.haptics import HapticPulse, HapticQueue
from playspace.components.interaction import Hand, Holding
from playspace.components.joints import Joint, JointKind
from playspace.components.physics import BodyKind, RigidBody
from playspace.components.rig import LocalPlayer, Rig
from playspace.ecs import Phase, World, any_with, system
from playspace.spatial import vec3
from playspace.systems.audio.placing import drawn_at
from playspace.systems.interaction.events import (
    ButtonPressed,
    ButtonReleased,
    DialTurned,
    Grabbed,
    LetGo,
    LeverMoved,
    Released,
    Returned,
    Socketed,
)
from playspace.systems.physics.events import Impact
from playspace.systems.player.events import Teleported, Turned
from playspace.systems.sets import LateSet

FULL_SPEED = 4.0  # m/s of a knock's change of speed that sounds at full volume
QUIETEST = 0.02  # a knock softer than this (of full) is not heard at all
MASS_UNKNOWN = 1.0  # kg: a body whose mass comes from its density
WHOOSH_FROM = 2.0  # m/s: a slower let-go is a drop, not a throw
WHOOSH_FULL = 10.0  # m/s: a throw this fast whooshes at full volume
SNAP_TURN = 0.17  # rad (about 10 degrees): a smaller turn is smooth turning, and silent
STRIDE = 0.7  # metres a body walks between footsteps
FEET = 1.6  # metres below the head: where footsteps sound from
LIMIT_SPEED = 0.2  # rad/s or m/s: slower into a limit is a touch, not a thud
LIMIT_FULL = 3.0  # and this fast, a full thud
LIMIT_NEAR = 0.01  # rad or m: at a limit
SLIDE_SPEED = 0.08  # m/s: a slider this fast is running on its rails
SLIDE_FULL = 0.6
SETTLING = 0.05  # s: the world's first steps are its set-up (tools put in their sockets,
# props come to rest where the scene placed them), not something that happened: unheard
# An event, the field naming the entity it sounds from, the sound, its volume.
WHERE_THEY_HAPPEN: tuple[tuple[type[object], str, str, float], ...] = (
    (Grabbed, "object", "grab", 0.6),
    (Socketed, "socket", "socket_snap", 0.8),
    (Returned, "socket", "socket_snap", 0.6),
    (ButtonPressed, "button", "button_press", 0.8),
    (ButtonReleased, "button", "button_release", 0.6),
    (LeverMoved, "lever", "lever_detent", 0.9),
    (DialTurned, "dial", "dial_tick", 0.7),
)
HEARD_EVENTS = (
    Impact, Grabbed, LetGo, Released, Socketed, Returned,
    ButtonPressed, ButtonReleased, LeverMoved, DialTurned, Teleported, Turned,
)  # fmt: skip


def material_of(world: World, entity: int) -> str:
    """What `entity` sounds like: its SurfaceSound, else wood when it moves, stone when not."""
    given = world.try_get(entity, SurfaceSound)
    if given is not None:
        return given.material
    body = world.try_get(entity, RigidBody)
    return "wood" if body is not None and body.kind is BodyKind.DYNAMIC else "stone"


@system(
    Phase.LATE,
    in_set=LateSet.SOUND,
    reads=(Impact, SurfaceSound, RigidBody, Hand, Holding, Rig, LocalPlayer),
    writes=(PlaySound, HapticQueue),
)
def impact_sounds(world: World) -> None:
    """A knock for every impact this frame, from the moving body, and felt in the hands of
    this process's player that hold either body, as strong as it sounds."""
    impacts = world.read_events(Impact, reader=impact_sounds)
    if _settling(world):
        return
    for impact in impacts:
        body = world.try_get(impact.a, RigidBody)
        mass = body.mass if body is not None and body.mass else MASS_UNKNOWN
        strength = min(1.0, impact.impulse / mass / FULL_SPEED)
        at = drawn_at(world, impact.a)
        if strength < QUIETEST or at is None:
            continue
        world.send(
            PlaySound(
                f"impact_{material_of(world, impact.a)}",
                at=vec3(*at),
                volume=strength,
                pitch=1.1 - 0.2 * strength,
            )
        )
        _felt(world, (impact.a, impact.b), strength)


def _felt(world: World, struck: tuple[int, ...], strength: float) -> None:
    """A knock in the local hands holding one of `struck`: 0.3 to 1 of the controller's
    strength, 20 to 80 ms, with the knock's (a controller's own pulse is a buzz, not a
    sound, so the two are matched in strength and length)."""
    queue = world.try_resource(HapticQueue)
    if queue is None:
        return
    local = {rig.player for _, (rig, _) in world.query(Rig, LocalPlayer)}
    for _, (hand, holding) in world.query(Hand, Holding):
        if holding.object in struck and hand.player in local:
            queue.send(HapticPulse(hand.side, 0.3 + 0.7 * strength, 0.02 + 0.06 * strength))


def _settling(world: World) -> bool:
    """Whether the world is still in its first moments (:data:`SETTLING`)."""
    return world.time.elapsed < SETTLING


def _at(world: World, entity: int, clip: str, volume: float = 1.0, pitch: float = 1.0) -> None:
    """Play `clip` from where `entity` is drawn (nowhere, when it has no place)."""
    at = drawn_at(world, entity)
    if at is not None:
        world.send(PlaySound(clip, at=vec3(*at), volume=volume, pitch=pitch))


@system(
    Phase.LATE,
    in_set=LateSet.SOUND,
    reads=(
        Grabbed, LetGo, Released, Socketed, Returned, ButtonPressed, ButtonReleased,
        LeverMoved, DialTurned, Teleported, Turned,
    ),
    writes=(PlaySound,),
)  # fmt: skip
def interaction_sounds(world: World) -> None:
    """The hands' and the player's sounds for this frame's events."""
    reader = interaction_sounds
    if _settling(world):
        for unheard in HEARD_EVENTS:
            world.read_events(unheard, reader)
        return
    for kind, where, clip, volume in WHERE_THEY_HAPPEN:
        for event in world.read_events(kind, reader):
            _at(world, getattr(event, where), clip, volume)
    thrown = set()
    for released in world.read_events(Released, reader):
        speed = float(sum(c * c for c in released.linear) ** 0.5)
        if speed >= WHOOSH_FROM:
            thrown.add(released.object)
            loud = min(1.0, speed / WHOOSH_FULL)
            _at(world, released.object, "whoosh", loud, 0.9 + 0.3 * loud)
    for let_go in world.read_events(LetGo, reader):
        if let_go.object not in thrown:
            _at(world, let_go.object, "release", 0.5)
    for _ in world.read_events(Teleported, reader):
        world.send(PlaySound("teleport", volume=0.5))
    for turned in world.read_events(Turned, reader):
        if abs(turned.angle) >= SNAP_TURN:
            world.send(PlaySound("snap_turn", volume=0.4))


@system(Phase.LATE, in_set=LateSet.SOUND, reads=(Rig, Transform), writes=(PlaySound,))
def footsteps(world: World) -> None:
    """A footstep each stride a player's body walks over the ground (falls are not steps)."""
    walked = world.resource(Strides)
    for _, rig in world.each(Rig):
        body = world.try_get(rig.body, Transform)
        if body is None:
            continue
        p = body.position
        last = walked.last.get(rig.body)
        walked.last[rig.body] = (p.x, p.y, p.z)
        if last is None:
            continue
        dx, dy, dz = p.x - last[0], p.y - last[1], p.z - last[2]
        step = (dx * dx + dz * dz) ** 0.5
        if abs(dy) > step:  # falling or jumping: not walking
            continue
        gone = walked.distance.get(rig.body, 0.0) + step
        if gone >= STRIDE:
            gone -= STRIDE
            world.send(PlaySound("footstep", at=vec3(p.x, p.y, p.z), volume=0.4))
        walked.distance[rig.body] = min(gone, STRIDE)


@system(
    Phase.LATE, in_set=LateSet.SOUND, run_if=any_with(Joint), reads=(Joint,), writes=(PlaySound,)
)
def joint_sounds(world: World) -> None:
    """A door, a drawer or a lever meeting the end of its travel thuds, louder the faster it
    came; a slider set moving from rest (a drawer pulled) runs on its rails."""
    moved = world.resource(JointMotion)
    for entity, joint in world.each(Joint):
        last = moved.last.get(entity)
        moved.last[entity] = (joint.position, joint.velocity)
        if last is None:
            continue
        speed = abs(last[1])
        if joint.limits is not None and speed >= LIMIT_SPEED:
            low, high = joint.limits
            reached = min(abs(joint.position - low), abs(joint.position - high)) < LIMIT_NEAR
            was_there = min(abs(last[0] - low), abs(last[0] - high)) < LIMIT_NEAR
            if reached and not was_there:
                _at(world, entity, "joint_limit", min(1.0, speed / LIMIT_FULL))
        if (
            joint.kind is JointKind.SLIDER
            and abs(joint.velocity) >= SLIDE_SPEED
            and speed < SLIDE_SPEED
        ):
            _at(world, entity, "drawer_slide", min(1.0, abs(joint.velocity) / SLIDE_FULL))


@dataclass(slots=True)
class JointMotion:
    """Each joint's position and speed at the last frame, a resource."""

    last: dict[int, tuple[float, float]] = field(default_factory=dict)


@dataclass(slots=True)
class Strides:
    """How far each player's body walked since its last footstep, a resource."""

    last: dict[int, tuple[float, float, float]] = field(default_factory=dict)
    distance: dict[int, float] = field(default_factory=dict)
