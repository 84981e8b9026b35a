"""Skins as a glTF file states them: a node's ``skin`` (its joints, nodes of the file, and their
inverse bind matrices) and a primitive's first set of ``JOINTS_0`` and ``WEIGHTS_0`` (up to
four joints a vertex), each checked and named where it is wrong."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np
import numpy.typing as npt

from playspace.components.visual import MAX_JOINTS
from playspace.formats.gltf import GltfFile
from playspace.formats.models.model import ModelError, ModelPart, ModelSkin


def node_skin(
    gltf: GltfFile,
    index: object,
    where: str,
    parts: tuple[ModelPart, ...],
    read: dict[int, ModelSkin],
) -> ModelSkin:
    """skins[`index`], read once (kept in `read`), checked against the surfaces it bends."""
    skin = gltf.item("skins", index, where)
    assert isinstance(index, int)  # checked by item
    named = f"skins[{index}]"
    if not parts or not all(part.surface.skinned for part in parts):
        raise ModelError(
            f"{gltf.path}: {where}: a skinned node needs a mesh whose every triangle "
            "primitive has JOINTS_0 and WEIGHTS_0"
        )
    found = read.get(index)
    if found is None:
        joints = skin.get("joints")
        count = len(gltf.items("nodes"))
        if (
            not isinstance(joints, list)
            or not 0 < len(joints) <= MAX_JOINTS
            or not all(type(j) is int and 0 <= j < count for j in joints)
        ):
            raise ModelError(
                f"{gltf.path}: {named}.joints: expected 1 to {MAX_JOINTS} indices of nodes "
                f"0 to {count - 1}"
            )
        if "inverseBindMatrices" in skin:
            columns = gltf.accessor(skin["inverseBindMatrices"], f"{named}.inverseBindMatrices", 16)
            if len(columns) != len(joints):
                raise ModelError(
                    f"{gltf.path}: {named}.inverseBindMatrices: expected {len(joints)} "
                    f"matrices, one a joint, got {len(columns)}"
                )
            binds = columns.astype(np.float64).reshape(-1, 4, 4).transpose(0, 2, 1)
        else:  # the specification's default: every joint bound where it is
            binds = np.broadcast_to(np.eye(4), (len(joints), 4, 4)).copy()
        found = read[index] = ModelSkin(tuple(joints), binds)
    highest = max(
        int(part.surface.joints.max()) for part in parts if part.surface.joints is not None
    )
    if highest >= len(found.joints):
        raise ModelError(
            f"{gltf.path}: {where}: the mesh names joint {highest}, but {named} has "
            f"{len(found.joints)}"
        )
    return found


def skinning(
    gltf: GltfFile, attributes: dict[str, Any], where: str
) -> tuple[npt.NDArray[np.uint16] | None, npt.NDArray[np.float32] | None]:
    """A primitive's first set of joints and weights (up to four a vertex), the weights
    made to sum to 1 as the specification asks of them; None, None for a rigid one."""
    if "JOINTS_0" not in attributes and "WEIGHTS_0" not in attributes:
        return None, None
    if "JOINTS_0" not in attributes or "WEIGHTS_0" not in attributes:
        raise ModelError(f"{gltf.path}: {where}.attributes: JOINTS_0 and WEIGHTS_0 go together")
    joints = gltf.accessor(attributes["JOINTS_0"], f"{where}.attributes.JOINTS_0", 4)
    if joints.dtype not in (np.uint8, np.uint16):
        raise ModelError(
            f"{gltf.path}: {where}.attributes.JOINTS_0: expected unsigned bytes or shorts"
        )
    weights = gltf.accessor(attributes["WEIGHTS_0"], f"{where}.attributes.WEIGHTS_0", 4)
    weights = weights.astype(np.float32)
    if (weights < 0).any():
        raise ModelError(f"{gltf.path}: {where}.attributes.WEIGHTS_0: expected weights >= 0")
    total = weights.sum(axis=1, keepdims=True)
    if (total <= 1e-6).any():
        vertex = int(np.flatnonzero(total[:, 0] <= 1e-6)[0])
        raise ModelError(
            f"{gltf.path}: {where}.attributes.WEIGHTS_0: vertex {vertex} has no weight"
        )
    return joints.astype(np.uint16), (weights / total).astype(np.float32)


def unskinned(part: ModelPart) -> ModelPart:
    """`part` drawn unbent: its surface without joints and weights."""
    return replace(part, surface=replace(part.surface, joints=None, weights=None))
