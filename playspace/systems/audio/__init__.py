"""Sound: the world heard from the player's head, each sound from where its entity is drawn.

Everything here runs in LATE (:attr:`~playspace.systems.sets.LateSet.SOUND`), after the head
and the bodies are placed for the frame, as the eyes are: the listener goes where the head is
drawn, every :class:`~playspace.components.audio.Sound` plays from where its entity is drawn,
and each :class:`~playspace.components.audio.PlaySound` sent this frame starts. This is the only
package that talks to the audio engine (OpenAL Soft, :mod:`.engine`); the rest of the world
sees sound as components and events.

The :class:`AudioPlugin` opens the speakers (`output="device"`), or a loopback device that
mixes only when asked (`output="memory"`: headless runs and tests, which then call
:func:`render`), or nothing at all (`output=None`, the default of a headless world). With no
device to open, a world goes on silent and says so once.
"""

from __future__ import annotations

import logging
import weakref
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path

from playspace.components import Transform
from playspace.components.audio import AudioSettings, PlaySound, Sound, SoundBank
from playspace.components.drawn import DrawnPoses, DrawnView
from playspace.components.physics import Colliders, RigidBody
from playspace.ecs import Phase, World, system
from playspace.spatial import Pose, rotate, vec3
from playspace.systems.audio.clips import Clip, ClipError, read_clip
from playspace.systems.audio.engine import AudioEngine, F32Array, MissingDevice, Voice
from playspace.systems.audio.occlusion import Occlusion, occlude
from playspace.systems.audio.openal import OpenALError
from playspace.systems.audio.placing import drawn_at, drawn_many
from playspace.systems.audio.rolling import Rolling, roll
from playspace.systems.audio.world_sounds import (
    HEARD_EVENTS,
    JointMotion,
    Strides,
    footsteps,
    impact_sounds,
    interaction_sounds,
    joint_sounds,
)
from playspace.systems.physics import Physics
from playspace.systems.sets import LateSet, add_late_sets

log = logging.getLogger(__name__)
OUTPUTS = ("device", "memory")


@dataclass(slots=True, weakref_slot=True)  # the device is let go when it is collected
class Audio:
    """The engine a world plays through (None: silent), a resource, and which entity's
    :class:`Sound` each voice plays. `muted` stops every voice and drops what is sent while
    it holds (the trace viewer, paused or seeking, is silent)."""

    engine: AudioEngine | None
    muted: bool = False
    playing: dict[int, Voice] = field(default_factory=dict)
    occlusion: Occlusion = field(default_factory=Occlusion)
    said: set[str] = field(default_factory=set)  # problems said once


def clip_named(world: World, name: str) -> Clip | None:
    """The clip a sound names: a name in the world's SoundBank, else a file's path. One that
    cannot be read is said once, and not played."""
    audio = world.resource(Audio)
    bank = world.try_resource(SoundBank)
    path = bank.files.get(name) if bank is not None else None
    try:
        return read_clip(path if path is not None else name, name)
    except ClipError as error:
        if name not in audio.said:  # a game plays a sound again and again: said once
            audio.said.add(name)
            log.warning("sound %r not played: %s", name, error)
        return None


@system(Phase.LATE, in_set=LateSet.SOUND, reads=(DrawnView, Audio), writes=())
def listen(world: World) -> None:
    """The listener where the player's head is drawn, facing where it faces."""
    audio = world.resource(Audio)
    if audio.engine is None:
        return
    view = world.try_resource(DrawnView)
    head = view.head if view is not None and view.head is not None else Pose.identity()
    p = head.position
    forward = rotate(head.rotation, vec3(0.0, 0.0, -1.0))
    up = rotate(head.rotation, vec3(0.0, 1.0, 0.0))
    audio.engine.listen(
        (p.x, p.y, p.z),
        (forward.x, forward.y, forward.z),
        (up.x, up.y, up.z),
        world.time.delta,
    )


@system(
    Phase.LATE,
    in_set=LateSet.SOUND,
    after=(listen, impact_sounds, interaction_sounds, footsteps, joint_sounds),
    reads=(
        Sound,
        PlaySound,
        Transform,
        DrawnPoses,
        SoundBank,
        Audio,
        Physics,
        RigidBody,
        Colliders,
        Rolling,
    ),
    writes=(),
)
def play_sounds(world: World) -> None:
    """Start this frame's one-shots, start and stop the entities' sounds, and move every
    voice that follows an entity to where the entity is drawn."""
    audio = world.resource(Audio)
    engine = audio.engine
    if engine is None or audio.muted:
        world.read_events(PlaySound, reader=play_sounds)
        if engine is not None:
            for voice in engine.voices:
                engine.stop(voice)
            audio.playing.clear()
            world.resource(Rolling).voices.clear()
        return
    _entity_sounds(world, audio, engine)
    roll(world, engine, lambda: clip_named(world, "rolling"))
    for event in world.read_events(PlaySound, reader=play_sounds):
        _one_shot(world, engine, event)
    following = [voice for voice in engine.voices if voice.entity is not None]
    places = drawn_many(world, [voice.entity for voice in following if voice.entity is not None])
    placed = []
    for voice, at in zip(following, places, strict=True):
        if at is None:  # its entity is gone: it stops where it was
            voice.entity = None
        else:
            placed.append((voice, at))
    engine.place_many(placed, world.time.delta)
    audio.occlusion.update(world, engine)


