"""Snowball Showdown's fight for two, as a playspace example: a networked 1v1's rules.

Two players stand 9 m apart, each with a pile at their right hand that refills; two targets
stand out to the sides and a low wall on each half gives cover. A snowball scores one point for
the player who threw it (the player whose hand let it go: ``Released.hand``'s ``Hand.player``)
when, before it touches anything else, it strikes a target or the other player: their head or
their body. Physics decides (Rapier): every player's head is a sensor sphere of the rig's head
radius that follows it (a kinematic body on the scene's ``heads`` layer), and a snowball entering
another player's is a ``SensorEntered``; their body is the capsule physics moves, and a snowball
striking it, or a target, is a ``ContactBegan``. Snowballs are swept between steps (Rapier's
CCD), so a fast one does not pass through a head unseen. A snowball that has touched the
floor, a wall, a table or anything else, or that a hand holds again, scores nothing more; one
scores once. The pile's refill and the trails are the range's (``snowball.py``, imported
from beside this module). Each point is a ``snowball_hit`` event in telemetry (`thrower`,
`snowball`, and the `target`'s name or the `player_hit`'s number).

On a networked host every number is the host's: its summary line (the score) travels in each
state, and clients show that one. Two terminals::

    playspace host examples/snowball_fight.py --play       # plays seat 0, in the window
    playspace join examples/snowball_fight.py --player bob  # seat 1, at the [[spawn]]

Alone, ``playspace run examples/snowball_fight.py --headless`` replays a throw at a target.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from snowball import add_snowballs, is_snowball, refill

from playspace.prelude import (
    BodyKind,
    Collider,
    Colliders,
    FixedSet,
    Grabbable,
    Hand,
    Phase,
    Prop,
    Rig,
    RigidBody,
    RigSettings,
    Roster,
    Scenery,
    Sphere,
    World,
    events,
    record_events,
    set_up_players,
    spatial,
    system,
)

SCENE = "snowball_fight.toml"
TRACE = "traces/snowball_fight.jsonl"

PILES = (spatial.vec3(0.42, 0.9, 4.2), spatial.vec3(-0.42, 0.9, -4.2))  # each player's right
HEADS = "heads"  # the layer of the head sensors, declared by the scene's [physics] layers


@dataclass(frozen=True, slots=True)
class SnowballHit:
    """A point: `thrower`'s snowball struck a target (its name) or a player (their number)."""

    kind: ClassVar[str] = "snowball_hit"
    thrower: int
    snowball: int
    target: str | None
    player_hit: int | None


@dataclass(slots=True)
class Fight:
    """The score by player number and the snowballs that may still score, a resource."""

    scores: dict[int, int] = field(default_factory=dict)
    names: dict[int, str] = field(default_factory=dict)  # as the match named them, kept
    flights: dict[int, int] = field(default_factory=dict)  # snowball entity: its thrower
    on_players: int = 0
    on_targets: int = 0


def head_sensor(world: World, rig: Rig) -> None:
    """Make a player's head a sensor sphere of the rig's head radius, following the tracked
    head (a kinematic body), so a snowball passing through the head is an
    ``events.SensorEntered``."""
    sphere = Sphere(world.resource(RigSettings).head_radius)
    sensor = Collider(sphere, layer=HEADS, sensor=True)
    world.add(rig.head, RigidBody(kind=BodyKind.KINEMATIC), Colliders(sensor))


def _point(world: World, board: Fight, ball: int, target: str | None, hit: int | None) -> None:
    thrower = board.flights.pop(ball)
    board.scores[thrower] = board.scores.get(thrower, 0) + 1
    if hit is None:
        board.on_targets += 1
    else:
        board.on_players += 1
    world.send(SnowballHit(thrower, ball, target, hit))


@system(
    Phase.FIXED,
    in_set=FixedSet.GAME,
    before=(refill,),  # a snowball the refill makes is never one in flight
    reads=(
        events.Released,
        events.SensorEntered,
        events.ContactBegan,
        Hand,
        Rig,
        Roster,
        Scenery,
        Prop,
        Grabbable,
    ),
    writes=(Fight, SnowballHit),
)
def score(world: World) -> None:
    """Follow each thrown snowball from the hand that let it go; score its first strike on a
    target or on another player (physics says: a head's sensor entered, a body or target
    touched), and stop following it when it touches anything else or is caught."""
    board = world.resource(Fight)
    roster = world.try_resource(Roster)
    if roster is not None:
        board.names.update(roster.names)  # a player who left keeps their name on the board
    for released in world.read_events(events.Released, reader=score):
        if is_snowball(world, released.object):
            board.flights[released.object] = world.get(released.hand, Hand).player
    for ball in list(board.flights):
        grabbable = world.try_get(ball, Grabbable)
        if grabbable is None or grabbable.held_by is not None:
            del board.flights[ball]  # caught, or gone: a new throw starts a new flight
    heads = {rig.head: rig.player for _, rig in world.each(Rig)}
    bodies = {rig.body: rig.player for _, rig in world.each(Rig)}
    for entered in world.read_events(events.SensorEntered, reader=score):
        player = heads.get(entered.sensor)
        if player is not None and board.flights.get(entered.other, player) != player:
            _point(world, board, entered.other, None, player)  # another player's head
    for contact in world.read_events(events.ContactBegan, reader=score):
        for ball, other in ((contact.a, contact.b), (contact.b, contact.a)):
            if ball not in board.flights:
                continue
            player, struck = bodies.get(other), world.try_get(other, Scenery)
            if player is not None and player != board.flights[ball]:
                _point(world, board, ball, None, player)
            elif struck is not None and struck.name.startswith("target"):
                _point(world, board, ball, struck.name, None)
            else:
                del board.flights[ball]  # landed: the floor, a wall, a table, anything else


def build(world: World) -> None:
    """The fight's rules: the snowballs' own (the refill at both piles, trails; swept, so a
    fast one cannot pass a head between two steps unseen), a sensor on every player's head,
    and the score."""
    world.insert_resource(Fight())
    world.add_event(SnowballHit)
    record_events(world, SnowballHit)
    set_up_players(world, head_sensor)
    add_snowballs(world, *PILES, ccd=True)
    world.add_systems(score)


def summary(world: World) -> str:
    """Both players' points (every player in the world, and any who scored and left), with
    their names where the match gave them, and what the points were scored on."""
    board = world.resource(Fight)
    names = board.names
    players = sorted({rig.player for _, rig in world.each(Rig)} | set(board.scores))
    said = ", ".join(
        f"player {n}{f' ({names[n]})' if names.get(n) else ''}: {board.scores.get(n, 0)}"
        for n in players
    )
    return f"score: {said}; hits on players {board.on_players}, on targets {board.on_targets}"
