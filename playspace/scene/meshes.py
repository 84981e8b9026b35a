"""Static geometry from OBJ and glTF files, as a triangle mesh collider.

trimesh reads the files (a glTF scene's nodes are flattened with their transforms applied);
it is imported only when a scene has a mesh, so validating or loading a scene of boxes does
not pay for it. The files are taken as written in the scene's conventions (metres, +Y up, as
glTF specifies); ``scale`` fixes a file authored in other units.
"""

from __future__ import annotations

from pathlib import Path

from playspace.components.physics import TriangleMesh

SUFFIXES = (".obj", ".gltf", ".glb")


class MeshFileError(ValueError):
    """A mesh file that cannot be used; the message says why, in a level designer's words."""


def load_mesh(path: Path, scale: float) -> TriangleMesh:
    """The triangles of an OBJ, glTF or GLB file, vertices multiplied by `scale`."""
    if path.suffix.lower() not in SUFFIXES:
        raise MeshFileError(
            f"expected an OBJ (.obj) or glTF (.gltf, .glb) file, got {path.suffix or 'no suffix'}"
        )
    if not path.is_file():
        raise MeshFileError(f"no such file: {path}")
    import trimesh  # here, not at the top: see the module docstring

    try:
        mesh = trimesh.load(path, force="mesh")
    except Exception as error:  # trimesh raises many kinds on a malformed file
        raise MeshFileError(f"cannot read {path}: {error}") from None
    if not isinstance(mesh, trimesh.Trimesh) or len(mesh.faces) == 0:
        raise MeshFileError(f"{path} has no triangles")
    vertices = tuple((x * scale, y * scale, z * scale) for x, y, z in mesh.vertices.tolist())
    triangles = tuple((a, b, c) for a, b, c in mesh.faces.tolist())
    try:
        return TriangleMesh(vertices, triangles)
    except ValueError as error:  # trimesh drops NaN vertices; this is the last word on the rest
        raise MeshFileError(f"{path}: {error}") from None
