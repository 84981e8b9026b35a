"""Sound's cost: ``python benchmarks/audio.py``.

- ``python a frame``: the LATE sound systems (``listen``, ``play_sounds``) with 32 spatial
  sources looping on moving entities and 200 one-shots a second (knocks of a quarter second:
  an impact's worth of contacts), at 90 frames a second (goal: under 0.3 ms);
- ``mix a minute``: OpenAL Soft mixing a minute of those 32 sources with HRTF on its loopback
  device, as a headless run renders its sound, against the minute itself (goal: 10x faster
  than real time);
- the same mix with HRTF off (plain stereo panning), for the ratio of what HRTF costs;
- ``the kitchen, a minute``: ``examples/kitchen.py`` run headless for a minute of its world
  (its bees buzzing, its knocks), with its sound written to a file and without, against the
  minute (goal: the run with sound 10x faster than real time);
- ``event to output``: on this machine's default sound device, opened as the preview opens
  it, how long after an event its sound is heard, as OpenAL Soft reports it (the device's
  latency plus one mixing update; goal: under 30 ms). None on a machine with no device; with
  ``ALSOFT_DRIVERS=null``, OpenAL's null device, which mixes in real time and plays nowhere.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playspace import spatial  # noqa: E402
from playspace.components import Transform  # noqa: E402
from playspace.components.audio import AudioSettings, PlaySound, Sound  # noqa: E402
from playspace.ecs import World  # noqa: E402
from playspace.systems.audio import AudioPlugin, listen, play_sounds, render  # noqa: E402
from playspace.systems.audio.engine import RATE, AudioEngine  # noqa: E402
from playspace.systems.audio.openal import OpenALError  # noqa: E402

SOURCES = 32
ONE_SHOTS_A_SECOND = 200
HZ = 90


def clip(folder: Path) -> Path:
    """A second of a buzz (a few harmonics), the kind of loop a bee or a machine plays."""
    import soundfile

    t = np.arange(RATE) / RATE
    buzz = 0.2 * np.sum([np.sin(2 * np.pi * 220 * k * t) / k for k in range(1, 6)], axis=0)
    path = folder / "buzz.wav"
    soundfile.write(str(path), buzz.astype(np.float32), RATE)
    return path


def knock(folder: Path) -> Path:
    """A quarter of a second of a knock, the length of the default impacts."""
    import soundfile

    t = np.arange(RATE // 4) / RATE
    path = folder / "knock.wav"
    soundfile.write(str(path), (0.5 * np.sin(2 * np.pi * 300 * t) * np.exp(-20 * t)), RATE)
    return path


def world_with_sources(path: Path, hrtf: bool = True) -> tuple[World, list[int]]:
    world = World()
    world.insert_resource(AudioSettings(hrtf=hrtf))
    world.add_plugin(AudioPlugin(output="memory"))
    entities = [
        world.spawn(Transform(spatial.vec3(math.cos(i), 1.0, math.sin(i) - 2)), Sound(str(path)))
        for i in range(SOURCES)
    ]
    world.advance(1 / HZ)
    return world, entities


def python_per_frame(path: Path, frames: int) -> float:
    """Milliseconds of the sound systems a frame, the sources moving and one-shots (knocks)
    sent."""
    world, entities = world_with_sources(path)
    struck = knock(path.parent)
    times, sent = [], 0.0
    for frame in range(frames):
        for number, entity in enumerate(entities):
            angle = frame / HZ + number
            world.get(entity, Transform).position = spatial.vec3(math.cos(angle), 1.0, -2.0)
        sent += ONE_SHOTS_A_SECOND / HZ
        while sent >= 1.0:
            world.send(PlaySound(str(struck), at=spatial.vec3(0.5, 0.0, -1.0), volume=0.3))
            sent -= 1.0
        start = time.perf_counter()
        listen(world)
        play_sounds(world)
        times.append(time.perf_counter() - start)
        render(world, RATE // HZ)
    return statistics.median(times) * 1e3


def mix_a_minute(path: Path, hrtf: bool, seconds: float) -> float:
    """Seconds to mix `seconds` (a minute) of the sources, a frame's samples at a time."""
    world, _ = world_with_sources(path, hrtf)
    start = time.perf_counter()
    for _ in range(round(seconds * HZ)):
        render(world, RATE // HZ)
    return time.perf_counter() - start


def kitchen_minute(folder: Path, seconds: float) -> tuple[float, float]:
    """Seconds to run the kitchen example a minute headless: with its sound written, and
    without (both after the same start-up)."""
    from playspace.loops.outputs import WaveStream
    from playspace.loops.replay import run_headless

    timings = []
    for heard in (True, False):
        start = time.perf_counter()
        with contextlib.closing(WaveStream(folder / "kitchen.wav")) as out:
            run_headless(ROOT / "examples" / "kitchen.py", None, None, seconds,
                         audio=out if heard else None)  # fmt: skip
        timings.append(time.perf_counter() - start)
    return timings[0], timings[1]


def heard_after_ms() -> float | None:
    """Milliseconds from an event to the speakers on the default device, as OpenAL Soft
    reports it (None: no device, or a library that does not say)."""
    try:
        engine = AudioEngine(AudioSettings(), loopback=False)
    except OpenALError:
        return None
    try:
        latency = engine.latency()
    finally:
        engine.close()
    return None if latency is None else latency * 1e3


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=900)
    parser.add_argument("--seconds", type=float, default=60.0, help="of mixing, and of kitchen")
    args = parser.parse_args()
    scale = 60.0 / args.seconds  # the figures are for a minute
    with tempfile.TemporaryDirectory() as folder:
        path = clip(Path(folder))
        python_ms = python_per_frame(path, args.frames)
        hrtf_s = mix_a_minute(path, True, args.seconds) * scale
        plain_s = mix_a_minute(path, False, args.seconds) * scale
        kitchen_s, silent_s = (t * scale for t in kitchen_minute(Path(folder), args.seconds))
    heard_ms = heard_after_ms()
    print(f"{SOURCES} looping spatial sources, {ONE_SHOTS_A_SECOND} one-shots a second, {HZ} Hz")
    print(f"{'what':<34}{'value':>10}")
    print(f"{'python a frame (ms)':<34}{python_ms:>10.3f}")
    for label, seconds in (
        ("mix a minute, HRTF (s)", hrtf_s),
        ("mix a minute, stereo panning (s)", plain_s),
        ("the kitchen, a minute, heard (s)", kitchen_s),
        ("the kitchen, a minute, silent (s)", silent_s),
    ):
        print(f"{label:<34}{seconds:>10.2f}   {60 / seconds:.0f}x real time")
    heard = "none: no sound device" if heard_ms is None else f"{heard_ms:.1f}"
    print(f"{'event to output (ms)':<34}{heard:>10}")
    frame_met = "yes" if python_ms < 0.3 else "no"
    kitchen_met = "yes" if 60 / kitchen_s >= 10 else "no"
    heard_met = "not measured" if heard_ms is None else "yes" if heard_ms < 30 else "no"
    print(
        f"goals: under 0.3 ms a frame: {frame_met}; the kitchen heard 10x real time: "
        f"{kitchen_met}; heard within 30 ms: {heard_met}"
    )
    figures = {
        "sources": SOURCES,
        "one_shots_a_second": ONE_SHOTS_A_SECOND,
        "python_frame_ms": round(python_ms, 4),
        "mix_minute_hrtf_s": round(hrtf_s, 3),
        "mix_minute_plain_s": round(plain_s, 3),
        "hrtf_faster_than_real_time": round(60 / hrtf_s, 1),
        "kitchen_minute_heard_s": round(kitchen_s, 3),
        "kitchen_minute_silent_s": round(silent_s, 3),
        "event_to_output_ms": None if heard_ms is None else round(heard_ms, 2),
    }
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
