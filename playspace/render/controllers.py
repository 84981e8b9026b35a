"""Controller models made here from primitives, one per kind of controller, no files needed.

A player who looks down at their hands should recognise what they hold: a ring over the
fist for Meta Touch, Pico 4 and Windows Mixed Reality controllers, a long wand with a round
head for the HTC Vive, a handle with a strap and a head for the Valve Index, and a plain
handle with a rounded tip for anything else (``khr/simple`` and profiles playspace does not
know). The models are rough on purpose: shapes and proportions, no buttons, so they cost a
few hundred triangles and need no downloads or licences.

Each mesh is in the controller's grip frame as OpenXR gives it (metres; -Z forward through
the fist, along the handle; +Y up; the left hand's model is built and the right hand's is its
mirror image across X), so a hand drawn at its grip pose holds it where the real one is. Every
part is a closed shape wound counter-clockwise from outside, so back-face culling and the
ghost shader see what they expect. :func:`controller_mesh` returns the same object for the same
kind and hand, so a renderer uploads each model once.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from functools import cache

import numpy as np

from playspace.components.tracking import DeviceRole
from playspace.render import meshes
from playspace.render.meshes import MeshData
from playspace.spatial import FloatArray


class ControllerModel(Enum):
    """The shapes playspace draws controllers as."""

    RING = "ring"  # Meta Touch (Quest, Rift S)
    WIDE_RING = "wide_ring"  # Windows Mixed Reality: a large ring ahead of the fist
    ARC = "arc"  # Pico 4: a ring arcing over the thumb
    WAND = "wand"  # HTC Vive
    KNUCKLES = "knuckles"  # Valve Index
    GENERIC = "generic"  # khr/simple, and whatever is not known


# Words in a profile's name for people (or in its path, for profiles playspace does not know),
# first match wins; names are compared in lower case.
_NAMES: tuple[tuple[tuple[str, ...], ControllerModel], ...] = (
    (("touch", "oculus", "meta"), ControllerModel.RING),
    (
        ("mixed reality", "microsoft", "hp/mixed_reality", "samsung/odyssey"),
        ControllerModel.WIDE_RING,
    ),
    (("pico", "bytedance"), ControllerModel.ARC),
    (("vive", "htc"), ControllerModel.WAND),
    (("index", "valve"), ControllerModel.KNUCKLES),
)


def model_for(profile_name: str | None) -> ControllerModel:
    """The model for a bound profile's name for people (``HeadsetSession.controllers``, e.g.
    ``Meta Touch``) or its path; GENERIC for None and anything not recognised."""
    name = (profile_name or "").lower()
    for words, model in _NAMES:
        if any(word in name for word in words):
            return model
    return ControllerModel.GENERIC


def controller_mesh(profile_name: str | None, side: DeviceRole) -> MeshData:
    """The controller model for `profile_name` in the hand `side` (LEFT_HAND or RIGHT_HAND),
    in the grip frame, in metres (draw it unscaled at the hand's pose)."""
    if side not in (DeviceRole.LEFT_HAND, DeviceRole.RIGHT_HAND):
        raise ValueError(f"a controller is held in LEFT_HAND or RIGHT_HAND, not {side!r}")
    return _built(model_for(profile_name), side)


@cache
def _built(model: ControllerModel, side: DeviceRole) -> MeshData:
    left = _merge(_PARTS[model]())
    return left if side is DeviceRole.LEFT_HAND else mirrored(left)


# Parts ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Placement:
    """Where a unit primitive goes: scaled on its own axes, turned about X (tilt, radians,
    positive lifts -Z towards +Y) then about Y (turn), then moved to `at`."""

    at: tuple[float, float, float]
    scale: tuple[float, float, float] = (1.0, 1.0, 1.0)
    tilt: float = 0.0
    turn: float = 0.0

    def matrix(self) -> FloatArray:
        c, s = math.cos(self.tilt), math.sin(self.tilt)
        about_x = np.array([[1, 0, 0], [0, c, -s], [0, s, c]])
        c, s = math.cos(self.turn), math.sin(self.turn)
        about_y = np.array([[c, 0, s], [0, 1, 0], [-s, 0, c]])
        m = np.eye(4)
        m[:3, :3] = about_y @ about_x @ np.diag(self.scale)
        m[:3, 3] = self.at
        return m


def _placed(mesh: MeshData, placement: _Placement) -> MeshData:
    """`mesh` moved by `placement`; normals through the inverse transpose, renormalised."""
    m = placement.matrix()
    vertices = mesh.vertices.astype(np.float64)
    positions = vertices[:, :3] @ m[:3, :3].T + m[:3, 3]
    normals = vertices[:, 3:6] @ np.linalg.inv(m[:3, :3])
    lengths = np.linalg.norm(normals, axis=1, keepdims=True)
    normals = np.divide(normals, lengths, out=np.zeros_like(normals), where=lengths > 0)
    out = np.hstack([positions, normals, vertices[:, 6:]]).astype(np.float32)
    return MeshData(out, mesh.indices.copy())


def torus(ring: float, tube: float, segments: int = 32, sides: int = 10) -> MeshData:
    """A ring in the XZ plane around Y: `ring` metres from its centre to the tube's middle,
    the tube `tube` metres in radius. Closed, with no seam: the grid wraps both ways."""
    theta = np.linspace(0.0, 2 * math.pi, segments, endpoint=False)[:, None]
    phi = np.linspace(0.0, 2 * math.pi, sides, endpoint=False)[None, :]
    normals = np.stack(
        [np.cos(phi) * np.cos(theta), np.sin(phi) + 0 * theta, np.cos(phi) * np.sin(theta)],
        axis=-1,
    )
    centres = np.stack([np.cos(theta), 0 * theta, np.sin(theta)], axis=-1) * ring
    positions = centres + normals * tube
    i, j = np.meshgrid(np.arange(segments), np.arange(sides), indexing="ij")
    a = i * sides + j
    b = ((i + 1) % segments) * sides + j
    c = ((i + 1) % segments) * sides + (j + 1) % sides
    d = i * sides + (j + 1) % sides
    indices = np.stack([a, c, b, a, d, c], axis=-1).reshape(-1, 3)
    uvs = np.stack([i / segments, j / sides], axis=-1).reshape(-1, 2)
    vertices = np.hstack([positions.reshape(-1, 3), normals.reshape(-1, 3), uvs])
    return MeshData(vertices.astype(np.float32), indices.astype(np.uint32))


def _handle(
    length: float, radius: float, at: tuple[float, float, float], tilt: float = 0.0
) -> MeshData:
    """A handle along Z (the grip's tube of fingers): a cylinder lying down."""
    return _placed(meshes.cylinder(), _Placement(at, (radius, length, radius), tilt - math.pi / 2))


def _ring_controller(
    ring: float, tube: float, at: tuple[float, float, float], tilt: float
) -> list[MeshData]:
    """A handle with a tracking ring (centred `at`) ahead of and over the fist, and a thumb
    face where the ring meets it; a ring off to the outside of the left hand is at -X."""
    return [
        _handle(0.095, 0.017, (0.0, -0.005, 0.01), tilt=0.25),
        _placed(meshes.cylinder(), _Placement((0.0, 0.02, -0.045), (0.024, 0.02, 0.026))),
        _placed(torus(ring, tube), _Placement(at, tilt=tilt, turn=0.3)),
    ]


def _touch() -> list[MeshData]:
    return _ring_controller(0.042, 0.007, (-0.012, 0.03, -0.05), tilt=0.9)


def _wide_ring() -> list[MeshData]:
    return _ring_controller(0.055, 0.009, (-0.005, 0.02, -0.07), tilt=0.35)


def _arc() -> list[MeshData]:
    return _ring_controller(0.04, 0.011, (-0.02, 0.04, -0.04), tilt=1.2)


def _wand() -> list[MeshData]:
    """A long handle and, ahead of the fist, a tracking head (a thick ring round a trackpad)."""
    return [
        _handle(0.11, 0.019, (0.0, 0.0, 0.015)),
        _placed(torus(0.04, 0.012), _Placement((0.0, 0.012, -0.075), tilt=0.5)),
        _placed(meshes.cylinder(), _Placement((0.0, 0.012, -0.075), (0.03, 0.012, 0.03), 0.5)),
    ]


def _knuckles() -> list[MeshData]:
    """A handle, a head over the thumb and a strap round the back of the hand (outside: -X)."""
    return [
        _handle(0.11, 0.016, (0.0, -0.01, 0.01), tilt=0.2),
        _placed(meshes.sphere(), _Placement((0.0, 0.025, -0.05), (0.022, 0.02, 0.035))),
        _placed(meshes.box(), _Placement((-0.045, 0.0, 0.005), (0.008, 0.03, 0.1), 0.2)),
    ]


def _generic() -> list[MeshData]:
    """A handle with a rounded tip ahead of the fist."""
    return [
        _handle(0.1, 0.018, (0.0, 0.0, 0.005)),
        _placed(meshes.sphere(), _Placement((0.0, 0.0, -0.055), (0.022, 0.022, 0.022))),
    ]


_PARTS = {
    ControllerModel.RING: _touch,
    ControllerModel.WIDE_RING: _wide_ring,
    ControllerModel.ARC: _arc,
    ControllerModel.WAND: _wand,
    ControllerModel.KNUCKLES: _knuckles,
    ControllerModel.GENERIC: _generic,
}


def _merge(parts: Sequence[MeshData]) -> MeshData:
    starts = np.cumsum([0] + [len(p.vertices) for p in parts[:-1]])
    return MeshData(
        np.vstack([p.vertices for p in parts]),
        np.vstack([p.indices + np.uint32(s) for p, s in zip(parts, starts, strict=True)]),
    )


def mirrored(mesh: MeshData) -> MeshData:
    """`mesh` mirrored across X (the other hand's model): positions and normals flipped, and
    each triangle's winding reversed so it still faces outwards."""
    vertices = mesh.vertices.copy()
    vertices[:, 0] *= -1.0
    vertices[:, 3] *= -1.0
    return MeshData(vertices, np.ascontiguousarray(mesh.indices[:, ::-1]))
