"""The README's pictures show what their captions say.

Each picture is made again into a temporary folder by the commands ``docs/make_pictures.py``
runs (its own functions, at ``--quality low`` to keep this quick), and its pixels are checked
for what the caption promises. Each check has a control that the same measure rejects: the
kitchen before the pan reaches the wall has no ghost, the range before the throw has no
trail, a plot without its scene has no walls.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import numpy.typing as npt
import pytest
from moderngl import Context
from PIL import Image

ROOT = Path(__file__).resolve().parents[2]
Picture = npt.NDArray[np.int_]

# Colors measured in the pictures (sRGB bytes, as the PNG holds them)
BEE = (255, 250, 70)  # a lit bee's yellow, where the sun faces it
GHOST_OVER_PLASTER = (187, 184, 179)  # the steel pan's ghost in front of the back wall
GHOST_IN_WALL = (189, 194, 191)  # the pan's ghost seen through the pale green pantry wall
TARGETS = {"red": (215, 41, 62), "yellow": (244, 195, 50), "blue": (35, 111, 205)}
WALLS = (186, 186, 186)  # the plots' grey fill of walls and furniture
# where, in the snowball picture, the arc passes between the hand and the red target (rows,
# columns): the white head block and the snowballs on the pile are outside it
ARC = (slice(300, 400), slice(380, 620))
# where, in the kitchen picture, the pan is pushed into the pantry wall: the floor's grid
# lines, lower down, can come out in the ghost's colors
PAN = (slice(250, 450), slice(400, 760))


def _make_pictures() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "make_pictures", ROOT / "docs" / "make_pictures.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


pictures = _make_pictures()


def load(path: Path) -> Picture:
    return np.asarray(Image.open(path).convert("RGB")).astype(int)


def near(picture: Picture, color: tuple[int, int, int], within: int = 3) -> int:
    """How many pixels are `color`, each channel within `within`."""
    return int(np.sum(np.abs(picture - np.array(color)).max(axis=2) <= within))


def screenshot(name: str, out: Path, seconds: float | None = None) -> Picture:
    """The picture `name` as make_pictures draws it (at another moment when `seconds`)."""
    args = pictures.screenshot_args(name, out, quality="low")
    if seconds is not None:
        args[args.index("--seconds") + 1] = str(seconds)
    pictures.playspace(*args)
    return load(out / name)


@pytest.mark.slow
def test_the_kitchen_shows_the_pan_ghosting_in_the_wall_and_the_bee_behind_it(
    tmp_path: Path, ctx: Context
) -> None:
    """(`ctx`: skipped where this machine has no OpenGL for the capture.)"""
    shown = screenshot("kitchen-ghost.png", tmp_path)
    assert near(shown, BEE, within=10) > 300
    assert near(shown[PAN], GHOST_OVER_PLASTER) > 300  # the part of the pan still outside
    assert near(shown[PAN], GHOST_IN_WALL) > 300  # the part inside the wall, seen through it
    before = screenshot("kitchen-ghost.png", tmp_path, seconds=4.0)  # held, not in the wall
    assert near(before[PAN], GHOST_OVER_PLASTER) == near(before[PAN], GHOST_IN_WALL) == 0


@pytest.mark.slow
def test_the_snowball_flies_on_a_trail_from_the_hand_to_the_red_target(
    tmp_path: Path, ctx: Context
) -> None:
    shown = screenshot("snowball-throw.png", tmp_path)
    for color in TARGETS.values():
        assert near(shown, color, within=10) > 2000
    distances = [
        np.abs(np.subtract(a, b)).max() for a in TARGETS.values() for b in TARGETS.values()
    ]
    assert min(d for d in distances if d) > 60  # three colors a reader tells apart
    assert np.sum(shown[ARC].min(axis=2) > 235) > 200  # the white dots of the arc
    before = screenshot("snowball-throw.png", tmp_path, seconds=1.3)  # still in the hand
    assert np.sum(before[ARC].min(axis=2) > 235) == 0


@pytest.mark.slow
def test_the_plots_draw_the_walls_under_the_path(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    pictures.make_plots(tmp_path, tmp_path)
    for name in pictures.PLOTS:
        assert near(load(tmp_path / f"{name}-plot.png"), WALLS, within=2) > 5000
        bare = tmp_path / f"{name}-bare.png"
        pictures.playspace("plot", tmp_path / f"{name}.jsonl", "--out", bare)  # no --scene
        assert near(load(bare), WALLS, within=2) < 500  # grey only where text is smoothed
