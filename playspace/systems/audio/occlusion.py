"""Occlusion: a sound behind the scenery is quieter and duller.

Each frame a few voices (:data:`RAYS_A_FRAME`, taken in turn, so every voice is looked at
again within a few frames) cast a ray from the listener to where they sound from, against the
environment's colliders only (walls, floors, counters: not props, players or what is held).
One blocked goes through a low-pass filter (OpenAL's EFX): :data:`GAIN` over all and
:data:`TREBLE` more over the high frequencies, as a wall passes a voice's boom and stops its
hiss. A one-shot is looked at when it starts, so a knock behind a wall is dull from its first
sample.
"""

from __future__ import annotations

from playspace.ecs import World
from playspace.spatial import vec3
from playspace.systems.audio.engine import AudioEngine, Voice
from playspace.systems.physics import Physics

RAYS_A_FRAME = 4
LOOKED_A_FRAME = 16  # voices asked whether they play, a frame (each ask is a call into OpenAL)
GAIN = 0.5  # a blocked sound's level over all
TREBLE = 0.15  # and over its high frequencies, besides
ENVIRONMENT = ("environment",)


def occlude(world: World, engine: AudioEngine, voice: Voice) -> None:
    """Muffle `voice` if the environment stands between it and the listener, else not."""
    physics = world.try_resource(Physics)
    if physics is None or voice.at is None:
        if voice.muffled:
            engine.muffle(voice, 1.0, 1.0)
        return
    lx, ly, lz = engine.listener
    x, y, z = voice.at
    towards = vec3(x - lx, y - ly, z - lz)
    distance = (towards.x**2 + towards.y**2 + towards.z**2) ** 0.5
    blocked = False
    if distance > 0.05:
        hit = physics.ray_cast(vec3(lx, ly, lz), towards, distance - 0.02, ENVIRONMENT)
        blocked = hit is not None
    if blocked != voice.muffled:
        engine.muffle(voice, GAIN if blocked else 1.0, TREBLE if blocked else 1.0)


class Occlusion:
    """Which voice the next frame's rays start from, a resource."""

    def __init__(self) -> None:
        self.next = 0

    def update(self, world: World, engine: AudioEngine) -> None:
        """Look at the next few voices that sound from somewhere (none in a world without
        physics: nothing stands between)."""
        if world.try_resource(Physics) is None:
            return
        count, cast = len(engine.voices), 0
        for offset in range(min(count, LOOKED_A_FRAME)):
            voice = engine.voices[(self.next + offset) % count]
            if voice.at is None or not engine.playing(voice):
                continue
            occlude(world, engine, voice)
            cast += 1
            if cast == RAYS_A_FRAME:
                break
        self.next = (self.next + offset + 1) % count
