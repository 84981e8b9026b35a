"""Mesh and texture files, read on the CPU at load time with a clear error naming the file.

Meshes (OBJ, glTF, GLB) are read by :func:`playspace.formats.meshes.read_mesh`, as a scene's
static geometry is, with the file's own vertices kept; normals are computed here from its
triangles (area-weighted, so a vertex the file splits keeps a hard edge), the same way for
every format. Textures (PNG, JPEG, ...) go through Pillow, which moderngl-window requires and
installs, imported on first use: a headless simulation never pays for it.

Everything is checked here, at load, so a bad file is an error with its name before anything
is drawn, never a black object or a crash in the middle of a frame.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from playspace.formats.meshes import MeshFileError, read_mesh
from playspace.formats.models.read import smooth_normals
from playspace.render.meshes import MeshData


class AssetError(ValueError):
    """A mesh or texture file that cannot be used; the message names the file and says why."""


@dataclass(frozen=True, slots=True, eq=False)
class Texture:
    """A decoded image: RGBA8 `pixels`, rows bottom-up as OpenGL samples them (uv (0, 0) is the
    bottom-left corner). Compared by identity: one file loaded once is one texture."""

    path: Path
    size: tuple[int, int]
    pixels: bytes


def load_mesh_file(path: Path | str) -> MeshData:
    """The triangles of an OBJ, glTF or GLB file, with uvs when the file has them."""
    try:
        mesh = read_mesh(Path(path), merge=False)
    except MeshFileError as error:
        raise AssetError(str(error)) from None
    positions, faces = mesh.positions, mesh.triangles
    uvs = np.zeros((len(positions), 2)) if mesh.uvs is None else mesh.uvs
    vertices = np.hstack([positions, smooth_normals(positions, faces), uvs], dtype=np.float32)
    return MeshData(vertices, faces.astype(np.uint32))


def load_texture(path: Path | str) -> Texture:
    """An image file as a texture (any format Pillow reads; converted to RGBA)."""
    path = Path(path)
    if not path.is_file():
        raise AssetError(f"{path}: no such texture file")
    from PIL import Image, UnidentifiedImageError  # here: see the module docstring

    try:
        with Image.open(path) as image:
            rgba = image.convert("RGBA").transpose(Image.Transpose.FLIP_TOP_BOTTOM)
    except (UnidentifiedImageError, OSError, ValueError) as error:
        raise AssetError(f"{path}: cannot read this image: {error}") from None
    return Texture(path, rgba.size, rgba.tobytes())
