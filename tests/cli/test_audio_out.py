"""``playspace run --headless --audio-out FILE.wav``: the run's sound, mixed from its own events
step by step, as long as the run, and the same samples every time the same run is made."""

from __future__ import annotations

import wave
from pathlib import Path

import numpy as np
import pytest

from tests.cli_helpers import playspace

GAME = '''
from playspace.prelude import Phase, World, spatial, system
from playspace.components.audio import PlaySound

SCENE = "room.toml"


@system(Phase.FIXED, writes=(PlaySound,))
def chime(world: World) -> None:
    """A chime at the right every half second, at the left every second."""
    step = world.fixed_time.step
    if step % 45 == 1:
        side = 1.0 if step % 90 == 1 else -1.0
        world.send(PlaySound({clip!r}, at=spatial.vec3(side, 1.6, -0.5)))


def build(world: World) -> None:
    world.add_systems(chime)
'''


@pytest.fixture
def game(tmp_path: Path) -> Path:
    import soundfile

    clip = tmp_path / "chime.wav"
    t = np.arange(4800) / 48000
    soundfile.write(str(clip), (0.5 * np.sin(2 * np.pi * 880 * t) * np.exp(-t * 30)), 48000)
    (tmp_path / "room.toml").write_text(
        '[[box]]\nname = "floor"\nsize = [4, 0.2, 4]\nposition = [0, -0.1, 0]\n'
    )
    module = tmp_path / "chimes.py"
    module.write_text(GAME.format(clip=str(clip)))
    return module


def _samples(path: Path) -> tuple[int, np.ndarray]:
    with wave.open(str(path), "rb") as heard:
        assert (heard.getnchannels(), heard.getsampwidth()) == (2, 2)
        frames = heard.readframes(heard.getnframes())
        return heard.getframerate(), np.frombuffer(frames, "<i2").reshape(-1, 2)


def test_a_headless_run_writes_its_sound_the_same_every_time(game: Path, tmp_path: Path) -> None:
    outs = [tmp_path / "first.wav", tmp_path / "second.wav"]
    for out in outs:
        done = playspace(
            "run", game, "--headless", "--seconds", "2", "--audio-out", out, without_gl=True
        )
        assert done.returncode == 0, done.stderr
        assert f"sound in {out}" in done.stdout
    rate, samples = _samples(outs[0])
    assert rate == 48000 and len(samples) == 2 * 48000  # 180 steps at 90 Hz: two seconds
    assert outs[0].read_bytes() == outs[1].read_bytes()
    first, second = samples[:20000].astype(float), samples[24000:44000].astype(float)
    assert np.abs(first[:, 1]).sum() > 2 * np.abs(first[:, 0]).sum()  # the right chime
    assert np.abs(second[:, 0]).sum() > 2 * np.abs(second[:, 1]).sum()  # then the left


def test_audio_out_is_for_headless_runs(tmp_path: Path) -> None:
    done = playspace("run", "examples/kitchen.toml", "--audio-out", str(tmp_path / "a.wav"))
    assert done.returncode == 2 and "--audio-out is for headless runs" in done.stderr
