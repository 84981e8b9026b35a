"""Meshes as CPU data: unit primitives, and triangles made drawable.

Every primitive is a *unit* shape centred on the origin, so one mesh serves every size of its
shape and an instance's model matrix carries the size: a box of full extents 1 (scaled by a
``Box``'s size), a sphere of radius 1, a cylinder of radius 1 and height 1 (scaled by radius,
height, radius). A capsule's caps must stay round, so a capsule mesh has radius 1 and its own
height-to-radius ratio and is scaled uniformly by the radius; capsules of one proportion share
a mesh. The plane is a 1 x 1 square on XZ facing +Y.

Triangles wind counter-clockwise seen from outside (OpenGL's front face), so back-face culling
works and the ghost's fresnel sees the surface it expects; the tests check every primitive.
Vertices are interleaved ``position, normal, uv`` as float32 (the layout the shaders read).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from playspace.components.visual import Surface

# The shaders' vertex inputs and their float counts, in the order of a vertex's floats.
VERTEX_ATTRIBUTES = (("in_position", 3), ("in_normal", 3), ("in_uv", 2))
SEGMENTS = 24  # around a sphere, capsule or cylinder
RINGS = 12  # pole to pole on a sphere; a capsule's caps take half each

F32Array = npt.NDArray[np.float32]
U32Array = npt.NDArray[np.uint32]


@dataclass(frozen=True, slots=True, eq=False)
class MeshData:
    """Triangles ready to upload: `vertices` (N, 8) float32 rows of position, normal and uv,
    `indices` (M, 3) uint32, counter-clockwise from the outside."""

    vertices: F32Array
    indices: U32Array

    def __post_init__(self) -> None:
        if self.vertices.ndim != 2 or self.vertices.shape[1] != 8:
            raise ValueError(f"mesh vertices must be (N, 8), got {self.vertices.shape}")
        if self.indices.ndim != 2 or self.indices.shape[1] != 3 or len(self.indices) == 0:
            raise ValueError(f"mesh indices must be (M, 3) with M > 0, got {self.indices.shape}")
        if int(self.indices.max()) >= len(self.vertices):
            raise ValueError("mesh indices point past the last vertex")


def _mesh(
    positions: npt.ArrayLike, normals: npt.ArrayLike, uvs: npt.ArrayLike, indices: npt.ArrayLike
) -> MeshData:
    vertices = np.hstack(
        [np.asarray(positions), np.asarray(normals), np.asarray(uvs)], dtype=np.float32
    )
    return MeshData(vertices, np.asarray(indices, dtype=np.uint32).reshape(-1, 3))


def _merge(parts: Sequence[MeshData]) -> MeshData:
    """One mesh of several, their indices shifted past the vertices before them."""
    starts = np.cumsum([0] + [len(p.vertices) for p in parts[:-1]])
    return MeshData(
        np.vstack([p.vertices for p in parts]),
        np.vstack([p.indices + np.uint32(s) for p, s in zip(parts, starts, strict=True)]),
    )


def _quad(
    normal: Sequence[float], u: Sequence[float], v: Sequence[float], out: float = 0.5
) -> MeshData:
    """A unit square facing `normal`, `out` along it; ``u x v`` must be `normal`."""
    n, du, dv = (np.asarray(a, dtype=np.float64) for a in (normal, u, v))
    corners = [(-1, -1), (1, -1), (1, 1), (-1, 1)]  # counter-clockwise seen from the normal
    positions = [n * out + du * (a * 0.5) + dv * (b * 0.5) for a, b in corners]
    uvs = [((a + 1) / 2, (b + 1) / 2) for a, b in corners]
    return _mesh(positions, [n] * 4, uvs, [0, 1, 2, 0, 2, 3])


def box() -> MeshData:
    """The unit cube (full extents 1): 24 vertices, so every face has its own normal."""
    x, y, z = (1, 0, 0), (0, 1, 0), (0, 0, 1)
    nx, ny, nz = (-1, 0, 0), (0, -1, 0), (0, 0, -1)
    faces = [(x, nz, y), (nx, z, y), (y, x, nz), (ny, x, z), (z, x, y), (nz, nx, y)]
    return _merge([_quad(n, u, v) for n, u, v in faces])


def plane() -> MeshData:
    """A 1 x 1 square on XZ, facing +Y (a floor or a table top)."""
    return _quad((0, 1, 0), (1, 0, 0), (0, 0, -1), out=0.0)


def _rings(positions: npt.ArrayLike, normals: npt.ArrayLike, rows: int, cols: int) -> MeshData:
    """Rows of `cols` + 1 vertices each, top to bottom, joined by quads. A vertex at
    ``theta`` turns from +X towards +Z; the seam repeats its first column so uvs wrap."""
    i, j = np.meshgrid(np.arange(rows - 1), np.arange(cols), indexing="ij")
    a = (i * (cols + 1) + j).ravel()
    b, c, d = a + cols + 1, a + cols + 2, a + 1
    # counter-clockwise from outside: down the column is -Y, along the row turns towards +Z
    indices = np.stack([a, c, b, a, d, c], axis=1)
    u = np.tile(np.linspace(0.0, 1.0, cols + 1), rows)
    v = np.repeat(np.linspace(1.0, 0.0, rows), cols + 1)
    return _mesh(positions, normals, np.stack([u, v], axis=1), indices)


def _around(segments: int) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    theta = np.linspace(0.0, 2 * math.pi, segments + 1)
    return np.cos(theta), np.sin(theta)


def capsule(height: float = 2.0, segments: int = SEGMENTS, rings: int = RINGS) -> MeshData:
    """A capsule of radius 1 and total `height` (caps included, at least 2) along Y.

    A sphere is the capsule of height 2, so both are this one mesh: the upper hemisphere is
    lifted by half the straight part and the lower one lowered, and the quads across the
    equator become the straight side.
    """
    if height < 2.0:
        raise ValueError(f"a unit capsule's height must be at least 2, got {height!r}")
    if rings % 2:
        raise ValueError(f"capsule rings must be even (half for each cap), got {rings}")
    cos_t, sin_t = _around(segments)
    phi = np.linspace(0.0, math.pi, rings + 1)
    if height > 2.0:  # the equator twice: the straight side joins the two copies
        phi = np.concatenate([phi[: rings // 2 + 1], phi[rings // 2 :]])
    lift = np.where(np.arange(len(phi)) <= rings // 2, 1.0, -1.0) * (height / 2 - 1.0)
    s, c = np.sin(phi)[:, None], np.cos(phi)[:, None]
    normals = np.stack([s * cos_t, c + 0 * cos_t, s * sin_t], axis=-1)  # (rows, cols + 1, 3)
    positions = normals.copy()
    positions[..., 1] += lift[:, None]
    return _rings(positions.reshape(-1, 3), normals.reshape(-1, 3), len(phi), segments)


def sphere(segments: int = SEGMENTS, rings: int = RINGS) -> MeshData:
    """The unit sphere (radius 1)."""
    return capsule(2.0, segments, rings)


def cylinder(segments: int = SEGMENTS) -> MeshData:
    """A cylinder of radius 1 and height 1 along Y, with flat caps."""
    cos_t, sin_t = _around(segments)
    ring = np.stack([cos_t, np.zeros_like(cos_t), sin_t], axis=1)
    half = np.array([0.0, 0.5, 0.0])
    side = _rings(np.vstack([ring + half, ring - half]), np.vstack([ring, ring]), 2, segments)
    caps = []
    for y in (0.5, -0.5):
        centre = np.array([0.0, y, 0.0])
        positions = np.vstack([centre, ring + centre])
        normal = np.array([0.0, math.copysign(1.0, y), 0.0])
        j = np.arange(segments)
        # seen from above, turning towards +Z is clockwise, so the top cap takes (j+1, j)
        first, second = (j + 2, j + 1) if y > 0 else (j + 1, j + 2)
        uvs = np.vstack([[(0.5, 0.5)], np.stack([(cos_t + 1) / 2, (sin_t + 1) / 2], axis=1)])
        caps.append(
            _mesh(
                positions,
                np.broadcast_to(normal, positions.shape),
                uvs,
                np.stack([0 * j, first, second], axis=1),
            )
        )
    return _merge([side, *caps])


def from_surface(
    positions: npt.ArrayLike, normals: npt.ArrayLike, uvs: npt.ArrayLike, triangles: npt.ArrayLike
) -> MeshData:
    """A model's surface as its file made it: its own normals and uvs, vertices shared."""
    return _mesh(positions, normals, uvs, triangles)


