"""A client corrects its own body where the host disagrees: what networked games call
reconciling a locally predicted character.

The client plays its own rig from its own input and never waits for the host; the host plays
the same input a little later, in the authoritative world. The two bodies part when the host
did not see what the client did (every copy of an input frame lost, so the host played the one
before in its place; a frame held while the next was late) or when the host's world pushed
the body where the client's did not (a moving thing only the host has). Each host state says
where the player's body stood right after the host played the client's input step ``echo``
(:attr:`~playspace.net.wire.State.feet`). The client keeps where its own body stood after
each of its recent steps (:class:`OwnBody`), so it compares the two at the same step however
long the round trip was. Off by more than :attr:`Correction.tolerance` across the floor, the
client's body moves by the difference, and its origin with it, so the view keeps its relation
to the body (the body is never a child of the origin, DESIGN.md "The rig"):

- up to :attr:`Correction.snap` it moves over :attr:`Correction.spread` fixed steps, as a
  carried move through the character controller (the way smooth movement moves it: a wall
  stops it as it stops walking, ``carry_origin`` moves the origin by what the body made of it).
  A few centimetres at once would jolt the view; spread over a tenth of a second they read as
  a short slide, slower than walking;
- past it, it jumps at once to the host's feet (a teleport of the capsule, the origin by the
  same amount across the floor, the view's floor snapped to the body's, behind a blink): a
  slide of a metre or more would be a fast, unasked-for glide, what makes players sick, and a
  teleport's blink is what players already know.

Only the body's place across the floor is compared and corrected on the way there: its height
is the level's (it stands on the same floor in both worlds), and the character controller keeps
it on the floor under it. The steps the client already played after the one compared had the
same error: their record moves with the correction, so the next state does not correct it a
second time. A correction is a :class:`BodyCorrected` event (telemetry's ``body_corrected``).

The turn is compared the same way: each state also says which way the player's origin faced
after step ``echo`` (its yaw, :attr:`~playspace.net.wire.Played.turn`), and the client keeps
its own origin's yaw after each step. They part when the host missed a snap turn (every copy
of the frame that flicked the stick lost) or played a smooth turn for a step more or less.
Off by more than :attr:`Correction.turn_tolerance`, the client turns its origin by the
difference about the head, at once and behind a blink, as a snap turn is made: a slow turn
the player did not ask for is what makes players sick, and the head stays where it is, so
the body does not move. A turn correction is a :class:`TurnCorrected` event (telemetry's
``turn_corrected``).
Nothing from the network reaches physics without passing the wire's gate (finite, within
reach) and this module's own finite check.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import ClassVar

from playspace import spatial
from playspace.components import Transform
from playspace.components.physics import BodyCommands, CharacterMotion
from playspace.components.rig import LocalPlayer, PlayerBody, Rig
from playspace.ecs import Phase, World, system
from playspace.net.wire import Played
from playspace.spatial import Vec3
from playspace.systems.physics import Physics
from playspace.systems.physics.commands import teleport_body
from playspace.systems.player.events import BlinkRequested, FloorSnapRequested
from playspace.systems.player.players import local_rig
from playspace.systems.player.poses import horizontal, turn_around
from playspace.systems.sets import FixedSet
from playspace.systems.telemetry import Telemetry

TOLERANCE = 0.05  # metres across the floor the two bodies may differ before a correction
SPREAD = 9  # fixed steps a correction is spread over: 0.1 s at 90 Hz
SNAP = 1.0  # metres from which a correction jumps at once, behind a blink
TURN_TOLERANCE = math.radians(2.0)  # how far the two origins' yaws may differ
HISTORY = 512  # steps of the body's own positions kept: 5.7 s at 90 Hz, past any round trip


@dataclass(slots=True)
class Correction:
    """How a client corrects its own body from the host's; a resource a game may change.

    `tolerance` (metres across the floor) is how far the two may differ before anything is
    done: a little more than the host and client make of the same input with float noise and a
    frame the host played late, well under what a player sees of their own body. `spread` is
    how many fixed steps a correction up to `snap` metres is spread over; from `snap` on it is
    made at once, behind a blink. `turn_tolerance` (radians) is how far the origin's yaw may
    differ from the host's: above a smooth turn's step, well under a snap turn. `enabled`
    False leaves the body and the turn alone (what they would do without a host: a test's
    control, a single-player debug session)."""

    tolerance: float = TOLERANCE
    spread: int = SPREAD
    snap: float = SNAP
    turn_tolerance: float = TURN_TOLERANCE
    enabled: bool = True

    def __post_init__(self) -> None:
        if not (math.isfinite(self.tolerance) and self.tolerance > 0.0):
            raise ValueError(f"correction tolerance: expected metres > 0, got {self.tolerance!r}")
        if self.spread < 1:
            raise ValueError(f"correction spread: expected at least 1 step, got {self.spread!r}")
        if not (math.isfinite(self.snap) and self.snap > self.tolerance):
            raise ValueError(
                f"correction snap: expected metres above the tolerance ({self.tolerance}), "
                f"got {self.snap!r}"
            )
        if not (math.isfinite(self.turn_tolerance) and 0.0 < self.turn_tolerance < math.pi):
            raise ValueError(
                "correction turn_tolerance: expected radians in (0, pi), "
                f"got {self.turn_tolerance!r}"
            )


@dataclass(frozen=True, slots=True)
class BodyCorrected:
    """The client moved its own body (and origin) by `by` metres, world space, to where the
    host had it after input step `step`: spread over a few steps, or at once (`snapped`)."""

    kind: ClassVar[str] = "body_corrected"
    by: Vec3
    step: int
    snapped: bool


@dataclass(frozen=True, slots=True)
class TurnCorrected:
    """The client turned its own origin by `by` radians about the head (positive to the left),
    to the way the host had it face after input step `step`."""

    kind: ClassVar[str] = "turn_corrected"
    by: float
    step: int


def _zero() -> Vec3:
    return spatial.vec3(0.0, 0.0, 0.0)


@dataclass(slots=True)
class OwnBody:
    """The client's own body against the host's; a resource.

    `latest` gives the host's newest word on the body (the input step, and the feet and the
    turn after it), `step` the client's own input step now (the number its frame went to the
    host with). `history` is where the body stood after each recent step, with what is still
    to be made of a correction already decided added in (where it stands once corrected), and
    `turns` the origin's yaw after each. `pending` is that remainder, made over `left` more
    steps. `compared` is the input step of the newest word taken, `disagreement` and
    `turn_disagreement` how far apart the two were there (metres across the floor, radians of
    yaw, before any correction), and `corrections` and `turn_corrections` how many were made."""

    latest: Callable[[], Played | None]
    step: Callable[[], int]
    history: dict[int, Vec3] = field(default_factory=dict)
    turns: dict[int, float] = field(default_factory=dict)
    pending: Vec3 = field(default_factory=_zero)
    left: int = 0
    compared: int = 0
    disagreement: float = 0.0
    turn_disagreement: float = 0.0
    corrections: int = 0
    turn_corrections: int = 0


def disagreement(own: OwnBody, step: int, host: Vec3) -> Vec3 | None:
    """How far the host's feet after input `step` are from this body's there, across the
    floor; None when this client has no record of that step (too old, or before it played) or
    the host's position is not a finite one."""
    mine = own.history.get(step)
    if mine is None or not all(math.isfinite(c) for c in (host.x, host.y, host.z)):
        return None
    return horizontal(host - mine)


