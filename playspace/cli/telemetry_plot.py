"""Comfort plots from telemetry: what a player's inner ear and a thrower's eye would notice.

Panels: the head's height and the body's floor against time, with floor snaps marked
(slope quantization at work: the view's floor moves in steps, the body's floor continuously);
the path seen from above (head, body, and where objects went), over the scene's walls and
furniture when the scene is given (what the head was pushed back from, or faded against);
and the release speed of every throw, only when there were throws. Needs matplotlib, the
``plot`` extra: ``pip install 'playspace[plot]'``.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from playspace import spatial
from playspace.app.spawn import spawn_scene
from playspace.components import Scenery, Transform
from playspace.components.physics import Box, Colliders
from playspace.ecs import World
from playspace.formats import telemetry
from playspace.formats.scene import load_scene

if TYPE_CHECKING:
    from matplotlib.axes import Axes

    from playspace.spatial import FloatArray

ABOVE_FLOOR = 0.05  # metres: scenery whose top is lower than this over the start is floor


class PlotError(ValueError):
    """The telemetry cannot be plotted, or the plotting extra is missing."""


def plot_telemetry(path: Path, out: Path, scene: Path | None = None) -> None:
    """Write the comfort plot of telemetry `path` to the PNG `out`, the view from above over
    the outlines of `scene` (the scene file the run played) when given."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        from matplotlib import pyplot
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
    releases = [
        (s["t"], sum(v * v for v in e["linear"]) ** 0.5)
        for s in steps
        for e in s["events"]
        if e["type"] == "released"
    ]
    t = [s["t"] for s in steps]
    panels = 3 if releases else 2
    figure, axes = pyplot.subplots(1, panels, figsize=(5 * panels, 4.5))
    heights, above = axes[0], axes[1]
    figure.suptitle(f"{path.name}: {len(steps)} steps at {header.get('fixed_hz')} Hz")

    heights.plot(t, [s["head"]["p"][1] for s in steps], label="head height")
    heights.plot(t, [s["body"]["p"][1] for s in steps], label="body floor")
    heights.plot(t, [s["origin"]["p"][1] for s in steps], label="view floor", linestyle="--")
    snaps = [
        (s["t"], s["origin"]["p"][1])
        for s in steps
        for e in s["events"]
        if e["type"] == "floor_snapped"
    ]
    if snaps:
        heights.scatter(*zip(*snaps, strict=True), marker="^", color="red", label="floor snap")
    heights.set_xlabel("time (s)")
    heights.set_ylabel("height (m)")
    heights.legend(loc="best")

    _draw_outlines(above, outlines)
    above.plot([s["head"]["p"][0] for s in steps], [s["head"]["p"][2] for s in steps], label="head")
    above.plot([s["body"]["p"][0] for s in steps], [s["body"]["p"][2] for s in steps], label="body")
    names = sorted({o["name"] for s in steps for o in s["objects"]})
    for name in names:
        path_xz = [(o["p"][0], o["p"][2]) for s in steps for o in s["objects"] if o["name"] == name]
        if path_xz and path_xz[0] != path_xz[-1]:
            above.plot(*zip(*path_xz, strict=True), linewidth=0.8, label=name)
    above.set_xlabel("x (m)")
    above.set_ylabel("z (m, -z forward)")
    above.invert_yaxis()
    above.set_aspect("equal", adjustable="datalim")
    above.legend(loc="best", fontsize="small")

    if releases:
        throws = axes[2]
        throws.bar([f"{when:.2f} s" for when, _ in releases], [speed for _, speed in releases])
        throws.set_title("release speeds")
        throws.set_ylabel("m/s")
    figure.tight_layout()
    figure.savefig(out, dpi=100)
    pyplot.close(figure)


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
