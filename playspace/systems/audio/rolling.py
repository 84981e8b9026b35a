"""Rolling and sliding: a body moving along what it rests on rumbles, louder the faster.

Each frame, each moving body (faster than :data:`FROM` across the ground) casts one short ray
down from its centre: one that meets something within :data:`REACH` of its lowest point is
on it, and plays the bank's ``rolling`` loop from where it is drawn, its volume its speed
over :data:`FULL` (a ball rolled across the floor, a pan pushed along the counter). A body
that stops, or leaves what it was on, falls silent. At most :data:`VOICES` roll at once, the
fastest: a crate of balls tipped out rumbles, it does not take every voice.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from playspace.components.physics import (
    BodyKind,
    Colliders,
    RigidBody,
)
from playspace.ecs import World
from playspace.spatial import vec3
from playspace.systems.audio.clips import Clip
from playspace.systems.audio.engine import AudioEngine, Voice
from playspace.systems.audio.placing import drawn_many
from playspace.systems.physics import Physics, reach_below

FROM = 0.15  # m/s across the ground: slower is resting
FULL = 2.0  # m/s: this fast rumbles at full volume
REACH = 0.05  # metres below a body's lowest point that still counts as on something
VOICES = 8


@dataclass(slots=True)
class Rolling:
    """Each moving body's place last frame, and the voices of those rolling, a resource."""

    last: dict[int, tuple[float, float, float]] = field(default_factory=dict)
    voices: dict[int, Voice] = field(default_factory=dict)


def roll(world: World, engine: AudioEngine, clip: Callable[[], Clip | None]) -> None:
    """Start, turn up or down, and stop the rolling voices for this frame; `clip` gives the
    rumble when one starts (None: the world has none, and nothing rolls aloud)."""
    rolling = world.resource(Rolling)
    physics = world.try_resource(Physics)
    dt = world.time.delta
    moving: list[tuple[float, int, tuple[float, float, float]]] = []
    present = set()
    bodies = [entity for entity, body in world.each(RigidBody) if body.kind is BodyKind.DYNAMIC]
    for entity, now in zip(bodies, drawn_many(world, bodies), strict=True):
        if now is None:  # where it is drawn: smooth from frame to frame
            continue
        present.add(entity)
        last = rolling.last.get(entity)
        rolling.last[entity] = now
        if last is None or dt <= 0:
            continue
        speed = ((now[0] - last[0]) ** 2 + (now[2] - last[2]) ** 2) ** 0.5 / dt
        if speed >= FROM and physics is not None and _on_something(world, physics, entity, now):
            moving.append((speed, entity, now))
    moving.sort(reverse=True)
    heard = {entity: (speed, at) for speed, entity, at in moving[:VOICES]}
    for entity in [e for e in rolling.voices if e not in heard]:
        engine.stop(rolling.voices.pop(entity))
    for entity, (speed, at) in heard.items():
        voice = rolling.voices.get(entity)
        volume = min(1.0, speed / FULL)
        if voice is None:
            rumble = clip()
            if rumble is None:
                continue
            voice = engine.play(
                rumble, volume=volume, pitch=1.0, loop=True, spatial=True, near=1.0, far=30.0,
                rolloff=1.0,
            )  # fmt: skip
            if voice is None:
                continue
            rolling.voices[entity] = voice
            voice.held = True
        else:
            engine.turn(voice, volume)
        engine.place(voice, at, dt)
    for entity in [e for e in rolling.last if e not in present]:
        del rolling.last[entity]


def _on_something(
    world: World, physics: Physics, entity: int, at: tuple[float, float, float]
) -> bool:
    """Whether what is under `entity` is within reach of its lowest point."""
    colliders = world.try_get(entity, Colliders)
    parts = colliders.parts if colliders is not None else ()
    depth = max((reach_below(c.shape) - c.offset.position.y for c in parts), default=0.1)
    hit = physics.ray_cast(vec3(*at), vec3(0.0, -1.0, 0.0), depth + REACH, exclude=entity)
    return hit is not None