def from_triangles(vertices: npt.ArrayLike, triangles: npt.ArrayLike) -> MeshData:
    """Flat-shaded triangles (a physics triangle mesh or hull, drawn as it collides): every
    triangle gets its own three vertices and its face normal."""
    points = np.asarray(vertices, dtype=np.float64)
    tris = np.asarray(triangles, dtype=np.int64).reshape(-1, 3)
    corners = points[tris]  # (M, 3, 3)
    normals = np.cross(corners[:, 1] - corners[:, 0], corners[:, 2] - corners[:, 0])
    lengths = np.linalg.norm(normals, axis=1, keepdims=True)
    normals = np.divide(normals, lengths, out=np.zeros_like(normals), where=lengths > 0)
    count = len(tris) * 3
    return _mesh(
        corners.reshape(-1, 3),
        np.repeat(normals, 3, axis=0),
        np.zeros((count, 2)),
        np.arange(count),
    )


def surface_of(
    mesh: MeshData,
    size: tuple[float, float, float] = (1.0, 1.0, 1.0),
    centre: tuple[float, float, float] = (0.0, 0.0, 0.0),
) -> Surface:
    """`mesh` (a unit primitive) scaled by `size` about its origin and moved to `centre`, as a
    surface a model carries: how the asset scripts build models from primitives. Normals are
    kept as they are, right for a box, a sphere scaled evenly and a cylinder's sides."""
    v = mesh.vertices
    positions = (v[:, :3] * np.asarray(size) + np.asarray(centre)).astype(np.float32)
    return Surface(positions, v[:, 3:6].copy(), v[:, 6:8].copy(), mesh.indices.copy())
