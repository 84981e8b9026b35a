"""The smallest playspace world: a ball dropped on a floor, run headless.

It shows the runtime core at work before any VR system is added: components, systems in two
phases ordered by ``after``, an event sent in FIXED and read in LATE, a resource, and the
fixed-step clock under an irregular display rate with one long hitch (clamped, substeps capped).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from playspace import spatial
from playspace.components import Transform
from playspace.ecs import Phase, World, system
from playspace.spatial import Vec3

GRAVITY = -9.81


@dataclass(slots=True)
class Ball:
    radius: float = 0.1
    restitution: float = 0.6
    velocity: Vec3 = field(default_factory=lambda: spatial.vec3(0.0, 0.0, 0.0))


@dataclass(frozen=True, slots=True)
class Bounced:
    entity: int
    time: float
    speed: float


@dataclass(slots=True)
class Tally:
    bounces: list[Bounced] = field(default_factory=list)


@system(Phase.FIXED, writes=(Ball,))
def fall(world: World) -> None:
    """Integrate gravity (semi-implicit Euler: velocity first, then position)."""
    dt = world.fixed_time.dt
    for _, (transform, ball) in world.query(Transform, Ball):
        ball.velocity.y += GRAVITY * dt
        transform.position += ball.velocity * dt


@system(Phase.FIXED, after=(fall,), writes=(Ball, Transform))
def bounce(world: World) -> None:
    """Reflect a ball that reached the floor, losing energy; a slow one comes to rest."""
    for entity, (transform, ball) in world.query(Transform, Ball):
        if transform.position.y > ball.radius or ball.velocity.y >= 0.0:
            continue
        transform.position.y = ball.radius
        speed = -ball.velocity.y
        ball.velocity.y = speed * ball.restitution if speed > 0.5 else 0.0
        if ball.velocity.y:
            world.send(Bounced(entity, world.fixed_time.elapsed, speed))


@system(Phase.LATE, reads=(Bounced,))
def count_bounces(world: World) -> None:
    world.resource(Tally).bounces.extend(world.read_events(Bounced, reader=count_bounces))


def build(world: World) -> int:
    """Add the demo's systems to `world` and drop one ball from 2 m; return the ball."""
    world.insert_resource(Tally())
    world.add_event(Bounced)
    world.add_systems(fall, bounce, count_bounces)
    return world.spawn(Transform(position=spatial.vec3(0.0, 2.0, 0.0)), Ball())


def run(seconds: float = 3.0, seed: int = 0) -> str:
    """Run the demo headless at a jittery ~72 Hz display with one 0.4 s hitch; report it."""
    world = World(fixed_hz=90)
    ball = build(world)
    rng = random.Random(seed)
    elapsed = 0.0
    hitch_at = seconds / 2
    while elapsed < seconds:
        frame = 0.4 if hitch_at <= elapsed < hitch_at + 0.4 else rng.uniform(0.012, 0.016)
        world.advance(frame)
        elapsed += frame
    time, fixed, tally = world.time, world.fixed_time, world.resource(Tally)
    height = world.get(ball, Transform).position.y
    slowest = sorted(world.schedule.all(), key=lambda s: s.stats.max_ns, reverse=True)
    first = f" (first at {tally.bounces[0].time:.2f} s)" if tally.bounces else ""
    lines = [
        f"playspace demo: a ball dropped from 2.00 m, {seconds:.1f} s headless, "
        f"~72 Hz display with a 0.4 s hitch, {fixed.hz:.0f} Hz fixed step",
        f"frames {time.frame}, fixed steps {fixed.step} "
        f"(clamped frames {time.clamped_frames}, capped frames {time.capped_frames}, "
        f"dropped steps {time.dropped_steps})",
        f"bounces {len(tally.bounces)}{first}, ball now at {height:.2f} m",
        "slowest systems: "
        + ", ".join(f"{s.name} {s.stats.max_ns / 1e6:.3f} ms" for s in slowest[:3]),
    ]
    world.close()
    return "\n".join(lines)
