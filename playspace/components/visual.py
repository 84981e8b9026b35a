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
U16Array = npt.NDArray[np.uint16]
U32Array = npt.NDArray[np.uint32]
MAX_JOINTS = 256  # a skin's joints: what one uniform block of matrices holds on any GL 3.3


@dataclass(frozen=True, slots=True, eq=False)
class Surface:
    """Triangles to draw: `positions`, `normals` (unit) and `uvs` per vertex, float32 arrays of
    (N, 3), (N, 3) and (N, 2); `triangles` (M, 3) uint32 indices, counter-clockwise seen from
    the front (glTF's and OpenGL's winding). A skinned surface also has, per vertex, the
    `joints` (N, 4) uint16 of its skin that move it and their `weights` (N, 4) float32, summing
    to 1: it is drawn bent by its entity's :class:`SkinPose`."""

    positions: F32Array
    normals: F32Array
    uvs: F32Array
    triangles: U32Array
    joints: U16Array | None = None
    weights: F32Array | None = None

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
        if (self.joints is None) != (self.weights is None):
            raise ValueError("a skinned surface needs both joints and weights")
        if self.joints is not None and self.weights is not None:
            _check_skinning(count, self.joints, self.weights)
        for values in (self.positions, self.normals, self.uvs, self.joints, self.weights):
            if values is not None:
                values.setflags(write=False)  # a value: shared by every entity drawn with it
        tris.setflags(write=False)

    @property
    def skinned(self) -> bool:
        return self.joints is not None


def _check_skinning(count: int, joints: U16Array, weights: F32Array) -> None:
    if joints.shape != (count, 4) or joints.dtype != np.uint16:
        raise ValueError(
            f"surface joints must be ({count}, 4) uint16, got {joints.shape} {joints.dtype}"
        )
    if weights.shape != (count, 4) or weights.dtype != np.float32:
        raise ValueError(
            f"surface weights must be ({count}, 4) float32, got {weights.shape} {weights.dtype}"
        )
    if int(joints.max(initial=0)) >= MAX_JOINTS:
        raise ValueError(f"surface joints must be below {MAX_JOINTS}")
    if not np.isfinite(weights).all() or (weights < 0).any():
        raise ValueError("surface weights must be finite and 0 or more")
    if not np.allclose(weights.sum(axis=1), 1.0, atol=2e-3):
        raise ValueError("surface weights must sum to 1 at every vertex")


@dataclass(slots=True)
class SkinPose:
    """On an entity drawn with skinned surfaces: each joint's `matrices` (J, 4, 4) float32, a
    joint's place now times the inverse of its place at bind, both in the entity's frame (so
    identity everywhere draws the surfaces as modelled). Written by whatever moves the joints
    (the animator in the fixed step, the hands in LATE); `shown` False draws nothing."""

    matrices: F32Array
    shown: bool = True

    def __post_init__(self) -> None:
        shape = self.matrices.shape
        if len(shape) != 3 or shape[1:] != (4, 4) or not 0 < shape[0] <= MAX_JOINTS:
            raise ValueError(f"skin matrices must be (J, 4, 4), 0 < J <= {MAX_JOINTS}: {shape}")


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
