"""The project's own sounds, synthesised: ``python assets/sounds.py`` writes each to
``playspace/systems/audio/sounds/NAME.flac`` (16-bit mono, 48 kHz; the same samples every run,
so the files in the repository are what this script makes, and a test checks they are).

Each is a few lines of numpy: impacts are a material's resonant modes (sines that ring and
die away, each at its own rate) struck with a burst of noise, as modal synthesis models a
knock on wood or metal; a whoosh is noise swept through a band-pass; clicks are a few
milliseconds of a high mode. The noise comes from one seeded generator per sound. Change a
number here and run the script again.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "playspace" / "systems" / "audio" / "sounds"
RATE = 48000
Wave = npt.NDArray[Any]  # float64 samples


def _time(seconds: float) -> Wave:
    return np.arange(round(seconds * RATE)) / RATE


def _noise(seed: int, seconds: float) -> Wave:
    return np.random.default_rng(seed).uniform(-1.0, 1.0, round(seconds * RATE))


def _modes(seconds: float, modes: Sequence[tuple[float, float, float]]) -> Wave:
    """Sines of (frequency Hz, amplitude, decay per second), each ringing down."""
    t = _time(seconds)
    return np.asarray(
        np.sum([a * np.sin(2 * np.pi * f * t) * np.exp(-d * t) for f, a, d in modes], axis=0)
    )


def _lowpass(wave: Wave, cutoff: float) -> Wave:
    """A one-pole low-pass at `cutoff` Hz (a darker noise)."""
    k = 1.0 - np.exp(-2 * np.pi * cutoff / RATE)
    out = np.empty_like(wave)
    level = 0.0
    for i, value in enumerate(wave):
        level += k * (value - level)
        out[i] = level
    return out


def _strike(seed: int, seconds: float, cutoff: float, decay: float) -> Wave:
    """The hit itself: a short burst of noise, darker for a softer material."""
    t = _time(seconds)
    return _lowpass(_noise(seed, seconds), cutoff) * np.exp(-decay * t)


def impact_wood() -> Wave:
    return _modes(
        0.35, [(180, 0.5, 18), (410, 0.35, 25), (760, 0.2, 40), (1250, 0.1, 60)]
    ) + 0.6 * _strike(1, 0.35, 2500, 70)


def impact_metal() -> Wave:
    partials = [(520, 0.3, 5), (1370, 0.25, 6), (2210, 0.2, 8), (3480, 0.12, 10), (5100, 0.06, 14)]
    return _modes(1.2, partials) + 0.3 * _strike(2, 1.2, 8000, 120)


def impact_stone() -> Wave:
    return _modes(0.25, [(120, 0.5, 35), (340, 0.3, 50)]) + 0.9 * _strike(3, 0.25, 3500, 45)


def impact_snow() -> Wave:
    return 0.7 * _strike(4, 0.3, 1200, 14) * (1 + 0.5 * np.sin(2 * np.pi * 37 * _time(0.3)))


def impact_flesh() -> Wave:
    return _modes(0.2, [(90, 0.6, 30), (160, 0.3, 40)]) + 0.4 * _strike(5, 0.2, 900, 40)


def whoosh() -> Wave:
    """Air torn by a throw: noise swelling and falling, its band sweeping up."""
    t = _time(0.45)
    swell = np.sin(np.pi * t / t[-1]) ** 2
    bright = _lowpass(_noise(6, 0.45), 3000) - _lowpass(_noise(6, 0.45), 500)
    return np.asarray(1.4 * bright * swell)


def click() -> Wave:
    """A grab: a soft, short click."""
    return _modes(0.05, [(2400, 0.5, 160), (3900, 0.3, 220)]) + 0.3 * _strike(7, 0.05, 6000, 300)


def release() -> Wave:
    return 0.6 * _modes(0.05, [(1700, 0.5, 180), (2600, 0.3, 240)])


def snap() -> Wave:
    """A socket taking what it accepts: a firm metallic latch."""
    return _modes(0.18, [(1900, 0.5, 40), (3100, 0.35, 55), (4700, 0.2, 70)]) + 0.5 * _strike(
        8, 0.18, 7000, 200
    )


def button_press() -> Wave:
    return _modes(0.08, [(1300, 0.6, 90), (2900, 0.3, 120)]) + 0.3 * _strike(9, 0.08, 5000, 250)


def button_release() -> Wave:
    return 0.7 * _modes(0.07, [(1600, 0.5, 110), (3300, 0.25, 140)])


def detent() -> Wave:
    """A lever falling into a notch: a heavy clack."""
    return _modes(0.15, [(650, 0.6, 50), (1450, 0.4, 70)]) + 0.6 * _strike(10, 0.15, 4000, 120)


def tick() -> Wave:
    """A dial's step."""
    return _modes(0.03, [(3500, 0.5, 300), (5200, 0.3, 350)])


