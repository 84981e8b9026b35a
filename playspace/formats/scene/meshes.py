"""Static geometry from OBJ and glTF files, as a triangle mesh collider.

The file is read by :func:`playspace.formats.meshes.read_mesh`, with vertices that share a
position merged, so a collider is one connected surface. The files are taken as written in the
scene's conventions (metres, +Y up, as glTF specifies); ``scale`` fixes a file authored in
other units.
"""

from __future__ import annotations

from pathlib import Path

from playspace.components.physics import TriangleMesh
from playspace.formats.meshes import MeshFileError, read_mesh

REACH = 1e4  # metres: how far from the origin a scene may place anything


def load_mesh(path: Path, scale: float) -> TriangleMesh:
    """The triangles of an OBJ, glTF or GLB file, vertices multiplied by `scale`."""
    mesh = read_mesh(path, merge=True)
    vertices = tuple((x * scale, y * scale, z * scale) for x, y, z in mesh.positions.tolist())
    far = max((max(abs(x), abs(y), abs(z)) for x, y, z in vertices), default=0.0)
    if not far <= REACH:  # also NaN; Rapier's 32-bit queries break far out (a panic at 1e20)
        raise MeshFileError(
            f"{path}: a vertex is {far:g} m out (after scale {scale:g}); meshes must stay within "
            f"{REACH:g} m of their origin, as the rest of a scene does"
        )
    triangles = tuple((a, b, c) for a, b, c in mesh.triangles.tolist())
    try:
        return TriangleMesh(vertices, triangles)
    except ValueError as error:  # the last word on what the file reader lets through
        raise MeshFileError(f"{path}: {error}") from None