def decide(own: OwnBody, settings: Correction, step: int, host: Vec3) -> Vec3 | None:
    """Compare the host's feet after input `step` with this body's; past the tolerance, the
    correction (across the floor), with the record of every step from `step` on moved by it.
    None when there is nothing to correct."""
    off = disagreement(own, step, host)
    if off is None:
        return None
    own.disagreement = spatial.length(off)
    if own.disagreement <= settings.tolerance:
        return None
    for later in [s for s in own.history if s >= step]:
        own.history[later] = own.history[later] + off
    own.corrections += 1
    return off


def decide_turn(own: OwnBody, settings: Correction, step: int, host: float) -> float | None:
    """Compare the host's turn after input `step` with this origin's; past the tolerance, the
    turn to make (radians, the shorter way round), with the record of every step from `step`
    on turned by it. None when there is nothing to correct, no record of that step, or the
    host's yaw is not a finite one."""
    mine = own.turns.get(step)
    if mine is None or not math.isfinite(host):
        return None
    off = math.remainder(host - mine, math.tau)
    own.turn_disagreement = abs(off)
    if own.turn_disagreement <= settings.turn_tolerance:
        return None
    for later in [s for s in own.turns if s >= step]:
        own.turns[later] = own.turns[later] + off
    own.turn_corrections += 1
    return off


