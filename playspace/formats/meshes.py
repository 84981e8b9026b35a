"""Mesh files (OBJ, glTF, GLB), read once for every use: a scene's static geometry, and a
mesh a game draws in place of an entity's colliders.

trimesh reads the files (a glTF scene's nodes are flattened with their transforms applied); it
is imported on first use, so validating or loading a scene of boxes, or a headless run, does
not pay for it. Everything is checked here, before anything is built from the file, and every
problem is a :class:`MeshFileError` naming the file in a level designer's words: a name that
is not a regular file of a sane size, a broken glTF, what trimesh could not read, a file
without triangles, a vertex that is not a finite number.

A glTF file also says how its surface looks: :func:`read_material` reads its material as an
:class:`~playspace.components.appearance.Appearance` through :mod:`playspace.formats.gltf`
(trimesh decodes images and merges materials; an Appearance wants the factors as written and a
texture file's name).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    import numpy.typing as npt

from playspace.components.appearance import Appearance
from playspace.formats.files import MB, input_problem
from playspace.formats.gltf import GltfError, GltfFile, json_document
from playspace.spatial import FloatArray

SUFFIXES = (".obj", ".gltf", ".glb")
LARGEST_MESH = 512 * MB  # a level's collision mesh is a few megabytes


class MeshFileError(ValueError):
    """A mesh file that cannot be used; the message names it and says why."""


@dataclass(frozen=True, slots=True, eq=False)
class MeshFile:
    """The triangles of a mesh file as written: `positions` ((N, 3), finite), `triangles`
    ((M, 3) indices into them, M >= 1) and `uvs` ((N, 2)) when the file has texture
    coordinates."""

    positions: FloatArray
    triangles: npt.NDArray[np.int64]
    uvs: FloatArray | None


def read_mesh(path: Path, merge: bool) -> MeshFile:
    """The mesh in the OBJ, glTF or GLB file at `path`. With `merge`, vertices that share a
    position are one (a collider wants one connected surface, whatever seams the file has for
    its textures); without, the file's vertices are kept, with the hard edges and uv seams a
    drawn mesh needs."""
    if path.suffix.lower() not in SUFFIXES:
        raise MeshFileError(
            f"{path}: expected an OBJ (.obj) or glTF (.gltf, .glb) file, "
            f"got {path.suffix or 'no suffix'}"
        )
    if not path.exists():
        raise MeshFileError(f"no such file: {path}")
    problem = input_problem(path, LARGEST_MESH)
    if problem is not None:
        raise MeshFileError(f"{path} {problem}")
    if path.suffix.lower() == ".gltf":
        try:
            json_document(path)
        except GltfError as error:
            raise MeshFileError(str(error)) from None
    import trimesh  # here, not at the top: see the module docstring

    try:
        with warnings.catch_warnings():  # trimesh's numpy warnings on wild numbers: ours follow
            warnings.simplefilter("ignore", RuntimeWarning)
            mesh = trimesh.load(path, force="mesh", process=merge)
    except Exception as error:  # trimesh raises many kinds on a malformed file
        raise MeshFileError(f"cannot read {path}: {_why(error)}") from None
    if not isinstance(mesh, trimesh.Trimesh) or len(mesh.faces) == 0:
        raise MeshFileError(f"{path} has no triangles")
    positions = np.asarray(mesh.vertices, dtype=np.float64)
    if not np.isfinite(positions).all():  # merging drops them; a drawn mesh must not have them
        raise MeshFileError(f"{path}: the mesh has non-finite vertex positions")
    uv = getattr(mesh.visual, "uv", None)
    uvs = None if uv is None else np.asarray(uv, dtype=np.float64)
    return MeshFile(positions, np.asarray(mesh.faces, dtype=np.int64), uvs)


def _why(error: Exception) -> str:
    """What went wrong inside trimesh, in words: its own text is sometimes a bare file name."""
    text = str(error)
    if "charset_normalizer" in text or isinstance(error, UnicodeDecodeError):
        return "not UTF-8 text (OBJ and glTF files are text)"
    if isinstance(error, FileNotFoundError):
        return f"a file it names is missing ({text})"
    return f"malformed ({type(error).__name__}: {text})" if text else type(error).__name__


def read_material(path: Path) -> Appearance | None:
    """How the glTF or GLB file at `path` says its surface looks: the material of its first
    primitive that has one (an Appearance is one material for a whole entity), with glTF's defaults
    for what the material leaves out (metallic and rough: 1). None for an OBJ file and for a
    glTF whose primitives name no material: the renderer's palette then draws it."""
    if path.suffix.lower() not in (".gltf", ".glb"):
        return None
    try:
        gltf = GltfFile.read(path)
        used = [
            primitive["material"]
            for mesh in gltf.items("meshes")
            for primitive in mesh.get("primitives", [])
            if isinstance(primitive, dict) and "material" in primitive
        ]
        return gltf.look(used[0], "a primitive's material")[0] if used else None
    except GltfError as error:
        raise MeshFileError(str(error)) from None
