"""Comfort plots from telemetry: what a player's inner ear and a thrower's eye would notice.

Panels: the head's height and the body's floor against time, with floor snaps marked
(slope quantization at work: the view's floor moves in steps, the body's floor continuously);
the path seen from above (head, body, and where objects went), over the scene's walls and
furniture when the scene is given (what the head was pushed back from, or faded against), with
each snap turn marked where the head was and each teleport drawn as a jump, not a walk; and
the speed of every throw (a release faster than a set-down), only when there were throws. The
legends stand beside their panels, covering nothing. Needs matplotlib, the ``plot`` extra:
``pip install 'playspace[plot]'``.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from playspace import spatial
from playspace.app.spawn import spawn_scene
from playspace.components import Scenery, Transform
from playspace.components.physics import Box, Colliders
from playspace.ecs import World
from playspace.formats import telemetry
from playspace.formats.scene import load_scene
from playspace.systems.telemetry import THROW_SPEED

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

    from playspace.spatial import FloatArray

ABOVE_FLOOR = 0.05  # metres: scenery whose top is lower than this over the start is floor
HEIGHTS, ABOVE, THROWS = "head and floor heights", "the path from above", "throw speeds"
Step = dict[str, Any]


class PlotError(ValueError):
    """The telemetry cannot be plotted, or the plotting extra is missing."""


def plot_telemetry(path: Path, out: Path, scene: Path | None = None) -> list[str]:
    """Write the comfort plot of telemetry `path` to the PNG `out`, the view from above over
    the outlines of `scene` (the scene file the run played) when given; the panels drawn."""
    try:
        from matplotlib import figure  # the package first: the extra itself, missing or not
    except ImportError:
        raise PlotError("plotting needs matplotlib: pip install 'playspace[plot]'") from None
    try:
        header, steps = telemetry.read_telemetry(path)
    except telemetry.TelemetryError as error:  # said as everything `playspace plot` refuses
        raise PlotError(str(error)) from None
    if not steps:
        raise PlotError(f"{path}: no steps to plot")
    if out.suffix.lower() != ".png":
        raise PlotError(f"{out}: the plot is a PNG: name it FILE.png")
    if not out.parent.is_dir():
        raise PlotError(f"{out}: no such folder: {out.parent}")
    outlines = [] if scene is None else scene_outlines(scene)
    title = f"{path.name}: {len(steps)} steps at {header.get('fixed_hz')} Hz"
    drawn = comfort_figure(figure.Figure, title, steps, outlines)
    drawn.savefig(out, dpi=100)
    return [axes.get_title() for axes in drawn.axes]


def comfort_figure(
    make: type[Figure], title: str, steps: list[Step], outlines: list[FloatArray]
) -> Figure:
    """The comfort plot of `steps` (telemetry's step records) as a figure of class `make`
    (matplotlib's ``Figure``: imported by the caller, the plotting extra being optional)."""
    throws = [
        (s["t"], speed)
        for s in steps
        for e in s["events"]
        if e["type"] == "released" and (speed := float(np.linalg.norm(e["linear"]))) > THROW_SPEED
    ]
    panels = 3 if throws else 2
    figure = make(figsize=(5.5 * panels, 4.5), layout="constrained")
    axes = figure.subplots(1, panels)
    figure.suptitle(title)
    _heights(axes[0], steps)
    _above(axes[1], steps, outlines)
    if throws:
        shown = axes[2]
        shown.bar([f"{when:.2f} s" for when, _ in throws], [speed for _, speed in throws])
        shown.set_title(f"{THROWS} (releases over {THROW_SPEED:g} m/s)")
        shown.set_ylabel("m/s")
    return figure


def _events(steps: list[Step], kind: str) -> list[tuple[int, dict[str, Any]]]:
    """Each event of `kind`, with the index of the step that holds it."""
    return [(i, e) for i, s in enumerate(steps) for e in s["events"] if e["type"] == kind]


def _beside(axes: Axes) -> None:
    """The panel's legend to its right, outside it: over the plot it hides a wall or a path."""
    axes.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0, fontsize="small")


def _heights(heights: Axes, steps: list[Step]) -> None:
    t = [s["t"] for s in steps]
    heights.plot(t, [s["head"]["p"][1] for s in steps], label="head height")
    heights.plot(t, [s["body"]["p"][1] for s in steps], label="body floor")
    heights.plot(t, [s["origin"]["p"][1] for s in steps], label="view floor", linestyle="--")
    snaps = [
        (steps[i]["t"], steps[i]["origin"]["p"][1]) for i, _ in _events(steps, "floor_snapped")
    ]
    if snaps:
        heights.scatter(*zip(*snaps, strict=True), marker="^", color="red", label="floor snap")
    heights.set_title(HEIGHTS)
    heights.set_xlabel("time (s)")
    heights.set_ylabel("height (m)")
    _beside(heights)


def _above(above: Axes, steps: list[Step], outlines: list[FloatArray]) -> None:
    """Head and body from above, each path broken where a teleport jumped it (the jump drawn
    as a dashed arrow to a star where the player landed), snap turns marked where the head
    turned, and the objects that moved."""
    _draw_outlines(above, outlines)
    teleports = _events(steps, "teleported")
    jumps = {i for i, _ in teleports}
    for part in ("head", "body"):
        path_xz: list[tuple[float, float]] = []
        for i, step in enumerate(steps):
            if i in jumps:
                path_xz.append((np.nan, np.nan))  # no line across the jump: nobody walked it
            path_xz.append((step[part]["p"][0], step[part]["p"][2]))
        above.plot(*zip(*path_xz, strict=True), label=part)
    names = sorted({o["name"] for s in steps for o in s["objects"]})
    for name in names:
        went = [(o["p"][0], o["p"][2]) for s in steps for o in s["objects"] if o["name"] == name]
        if went and went[0] != went[-1]:
            above.plot(*zip(*went, strict=True), linewidth=0.8, label=name)
    turns = [steps[i]["head"]["p"] for i, _ in _events(steps, "turned")]
    if turns:
        above.plot(
            [p[0] for p in turns], [p[2] for p in turns], linestyle="none", marker="o",
            markersize=7, markerfacecolor="none", markeredgecolor="black", label="snap turn",
        )  # fmt: skip
    for n, (i, event) in enumerate(teleports):
        start = steps[max(i - 1, 0)]["body"]["p"]
        to = event["to"]
        above.annotate(
            "", xy=(to[0], to[2]), xytext=(start[0], start[2]),
            arrowprops={"arrowstyle": "->", "linestyle": "--", "color": "purple"},
        )  # fmt: skip
        above.plot(
            to[0], to[2], linestyle="none", marker="*", markersize=12, color="purple",
            label="teleport" if n == 0 else None,
        )  # fmt: skip
    above.set_title(ABOVE)
    above.set_xlabel("x (m)")
    above.set_ylabel("z (m, -z forward)")
    above.invert_yaxis()
    above.set_aspect("equal", adjustable="datalim")
    _beside(above)


def scene_outlines(scene: Path) -> list[FloatArray]:
    """Each piece of scenery standing above the floor, seen from above: the outline ((N, 2),
    x and z) of every box part, as the scene spawns it (so rotated boxes, stairs and ramps
    are where physics has them). The floor itself is left out: it would cover everything."""
    try:
        loaded = load_scene(scene)
    except (OSError, ValueError) as error:
        raise PlotError(str(error)) from None
    world = World()
    spawn_scene(world, loaded)
    floor = loaded.player.position[1] + ABOVE_FLOOR
    outlines = []
    for corners in _box_corners(world):
        if corners[:, 1].max() > floor:
            outlines.append(_outline(corners[:, [0, 2]]))
    return outlines


def _box_corners(world: World) -> list[FloatArray]:
    """The eight world-space corners of every static box part."""
    signs = np.array([(x, y, z) for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)], float)
    found = []
    for _, (_, transform, colliders) in world.query(Scenery, Transform, Colliders):
        for part in colliders.parts:
            if isinstance(part.shape, Box) and not part.sensor:
                placed = spatial.compose(transform.pose(), part.offset)
                rotation = np.array(spatial.quat_to_xyzw(placed.rotation))
                local = signs * np.array(part.shape.size) / 2
                found.append(spatial.transform_points_many(tuple(placed.position), rotation, local))
    return found


def _outline(points: FloatArray) -> FloatArray:
    """The convex outline of 2-D points, counter-clockwise (Andrew's monotone chain): a box
    seen from above, however it is turned."""
    ordered = sorted(map(tuple, points.round(9)))
    chain: list[tuple[float, ...]] = []
    for sweep in (ordered, ordered[::-1]):
        start = len(chain)
        for p in sweep:
            while len(chain) - start >= 2 and _turn(chain[-2], chain[-1], p) <= 0:
                chain.pop()
            chain.append(p)
        chain.pop()
    return np.array(chain)


def _turn(a: tuple[float, ...], b: tuple[float, ...], c: tuple[float, ...]) -> float:
    return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])


def _draw_outlines(above: Axes, outlines: list[FloatArray]) -> None:
    for i, outline in enumerate(outlines):
        above.fill(
            outline[:, 0], outline[:, 1], color="0.55", alpha=0.6, linewidth=0,
            label="walls and furniture" if i == 0 else None,
        )  # fmt: skip
