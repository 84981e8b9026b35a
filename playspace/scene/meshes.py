"""Static geometry from OBJ and glTF files, as a triangle mesh collider.

trimesh reads the files (a glTF scene's nodes are flattened with their transforms applied);
it is imported only when a scene has a mesh, so validating or loading a scene of boxes does
not pay for it. The files are taken as written in the scene's conventions (metres, +Y up, as
glTF specifies); ``scale`` fixes a file authored in other units.
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path

from playspace.components.physics import TriangleMesh
from playspace.formats.files import MB, input_problem

SUFFIXES = (".obj", ".gltf", ".glb")
LARGEST_MESH = 512 * MB  # a level's collision mesh is a few megabytes
REACH = 1e4  # metres: how far from the origin a scene may place anything


class MeshFileError(ValueError):
    """A mesh file that cannot be used; the message says why, in a level designer's words."""


def load_mesh(path: Path, scale: float) -> TriangleMesh:
    """The triangles of an OBJ, glTF or GLB file, vertices multiplied by `scale`."""
    if path.suffix.lower() not in SUFFIXES:
        raise MeshFileError(
            f"expected an OBJ (.obj) or glTF (.gltf, .glb) file, got {path.suffix or 'no suffix'}"
        )
    if not path.exists():
        raise MeshFileError(f"no such file: {path}")
    problem = input_problem(path, LARGEST_MESH)
    if problem is not None:
        raise MeshFileError(f"{path} {problem}")
    if path.suffix.lower() == ".gltf":
        _check_gltf_json(path)
    import trimesh  # here, not at the top: see the module docstring

    try:
        with warnings.catch_warnings():  # trimesh's numpy warnings on wild numbers: ours follow
            warnings.simplefilter("ignore", RuntimeWarning)
            mesh = trimesh.load(path, force="mesh")
    except Exception as error:  # trimesh raises many kinds on a malformed file
        raise MeshFileError(f"cannot read {path}: {_why(error)}") from None
    if not isinstance(mesh, trimesh.Trimesh) or len(mesh.faces) == 0:
        raise MeshFileError(f"{path} has no triangles")
    vertices = tuple((x * scale, y * scale, z * scale) for x, y, z in mesh.vertices.tolist())
    far = max((max(abs(x), abs(y), abs(z)) for x, y, z in vertices), default=0.0)
    if not far <= REACH:  # also NaN; Rapier's 32-bit queries break far out (a panic at 1e20)
        raise MeshFileError(
            f"{path}: a vertex is {far:g} m out (after scale {scale:g}); meshes must stay within "
            f"{REACH:g} m of their origin, as the rest of a scene does"
        )
    triangles = tuple((a, b, c) for a, b, c in mesh.faces.tolist())
    try:
        return TriangleMesh(vertices, triangles)
    except ValueError as error:  # trimesh drops NaN vertices; this is the last word on the rest
        raise MeshFileError(f"{path}: {error}") from None


def _why(error: Exception) -> str:
    """What went wrong inside trimesh, in words: its own text is sometimes a bare file name."""
    text = str(error)
    if "charset_normalizer" in text or isinstance(error, UnicodeDecodeError):
        return "not UTF-8 text (OBJ and glTF files are text)"
    if isinstance(error, FileNotFoundError):
        return f"a file it names is missing ({text})"
    return f"malformed ({type(error).__name__}: {text})" if text else type(error).__name__


def _check_gltf_json(path: Path) -> None:
    """A .gltf is JSON: say where it is broken (trimesh reports a missing file instead)."""
    try:
        document = json.loads(path.read_bytes())
    except (UnicodeDecodeError, RecursionError):
        raise MeshFileError(f"cannot read {path}: not glTF (JSON text)") from None
    except json.JSONDecodeError as error:
        where = f"line {error.lineno}, column {error.colno}"
        raise MeshFileError(f"cannot read {path}: not glTF: {error.msg} at {where}") from None
    if not isinstance(document, dict):
        raise MeshFileError(f"cannot read {path}: not glTF (expected a JSON object)")