def thud() -> Wave:
    """A door or a drawer stopped at its end."""
    return _modes(0.3, [(95, 0.7, 22), (210, 0.4, 30)]) + 0.5 * _strike(11, 0.3, 1500, 35)


def slide() -> Wave:
    """A drawer running on its rails."""
    t = _time(0.4)
    rumble = _lowpass(_noise(12, 0.4), 700) * (1 + 0.4 * np.sin(2 * np.pi * 31 * t))
    return np.asarray(1.2 * rumble * np.minimum(1.0, np.minimum(t, t[-1] - t) * 25))


def footstep() -> Wave:
    return _modes(0.18, [(70, 0.6, 30), (140, 0.3, 45)]) + 0.5 * _strike(13, 0.18, 1800, 45)


def teleport() -> Wave:
    """A rising shimmer."""
    t = _time(0.35)
    pitch = 400 + 1800 * t / t[-1]
    phase = 2 * np.pi * np.cumsum(pitch) / RATE
    return np.asarray(
        0.35 * np.sin(phase) * np.sin(np.pi * t / t[-1]) * (1 + 0.3 * np.sin(2 * np.pi * 23 * t))
    )


def turn() -> Wave:
    """A snap turn: a soft whisk."""
    t = _time(0.12)
    band = _lowpass(_noise(14, 0.12), 4000) - _lowpass(_noise(14, 0.12), 1500)
    return np.asarray(0.5 * band * np.sin(np.pi * t / t[-1]))


def buzz() -> Wave:
    """A bee: a second of a wingbeat's buzz (a loop: it starts and ends at the same phase)."""
    t = _time(1.0)
    saw = np.sum([np.sin(2 * np.pi * 220 * k * t) / k for k in range(1, 8)], axis=0)
    return np.asarray(0.25 * saw * (1 + 0.2 * np.sin(2 * np.pi * 9 * t)))


def rolling() -> Wave:
    """Something rolling or sliding over a surface: a second of low, uneven rumble, a loop
    without a seam (its last twentieth of a second faded into its start)."""
    t = _time(1.05)
    rumble = _lowpass(_noise(15, 1.05), 500) - 0.6 * _lowpass(_noise(15, 1.05), 80)
    wave = rumble * (1 + 0.3 * np.sin(2 * np.pi * 7 * t))
    seam = round(0.05 * RATE)
    fade = np.linspace(0.0, 1.0, seam)
    wave[:seam] = wave[:seam] * fade + wave[-seam:] * (1 - fade)
    return np.asarray(wave[:-seam])


SOUNDS: dict[str, Callable[[], Wave]] = {
    "impact_wood": impact_wood,
    "impact_metal": impact_metal,
    "impact_stone": impact_stone,
    "impact_snow": impact_snow,
    "impact_flesh": impact_flesh,
    "whoosh": whoosh,
    "grab": click,
    "release": release,
    "socket_snap": snap,
    "button_press": button_press,
    "button_release": button_release,
    "lever_detent": detent,
    "dial_tick": tick,
    "joint_limit": thud,
    "drawer_slide": slide,
    "footstep": footstep,
    "teleport": teleport,
    "snap_turn": turn,
    "buzz": buzz,
    "rolling": rolling,
}


LOOPS = {
    "buzz": 0.25,
    "rolling": 0.4,
}  # a sound that plays on and on peaks lower: four bees, not a siren


def samples(name: str) -> npt.NDArray[np.int16]:
    """A sound as the 16-bit samples its file holds: faded in and out over a millisecond (no
    click at either end, but a loop's), peaking at 0.8 (a loop lower)."""
    wave = SOUNDS[name]()
    if name not in LOOPS:
        fade = np.minimum(1.0, np.minimum(np.arange(len(wave)), np.arange(len(wave))[::-1]) / 48)
        wave = wave * fade
    wave = LOOPS.get(name, 0.8) * wave / np.abs(wave).max()
    made: npt.NDArray[np.int16] = np.round(wave * 32767).astype(np.int16)
    return made


def make(out: Path = OUT) -> list[Path]:
    """Write every sound to `out`; the files written."""
    import soundfile

    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name in SOUNDS:
        path = out / f"{name}.flac"
        soundfile.write(str(path), samples(name), RATE, subtype="PCM_16")
        written.append(path)
    return written


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    for path in make():
        print(path.relative_to(ROOT))