@system(
    Phase.FIXED,
    in_set=FixedSet.CORRECTION,
    reads=(Rig, LocalPlayer, Correction, PlayerBody),
    writes=(
        OwnBody,
        CharacterMotion,
        Transform,
        Physics,
        BodyCorrected,
        TurnCorrected,
        BlinkRequested,
        FloorSnapRequested,
        BodyCommands,
    ),
)
def correct_body(world: World) -> None:
    """Compare the host's newest word on the body with this body's record, decide a
    correction of its place and of its turn, and make this step's part of them (after the
    body follows the head, before locomotion and the character controller)."""
    own, settings, rig = world.resource(OwnBody), world.resource(Correction), local_rig(world)
    if rig is None or not settings.enabled or not world.get(rig.body, PlayerBody).placed:
        return
    latest = own.latest()
    if latest is not None and latest.echo > own.compared:
        own.compared = latest.echo
        if latest.turn is not None:
            _correct_turn(world, rig, own, settings, latest.echo, latest.turn)
        if latest.feet is not None:
            _correct_place(world, rig, own, settings, latest.echo, latest.feet)
    if own.left > 0:
        part = own.pending / own.left
        own.pending, own.left = own.pending - part, own.left - 1
        motion = world.get(rig.body, CharacterMotion)
        motion.carried = motion.carried + part


def _correct_place(
    world: World, rig: Rig, own: OwnBody, settings: Correction, step: int, host: Vec3
) -> None:
    """Decide a correction of the body's place from the host's feet after `step`: spread over
    the next steps, or at once past :attr:`Correction.snap`."""
    by = decide(own, settings, step, host)
    if by is None:
        return
    if spatial.length(by + own.pending) >= settings.snap:
        move = by + own.pending
        _snap(world, rig, own, move, host.y - own.history[step].y)
        world.send(BodyCorrected(move, step, snapped=True))
    else:
        own.pending, own.left = own.pending + by, settings.spread
        world.send(BodyCorrected(by, step, snapped=False))


def _correct_turn(
    world: World, rig: Rig, own: OwnBody, settings: Correction, step: int, host: float
) -> None:
    """Turn the origin about the head to the host's turn after `step`, at once and behind a
    blink, when the two differ past the tolerance."""
    by = decide_turn(own, settings, step, host)
    if by is None:
        return
    turn_around(world.get(rig.origin, Transform), world.get(rig.head, Transform).position, by)
    world.send(TurnCorrected(by, step))
    world.send(BlinkRequested(rig.player))


def _snap(world: World, rig: Rig, own: OwnBody, by: Vec3, rise: float) -> None:
    """Move the body by `by` at once (and up by `rise`, to the host's floor), the origin with
    it across the floor, the view's floor onto the body's, behind a blink."""
    feet = world.get(rig.body, Transform).position
    teleport_body(world, rig.body, feet + by + spatial.vec3(0.0, rise, 0.0))
    world.get(rig.body, CharacterMotion).vertical_speed = 0.0
    origin = world.get(rig.origin, Transform)
    origin.position = origin.position + by
    own.pending, own.left = _zero(), 0
    world.send(FloorSnapRequested(player=rig.player))
    world.send(BlinkRequested(rig.player))


@system(
    Phase.FIXED,
    in_set=FixedSet.TELEMETRY,
    reads=(Rig, LocalPlayer, Transform),
    writes=(OwnBody,),
)
def note_body(world: World) -> None:
    """Keep where the body stands after this step (what is left of a correction added in)
    and which way the origin faces, under the input step this frame went to the host as."""
    own, rig = world.resource(OwnBody), local_rig(world)
    if rig is None:
        return
    step = own.step()
    own.history[step] = world.get(rig.body, Transform).position + own.pending
    own.turns[step] = spatial.yaw(world.get(rig.origin, Transform).rotation)
    own.history.pop(step - HISTORY, None)
    own.turns.pop(step - HISTORY, None)


def add_correction(
    world: World,
    settings: Correction,
    latest: Callable[[], Played | None],
    step: Callable[[], int],
) -> None:
    """Give `world` (a client's, with a rig) the correction of its body and its turn from
    the host's."""
    world.insert_resource(settings)
    world.insert_resource(OwnBody(latest, step))
    for event in (BodyCorrected, TurnCorrected):
        world.add_event(event)
        telemetry = world.try_resource(Telemetry)
        if telemetry is not None:
            telemetry.record(event)
    world.add_systems(correct_body, note_body)
