"""Controller models: closed, controller-sized, one per kind of controller, mirrored."""

from __future__ import annotations

import numpy as np
import pytest

from playspace.components.tracking import DeviceRole
from playspace.render.controllers import ControllerModel, controller_mesh, mirrored, model_for
from playspace.render.meshes import MeshData
from playspace.xr.bindings import PROFILES

LEFT, RIGHT = DeviceRole.LEFT_HAND, DeviceRole.RIGHT_HAND
NAMES = [profile.name for profile in PROFILES]


def directed_edges(mesh: MeshData) -> tuple[dict[tuple[int, int], int], int]:
    """Directed edges by welded position (primitives repeat vertices along seams), and how
    many triangles there are once the degenerate ones (at a sphere's poles) are dropped."""
    _, ids = np.unique(np.round(mesh.vertices[:, :3], 6), axis=0, return_inverse=True)
    triangles = ids.reshape(-1)[mesh.indices]
    keep = (
        (triangles[:, 0] != triangles[:, 1])
        & (triangles[:, 1] != triangles[:, 2])
        & (triangles[:, 0] != triangles[:, 2])
    )
    edges: dict[tuple[int, int], int] = {}
    for a, b, c in triangles[keep]:
        for edge in ((a, b), (b, c), (c, a)):
            edges[edge] = edges.get(edge, 0) + 1
    return edges, int(keep.sum())


def closed(mesh: MeshData) -> bool:
    """Every edge is walked once each way: no hole, and neighbours wound alike."""
    edges, _ = directed_edges(mesh)
    return all(edges.get((b, a), 0) == n for (a, b), n in edges.items())


def volume(mesh: MeshData) -> float:
    """Signed volume: positive when the triangles face outwards."""
    p = mesh.vertices[:, :3].astype(np.float64)[mesh.indices]
    return float(np.einsum("ij,ij->i", p[:, 0], np.cross(p[:, 1], p[:, 2])).sum() / 6)


@pytest.mark.parametrize("name", [*NAMES, None])
@pytest.mark.parametrize("side", [LEFT, RIGHT])
def test_every_model_is_closed_faces_outwards_and_is_controller_sized(
    name: str | None, side: DeviceRole
) -> None:
    mesh = controller_mesh(name, side)
    assert closed(mesh)
    assert volume(mesh) > 50e-6  # cm^3 of solid: a hand-sized object, not inside out
    extent = np.ptp(mesh.vertices[:, :3], axis=0)
    assert (extent >= 0.03).all() and (extent <= 0.20).all(), extent
    assert extent.max() >= 0.10  # a handle and its head: a hand's length
    normals = np.linalg.norm(mesh.vertices[:, 3:6], axis=1)
    assert normals == pytest.approx(1.0, abs=1e-5)


def test_the_closed_check_finds_a_hole() -> None:
    """The control for the test above: one triangle less and the mesh is open."""
    mesh = controller_mesh("Meta Touch", LEFT)
    holed = MeshData(mesh.vertices, mesh.indices[1:].copy())
    assert not closed(holed)


def test_each_kind_of_controller_has_its_own_model() -> None:
    assert model_for("Meta Touch") is ControllerModel.RING
    assert model_for("HTC Vive wand") is ControllerModel.WAND
    assert model_for("Valve Index") is ControllerModel.KNUCKLES
    assert model_for("Windows Mixed Reality") is ControllerModel.WIDE_RING
    assert model_for("Pico 4") is ControllerModel.ARC
    for unknown in ("generic controller (khr/simple)", None, "", "no controllers",
                    "/interaction_profiles/acme/paddle"):  # fmt: skip
        assert model_for(unknown) is ControllerModel.GENERIC
    # a profile playspace does not name is still recognised by its vendor's path
    assert model_for("/interaction_profiles/oculus/go_controller") is ControllerModel.RING
    models = [controller_mesh(name, LEFT) for name in NAMES]
    assert len({model_for(name) for name in NAMES}) == len(NAMES)  # six profiles, six shapes
    for i, a in enumerate(models):
        for b in models[i + 1 :]:
            assert a.vertices.shape != b.vertices.shape or not np.allclose(a.vertices, b.vertices)


@pytest.mark.parametrize("name", NAMES)
def test_the_right_hand_model_is_the_left_mirrored(name: str) -> None:
    left, right = controller_mesh(name, LEFT), controller_mesh(name, RIGHT)
    flipped = left.vertices[:, :3] * (-1.0, 1.0, 1.0)
    assert right.vertices[:, :3] == pytest.approx(flipped)
    assert volume(right) == pytest.approx(volume(left), rel=1e-4)  # still facing outwards
    assert volume(mirrored(mirrored(left))) == pytest.approx(volume(left))


def test_a_touch_ring_sits_on_the_outside_of_each_hand() -> None:
    """Mirroring is what a player sees: the left ring leans left, the right one right."""
    left, right = controller_mesh("Meta Touch", LEFT), controller_mesh("Meta Touch", RIGHT)
    assert left.vertices[:, 0].mean() < -0.003
    assert right.vertices[:, 0].mean() > 0.003


def test_a_model_is_made_once_per_kind_and_hand() -> None:
    """A renderer uploads meshes by identity: the same model must be the same object."""
    assert controller_mesh("Meta Touch", LEFT) is controller_mesh("Meta Touch", LEFT)
    assert controller_mesh("Meta Touch", LEFT) is not controller_mesh("Meta Touch", RIGHT)


def test_a_controller_is_held_in_a_hand() -> None:
    with pytest.raises(ValueError, match="LEFT_HAND or RIGHT_HAND"):
        controller_mesh("Meta Touch", DeviceRole.HEAD)
