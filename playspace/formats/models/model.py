"""A model as read from its file: nodes in a tree, each with its place in its parent, its
surfaces and looks, its import hint and its extras. Plain data: what becomes of it in a world
is :mod:`playspace.app.models`'s."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import glm
import numpy as np
import numpy.typing as npt

from playspace import spatial
from playspace.components.animation import Clip
from playspace.components.appearance import Appearance
from playspace.components.joints import JointKind, Spring
from playspace.components.physics import Shape
from playspace.components.visual import Surface
from playspace.formats.models.hints import Hint
from playspace.spatial import Pose

Triple = tuple[float, float, float]
Matrix = npt.NDArray[np.float64]  # 4x4, acting on column vectors
F32Matrices = npt.NDArray[np.float32]  # (N, 4, 4)
Quad = tuple[float, float, float, float]


class ModelError(ValueError):
    """A model file that cannot be used; the message names the file, the item and why."""


@dataclass(frozen=True, slots=True)
class SocketExtras:
    """A node's ``socket`` extras: a snap zone of `radius` metres at the node, taking what has
    one of the tags it `accepts` (every grabbable when empty), calling the last back after
    `return_after` seconds free (None: never)."""

    radius: float = 0.1
    accepts: tuple[str, ...] = ()
    return_after: float | None = None


@dataclass(frozen=True, slots=True)
class BodyExtras:
    """What a node's extras (or a scene's overrides of them) say; None: left out. On a body:
    `grabbable`, `mass`, `layer`, `tags`; on an empty node under a body, `attach` (the hand
    that holds the body there: ``left``, ``right``, or ``second`` for a two-handed object's
    second grip); on any node, `socket`."""

    grabbable: bool | None = None
    mass: float | None = None
    layer: str | None = None
    tags: tuple[str, ...] | None = None
    attach: str | None = None  # this node is where a hand holds its body: left, right, second
    socket: SocketExtras | None = None  # this node is a snap zone


@dataclass(frozen=True, slots=True)
class Geometry:
    """What collides: a primitive `shape` in the node's frame, or `surfaces` (a mesh's, in
    the frame of the node that has it) as triangles or their `convex` hull."""

    shape: Shape | None = None
    surfaces: tuple[Surface, ...] = ()
    convex: bool = False
    friction: float | None = None
    restitution: float | None = None


@dataclass(frozen=True, slots=True)
class NodePhysics:
    """A node's physics as its file states it: a body's motion (`dynamic` or kinematic, and
    its `mass`; None: no body here), its collider and its trigger."""

    motion: bool = False
    kinematic: bool = False
    mass: float | None = None
    collider: Geometry | None = None
    trigger: Geometry | None = None


@dataclass(frozen=True, slots=True)
class ModelPart:
    """One primitive of a node's mesh: its triangles, and its material (None: the file gives
    it none, and the palette draws it)."""

    surface: Surface
    look: Appearance | None


@dataclass(frozen=True, slots=True)
class ModelJoint:
    """A hinge or a slider a node states (its extras, or the physics extension): about or
    along `axis` through `anchor`, both in the node's frame, holding the body the node is in
    to the body node `connected` is in (the world when None, or when that node is in none),
    within `limits` (None: free), pulled by `spring`, slowed by `friction`. The limits and the
    spring's target measure this node's body from the connected one (playspace's way), or,
    `from_node`, the connected node from this one (the physics extension's)."""

    kind: JointKind
    anchor: Triple
    axis: Triple
    connected: int | None = None
    limits: tuple[float, float] | None = None
    spring: Spring | None = None
    friction: float = 0.0
    from_node: bool = False


@dataclass(frozen=True, slots=True, eq=False)
class ModelSkin:
    """A node's skin: the nodes that are its `joints` (by the file's index; a skinned
    surface's joint numbers index this), and each one's `inverse_binds` (J, 4, 4), the
    inverse of its place in the model's frame when the surfaces were bound to it."""

    joints: tuple[int, ...]
    inverse_binds: Matrix


@dataclass(frozen=True, slots=True)
class ModelNode:
    """One node: `name` without its hint, where it sits in its parent (`translation`,
    `rotation` as x, y, z, w, `scale`), `extras` as the file's JSON object, and `body` what
    those extras say playspace is to make of it as a body (``grabbable``, ``mass``, ``layer``,
    ``tags``)."""

    index: int
    name: str
    hint: Hint
    parent: int | None
    children: tuple[int, ...]
    translation: Triple
    rotation: Quad
    scale: Triple
    parts: tuple[ModelPart, ...]
    extras: Mapping[str, object]
    body: BodyExtras = BodyExtras()  # what its extras say of it as a body, checked
    physics: NodePhysics | None = None  # what a physics extension says of it
    skin: ModelSkin | None = None  # what bends its skinned surfaces
    joint: ModelJoint | None = None  # a hinge or slider it holds its body by


@dataclass(frozen=True, slots=True)
class Model:
    """A model file's default scene: its `nodes` (indexed as the file indexes them; only those
    under `roots` are placed), what the reader could not use, in words (`unused`), and its
    animation `clips`."""

    path: Path
    nodes: tuple[ModelNode, ...]
    roots: tuple[int, ...]
    unused: tuple[str, ...] = ()
    clips: tuple[Clip, ...] = ()

    def walk(self) -> list[ModelNode]:
        """The placed nodes, each parent before its children, in the file's order (a
        ``-noimp`` node and everything under it are not placed)."""
        return [node for node, _ in self.placed()]

    def placed(self, root: Matrix | None = None) -> Iterator[tuple[ModelNode, Matrix]]:
        """Each placed node (as :meth:`walk` gives them) with its place in the model's frame,
        or in `root`'s (a matrix the model is put under)."""
        stack = [(index, np.eye(4) if root is None else root) for index in reversed(self.roots)]
        while stack:
            index, parent = stack.pop()
            node = self.nodes[index]
            if node.hint is Hint.NO_IMPORT:
                continue
            here = parent @ local_matrix(node)
            yield node, here
            stack.extend((child, here) for child in reversed(node.children))

    def summary(self) -> str:
        """What the model becomes, for people: ``4 nodes placed: 2 drawn, 3 colliders (boxcol 2,
        col 1), 1 bodies (grabbable 1), 1 left out (-noimp, or in no scene)``; colliders a
        physics extension states count as ``stated``, and attach points and sockets are
        counted too, and joints and skins."""
        placed = self.walk()
        drawn = sum(1 for n in placed if n.parts and n.hint.drawn and not _in_body(self, n))
        colliders: dict[str, int] = {}
        for node in placed:
            if node.hint.collides:
                colliders[node.hint.value] = colliders.get(node.hint.value, 0) + 1
            stated = node.physics
            if stated is not None and (stated.collider or stated.trigger):
                colliders["stated"] = colliders.get("stated", 0) + 1
        bodies = [
            n
            for n in placed
            if n.hint is Hint.RIGID or (n.physics is not None and n.physics.motion)
        ]
        grabbable = sum(1 for n in bodies if n.body.grabbable)
        sockets = sum(1 for n in placed if n.body.socket is not None)
        held_at = sum(1 for n in placed if n.body.attach is not None)
        left_out = len(self.nodes) - len(placed)
        said = [f"{len(placed)} nodes placed", f"{drawn} drawn"]
        if colliders:
            kinds = ", ".join(f"{kind} {count}" for kind, count in sorted(colliders.items()))
            said.append(f"{sum(colliders.values())} colliders ({kinds})")
        if bodies:
            said.append(f"{len(bodies)} bodies (grabbable {grabbable})")
        if held_at:
            said.append(f"{held_at} attach points")
        if sockets:
            said.append(f"{sockets} sockets")
        joints = [n.joint.kind.value for n in placed if n.joint is not None]
        if joints:
            kinds = ", ".join(f"{k} {joints.count(k)}" for k in sorted(set(joints)))
            said.append(f"{len(joints)} joints ({kinds})")
        bones = [len(n.skin.joints) for n in placed if n.skin is not None]
        if bones:
            said.append(f"{len(bones)} skins ({max(bones)} bones at most)")
        if left_out:
            said.append(f"{left_out} left out (-noimp, or in no scene)")
        if self.clips:
            said.append(f"clips {', '.join(clip.name for clip in self.clips)}")
        return f"{said[0]}: " + ", ".join(said[1:])

    def static_bounds(self) -> tuple[Matrix, Matrix] | None:
        """The smallest box, in the model's frame, around what collides and stays put (the
        hinted nodes not under a ``-rigid`` one): where a level made of it has ground. None
        when nothing does."""
        corners: list[Matrix] = []
        for node, here in self.placed():
            if node.hint.collides and not _in_body(self, node):
                for part in node.parts:
                    points = part.surface.positions.astype(np.float64)
                    corners.append(points @ here[:3, :3].T + here[:3, 3])
        if not corners:
            return None
        every = np.concatenate(corners)
        return every.min(axis=0), every.max(axis=0)


def local_matrix(node: ModelNode) -> Matrix:
    """Where `node` sits in its parent, as a matrix."""
    return spatial.trs_matrix(node.translation, node.rotation, node.scale)


def _in_body(model: Model, node: ModelNode) -> bool:
    """Whether `node` is part of a ``-rigid`` body (itself or an ancestor is one)."""
    current: ModelNode | None = node
    while current is not None:
        if current.hint is Hint.RIGID:
            return True
        current = None if current.parent is None else model.nodes[current.parent]
    return False


def taken_apart(matrix: Matrix) -> tuple[Triple, Quad, Triple]:
    """A matrix of translation x rotation x scale as those three (rotation as x, y, z, w); a
    mirror is put in the scale, as glTF puts it. Raises ValueError for a scale of 0."""
    scale = np.linalg.norm(matrix[:3, :3], axis=0)
    if (scale < 1e-9).any():
        raise ValueError("a matrix that squashes a direction flat")
    turn = matrix[:3, :3] / scale
    if np.linalg.det(turn) < 0:
        scale[0], turn[:, 0] = -scale[0], -turn[:, 0]
    q = glm.normalize(glm.dquat(glm.dmat3(*(float(v) for v in turn.T.flatten()))))
    t = matrix[:3, 3]
    return (
        (float(t[0]), float(t[1]), float(t[2])),
        (q.x, q.y, q.z, q.w),
        (float(scale[0]), float(scale[1]), float(scale[2])),
    )


def unscaled(matrix: Matrix) -> Matrix:
    """`matrix` without its scale: the rigid frame an entity's Transform can hold."""
    return spatial.pose_matrix(Pose(*entity_pose(matrix)))


def entity_pose(matrix: Matrix) -> tuple[spatial.Vec3, spatial.Quat]:
    """Where `matrix` puts an entity, its scale (a mirror too) left to its surfaces."""
    translation, rotation, _ = taken_apart(matrix)
    return spatial.vec3(*translation), spatial.quat_from_xyzw(rotation)


def skin_matrices(frame: Matrix, joints: Sequence[Matrix], inverse_binds: Matrix) -> F32Matrices:
    """A skin's joint matrices for an entity at `frame`, its joints at `joints` (both in one
    space, the world's): each joint's place in the entity's frame times its inverse bind."""
    placed = np.linalg.inv(frame) @ np.asarray(joints, dtype=np.float64)
    made: F32Matrices = (placed @ inverse_binds).astype(np.float32)
    return made


_TRANSFORMED: dict[tuple[int, bytes], tuple[Surface, Surface]] = {}
KEPT_SURFACES = 4096  # surfaces kept made, by surface and matrix: every copy of a level's props


def transformed(surface: Surface, matrix: Matrix) -> Surface:
    """`surface` with `matrix` applied (the same surface when it is the identity). The same
    surface under the same matrix gives the same object again, so each copy of a model (four
    bees) shares its surfaces, and a renderer draws the copies as instances of one mesh: ten
    draws for four bees of ten parts, not forty."""
    if np.allclose(matrix, np.eye(4)):
        return surface
    key = (id(surface), np.asarray(matrix, dtype=np.float64).tobytes())
    known = _TRANSFORMED.get(key)
    if known is not None:  # the source is kept with it, so no other surface has its id
        return known[1]
    made = _transformed(surface, matrix)
    _TRANSFORMED[key] = (surface, made)
    while len(_TRANSFORMED) > KEPT_SURFACES:
        del _TRANSFORMED[next(iter(_TRANSFORMED))]
    return made


def forget_surfaces() -> None:
    """Drop every surface :func:`transformed` made: the next of each is made again."""
    _TRANSFORMED.clear()


def _transformed(surface: Surface, matrix: Matrix) -> Surface:
    linear, shift = matrix[:3, :3], matrix[:3, 3]
    positions = (surface.positions.astype(np.float64) @ linear.T + shift).astype(np.float32)
    normals = surface.normals.astype(np.float64) @ np.linalg.inv(linear)
    lengths = np.linalg.norm(normals, axis=1, keepdims=True)
    normals = np.divide(normals, lengths, out=np.zeros_like(normals), where=lengths > 0)
    triangles = surface.triangles
    if np.linalg.det(linear) < 0:  # mirrored: keep the front face in front
        triangles = np.ascontiguousarray(triangles[:, ::-1])
    return Surface(
        positions,
        normals.astype(np.float32),
        surface.uvs,
        triangles,
        surface.joints,
        surface.weights,
    )