def _one_shot(world: World, engine: AudioEngine, event: PlaySound) -> None:
    clip = clip_named(world, event.clip)
    if clip is None:
        return
    at = (event.at.x, event.at.y, event.at.z) if event.at is not None else None
    if at is None and event.entity is not None:
        at = drawn_at(world, event.entity)
        if at is None:
            return  # on an entity that is gone: nowhere to sound from
    voice = engine.play(
        clip, volume=event.volume, pitch=event.pitch, loop=False, spatial=at is not None,
        near=event.min_distance, far=event.max_distance, rolloff=event.rolloff,
    )  # fmt: skip
    if voice is None:
        return
    voice.entity = event.entity
    if at is not None:
        engine.place(voice, at)
    occlude(world, engine, voice)


def _entity_sounds(world: World, audio: Audio, engine: AudioEngine) -> None:
    """Each entity's Sound playing on a voice of its own while it says so."""
    present = set()
    for entity, sound in world.each(Sound):
        present.add(entity)
        voice = audio.playing.get(entity)
        if not sound.playing:
            if voice is not None:
                engine.stop(audio.playing.pop(entity))
            continue
        if voice is not None:  # playing, or played once and over: stopped until told again
            continue
        clip = clip_named(world, sound.clip)
        if clip is None:
            continue
        voice = engine.play(
            clip, volume=sound.volume, pitch=sound.pitch, loop=sound.loop,
            spatial=sound.spatial, near=sound.min_distance, far=sound.max_distance,
            rolloff=sound.rolloff,
        )  # fmt: skip
        if voice is None:
            continue
        voice.entity, voice.held = (entity if sound.spatial else None), True
        audio.playing[entity] = voice
    for entity in [e for e in audio.playing if e not in present]:
        engine.stop(audio.playing.pop(entity))


def render(world: World, frames: int) -> F32Array:
    """The world's next `frames` stereo samples, mixed now: a world whose AudioPlugin has
    `output="memory"`. (frames, 2) float32 in [-1, 1]."""
    engine = world.resource(Audio).engine
    if engine is None or not engine.loopback:
        raise OpenALError("this world does not mix sound into memory (output='memory')")
    return engine.render(frames)


def default_sounds() -> dict[str, Path]:
    """The project's own sounds, by name (``assets/sounds.py`` makes them)."""
    folder = Path(__file__).parent / "sounds"
    return {path.stem: path for path in sorted(folder.glob("*.flac"))}


class AudioPlugin:
    """Sound for a world: `output` ``"device"`` (the speakers: `device` names one, as
    :attr:`AudioSettings.device` does), ``"memory"`` (mixed on request: headless runs, tests)
    or None (silent)."""

    def __init__(
        self,
        output: str | None = None,
        sounds: Iterable[tuple[str, Path]] = (),
        device: str | None = None,
    ) -> None:
        if output is not None and output not in OUTPUTS:
            raise ValueError(f"audio output must be one of {OUTPUTS} or None, got {output!r}")
        self.output, self.sounds, self.device = output, dict(sounds), device

    def build(self, world: World) -> None:
        add_late_sets(world)
        world.add_event(PlaySound)
        for kind in HEARD_EVENTS:  # the features that send them, when the world has them
            world.add_event(kind)
        world.insert_resource(Strides())
        world.insert_resource(JointMotion())
        world.insert_resource(Rolling())
        settings = world.try_resource(AudioSettings) or world.insert_resource(AudioSettings())
        if self.device is not None:
            settings = world.insert_resource(replace(settings, device=self.device))
        bank = world.try_resource(SoundBank)
        if bank is None:  # a scene with [sounds] may have made it, with the defaults
            bank = world.insert_resource(SoundBank(default_sounds()))
        bank.files.update(self.sounds)
        engine = None if self.output is None else _opened(settings, self.output == "memory")
        audio = world.insert_resource(Audio(engine))
        if engine is not None:  # the device goes when the world does
            weakref.finalize(audio, engine.close)
        world.add_systems(
            listen, impact_sounds, interaction_sounds, footsteps, joint_sounds, play_sounds
        )


def _opened(settings: AudioSettings, loopback: bool) -> AudioEngine | None:
    """The engine on the device `settings` name (the default one, said once, when that one
    is not there); None, said once, when there is no sound at all."""
    try:
        return AudioEngine(settings, loopback)
    except MissingDevice as error:
        log.warning("%s; playing through the default device", error)
        return _opened(replace(settings, device=None), loopback)
    except OpenALError as error:
        log.warning("no sound: %s; the world runs silent", error)
        return None


__all__ = ["Audio", "AudioPlugin", "clip_named", "default_sounds", "render"]
