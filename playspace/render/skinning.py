"""Skinned surfaces, bent on the GPU: an entity whose ``Visual`` has skinned surfaces and whose
``SkinPose`` says where its joints are (a hand, an animated character) is drawn one call per
surface, its joints' matrices in a uniform block and each vertex moved by up to four of them
in the vertex shader (:func:`playspace.render.shaders.skinned`; the GPU side is
``playspace.render.gpu.GpuSkins``).

Skinned draws are not instanced: each entity bends its own way. They are few (two hands, a
handful of characters) against the hundreds of rigid instances, so a call each costs little;
the CPU side is the entity's drawn pose and its joints' matrices transposed, nothing per
vertex. A skinned entity listed in ``Ghosts`` is drawn as a ghost where it is, or once more
at its copy's pose (a physics hand the table stops, where the player's own hand is).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from pyglm import glm

from playspace.components import Transform
from playspace.components.drawn import DrawnPoses, Ghosts
from playspace.components.visual import SkinPose, Surface, Visual, VisualPart
from playspace.ecs import World
from playspace.render.materials import Material
from playspace.render.meshes import F32Array, MeshData
from playspace.spatial import Pose


@dataclass(frozen=True, slots=True, eq=False)
class SkinnedMesh:
    """A skinned surface ready to upload: its mesh, and per vertex its four joints (as
    floats: every GL takes them) and weights, (N, 8) float32."""

    mesh: MeshData
    skin: F32Array


@dataclass(slots=True)
class SkinnedDraw:
    """One skinned surface this frame: placed by `model` (column-major, (1, 16)), bent by
    `joints` (column-major, (J, 16)), solid or a ghost."""

    mesh: SkinnedMesh
    material: Material
    model: F32Array
    joints: F32Array
    ghost: bool = False


def skinned_mesh(surface: Surface) -> SkinnedMesh:
    """A skinned surface's mesh and skin attributes."""
    assert surface.joints is not None and surface.weights is not None  # a skinned surface
    vertices = np.hstack([surface.positions, surface.normals, surface.uvs], dtype=np.float32)
    skin = np.hstack([surface.joints, surface.weights], dtype=np.float32)
    return SkinnedMesh(MeshData(vertices, surface.triangles.astype(np.uint32)), skin)


def drawn_pose(world: World, drawn: DrawnPoses | None, entity: int) -> Pose | None:
    """Where `entity` is drawn this frame: where LATE placed it, else at its Transform."""
    placed = None if drawn is None else drawn.pose(entity)
    if placed is not None:
        return placed
    transform = world.try_get(entity, Transform)
    return None if transform is None else transform.pose()


def skinned_draws(
    world: World,
    mesh_of: Callable[[Surface], SkinnedMesh],
    material_of: Callable[[World, int, VisualPart], Material],
) -> list[SkinnedDraw]:
    """This frame's skinned draws: each skinned surface of each shown ``SkinPose``'s entity,
    where LATE drew it, solid or (listed in ``Ghosts``) a ghost, and once more at its ghost
    copy's pose."""
    drawn = world.try_resource(DrawnPoses)
    ghosts = world.try_resource(Ghosts) or Ghosts()
    draws = []
    for entity, (visual, skin) in world.query(Visual, SkinPose):
        pose = drawn_pose(world, drawn, entity) if skin.shown else None
        if pose is None:
            continue
        s = world.get(entity, Transform).scale
        scale = (s.x, s.y, s.z)
        joints = np.ascontiguousarray(skin.matrices.transpose(0, 2, 1))  # each column-major
        copy = ghosts.copies.get(entity)
        for part in visual.parts:
            if not part.surface.skinned:
                continue
            mesh, material = mesh_of(part.surface), material_of(world, entity, part)
            offset = part.offset
            ghost = entity in ghosts.entities
            draws.append(SkinnedDraw(mesh, material, _placed(pose, scale, offset), joints, ghost))
            if copy is not None:
                draws.append(
                    SkinnedDraw(mesh, material, _placed(copy, scale, offset), joints, True)
                )
    return draws


def _placed(pose: Pose, scale: tuple[float, float, float], offset: Pose) -> F32Array:
    """The column-major model matrix of a part at `offset` on an entity drawn at `pose`,
    multiplied in PyGLM (a few microseconds; numpy takes tens on 4 x 4s)."""
    matrix = glm.translate(pose.position) * glm.mat4_cast(pose.rotation)
    if scale != (1.0, 1.0, 1.0):
        matrix = matrix * glm.scale(glm.dvec3(*scale))
    if offset != _NO_OFFSET:
        matrix = matrix * glm.translate(offset.position) * glm.mat4_cast(offset.rotation)
    return np.asarray(matrix, dtype=np.float32).T.reshape(1, 16)  # numpy sees it row by row


_NO_OFFSET = Pose.identity()


__all__ = ["SkinnedDraw", "SkinnedMesh", "skinned_draws", "skinned_mesh"]
