"""Snowball Showdown's fight for two, as a playspace example: a networked 1v1's rules.

Two players stand 9 m apart, each with a pile at their right hand that refills; two targets
stand out to the sides and a low wall on each half gives cover. A snowball scores one point for
the player who threw it (the player whose hand let it go: ``Released.hand``'s ``Hand.player``)
when, before it touches anything else, it strikes a target or the other player: their head (a
sphere of the rig's head radius round the head) or their body (the capsule physics moves, from
the feet up). A snowball that has touched the floor, a wall or a table, or that a hand holds
again, scores nothing more; one scores once. Each point is a ``snowball_hit`` event in
telemetry (`thrower`, `snowball`, and the `target`'s name or the `player_hit`'s number).

On a networked host every number is the host's: its summary line (the score) travels in each
state, and clients show that one. Two terminals::

    playspace host examples/snowball_fight.py --play       # plays seat 0, in the window
    playspace join examples/snowball_fight.py --player bob  # seat 1, at the [[spawn]]

Alone, ``playspace run examples/snowball_fight.py --headless`` replays a throw at a target.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from playspace.prelude import (
    CharacterBody,
    Collider,
    Colliders,
    ContactBegan,
    Grabbable,
    Hand,
    Look,
    Phase,
    Prop,
    Released,
    Rig,
    RigidBody,
    Sphere,
    Static,
    Trail,
    TrailPlugin,
    Transform,
    World,
    record_events,
    spatial,
    system,
)
from playspace.systems.player import Roster

SCENE = "snowball_fight.toml"
TRACE = "traces/snowball_fight.jsonl"

PILES = (spatial.vec3(0.42, 0.9, 4.2), spatial.vec3(-0.42, 0.9, -4.2))  # each player's right
PILE_SIZE = 3
SNOWBALL = Sphere(0.04)
HEAD_RADIUS = 0.12  # the rig's head sphere (RigSettings.head_radius)


@dataclass(frozen=True, slots=True)
class SnowballHit:
    """A point: `thrower`'s snowball struck a target (its name) or a player (their number)."""

    kind: ClassVar[str] = "snowball_hit"
    thrower: int
    snowball: int
    target: str | None
    player_hit: int | None


@dataclass(slots=True)
class Flight:
    """A thrown snowball that may still score: who threw it and where it was last step."""

    thrower: int
    last: spatial.Vec3


@dataclass(slots=True)
class Fight:
    """The score by player number and the snowballs in flight, a resource."""

    scores: dict[int, int] = field(default_factory=dict)
    names: dict[int, str] = field(default_factory=dict)  # as the match named them, kept
    flights: dict[int, Flight] = field(default_factory=dict)  # snowball entity: its flight
    on_players: int = 0
    on_targets: int = 0
    made: int = 2 * PILE_SIZE
    snow: Look | None = None  # how the scene's snowballs look: the refill's look the same


def _is_snowball(world: World, entity: int) -> bool:
    prop = world.try_get(entity, Prop)
    return prop is not None and "snowball" in prop.name


def _dot(a: spatial.Vec3, b: spatial.Vec3) -> float:
    return a.x * b.x + a.y * b.y + a.z * b.z


def _closest(p: float, lo: float = 0.0, hi: float = 1.0) -> float:
    return min(max(p, lo), hi)


def segment_distance(
    a0: spatial.Vec3, a1: spatial.Vec3, b0: spatial.Vec3, b1: spatial.Vec3
) -> float:
    """The shortest distance between the segments a0-a1 and b0-b1 (Ericson, Real-Time
    Collision Detection, 5.1.9): a swept snowball against a body's axis or a head's centre."""
    d1, d2, r = a1 - a0, b1 - b0, a0 - b0
    a, e, f = _dot(d1, d1), _dot(d2, d2), _dot(d2, r)
    if a <= 1e-12 and e <= 1e-12:
        return spatial.length(r)
    if a <= 1e-12:
        s, t = 0.0, _closest(f / e)
    else:
        c = _dot(d1, r)
        if e <= 1e-12:
            s, t = _closest(-c / a), 0.0
        else:
            b = _dot(d1, d2)
            denom = a * e - b * b
            s = _closest((b * f - c * e) / denom) if denom > 1e-12 else 0.0
            t = (b * s + f) / e
            if t < 0.0:
                s, t = _closest(-c / a), 0.0
            elif t > 1.0:
                s, t = _closest((b - c) / a), 1.0
    return spatial.length((a0 + d1 * s) - (b0 + d2 * t))


