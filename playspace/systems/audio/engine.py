"""The audio engine: one OpenAL Soft device and context, its voices (sources) and the clips
uploaded to it (buffers).

A device is either the speakers (OpenAL mixes on its own thread, as a headset or the preview
plays) or a *loopback* device, which mixes only when asked (:meth:`AudioEngine.render`): a
headless run renders its sound frame by frame into a file, and the same frames in give the same
samples out, which is how tests listen. HRTF is asked for on both (OpenAL Soft's built-in
head, at 44.1 and 48 kHz), with the output limiter off so a loud sound is clipped, not squeezed
differently from run to run.
"""

from __future__ import annotations

import ctypes
import logging
import math
from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from playspace.components.audio import AudioSettings
from playspace.systems.audio import openal as al
from playspace.systems.audio.clips import Clip

RATE = 48000
log = logging.getLogger(__name__)
F32Array = npt.NDArray[np.float32]
_CURRENT: list[int] = [0]  # the context made current last (OpenAL has one per process)


@dataclass(slots=True, eq=False)
class Voice:
    """One source: what it plays (the clip's name), since when (a frame counter), and the
    entity it follows (None: a place, or both ears)."""

    source: int
    filter: int = 0  # its low-pass filter (EFX), for occlusion
    clip: str = ""
    entity: int | None = None
    started: int = -1
    held: bool = False  # an entity's Sound plays on it until told to stop: never taken
    at: tuple[float, float, float] | None = None  # where it sounds from (None: both ears)
    muffled: bool = False  # behind something: quieter and duller
    sent: dict[int, float] = field(default_factory=dict)  # each property as OpenAL has it
    sent3: dict[int, tuple[float, float, float]] = field(default_factory=dict)  # and vectors


FASTEST = 30.0  # m/s: faster than this between two frames is a jump (a teleport), not motion
DOPPLER_STEP = 0.05  # m/s: a velocity nearer than this to the one sent is not sent (note below)
STILL = (0.0, 0.0, 0.0)


def _velocity(
    before: tuple[float, float, float] | None, now: tuple[float, float, float], dt: float
) -> tuple[float, float, float] | None:
    """How fast something moved from `before` to `now` in `dt` seconds (None: not at all, or
    it jumped)."""
    if before is None or dt <= 0:
        return None
    v = ((now[0] - before[0]) / dt, (now[1] - before[1]) / dt, (now[2] - before[2]) / dt)
    speed = math.sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2])
    return v if 0 < speed <= FASTEST else None


class MissingDevice(al.OpenALError):
    """The sound device asked for by name is not there (the message names those that are)."""


