"""Keeping the last half minute from the preview's F9 and the headset's chord.

The input is always kept (:class:`~playspace.systems.input.KeepLast`); these say when to save
it: the preview window's F9, or in the headset both grips held while the left stick is
clicked (a chord no game control uses alone, and one a player can make without looking). The
file lands in the working folder as ``kept-YYYYMMDD-HHMMSS.jsonl``, and the line said names it.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path

from playspace import spatial
from playspace.components import Transform
from playspace.ecs import World
from playspace.formats.trace import StartPoint
from playspace.systems.input import KeepLast, save_kept
from playspace.systems.player import local_rig

KEEP_KEY = "f9"


def kept_path(folder: Path | None = None) -> Path:
    """Where a save made now goes: the working folder, named by the time."""
    name = time.strftime("kept-%Y%m%d-%H%M%S.jsonl")
    return (folder or Path.cwd()) / name


def where_player_stands(world: World) -> Callable[[], StartPoint | None]:
    """What :attr:`KeepLast.where` asks: the local player's origin, on the floor, and its
    heading (None before the player is spawned)."""

    def where() -> StartPoint | None:
        rig = local_rig(world)
        if rig is None:
            return None
        origin = world.get(rig.origin, Transform)
        return StartPoint(spatial.Vec3(origin.position), spatial.yaw(origin.rotation))

    return where


def save(keeper: KeepLast, fixed_hz: float, say: Callable[[str], None] | None = None) -> None:
    """Save what `keeper` holds now (:func:`kept_path`) and say the line; a save that fails
    is said too, and play goes on."""
    path = kept_path()
    try:
        line = save_kept(path, keeper, fixed_hz)
    except (OSError, ValueError) as error:
        line = f"could not keep the last {keeper.seconds:.0f} s: {error}"
    (say or _terminal)(line)


def _terminal(line: str) -> None:
    print(f"playspace: {line}", file=sys.stderr, flush=True)
