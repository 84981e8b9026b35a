"""Live development in a real preview window (Xvfb): a running game takes its saved module at
the next frames, says a broken save in one line and recovers, keeps the last 30 s at F9, and
shows the inspector at F1."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from playspace.systems.input import load_trace
from tests.needs import need_program
from tests.window_helpers import without_display

ROOT = Path(__file__).resolve().parents[2]
KITCHEN = ROOT / "examples" / "kitchen.toml"

GAME = """
from __future__ import annotations

from dataclasses import dataclass

from playspace.ecs import Phase, World, system

SCENE = "{scene}"
POINTS = {points}


@dataclass
class Seen:
    points: int = 0


@system(Phase.FIXED, writes=(Seen,))
def note(world: World) -> None:
    world.resource(Seen).points = POINTS


def build(world: World) -> None:
    world.insert_resource(Seen())
    world.add_systems(note)


def summary(world: World) -> str:
    return f"points seen last: {{world.resource(Seen).points}}"
"""


def _until(done: Callable[[], bool], what: str, run: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + 60
    while not done():
        if run.poll() is not None or time.monotonic() > deadline:
            raise AssertionError(f"never saw {what}")
        time.sleep(0.05)


@pytest.mark.slow
def test_a_running_game_takes_its_saves_keeps_30_s_and_shows_the_inspector(
    xvfb: str, tmp_path: Path
) -> None:
    need_program("xdotool", "xdotool")
    env = {**without_display(), "DISPLAY": xvfb}
    game = tmp_path / "game.py"
    game.write_text(GAME.format(scene=KITCHEN, points=1))
    said, shot, trace = tmp_path / "said.txt", tmp_path / "last.png", tmp_path / "session.jsonl"
    args = ["--quit-after", "100000", "--screenshot", str(shot), "--record", str(trace)]
    with said.open("w") as stderr:
        run = subprocess.Popen(
            [sys.executable, "-m", "playspace.cli", "run", str(game), *args],
            cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=stderr, text=True,
        )  # fmt: skip

        def xdotool(*words: str) -> str:
            return subprocess.run(
                ["xdotool", *words], env=env, capture_output=True, text=True, timeout=30,
                check=True,
            ).stdout  # fmt: skip

        def heard(words: str) -> Callable[[], bool]:
            return lambda: words in said.read_text()

        try:
            xdotool("search", "--sync", "--name", "playspace: game.py")  # the window is up
            _until(lambda: trace.exists() and trace.read_text().count("\n") > 10, "steps", run)
            broken = GAME.format(scene=KITCHEN, points=1).replace("POINTS = 1", "POINTS =")
            game.write_text(broken)
            _until(heard("reload failed, still running the last good one"), "the failure", run)
            game.write_text(GAME.format(scene=KITCHEN, points=5))
            _until(heard("reloaded "), "the reload", run)
            xdotool("key", "F9")
            _until(heard("kept the last"), "the keeping", run)
            xdotool("key", "F1")
            time.sleep(1.0)  # a few frames with the inspector up
            xdotool("key", "Escape")
            out, _ = run.communicate(timeout=60)
        finally:
            if run.poll() is None:
                run.kill()
                run.wait()
    lines = said.read_text().splitlines()
    assert run.returncode == 0, lines
    failed = next(line for line in lines if "reload failed" in line)
    line = 1 + broken.splitlines().index("POINTS =")
    assert f"{game.name}:{line}: not valid Python" in failed  # one line: the file and the line
    assert "points seen last: 5" in out  # the saved constant ran in the window
    (kept,) = tmp_path.glob("kept-*.jsonl")
    assert "the whole session: it replays exactly" in next(x for x in lines if "kept" in x)
    assert len(load_trace(kept).samples) > 10
    picture = np.asarray(Image.open(shot).convert("RGB")).astype(int)
    height, width, _ = picture.shape
    middle = picture[height // 3 : 2 * height // 3, width // 3 : 2 * width // 3]
    panel = np.all(np.abs(middle - (20, 23, 31)) < 25, axis=2).mean()  # its dark background
    assert panel > 0.3, f"the inspector's panel covers {panel:.0%} of the middle"
