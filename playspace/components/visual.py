"""What an entity is drawn as when a model says so: surfaces a modeller made, each in its own
look, in place of the entity's collider shapes.

An entity without a :class:`Visual` is drawn as physics sees it (each collider's shape); one
with it is drawn as its parts and nothing else, as Godot draws a ``MeshInstance3D`` beside
its collision shapes and Unity a ``MeshRenderer`` beside its colliders. Surfaces are values,
checked where they are made; equal surfaces are shared by identity (a model spawned twice
draws one mesh twice).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from playspace.components.appearance import Appearance
from playspace.spatial import Pose

F32Array = npt.NDArray[np.float32]
U32Array = npt.NDArray[np.uint32]


@dataclass(frozen=True, slots=True, eq=False)
class Surface:
    """Triangles to draw: `positions`, `normals` (unit) and `uvs` per vertex, float32 arrays of
    (N, 3), (N, 3) and (N, 2); `triangles` (M, 3) uint32 indices, counter-clockwise seen from
    the front (glTF's and OpenGL's winding)."""

    positions: F32Array
    normals: F32Array
    uvs: F32Array
    triangles: U32Array

    def __post_init__(self) -> None:
        count = len(self.positions)
        for name, array, width in (
            ("positions", self.positions, 3),
            ("normals", self.normals, 3),
            ("uvs", self.uvs, 2),
        ):
            if array.shape != (count, width) or array.dtype != np.float32:
                raise ValueError(
                    f"surface {name} must be ({count}, {width}) float32, got {array.shape} "
                    f"{array.dtype}"
                )
            if not np.isfinite(array).all():
                raise ValueError(f"surface {name} must be finite numbers")
        tris = self.triangles
        if tris.ndim != 2 or tris.shape[1] != 3 or len(tris) == 0 or tris.dtype != np.uint32:
            raise ValueError(f"surface triangles must be (M, 3) uint32, M > 0, got {tris.shape}")
        if int(tris.max()) >= count:
            raise ValueError(f"surface triangles index past the last of {count} vertices")
        for values in (self.positions, self.normals, self.uvs):
            values.setflags(write=False)  # a value: shared by every entity drawn with it
        tris.setflags(write=False)


@dataclass(frozen=True, slots=True)
class VisualPart:
    """One surface of a visual, in `look` (None: the entity's kind's color), placed at
    `offset` in the entity's frame."""

    surface: Surface
    look: Appearance | None = None
    offset: Pose = field(default_factory=Pose.identity)


@dataclass(frozen=True, slots=True)
class Visual:
    """What the entity is drawn as, instead of its colliders. Frozen: a new look is a new
    Visual, which the renderer sees as the world's structure changing."""

    parts: tuple[VisualPart, ...]

    def __post_init__(self) -> None:
        if not all(isinstance(part, VisualPart) for part in self.parts):
            raise TypeError("a Visual's parts must be VisualParts")
