"""Comfort plots from telemetry: what a player's inner ear and a thrower's eye would notice.

Three panels: the head's height and the body's floor against time, with floor snaps marked
(slope quantization at work: the view's floor moves in steps, the body's floor continuously);
the path seen from above (head, body, and where objects went); and the release speed of every
throw. Needs matplotlib, the ``plot`` extra: ``pip install 'playspace[plot]'``.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

logger = logging.getLogger(__name__)


class PlotError(ValueError):
    """The telemetry cannot be plotted, or the plotting extra is missing."""


def read_telemetry(path: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The header and the steps of a telemetry v1 file, with errors that name the line. A
    last line cut short (the run was killed, or the disk filled, mid-line) is left out with a
    warning naming it: what came before is all there."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise PlotError(f"{path}: cannot read: {error.strerror}") from None
    except UnicodeDecodeError:
        raise PlotError(f"{path}: not a text file (telemetry is UTF-8 JSON lines)") from None
    lines = text.splitlines()
    records = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            records.append(json.loads(line))
        except json.JSONDecodeError as error:
            if number == len(lines) > 1 and not text.endswith("\n"):  # the run ended mid-line
                logger.warning("%s:%d: cut short; read up to line %d", path, number, number - 1)
                break
            raise PlotError(
                f"{path}:{number}: not JSON: {error.msg} at column {error.colno}"
            ) from None
        except (RecursionError, ValueError):
            raise PlotError(f"{path}:{number}: not a telemetry record") from None
    header = records[0] if records else None
    if not isinstance(header, dict) or header.get("format") != "playspace-telemetry":
        raise PlotError(f"{path}:1: not a playspace telemetry file (no telemetry header)")
    if header.get("version") != 1:
        raise PlotError(f"{path}:1: telemetry version {header.get('version')!r}; expected 1")
    for number, record in enumerate(records[1:], start=2):
        _check_step(f"{path}:{number}", record)
    return header, records[1:]


def _check_step(where: str, step: object) -> None:
    """Refuse a step without what the plot reads, naming the field (docs/telemetry-format.md)."""

    def need(ok: bool, field: str, expected: str) -> None:
        if not ok:
            raise PlotError(f"{where}: {field}: expected {expected}")

    need(isinstance(step, dict), "step", "an object")
    assert isinstance(step, dict)
    need(_is_number(step.get("t")), "t", "a number")
    for part in ("head", "body", "origin"):
        pose = step.get(part)
        need(isinstance(pose, dict) and _is_xyz(pose.get("p")), f"{part}.p", "three numbers")
    objects, events = step.get("objects", []), step.get("events", [])
    need(isinstance(objects, list), "objects", "a list")
    for i, o in enumerate(objects):
        ok = isinstance(o, dict) and isinstance(o.get("name"), str) and _is_xyz(o.get("p"))
        need(ok, f"objects[{i}]", "an object with a name and p")
    need(isinstance(events, list), "events", "a list")
    for i, e in enumerate(events):
        need(isinstance(e, dict) and isinstance(e.get("type"), str), f"events[{i}]", "a type")
        if e["type"] == "release":
            need(_is_xyz(e.get("linear")), f"events[{i}].linear", "three numbers")
    step.setdefault("objects", objects)
    step.setdefault("events", events)


def _is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _is_xyz(value: object) -> bool:
    return isinstance(value, list) and len(value) == 3 and all(map(_is_number, value))


def plot_telemetry(path: Path, out: Path) -> None:
    """Write the comfort plot of telemetry `path` to the PNG `out`."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        from matplotlib import pyplot
    except ImportError:
        raise PlotError("plotting needs matplotlib: pip install 'playspace[plot]'") from None
    header, steps = read_telemetry(path)
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
