"""What the player can ask to see of the simulation's insides, as plain data."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from enum import Enum

import numpy as np

from playspace.components.renamed import renamed_fields
from playspace.spatial import FloatArray


def _no_lines() -> FloatArray:
    return np.zeros((0, 2, 3), dtype=np.float32)


def _no_colors() -> FloatArray:
    return np.zeros((0, 4), dtype=np.float32)


@renamed_fields(colours="colors")
@dataclass(slots=True)
class PhysicsDebug:
    """A resource: whether the physics shapes and contacts are drawn over the scene (the
    preview's key and the command's option switch `shown`), and what to draw.

    While `shown`, the physics package fills `lines` ((N, 2, 3) float32 segment end points,
    world space, metres) and `colors` ((N, 4) float32 linear RGBA, one per segment) once a
    frame, from the engine as the last fixed step left it: every collider's outline (fixed,
    dynamic, kinematic and sensors alike) and, with `contacts`, each contact point's normal
    and depth. While hidden they are empty and nothing is computed.
    """

    shown: bool = False
    contacts: bool = True
    lines: FloatArray = field(default_factory=_no_lines)
    colors: FloatArray = field(default_factory=_no_colors)


@dataclass(slots=True)
class LiveStatus:
    """A resource: what the last reload of a running game's files did, in one line (the
    preview's overlay and the headset's panel show it; the terminal says it too). `failed`:
    the old code or scene still runs, until the next good save."""

    line: str = ""
    failed: bool = False
    reloads: int = 0  # how many saves were applied or refused so far
    until: float = 0.0  # the world's time (Time.elapsed, s) the line is shown until


@dataclass(frozen=True, slots=True)
class LiveNotice:
    """On the entity whose label shows the last reload's line before a headset's eyes."""


EVENTS_KEPT = 16  # the inspector's last events


class InspectorPlace(Enum):
    """Where the inspector's panel hangs."""

    VIEW = "view"  # before the eyes, following the head (the preview)
    WRIST = "wrist"  # over the left wrist, turned up at the eyes (the headset)


@dataclass(slots=True)
class Inspector:
    """A resource: the inspector's state (docs/live-development.md). `shown` while its panel is
    up; `paused` stops the fixed steps (the loop runs `steps` single steps when asked);
    `selected` is the entity shown; `panel` its panel's entity once shown. `timings` keeps each
    system's last frames' time (ms, newest last) and `events` the last events, as text, only
    while shown: hidden, it reads nothing."""

    place: InspectorPlace = InspectorPlace.VIEW
    shown: bool = False
    paused: bool = False
    steps: int = 0
    selected: int | None = None
    panel: int | None = None
    timings: dict[str, deque[float]] = field(default_factory=dict)
    events: deque[str] = field(default_factory=lambda: deque(maxlen=EVENTS_KEPT))
    picked_with: bool = False  # the right trigger was down last frame (a pick is its press)
