"""A game's system that raises, run through the command as a user runs it: one line naming the
system, its line and the step, exit status 1, the telemetry written so far kept; ``--debug``
shows the whole traceback."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from playspace.formats.telemetry import read_telemetry
from tests.cli_helpers import playspace

FAILS_AT = 20  # the fixed step the game's system divides by zero at
GAME = f"""\
from playspace.prelude import FixedSet, Phase, World, system

SCENE = "scene.toml"


def per_step(world: World) -> float:
    return 1 / (world.fixed_time.step - {FAILS_AT})


@system(Phase.FIXED, in_set=FixedSet.GAME)
def countdown(world: World) -> None:
    per_step(world)


def build(world: World) -> None:
    world.add_systems(countdown)
"""
LINE = 7  # the division, in GAME
SCENE = '[[box]]\nname = "floor"\nsize = [4, 0.2, 4]\nposition = [0, -0.1, 0]\n'
SAID = (
    f"system 'countdown' (game.py:{LINE}) failed at fixed step {FAILS_AT}: "
    "ZeroDivisionError: division by zero"
)


@pytest.fixture
def game(tmp_path: Path) -> Path:
    (tmp_path / "scene.toml").write_text(SCENE)
    path = tmp_path / "game.py"
    path.write_text(GAME)
    return path


def run(game: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``playspace run game.py --headless`` from the game's folder, as its author runs it."""
    return playspace("run", game.name, "--headless", "--seconds", "1", *args, cwd=game.parent)


def test_a_failing_system_is_one_line_and_the_telemetry_keeps_the_steps_before(
    game: Path,
) -> None:
    done = run(game, "--telemetry", "out.jsonl")
    assert done.returncode == 1
    assert done.stderr == f"playspace run: {SAID}\n"
    written = (game.parent / "out.jsonl").read_text()
    assert written.endswith("\n")  # whole lines only
    steps = read_telemetry(game.parent / "out.jsonl").steps
    assert [s["step"] for s in steps] == list(range(FAILS_AT))  # up to the step before


def test_debug_shows_the_whole_traceback(game: Path) -> None:
    done = run(game, "--debug")
    assert done.returncode == 1
    assert "Traceback (most recent call last)" in done.stderr
    assert f'game.py", line {LINE}, in per_step' in done.stderr
    assert "ZeroDivisionError: division by zero" in done.stderr
    assert SAID in done.stderr  # the world's own words close it


@pytest.mark.net
def test_a_hosted_world_says_it_in_the_hosts_name(game: Path) -> None:
    """Any command that runs a world says the failure in its own name: a game hosted
    headless (its world steps in ``playspace host``, the network on loopback only)."""
    done = playspace(
        "host", game.name, "--seconds", "1", "--listen", "tcp/127.0.0.1:0", cwd=game.parent
    )
    assert done.returncode == 1, done.stderr
    assert done.stderr == f"playspace host: {SAID}\n"
