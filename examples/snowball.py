"""Snowball Showdown's throwing range, as a playspace example: the pattern for a game's rules.

The game adds its systems to the world, the same way the built-in ones are added: one keeps
the pile full (a snowball that left it is replaced), one counts hits on the targets and keeps
the speed of the last throw, and one gives each thrown snowball a trail, so its arc from the
hand to the target is drawn. Run it with ``playspace run examples/snowball.py --headless``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from playspace.prelude import (
    Collider,
    Colliders,
    ContactBegan,
    Grabbable,
    Look,
    Phase,
    Prop,
    Released,
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

SCENE = "snowball.toml"
TRACE = "traces/snowball.jsonl"

PILE = spatial.vec3(0.42, 0.9, -0.3)
PILE_SIZE = 3
SNOWBALL = Sphere(0.04)


@dataclass(frozen=True, slots=True)
class TargetHit:
    kind: ClassVar[str] = "target_hit"
    snowball: int
    target: str


@dataclass(slots=True)
class Range:
    """The score, a resource."""

    hits: dict[str, int] = field(default_factory=dict)
    last_release_speed: float = 0.0
    made: int = PILE_SIZE
    snow: Look | None = None  # how the scene's snowballs look: the refill's look the same


def _snowball_colliders() -> Colliders:
    return Colliders(Collider(SNOWBALL, report_contacts=True))


@system(
    Phase.FIXED,
    in_set="game",
    reads=(ContactBegan, Released, Static, Prop),
    writes=(Range, TargetHit),
)
def score(world: World) -> None:
    """Count snowballs striking a target; remember how fast the last one left the hand."""
    board = world.resource(Range)
    for released in world.read_events(Released, reader=score):
        board.last_release_speed = spatial.length(released.linear)
    for contact in world.read_events(ContactBegan, reader=score):
        for ball, other in ((contact.a, contact.b), (contact.b, contact.a)):
            target = world.try_get(other, Static)
            prop = world.try_get(ball, Prop)
            if target and prop and target.name.startswith("target") and "snowball" in prop.name:
                board.hits[target.name] = board.hits.get(target.name, 0) + 1
                world.send(TargetHit(ball, target.name))


@system(
    Phase.FIXED,
    in_set="game",
    after=(score,),
    reads=(Prop,),
    writes=(Range, Transform, RigidBody, Colliders, Grabbable, Look),  # spawns snowballs
)
def refill(world: World) -> None:
    """Keep PILE_SIZE snowballs on the pile: one that left it is replaced by a new one."""
    board = world.resource(Range)
    near = sum(
        1
        for _, (prop, transform) in world.query(Prop, Transform)
        if "snowball" in prop.name and spatial.length(transform.position - PILE) < 0.3
    )
    for i in range(PILE_SIZE - near):
        board.made += 1
        made = world.spawn(
            Transform(position=PILE + spatial.vec3(0.12 * (i - 1), 0.02, 0.0)),
            RigidBody(mass=0.15),
            _snowball_colliders(),
            Prop(f"snowball {board.made}"),
            Grabbable(),
        )
        if board.snow is not None:
            world.add(made, board.snow)


@system(Phase.FIXED, in_set="game", reads=(Released, Prop), writes=(Trail,))
def trail_throws(world: World) -> None:
    """A snowball that leaves the hand gets a fresh trail: its flight is drawn as dots."""
    for released in world.read_events(Released, reader=trail_throws):
        prop = world.try_get(released.object, Prop)
        if prop is not None and "snowball" in prop.name:
            world.add(released.object, Trail())


def build(world: World) -> None:
    """The range's rules: scene snowballs report contacts, the score, the refill, trails."""
    board = world.insert_resource(Range())
    for entity, (prop, colliders) in world.query(Prop, Colliders):
        if "snowball" in prop.name:
            colliders.parts[0].report_contacts = True
            board.snow = world.try_get(entity, Look)
    world.add_event(TargetHit)
    record_events(world, TargetHit)
    world.add_plugin(TrailPlugin())
    world.add_systems(score, refill, trail_throws)


def summary(world: World) -> str:
    board = world.resource(Range)
    hits = ", ".join(f"{name}: {n}" for name, n in sorted(board.hits.items())) or "none"
    return f"target hits: {hits}; last throw left the hand at {board.last_release_speed:.1f} m/s"