class AudioEngine:
    """OpenAL Soft, opened on the speakers or a loopback device (`loopback`): voices to play
    clips on, a listener, and, on loopback, the mixed samples on request."""

    def __init__(self, settings: AudioSettings, loopback: bool, rate: int = RATE) -> None:
        self.lib = lib = al.openal()
        self.loopback, self.rate = loopback, rate
        attributes = [al.ALC_HRTF_SOFT, int(settings.hrtf), al.ALC_OUTPUT_LIMITER_SOFT, 1]
        if loopback:
            self.device = lib.loopback_open(None)
            attributes += [
                al.ALC_FORMAT_CHANNELS_SOFT, al.ALC_STEREO_SOFT,
                al.ALC_FORMAT_TYPE_SOFT, al.ALC_FLOAT_SOFT,
                al.ALC_FREQUENCY, rate,
            ]  # fmt: skip
        else:
            al.quiet_alsa()
            name = settings.device
            self.device = lib.lib.alcOpenDevice(None if name is None else name.encode())
            if not self.device and name is not None:
                there = "; ".join(lib.output_devices()) or "none"
                raise MissingDevice(f"no sound device named {name!r} (there are: {there})")
        if not self.device:
            raise al.OpenALError("no audio device could be opened")
        values = (ctypes.c_int * (len(attributes) + 1))(*attributes, 0)
        self.context = lib.lib.alcCreateContext(self.device, values)
        if not self.context:
            lib.lib.alcCloseDevice(self.device)
            raise al.OpenALError("the audio device refused a context")
        self._current()
        lib.lib.alDistanceModel(al.AL_INVERSE_DISTANCE_CLAMPED)
        lib.lib.alSpeedOfSound(settings.speed_of_sound)
        lib.lib.alListenerf(al.AL_GAIN, settings.volume)
        status = ctypes.c_int(0)
        lib.lib.alcGetIntegerv(self.device, al.ALC_HRTF_STATUS_SOFT, 1, ctypes.byref(status))
        self.hrtf = status.value == al.ALC_HRTF_ENABLED_SOFT
        sources = (ctypes.c_uint * settings.voices)()
        lib.lib.alGenSources(settings.voices, sources)
        lib.check("making voices")
        filters = (ctypes.c_uint * settings.voices)()
        lib.gen_filters(settings.voices, filters)
        self.filters = [int(f) for f in filters]
        for number in self.filters:
            lib.filteri(number, al.AL_FILTER_TYPE, al.AL_FILTER_LOWPASS)
        self.voices = [Voice(int(s), f) for s, f in zip(sources, self.filters, strict=True)]
        lib.check("making low-pass filters")
        self._buffers: dict[int, tuple[Clip, int]] = {}
        self.frame = 0  # counts starts: the oldest voice is taken when all are busy
        self._next = 0  # where the search for a free voice begins
        self.listener = (0.0, 0.0, 0.0)  # where the head was placed last
        self.refused: set[str] = set()  # clips OpenAL would not play, said once

    def _current(self) -> None:
        if _CURRENT[0] != self.context:
            self.lib.lib.alcMakeContextCurrent(self.context)
            _CURRENT[0] = self.context

    def _buffer(self, clip: Clip) -> int:
        """The clip uploaded once (kept while the engine lives)."""
        known = self._buffers.get(id(clip))
        if known is None or known[0] is not clip:
            made = ctypes.c_uint(0)
            self.lib.lib.alGenBuffers(1, ctypes.byref(made))
            samples = np.ascontiguousarray(clip.samples, dtype=np.float32)
            self.lib.lib.alBufferData(
                made.value,
                al.AL_FORMAT_MONO_FLOAT32,
                samples.ctypes.data,
                samples.nbytes,
                clip.rate,
            )
            self.lib.check(f"uploading the sound {clip.name!r}")
            known = self._buffers[id(clip)] = (clip, made.value)
        return known[1]

    def _voice(self) -> Voice:
        """A free voice, or the one-shot that started longest ago. The voices are tried in
        turn from the one after the last taken, so the next is nearly always free at the
        first ask (each ask is a call into OpenAL)."""
        self._current()
        state = ctypes.c_int(0)
        count = len(self.voices)
        for offset in range(count):
            voice = self.voices[(self._next + offset) % count]
            if voice.held:
                continue
            self.lib.lib.alGetSourcei(voice.source, al.AL_SOURCE_STATE, ctypes.byref(state))
            if state.value != al.AL_PLAYING:
                self._next = (self._next + offset + 1) % count
                return voice
        free = [voice for voice in self.voices if not voice.held] or self.voices
        return min(free, key=lambda voice: voice.started)

    def start(
        self,
        voice: Voice,
        clip: Clip,
        *,
        volume: float,
        pitch: float,
        loop: bool,
        spatial: bool,
        near: float,
        far: float,
        rolloff: float,
    ) -> None:
        """Play `clip` on `voice` from its start. Only the properties that differ from what
        the voice last played with are sent: each is a call into OpenAL, and most sounds
        start as the one before them on that voice did."""
        self._current()
        lib, source = self.lib.lib, voice.source
        lib.alGetError()  # what an earlier call left is not this sound's
        lib.alSourceStop(source)
        try:
            self._seti(voice, al.AL_BUFFER, self._buffer(clip))
            self._setf(voice, al.AL_GAIN, volume)
            self._setf(voice, al.AL_PITCH, pitch)
            self._seti(voice, al.AL_LOOPING, int(loop))
            self._seti(voice, al.AL_SOURCE_RELATIVE, int(not spatial))
            self._setf(voice, al.AL_REFERENCE_DISTANCE, near)
            self._setf(voice, al.AL_MAX_DISTANCE, far)
            self._setf(voice, al.AL_ROLLOFF_FACTOR, rolloff if spatial else 0.0)
            if not spatial:
                self._set3(voice, al.AL_POSITION, STILL)
            self._set3(voice, al.AL_VELOCITY, STILL)
            voice.at = None
            if voice.muffled:
                self.muffle(voice, 1.0, 1.0)
            lib.alSourcePlay(source)
            self.lib.check(f"playing {clip.name!r}")
        except al.OpenALError:
            voice.sent.clear()  # what OpenAL kept of the refused calls is not known
            voice.sent3.clear()
            raise
        voice.clip, voice.started, voice.held = clip.name, self.frame, False
        self.frame += 1

    def _seti(self, voice: Voice, name: int, value: int) -> None:
        if voice.sent.get(name) != value:
            self.lib.lib.alSourcei(voice.source, name, value)
            voice.sent[name] = value

    def _setf(self, voice: Voice, name: int, value: float) -> None:
        if voice.sent.get(name) != value:
            self.lib.lib.alSourcef(voice.source, name, value)
            voice.sent[name] = value

    def _set3(self, voice: Voice, name: int, value: tuple[float, float, float]) -> None:
        if voice.sent3.get(name) != value:
            self.lib.lib.alSource3f(voice.source, name, *value)
            voice.sent3[name] = value

    def turn(self, voice: Voice, volume: float) -> None:
        """A playing voice louder or softer."""
        self._current()
        self._setf(voice, al.AL_GAIN, volume)

    def play(
        self,
        clip: Clip,
        *,
        volume: float,
        pitch: float,
        loop: bool,
        spatial: bool,
        near: float,
        far: float,
        rolloff: float,
    ) -> Voice | None:
        """`clip` started on a free voice (the one-shot that started longest ago when all are
        busy), or None when OpenAL refuses it,
        which is said once for that clip: a game plays a sound again and again."""
        voice = self._voice()
        try:
            self.start(
                voice, clip, volume=volume, pitch=pitch, loop=loop, spatial=spatial,
                near=near, far=far, rolloff=rolloff,
            )  # fmt: skip
        except al.OpenALError as error:
            if clip.name not in self.refused:
                self.refused.add(clip.name)
                log.warning("sound %r not played: %s", clip.name, error)
            return None
        return voice

    def stop(self, voice: Voice) -> None:
        self._current()
        self.lib.lib.alSourceStop(voice.source)
        voice.entity, voice.held = None, False

    def playing(self, voice: Voice) -> bool:
        self._current()
        state = ctypes.c_int(0)
        self.lib.lib.alGetSourcei(voice.source, al.AL_SOURCE_STATE, ctypes.byref(state))
        return state.value == al.AL_PLAYING

    def place(self, voice: Voice, position: tuple[float, float, float], dt: float = 0.0) -> None:
        """Where a spatial voice sounds from (:meth:`place_many` of one)."""
        self.place_many(((voice, position),), dt)

    def place_many(
        self, placed: Iterable[tuple[Voice, tuple[float, float, float]]], dt: float = 0.0
    ) -> None:
        """Where each spatial voice sounds from, in the world, and, from where it was `dt`
        seconds ago, how fast it moves (its Doppler shift). A place that is not finite (a
        body gone wrong) leaves its voice where it was.

        A velocity within :data:`DOPPLER_STEP` of the one OpenAL has is not sent: it would
        move the pitch by under 0.015 % (a quarter of a cent, a twentieth of the least change
        an ear hears), and a sound that moves smoothly then costs one call a frame, not two.
        Stopping is always sent."""
        self._current()
        send = self.lib.lib.alSource3f
        for voice, position in placed:
            x, y, z = position
            if not math.isfinite(x + y + z):  # any of them inf or nan
                continue
            sent = voice.sent3
            if position == voice.at:  # most sounds' entities stand still
                velocity = STILL
            else:
                if sent.get(al.AL_POSITION) != position:
                    send(voice.source, al.AL_POSITION, x, y, z)
                    sent[al.AL_POSITION] = position
                velocity = _velocity(voice.at, position, dt) or STILL
                voice.at = position
            had = sent.get(al.AL_VELOCITY, STILL)
            if velocity != had and (velocity == STILL or math.dist(velocity, had) > DOPPLER_STEP):
                send(voice.source, al.AL_VELOCITY, *velocity)
                sent[al.AL_VELOCITY] = velocity

    def muffle(self, voice: Voice, gain: float, treble: float) -> None:
        """A voice's direct path through a low-pass filter: `gain` over all, `treble` more
        over the high frequencies (1, 1: as it is; what occlusion sets)."""
        self._current()
        self.lib.filterf(voice.filter, al.AL_LOWPASS_GAIN, gain)
        self.lib.filterf(voice.filter, al.AL_LOWPASS_GAINHF, treble)
        self.lib.lib.alSourcei(voice.source, al.AL_DIRECT_FILTER, voice.filter)
        voice.muffled = gain < 1.0 or treble < 1.0

    def listen(
        self,
        position: tuple[float, float, float],
        forward: tuple[float, float, float],
        up: tuple[float, float, float],
        dt: float = 0.0,
    ) -> None:
        """Where the listener's head is, which way it faces, and, from where it was `dt`
        seconds ago, how fast it moves."""
        self._current()
        lib = self.lib.lib
        lib.alListener3f(al.AL_POSITION, *position)
        velocity = _velocity(self.listener, position, dt) or (0.0, 0.0, 0.0)
        lib.alListener3f(al.AL_VELOCITY, *velocity)
        self.listener = position
        orientation = (ctypes.c_float * 6)(*forward, *up)
        lib.alListenerfv(al.AL_ORIENTATION, orientation)

    def render(self, frames: int) -> F32Array:
        """The next `frames` stereo samples, (frames, 2) float32, mixed now (loopback only)."""
        if not self.loopback:
            raise al.OpenALError("only a loopback device renders on request")
        self._current()
        out = np.zeros((max(frames, 0), 2), dtype=np.float32)
        if frames > 0:
            self.lib.render_samples(self.device, out.ctypes.data, frames)
        return out

    def latency(self) -> float | None:
        """Seconds from a sound started (or moved) to when the speakers play it, as OpenAL
        Soft reports it: the device's latency, plus one mixing update, the longest a change
        waits to be mixed. None on a loopback device (it mixes when asked) or from a library
        that does not say."""
        if self.loopback:
            return None
        self._current()
        refresh = ctypes.c_int(0)
        self.lib.lib.alcGetIntegerv(self.device, al.ALC_REFRESH, 1, ctypes.byref(refresh))
        device = self.lib.device_latency(self.device)
        if device is None or refresh.value <= 0:
            return None
        return device + 1.0 / refresh.value

    def describe(self) -> str:
        """The device, its rate and whether HRTF is on, for people."""
        lib = self.lib.lib
        name = lib.alcGetString(self.device, al.ALC_ALL_DEVICES_SPECIFIER)  # its full name
        name = name or lib.alcGetString(self.device, al.ALC_DEVICE_SPECIFIER) or b"?"
        rate = ctypes.c_int(0)
        lib.alcGetIntegerv(self.device, al.ALC_FREQUENCY, 1, ctypes.byref(rate))
        hrtf = "on" if self.hrtf else "off"
        return f"{name.decode(errors='replace')}, {rate.value} Hz, HRTF {hrtf}"

    def close(self) -> None:
        """Stop everything and let the device go."""
        lib = self.lib
        self._current()
        sources = (ctypes.c_uint * len(self.voices))(*(v.source for v in self.voices))
        lib.lib.alDeleteSources(len(self.voices), sources)
        filters = (ctypes.c_uint * len(self.filters))(*self.filters)
        lib.delete_filters(len(self.filters), filters)
        buffers = (ctypes.c_uint * len(self._buffers))(*(b for _, b in self._buffers.values()))
        lib.lib.alDeleteBuffers(len(self._buffers), buffers)
        lib.lib.alcMakeContextCurrent(None)
        _CURRENT[0] = 0
        lib.lib.alcDestroyContext(self.context)
        lib.lib.alcCloseDevice(self.device)
