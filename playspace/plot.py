"""Comfort plots from telemetry: what a player's inner ear and a thrower's eye would notice.

Three panels: the head's height and the body's floor against time, with floor snaps marked
(slope quantization at work: the view's floor moves in steps, the body's floor continuously);
the path seen from above (head, body, and where objects went); and the release speed of every
throw. Needs matplotlib, the ``plot`` extra: ``pip install 'playspace[plot]'``.
"""

from __future__ import annotations

from pathlib import Path

from playspace.formats import telemetry


class PlotError(ValueError):
    """The telemetry cannot be plotted, or the plotting extra is missing."""


def plot_telemetry(path: Path, out: Path) -> None:
    """Write the comfort plot of telemetry `path` to the PNG `out`."""
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
    t = [s["t"] for s in steps]
    figure, (heights, above, throws) = pyplot.subplots(1, 3, figsize=(15, 4.5))
    figure.suptitle(f"{path.name}: {len(steps)} steps at {header.get('fixed_hz')} Hz")

    heights.plot(t, [s["head"]["p"][1] for s in steps], label="head height")
    heights.plot(t, [s["body"]["p"][1] for s in steps], label="body floor")
    heights.plot(t, [s["origin"]["p"][1] for s in steps], label="view floor", linestyle="--")
    snaps = [
        (s["t"], s["origin"]["p"][1])
        for s in steps
        for e in s["events"]
        if e["type"] == "floor_snap"
    ]
    if snaps:
        heights.scatter(*zip(*snaps, strict=True), marker="^", color="red", label="floor snap")
    heights.set_xlabel("time (s)")
    heights.set_ylabel("height (m)")
    heights.legend(loc="best")

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

    releases = [
        (s["t"], sum(v * v for v in e["linear"]) ** 0.5)
        for s in steps
        for e in s["events"]
        if e["type"] == "release"
    ]
    if releases:
        throws.bar([f"{when:.2f} s" for when, _ in releases], [speed for _, speed in releases])
    throws.set_title("release speeds" if releases else "no throws")
    throws.set_ylabel("m/s")
    figure.tight_layout()
    figure.savefig(out, dpi=100)
    pyplot.close(figure)
