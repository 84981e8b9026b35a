"""A real window's needs: an X server of its own (Xvfb), an environment without a display;
and every entity's placement, to compare worlds exactly."""

from __future__ import annotations

import os
from pathlib import Path

from playspace.components import Transform
from playspace.ecs import World

Placement = tuple[tuple[float, ...], tuple[float, ...]]


def transforms(world: World) -> dict[int, Placement]:
    """Every entity's position and rotation, as plain numbers to compare exactly."""
    return {e: (tuple(t.position), tuple(t.rotation)) for e, t in world.each(Transform)}


def without_display() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}


def free_display() -> int:
    for number in range(90, 400):
        if not any(
            Path(p).exists() for p in (f"/tmp/.X11-unix/X{number}", f"/tmp/.X{number}-lock")
        ):
            return number
    raise RuntimeError("no free X display number between :90 and :399")