def _struck(world: World, rig: Rig, a0: spatial.Vec3, a1: spatial.Vec3) -> bool:
    """Whether a snowball moving from `a0` to `a1` touched `rig`'s head or body."""
    reach = SNOWBALL.radius
    head = spatial.Vec3(world.get(rig.head, Transform).position)
    if segment_distance(a0, a1, head, head) <= HEAD_RADIUS + reach:
        return True
    feet = spatial.Vec3(world.get(rig.body, Transform).position)
    body = world.get(rig.body, CharacterBody)
    low = feet + spatial.vec3(0.0, body.radius, 0.0)
    high = feet + spatial.vec3(0.0, body.height - body.radius, 0.0)
    return segment_distance(a0, a1, low, high) <= body.radius + reach


def _point(world: World, board: Fight, ball: int, target: str | None, hit: int | None) -> None:
    thrower = board.flights.pop(ball).thrower
    board.scores[thrower] = board.scores.get(thrower, 0) + 1
    if hit is None:
        board.on_targets += 1
    else:
        board.on_players += 1
    world.send(SnowballHit(thrower, ball, target, hit))


@system(
    Phase.FIXED,
    in_set="game",
    reads=(
        Released,
        ContactBegan,
        Hand,
        Rig,
        Roster,
        Transform,
        CharacterBody,
        Static,
        Prop,
        Grabbable,
    ),
    writes=(Fight, SnowballHit),
)
def score(world: World) -> None:
    """Follow each thrown snowball from the hand that let it go; score its first strike on a
    target or on another player, and stop following it when it lands or is caught."""
    board = world.resource(Fight)
    roster = world.try_resource(Roster)
    if roster is not None:
        board.names.update(roster.names)  # a player who left keeps their name on the board
    for released in world.read_events(Released, reader=score):
        if _is_snowball(world, released.object):
            thrower = world.get(released.hand, Hand).player
            at = spatial.Vec3(world.get(released.object, Transform).position)
            board.flights[released.object] = Flight(thrower, at)
    rigs = [rig for _, rig in world.each(Rig)]
    for ball, flight in list(board.flights.items()):
        grabbable = world.try_get(ball, Grabbable)
        if grabbable is None or grabbable.held_by is not None:
            del board.flights[ball]  # caught, or gone: a new throw starts a new flight
            continue
        now = spatial.Vec3(world.get(ball, Transform).position)
        hit = next(
            (r for r in rigs if r.player != flight.thrower and _struck(world, r, flight.last, now)),
            None,
        )
        if hit is not None:
            _point(world, board, ball, None, hit.player)
        else:
            flight.last = now
    for contact in world.read_events(ContactBegan, reader=score):
        for ball, other in ((contact.a, contact.b), (contact.b, contact.a)):
            struck = world.try_get(other, Static)
            if ball not in board.flights or struck is None:
                continue
            if struck.name.startswith("target"):
                _point(world, board, ball, struck.name, None)
            else:
                del board.flights[ball]  # landed: the floor, a wall, a table


@system(
    Phase.FIXED,
    in_set="game",
    after=(score,),
    reads=(Prop,),
    writes=(Fight, Transform, RigidBody, Colliders, Grabbable, Look),  # spawns snowballs
)
def refill(world: World) -> None:
    """Keep PILE_SIZE snowballs on each pile: one that left it is replaced by a new one."""
    board = world.resource(Fight)
    balls = [t.position for _, (p, t) in world.query(Prop, Transform) if "snowball" in p.name]
    for pile in PILES:
        near = sum(1 for at in balls if spatial.length(at - pile) < 0.3)
        for i in range(PILE_SIZE - near):
            board.made += 1
            made = world.spawn(
                Transform(position=pile + spatial.vec3(0.12 * (i - 1), 0.02, 0.0)),
                RigidBody(mass=0.15),
                Colliders(Collider(SNOWBALL, report_contacts=True)),
                Prop(f"snowball {board.made}"),
                Grabbable(),
            )
            if board.snow is not None:
                world.add(made, board.snow)


@system(Phase.FIXED, in_set="game", reads=(Released, Prop), writes=(Trail,))
def trail_throws(world: World) -> None:
    """A snowball that leaves the hand gets a fresh trail: its flight is drawn as dots."""
    for released in world.read_events(Released, reader=trail_throws):
        if _is_snowball(world, released.object):
            world.add(released.object, Trail())


def build(world: World) -> None:
    """The fight's rules: scene snowballs report contacts, the score, the refill, trails."""
    board = world.insert_resource(Fight())
    for entity, (prop, colliders) in world.query(Prop, Colliders):
        if "snowball" in prop.name:
            colliders.parts[0].report_contacts = True
            board.snow = world.try_get(entity, Look)
    world.add_event(SnowballHit)
    record_events(world, SnowballHit)
    world.add_plugin(TrailPlugin())
    world.add_systems(score, refill, trail_throws)


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
