"""Snowball Showdown's throwing range, as a playspace example: the pattern for a game's rules.

The game adds its systems to the world, the same way the built-in ones are added: one keeps
the pile full (a snowball that left it is replaced), one counts hits on the targets and keeps
the speed of the last throw, and one gives each thrown snowball a trail, so its arc from the
hand to the target is drawn. Run it with ``playspace run examples/snowball.py --headless``.

The snowballs' own rules (a pile that refills in the scene's look, a trail on release) are
:func:`add_snowballs`, which the fight for two (``snowball_fight.py``) imports from here.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import ClassVar

from playspace.prelude import (
    Appearance,
    Collider,
    Colliders,
    FixedSet,
    Grabbable,
    Phase,
    Prop,
    RigidBody,
    Scenery,
    Sphere,
    SurfaceSound,
    Trail,
    TrailPlugin,
    Transform,
    World,
    events,
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


@dataclass(slots=True)
class Piles:
    """Where the snowball piles stand and what the refill makes, a resource: `made` counts
    every snowball so far (a new one is named after it), `look` is the scene's snowballs' (a
    refill looks the same), `ccd` sweeps new snowballs between steps (Rapier's CCD)."""

    at: tuple[spatial.Vec3, ...]
    made: int
    look: Appearance | None = None
    ccd: bool = False


def is_snowball(world: World, entity: int) -> bool:
    prop = world.try_get(entity, Prop)
    return prop is not None and "snowball" in prop.name


@system(
    Phase.FIXED,
    in_set=FixedSet.GAME,
    reads=(events.ContactBegan, events.Released, Scenery, Prop),
    writes=(Range, TargetHit),
)
def score(world: World) -> None:
    """Count snowballs striking a target; remember how fast the last one left the hand."""
    board = world.resource(Range)
    for released in world.read_events(events.Released, reader=score):
        board.last_release_speed = spatial.length(released.linear)
    for contact in world.read_events(events.ContactBegan, reader=score):
        for ball, other in ((contact.a, contact.b), (contact.b, contact.a)):
            target = world.try_get(other, Scenery)
            if target and target.name.startswith("target") and is_snowball(world, ball):
                board.hits[target.name] = board.hits.get(target.name, 0) + 1
                world.send(TargetHit(ball, target.name))


@system(
    Phase.FIXED,
    in_set=FixedSet.GAME,
    reads=(Prop,),
    # it spawns snowballs
    writes=(Piles, Transform, RigidBody, Colliders, Grabbable, Appearance, SurfaceSound),
)
def refill(world: World) -> None:
    """Keep PILE_SIZE snowballs on each pile: one that left it is replaced by a new one."""
    piles = world.resource(Piles)
    balls = [t.position for _, (p, t) in world.query(Prop, Transform) if "snowball" in p.name]
    for pile in piles.at:
        near = sum(1 for at in balls if spatial.length(at - pile) < 0.3)
        for i in range(PILE_SIZE - near):
            piles.made += 1
            made = world.spawn(
                Transform(position=pile + spatial.vec3(0.12 * (i - 1), 0.02, 0.0)),
                RigidBody(mass=0.15, ccd=piles.ccd),
                Colliders(Collider(SNOWBALL, report_contacts=True)),
                Prop(f"snowball {piles.made}"),
                Grabbable(),
                SurfaceSound("snow"),  # a soft crunch where it lands
            )
            if piles.look is not None:
                world.add(made, piles.look)


@system(Phase.FIXED, in_set=FixedSet.GAME, reads=(events.Released, Prop), writes=(Trail,))
def trail_throws(world: World) -> None:
    """A snowball that leaves the hand gets a fresh trail: its flight is drawn as dots."""
    for released in world.read_events(events.Released, reader=trail_throws):
        if is_snowball(world, released.object):
            world.add(released.object, Trail())


def add_snowballs(world: World, *piles: spatial.Vec3, ccd: bool = False) -> None:
    """The snowballs' own rules, for a game whose scene has them: its snowballs report
    contacts (a hit is a contact), each pile stays full of snowballs that look like the
    scene's, and a thrown one leaves a trail. With `ccd`, Rapier sweeps each snowball
    between steps, so a fast one cannot pass a thin or moving thing unseen."""
    scene = [(e, c) for e, (p, c) in world.query(Prop, Colliders) if "snowball" in p.name]
    board = world.insert_resource(Piles(piles, made=len(scene), ccd=ccd))
    for entity, colliders in scene:
        colliders.parts[0] = replace(colliders.parts[0], report_contacts=True)
        world.set_changed(entity, Colliders)
        world.get(entity, RigidBody).ccd = ccd
        board.look = world.try_get(entity, Appearance)
    world.add_plugin(TrailPlugin())
    world.add_systems(refill, trail_throws)


def build(world: World) -> None:
    """The range's rules: the score, and the snowballs' own (the refill, trails)."""
    world.insert_resource(Range())
    world.add_event(TargetHit)
    record_events(world, TargetHit)
    world.add_systems(score)
    add_snowballs(world, PILE)


def summary(world: World) -> str:
    board = world.resource(Range)
    hits = ", ".join(f"{name}: {n}" for name, n in sorted(board.hits.items())) or "none"
    return f"target hits: {hits}; last throw left the hand at {board.last_release_speed:.1f} m/s"
