"""Animation clips and the animator that plays them on a model's nodes.

A clip is what a glTF animation says: channels, each moving one node's translation, rotation
or scale through keyframes, stepped, linear or cubic-spline, as the specification defines
them. An :class:`Animator` sits on a model's root entity, with the model's node tree, and says
which clip plays, where in it, how fast, whether it loops, and what it fades from; the
animation system advances it in the fixed step, so a replay draws the same frame at the same
step. A game starts and cross-fades clips with :func:`playspace.systems.animation.play`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

import numpy as np
import numpy.typing as npt

F32Array = npt.NDArray[np.float32]
PATHS = {"translation": 3, "rotation": 4, "scale": 3}  # what a channel moves: its width


class Interpolation(Enum):
    """How a channel goes from one keyframe to the next (glTF's ``sampler.interpolation``)."""

    STEP = "STEP"
    LINEAR = "LINEAR"
    CUBICSPLINE = "CUBICSPLINE"


@dataclass(frozen=True, slots=True, eq=False)
class Channel:
    """One node's `path` (``translation``, ``rotation`` as x, y, z, w, or ``scale``) through
    keyframes at `times` (seconds, increasing); `values` one row a keyframe, or, for a cubic
    spline, three (in-tangent, value, out-tangent)."""

    node: int
    path: str
    interpolation: Interpolation
    times: F32Array
    values: F32Array

    def __post_init__(self) -> None:
        width = PATHS.get(self.path)
        if width is None:
            raise ValueError(f"channel path must be one of {sorted(PATHS)}, got {self.path!r}")
        rows = len(self.times) * (3 if self.interpolation is Interpolation.CUBICSPLINE else 1)
        if self.values.shape != (rows, width) or len(self.times) == 0:
            raise ValueError(
                f"channel of {len(self.times)} keyframes must have ({rows}, {width}) values, "
                f"got {self.values.shape}"
            )
        if not (np.isfinite(self.times).all() and np.isfinite(self.values).all()):
            raise ValueError("channel times and values must be finite")
        if (np.diff(self.times) <= 0).any() or self.times[0] < 0:
            raise ValueError("channel times must increase from 0 or later")
        self.times.setflags(write=False)
        self.values.setflags(write=False)


@dataclass(frozen=True, slots=True)
class Clip:
    """A named animation: its channels, and how long it lasts (its last keyframe)."""

    name: str
    channels: tuple[Channel, ...]

    @property
    def duration(self) -> float:
        return max((float(c.times[-1]) for c in self.channels), default=0.0)


@dataclass(frozen=True, slots=True)
class AnimatedNode:
    """One node of an animated model: the entity that shows it (None: a node only others
    hang from), its parent's index, its rest place in the parent (translation, rotation as
    x, y, z, w, scale), and its scale in the world at rest (baked into what it draws)."""

    entity: int | None
    parent: int | None
    translation: tuple[float, float, float]
    rotation: tuple[float, float, float, float]
    scale: tuple[float, float, float]
    rest_scale: tuple[float, float, float]


@dataclass(frozen=True, slots=True, eq=False)
class AnimatedSkin:
    """A skinned node of an animated model: the `entity` that draws it (with a ``SkinPose``),
    the file's indices of its `joints`, and their inverse bind matrices (J, 4, 4)."""

    entity: int
    joints: tuple[int, ...]
    inverse_binds: npt.NDArray[np.float64]


@dataclass(slots=True)
class Animator:
    """What plays on a model: `clips` by name, the model's `nodes` (every node, by the file's
    index; the root entity's Transform places the model), and the state: the clip `playing`
    (None: at rest) at `time` seconds, at `speed`, looping or holding its last frame; a
    cross-fade from `fading_from` (at `fading_time`, looping or not as it was) over
    `fade_total` seconds, `fade_left` to go. `marks` name times in a clip at which an
    :class:`~playspace.systems.animation.AnimationMarked` event is sent. `skins` are the
    model's skinned nodes, bent each step to where the clips put their joints."""

    clips: dict[str, Clip]
    nodes: tuple[AnimatedNode, ...]
    playing: str | None = None
    time: float = 0.0
    speed: float = 1.0
    loop: bool = True
    fading_from: str | None = None
    fading_time: float = 0.0
    fading_loop: bool = True
    fade_total: float = 0.0
    fade_left: float = 0.0
    marks: dict[str, tuple[tuple[float, str], ...]] = field(default_factory=dict)
    skins: tuple[AnimatedSkin, ...] = ()
