"""Sound as plain data: what an entity plays (:class:`Sound`, Godot's ``AudioStreamPlayer3D``,
Unity's ``AudioSource``), a one-shot a game or a system sends (:class:`PlaySound`), the sounds a
world knows by name (:class:`SoundBank`) and how it hears them (:class:`AudioSettings`).

A sound plays from where its entity is drawn, heard from where the player's head is drawn
(both placed in LATE, as the eyes are). Distances are metres: a sound is at its full volume
out to `min_distance`, then falls off as `min_distance / distance` times `rolloff` (OpenAL's
inverse distance model, which Unity's logarithmic rolloff is), no further than `max_distance`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar

from playspace.spatial import Vec3


def _check(volume: float, pitch: float, rolloff: float, near: float, far: float) -> None:
    for name, value in (("volume", volume), ("pitch", pitch), ("rolloff", rolloff)):
        if not (isinstance(value, int | float) and math.isfinite(value) and value >= 0):
            raise ValueError(f"sound {name} must be a number >= 0, got {value!r}")
    if pitch <= 0:
        raise ValueError(f"sound pitch must be > 0, got {pitch!r}")
    if not (math.isfinite(near) and math.isfinite(far) and 0 < near <= far):
        raise ValueError(
            f"sound distances need 0 < min_distance <= max_distance, got {near}, {far}"
        )


@dataclass(slots=True)
class Sound:
    """What an entity plays: `clip` (a name in the world's :class:`SoundBank`, or a sound
    file's path), at `volume` (1: as recorded) and `pitch` (1: as recorded; 2 an octave up),
    looping or once, `spatial` (from the entity, or straight into both ears: music, a
    voice-over), with its falloff. `playing` False stops it; True again starts it over."""

    clip: str
    volume: float = 1.0
    pitch: float = 1.0
    loop: bool = True
    spatial: bool = True
    rolloff: float = 1.0
    min_distance: float = 1.0
    max_distance: float = 50.0
    playing: bool = True

    def __post_init__(self) -> None:
        _check(self.volume, self.pitch, self.rolloff, self.min_distance, self.max_distance)


@dataclass(frozen=True, slots=True)
class PlaySound:
    """Play `clip` once: `at` a place in the world, or from `entity` (following it while it
    plays), or, with neither, straight into both ears. An event: any system or game sends it."""

    kind: ClassVar[str] = "play_sound"
    clip: str
    at: Vec3 | None = None
    entity: int | None = None
    volume: float = 1.0
    pitch: float = 1.0
    min_distance: float = 1.0
    max_distance: float = 50.0
    rolloff: float = 1.0

    def __post_init__(self) -> None:
        _check(self.volume, self.pitch, self.rolloff, self.min_distance, self.max_distance)
        if self.at is not None and not all(math.isfinite(c) for c in self.at):
            raise ValueError(f"sound place must be finite, got {tuple(self.at)}")


@dataclass(slots=True)
class SoundBank:
    """The sounds a world knows by name, a resource: a name and the file it is read from
    (WAV, OGG or FLAC). The default set is the project's own, synthesised by
    ``assets/sounds.py``; a game adds or replaces names."""

    files: dict[str, Path] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class AudioSettings:
    """How the world is heard, a resource: `volume` over everything, HRTF (the sound as each
    ear hears it, from the head's shape: direction above and behind as well as left and
    right), the speed of sound for Doppler (m/s), how many sounds may play at once (the
    quietest new one waits when all are busy), and the sound `device` a preview or a headset
    plays through, by the name OpenAL gives it (``playspace doctor`` lists them; None: the
    system's default). A headset's own audio is a device of its own on a desktop (its HDMI or
    USB sound), and OpenXR names it on no runtime but Meta's Windows one, so it is named
    here."""

    volume: float = 1.0
    hrtf: bool = True
    speed_of_sound: float = 343.3
    voices: int = 128
    device: str | None = None

    def __post_init__(self) -> None:
        if not (math.isfinite(self.volume) and self.volume >= 0):
            raise ValueError(f"audio volume must be >= 0, got {self.volume!r}")
        if not (math.isfinite(self.speed_of_sound) and self.speed_of_sound > 0):
            raise ValueError(f"speed of sound must be > 0, got {self.speed_of_sound!r}")
        if not 1 <= self.voices <= 255:
            raise ValueError(f"voices must be 1 to 255, got {self.voices!r}")
        if self.device is not None and (not self.device or "\0" in self.device):
            raise ValueError(f"a sound device is named by a non-empty name, got {self.device!r}")


MATERIALS = ("wood", "metal", "stone", "snow", "flesh")


@dataclass(frozen=True, slots=True)
class SurfaceSound:
    """What an entity sounds like when it strikes something: its `material`, one of
    :data:`MATERIALS` (the sound bank's ``impact_<material>``). Without one, a moving body
    sounds of wood and the scenery of stone."""

    material: str = "wood"

    def __post_init__(self) -> None:
        if self.material not in MATERIALS:
            raise ValueError(f"sound material must be one of {MATERIALS}, got {self.material!r}")
