"""Comfort plots from telemetry."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pytest

from playspace.app.game import load_example
from playspace.cli.telemetry_plot import (
    PlotError,
    Step,
    comfort_figure,
    plot_telemetry,
    scene_outlines,
)
from tests.game_helpers import EXAMPLES, replay

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure
    from matplotlib.lines import Line2D


@pytest.fixture
def telemetry(tmp_path: Path) -> Path:

    steps = replay(EXAMPLES / "stairs.toml", EXAMPLES / "traces" / "stairs.jsonl")
    path = tmp_path / "stairs.jsonl"
    header = {"format": "playspace-telemetry", "version": 1, "fixed_hz": 90}
    path.write_text("\n".join(json.dumps(r) for r in [header, *steps]) + "\n")
    return path


@pytest.mark.slow
def test_plot_writes_a_png(telemetry: Path, tmp_path: Path) -> None:
    out = tmp_path / "stairs.png"
    plot_telemetry(telemetry, out)
    data = out.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 20_000


def test_bad_telemetry_names_the_file_and_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"format": "playspace-trace", "version": 1}\n')
    with pytest.raises(PlotError, match=r"bad.jsonl:1: not a playspace telemetry file"):
        plot_telemetry(bad, tmp_path / "x.png")
    bad.write_text('{"format": "playspace-telemetry", "version": 1}\n{not json\n')
    with pytest.raises(PlotError, match=r"bad.jsonl:2: not JSON"):
        plot_telemetry(bad, tmp_path / "x.png")


HEADER = '{"format": "playspace-telemetry", "version": 1}\n'
POSES = '"head": {"p": [0, 1.6, 0]}, "body": {"p": [0, 0, 0]}, "origin": {"p": [0, 0, 0]}'


@pytest.mark.parametrize(
    ("step", "message"),
    [
        ("[1, 2]", r"bad.jsonl:2: step: expected an object"),
        ('{"step": 0}', r"bad.jsonl:2: t: expected a number"),
        ('{"t": 0, "head": {"p": [0, 1]}}', r"bad.jsonl:2: head.p: expected three numbers"),
        ('{"t": 0, ' + POSES + ', "events": [{}]}', r"events\[0\]: expected a type"),
        ('{"t": 0, ' + POSES + ', "events": [{"type": "release"}]}', r"events\[0\].linear"),
        ("[" * 100_000, r"bad.jsonl:2: not"),
    ],
)
def test_a_step_the_plot_cannot_read_is_named(tmp_path: Path, step: str, message: str) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text(HEADER + step + "\n")
    with pytest.raises(PlotError, match=message):
        plot_telemetry(bad, tmp_path / "x.png")


def test_binary_input_and_a_wrong_output_are_named(telemetry: Path, tmp_path: Path) -> None:
    binary = tmp_path / "b.jsonl"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(PlotError, match=r"b.jsonl: not a text file"):
        plot_telemetry(binary, tmp_path / "x.png")
    with pytest.raises(PlotError, match=r"the plot is a PNG"):
        plot_telemetry(telemetry, tmp_path / "x.txt")
    with pytest.raises(PlotError, match=r"no such folder"):
        plot_telemetry(telemetry, tmp_path / "missing" / "x.png")


def test_without_matplotlib_the_message_names_the_extra(
    telemetry: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    with pytest.raises(PlotError, match=r"pip install 'playspace\[plot\]'"):
        plot_telemetry(telemetry, tmp_path / "x.png")


@pytest.mark.slow
def test_the_plot_command(telemetry: Path, tmp_path: Path) -> None:
    from tests.cli_helpers import playspace

    out = tmp_path / "p.png"
    done = playspace("plot", telemetry, "--out", out)
    assert done.returncode == 0, done.stderr
    assert out.read_bytes()[:4] == b"\x89PNG"
    bad = playspace("plot", tmp_path / "none", "--out", out)
    assert bad.returncode == 2 and "cannot read" in bad.stderr
    walls = tmp_path / "walls.png"
    done = playspace("plot", telemetry, "--scene", EXAMPLES / "stairs.toml", "--out", walls)
    assert done.returncode == 0, done.stderr
    assert _grey_pixels(walls) > _grey_pixels(out) + 1_000  # the stairs' walls, from above
    bad = playspace("plot", telemetry, "--scene", tmp_path / "none.toml", "--out", walls)
    assert bad.returncode == 2 and "none.toml" in bad.stderr


WALL_GREY = 0.55  # the outlines' color, drawn at alpha 0.6 over white


def _grey_pixels(png: Path) -> int:
    from PIL import Image

    with Image.open(png) as image:
        rgb = np.asarray(image.convert("RGB")).astype(int)
    grey = round(255 * (1 - 0.6 * (1 - WALL_GREY)))
    return int((np.abs(rgb - grey).max(axis=2) <= 2).sum())


def test_the_view_from_above_draws_the_walls_of_the_scene(tmp_path: Path) -> None:
    steps = replay(EXAMPLES / "roomscale.toml", EXAMPLES / "traces" / "roomscale.jsonl")
    path = tmp_path / "room.jsonl"
    header = {"format": "playspace-telemetry", "version": 1, "fixed_hz": 90}
    path.write_text("\n".join(json.dumps(r) for r in [header, *steps]) + "\n")
    with_walls, without = tmp_path / "walls.png", tmp_path / "bare.png"
    plot_telemetry(path, with_walls, EXAMPLES / "roomscale.toml")
    plot_telemetry(path, without)
    assert _grey_pixels(with_walls) > 10_000  # four walls, the table, the shelf, the ramp
    assert _grey_pixels(without) < 1_000  # anti-aliased text and lines only


def test_outlines_leave_out_the_floor_and_follow_a_turned_box(tmp_path: Path) -> None:
    outlines = scene_outlines(EXAMPLES / "roomscale.toml")
    assert len(outlines) == 7  # four walls, table, shelf, ramp; not the floor
    scene = tmp_path / "turned.toml"
    scene.write_text(
        '[[box]]\nname = "floor"\nsize = [4, 0.2, 4]\nposition = [0, -0.1, 0]\n'
        '[[box]]\nname = "crate"\nsize = [1, 1, 1]\nposition = [2, 0.5, 0]\nrotation = [0, 45, 0]\n'
    )
    (crate,) = scene_outlines(scene)
    assert len(crate) == 4
    assert np.allclose(np.ptp(crate, axis=0), [2**0.5, 2**0.5])  # a diamond, not a square
    assert np.allclose(crate.mean(axis=0), [2, 0])


def test_a_scene_the_plot_cannot_read_is_named(telemetry: Path, tmp_path: Path) -> None:
    with pytest.raises(PlotError, match=r"nowhere.toml"):
        plot_telemetry(telemetry, tmp_path / "x.png", tmp_path / "nowhere.toml")


def figure_of(example: str, scene: Path | None = None) -> tuple[Figure, list[Step]]:
    """The comfort figure of an example replayed from its own trace (a game module's rules
    added), and the steps it draws."""
    from matplotlib.figure import Figure

    game = EXAMPLES / f"{example}.py"
    build = load_example(game).build if game.exists() else None
    played = EXAMPLES / (f"{example}.toml" if build is None else load_example(game).scene.name)
    steps = replay(played, EXAMPLES / "traces" / f"{example}.jsonl", build)
    outlines = [] if scene is None else scene_outlines(scene)
    return comfort_figure(Figure, example, steps, outlines), steps


def labelled(axes: Axes, label: str) -> Line2D:
    (found,) = [line for line in axes.get_lines() if line.get_label() == label]
    return found


def test_snap_turns_and_the_teleport_are_marked_on_the_path_not_walked() -> None:
    from matplotlib.text import Annotation

    figure, steps = figure_of("roomscale", EXAMPLES / "roomscale.toml")
    _, above = figure.axes
    turned = [steps[i]["head"]["p"] for i, s in enumerate(steps) if has(s, "turned")]
    assert len(turned) == 3  # the trace's three snap turns
    turns = labelled(above, "snap turn")
    assert np.allclose(np.column_stack(turns.get_data()), [(p[0], p[2]) for p in turned])
    ((at, teleport),) = [(i, e) for i, s in enumerate(steps) for e in s["events"]
                         if e["type"] == "teleported"]  # fmt: skip
    landed = labelled(above, "teleport")
    assert np.allclose(np.column_stack(landed.get_data()), [(teleport["to"][0], teleport["to"][2])])
    (jump,) = [a for a in above.texts if isinstance(a, Annotation)]
    before = steps[at - 1]["body"]["p"]
    assert np.allclose(jump.xyann, (before[0], before[2]))  # from where the player stood
    assert np.allclose(jump.xy, (teleport["to"][0], teleport["to"][2]))  # to where they landed
    for part in ("head", "body"):
        x, z = (np.asarray(a, dtype=float) for a in labelled(above, part).get_data())
        assert np.isnan(x[at]) and np.isnan(z[at])  # the path breaks at the jump
        assert np.count_nonzero(np.isnan(x)) == 1  # and nowhere else


def test_no_legend_covers_a_panel() -> None:
    figure, _ = figure_of("roomscale", EXAMPLES / "roomscale.toml")
    figure.draw_without_rendering()
    for axes in figure.axes:
        legend = axes.get_legend()
        assert legend is not None
        box, panel = legend.get_window_extent(), axes.get_window_extent()
        assert not box.overlaps(panel), axes.get_title()


def test_no_panel_has_nothing_to_show() -> None:
    """The kitchen's one release sets the pan down (0 m/s): no throw, no throw panel; the
    snowball's throw gets its bar."""
    from matplotlib.patches import Rectangle

    kitchen, steps = figure_of("kitchen")
    assert any(e["type"] == "released" for s in steps for e in s["events"])
    assert [a.get_title() for a in kitchen.axes] == [
        "head and floor heights",
        "the path from above",
    ]
    for axes in kitchen.axes:
        assert axes.has_data()
    snowball, _ = figure_of("snowball")
    thrown = snowball.axes[2]
    assert thrown.get_title().startswith("throw speeds")
    (bar,) = thrown.patches
    assert isinstance(bar, Rectangle) and bar.get_height() > 5.0  # the 7.3 m/s throw


def has(step: Step, kind: str) -> bool:
    return any(e["type"] == kind for e in step["events"])
