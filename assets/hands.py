"""The rigged hands every player is drawn with: ``python assets/hands.py`` writes
``playspace/systems/animation/hands.glb`` (the same bytes every run; a test checks the file in
the repository is what this script makes).

One file, two hands (nodes ``LeftHand`` and ``RightHand``), each a skinned mesh bound to 26
joints in OpenXR's order (``XR_EXT_hand_tracking``: palm, wrist, the thumb's four, then each
finger's five), so a tracked hand's joints and a posed one's bend it alike. The bind pose is
playspace's own open hand (``skeleton`` with every curl 0), in the hand's grip frame.

The hand is made of rounded pieces, each following one joint: a palm (a rounded slab on the
palm joint), a wrist stub, and each bone of the thumb and fingers a capsule from its joint to
the next, thicker at the knuckle than at the tip. A piece's vertices follow its joint; the
palm's edge toward the fingers is shared with the wrist (weights 0.75 and 0.25), so a tracked
hand's palm joint turning away from its wrist bends the palm instead of breaking it.
Change a number here and run the script again.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import numpy.typing as npt

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playspace.components.appearance import Appearance  # noqa: E402
from playspace.components.hands import OPEN, HandSkeleton  # noqa: E402
from playspace.components.visual import Surface  # noqa: E402
from playspace.formats.models import smooth_normals  # noqa: E402
from playspace.formats.models.model import taken_apart  # noqa: E402
from playspace.formats.models.write import ModelSpec, SkinSpec, write_glb  # noqa: E402
from playspace.render import meshes  # noqa: E402
from playspace.systems.animation.hands import skeleton  # noqa: E402

OUT = ROOT / "playspace" / "systems" / "animation" / "hands.glb"
SKIN = Appearance((0.69, 0.42, 0.31, 1.0), roughness=0.55)  # a warm mid skin tone, linear
NAMES = (
    "Palm", "Wrist",
    "ThumbMetacarpal", "ThumbProximal", "ThumbDistal", "ThumbTip",
    *(
        f"{finger}{bone}"
        for finger in ("Index", "Middle", "Ring", "Little")
        for bone in ("Metacarpal", "Proximal", "Intermediate", "Distal", "Tip")
    ),
)  # fmt: skip
PARENTS = (
    1,
    None,
    1,
    2,
    3,
    4,
    *(p for f in range(4) for p in (1, 6 + 5 * f, 7 + 5 * f, 8 + 5 * f, 9 + 5 * f)),
)
# the bones drawn as capsules: from a joint to the next (the finger metacarpals lie in the palm)
CAPSULES = (
    (2, 3),
    (3, 4),
    (4, 5),
    *((7 + 5 * f + k, 8 + 5 * f + k) for f in range(4) for k in range(3)),
)
THICKER = 1.08  # a capsule's radius over the joint's tracked radius: flesh around the bone
PALM = (0.046, 0.015, 0.05)  # the palm's half extents: across, thick, long
PALM_ROUNDNESS = 0.45  # a superellipsoid's exponent: 1 an ellipsoid, toward 0 a box

Points = npt.NDArray[np.float64]
Triangles = npt.NDArray[np.uint32]
Piece = tuple[Points, Triangles, int, Points]  # placed points, triangles, joint, wrist's share


def _capsule(
    start: npt.NDArray[np.float64], end: npt.NDArray[np.float64], r0: float, r1: float
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.uint32]]:
    """A capsule from `start` to `end` (points in the joint's frame, along its -Z), radius `r0`
    at the start and `r1` at the end: the unit capsule's upper cap moved to the end."""
    unit = meshes.sphere(12, 10)
    points = unit.vertices[:, :3].astype(np.float64)
    upper = points[:, 1] >= 0.0
    # the unit sphere's Y turned onto the bone (-Z of the joint): a quarter turn about X
    turned = np.stack([points[:, 0], points[:, 2], -points[:, 1]], axis=1)
    radius = np.where(upper, r1, r0)[:, None]
    centre = np.where(upper[:, None], end, start)
    return centre + turned * radius, unit.indices


def _palm() -> tuple[npt.NDArray[np.float64], npt.NDArray[np.uint32]]:
    """A rounded slab: the unit sphere pushed toward a box (a superellipsoid)."""
    unit = meshes.sphere(20, 14)
    points = unit.vertices[:, :3].astype(np.float64)
    boxed = np.sign(points) * np.abs(points) ** PALM_ROUNDNESS
    boxed[:, 1] = points[:, 1]  # round through its thickness
    # the unit sphere's Y is the palm's thickness (the hand's Y), its Z the palm's length
    return boxed * np.array([PALM[0], PALM[1], PALM[2]]), unit.indices


def _hand(left: bool) -> tuple[Surface, npt.NDArray[np.float64], list[ModelSpec]]:
    """One hand's skinned surface, its joints' inverse binds and its joint nodes."""
    joints, radii = skeleton(OPEN, left, HandSkeleton())
    pieces: list[Piece] = []

    def piece(joint: int, local: Points, tris: Triangles, share: Points | None = None) -> None:
        placed = local @ joints[joint][:3, :3].T + joints[joint][:3, 3]
        pieces.append((placed, tris, joint, np.zeros(len(local)) if share is None else share))

    palm, palm_tris = _palm()
    toward_fingers = np.clip(-palm[:, 2] / PALM[2], 0.0, 1.0)  # 0 mid-palm, 1 at the knuckles
    piece(0, palm + np.array([0.0, 0.0, 0.004]), palm_tris, 0.25 * toward_fingers)
    wrist, wrist_tris = _capsule(
        np.array([0.0, 0.0, 0.035]), np.array([0.0, 0.0, -0.005]), 0.024, 0.026
    )
    piece(1, wrist * np.array([1.3, 0.75, 1.0]), wrist_tris)
    for a, b in CAPSULES:
        length = float(np.linalg.norm(joints[b][:3, 3] - joints[a][:3, 3]))
        points, tris = _capsule(
            np.zeros(3), np.array([0.0, 0.0, -length]), radii[a] * THICKER, radii[b] * THICKER
        )
        piece(a, points, tris)
    binds: Points = np.round(np.linalg.inv(joints), 6).astype(np.float64)
    return _joined(pieces), binds, _joint_nodes(joints, "Left" if left else "Right")


def _joined(pieces: list[Piece]) -> Surface:
    """The pieces as one surface: each vertex's joints (its own, and the wrist for the palm's
    shared edge) and weights."""
    positions, triangles, joints, weights, start = [], [], [], [], 0
    for placed, tris, joint, share in pieces:
        positions.append(placed)
        triangles.append(tris + start)
        joints.append(np.tile([joint, 1, 0, 0], (len(placed), 1)))
        weights.append(np.stack([1.0 - share, share, 0 * share, 0 * share], axis=1))
        start += len(placed)
    # rounded (to a micrometre, and normals to 1e-5) so that every CPU's last bits of
    # rounding in the matrix products give the same file
    points = np.round(np.concatenate(positions), 6).astype(np.float32)
    tris = np.concatenate(triangles).astype(np.uint32)
    normals = np.concatenate([smooth_normals(p, t) for p, t, _, _ in pieces])
    return Surface(
        points,
        np.round(normals, 5).astype(np.float32),
        np.zeros((len(points), 2), np.float32),
        tris,
        np.concatenate(joints).astype(np.uint16),
        np.concatenate(weights).astype(np.float32),
    )


def _joint_nodes(joints: npt.NDArray[np.float64], side: str) -> list[ModelSpec]:
    """The joints as a node tree (the wrist its root), each placed in its parent."""
    specs = []
    for index, name in enumerate(NAMES):
        parent = PARENTS[index]
        local = joints[index] if parent is None else np.linalg.inv(joints[parent]) @ joints[index]
        translation, rotation, _ = taken_apart(local)
        x, y, z = (round(v, 6) for v in translation)
        qx, qy, qz, qw = (round(v, 6) for v in rotation)
        specs.append(ModelSpec(side + name, translation=(x, y, z), rotation=(qx, qy, qz, qw)))
    for index, spec in enumerate(specs):
        parent = PARENTS[index]
        if parent is not None:
            specs[parent].children.append(spec)
    return [specs[1]]


def make(out: Path = OUT) -> list[Path]:
    """Write the hands to `out`; the files written."""
    roots = []
    for side in ("Left", "Right"):
        surface, binds, tree = _hand(side == "Left")
        skin = SkinSpec(tuple(side + name for name in NAMES), binds)
        roots.append(ModelSpec(f"{side}Hand", surface, SKIN, skin=skin))
        roots.append(ModelSpec(f"{side}Armature", children=tree))
    return [write_glb(out, roots)]


if __name__ == "__main__":
    for path in make():
        print(path.relative_to(ROOT))
