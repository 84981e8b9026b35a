"""A model in a world: each node of a glTF model becomes what its import hint and extras say.

As Godot's importer reads a scene: a node without a hint is drawn and collides with nothing;
``-col`` adds static triangles exactly as drawn, ``-convcol`` a static convex hull,
``-boxcol``, ``-spherecol`` and ``-capsulecol`` a primitive fitted around it, ``-colonly`` and
``-convcolonly`` the collider without the drawing; ``-noimp`` leaves the node and everything
under it out. A ``-rigid`` node is one dynamic body with everything under it: its collider is
the compound of the hinted nodes under it (each at its place in the body), or, with none, the
convex hull of what it draws. A model spawned `dynamic` is one such body as a whole.

A node's ``extras`` say what playspace adds, on a body (a ``-rigid`` node, or the root of a
dynamic model): ``grabbable``, ``mass``, ``layer``, ``tags`` (read and checked with the file:
:class:`~playspace.formats.models.BodyExtras`); a scene's or a game's overrides win.

A node's scale is baked into its surfaces and colliders (physics has no scaled shapes); an
entity's ``Transform`` is the node's place in the world without it.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import Enum

import numpy as np

from playspace import spatial
from playspace.components import Transform
from playspace.components.animation import AnimatedNode, Animator
from playspace.components.interaction import Grabbable
from playspace.components.physics import (
    BodyKind,
    Box,
    Capsule,
    Collider,
    Colliders,
    ConvexHull,
    Cylinder,
    RigidBody,
    Shape,
    Sphere,
    TriangleMesh,
)
from playspace.components.scene import Prop, Scenery
from playspace.components.visual import Surface, Visual, VisualPart
from playspace.ecs import World
from playspace.formats.models import BodyExtras, Hint, Model, ModelNode
from playspace.formats.models.model import (
    Geometry,
    Matrix,
    local_matrix,
    taken_apart,
    trs_matrix,
)
from playspace.spatial import Pose

ENVIRONMENT = "environment"
KEPT_SHAPES = 4096  # colliders kept made, by node and placement
PROPS = "props"


_SHAPES: dict[tuple[object, ...], tuple[Shape, Pose]] = {}


class ModelKind(Enum):
    """How a model is placed: as its hints say (`STATIC`: what is not ``-rigid`` stays put),
    or as one dynamic body (`DYNAMIC`)."""

    STATIC = "static"
    DYNAMIC = "dynamic"


@dataclass(slots=True)
class SpawnedModel:
    """The entities a model became, by node name (a body by its own node's; an animated
    model's root, which carries its Animator, by the model's name), and the bodies."""

    entities: dict[str, int] = field(default_factory=dict)
    bodies: list[int] = field(default_factory=list)

    def __getitem__(self, name: str) -> int:
        return self.entities[name]


@dataclass(slots=True)
class _Body:
    node: ModelNode
    frame: Matrix  # the body's place in the world, without scale
    parts: list[VisualPart] = field(default_factory=list)
    colliders: list[Collider] = field(default_factory=list)
    points: list[np.ndarray] = field(default_factory=list)  # every drawn vertex, body frame


def spawn_model(
    world: World,
    model: Model,
    at: Pose | None = None,
    kind: ModelKind = ModelKind.STATIC,
    name: str = "",
    overrides: BodyExtras | None = None,
    scale: float = 1.0,
) -> SpawnedModel:
    """Spawn `model` with its root at `at` (the world's origin when None), `scale` times its
    size: its entities are named ``name/node`` (``node`` when `name` is empty). `overrides`
    replace what the bodies' extras say."""
    spawner = _Spawner(world, model, name, overrides or BodyExtras())
    root = _pose_matrix(at or Pose.identity()) @ np.diag([scale, scale, scale, 1.0])
    for index in model.roots:
        node = model.nodes[index]
        if kind is ModelKind.DYNAMIC:
            spawner.body(node, root)
        else:
            spawner.place(node, root)
    if model.clips and kind is ModelKind.STATIC:
        spawner.animator(at or Pose.identity(), scale)
    return spawner.spawned


def visual_of(model: Model, scale: float = 1.0) -> Visual:
    """Everything `model` draws, as one entity's visual in the model's frame (`scale` times
    its size): what a scene's shape with a ``model`` is drawn as, its own collider kept."""
    parts: list[VisualPart] = []
    stack = [(index, np.diag([scale, scale, scale, 1.0])) for index in model.roots]
    while stack:
        index, parent = stack.pop()
        node = model.nodes[index]
        if node.hint is Hint.NO_IMPORT:
            continue
        here = parent @ local_matrix(node)
        if node.hint.drawn:
            parts.extend(VisualPart(_baked(p.surface, here), p.look) for p in node.parts)
        stack.extend((child, here) for child in node.children)
    return Visual(tuple(parts))


class _Spawner:
    def __init__(self, world: World, model: Model, name: str, overrides: BodyExtras) -> None:
        self.world, self.model, self.overrides = world, model, overrides
        self.prefix = f"{name}/" if name else ""
        self.name = name or model.path.stem
        self.spawned = SpawnedModel()
        self.moving = _animated(model)  # nodes a clip moves, and what hangs from them
        self.shown: dict[int, tuple[int | None, Matrix]] = {}  # node: its entity, rest place

    def place(self, node: ModelNode, parent: Matrix) -> None:
        """`node` and what is under it, outside any body."""
        if node.hint is Hint.NO_IMPORT:
            return
        here = parent @ local_matrix(node)
        if _is_body(node):
            self.body(node, parent)
            return
        drawn = node.parts and node.hint.drawn
        collides = _collides(node)
        if drawn or collides:
            frame = _unscaled(here)
            relative = np.linalg.inv(frame) @ here
            components: list[object] = [Transform(*_pose(frame))]
            surfaces = [(_baked(part.surface, relative), part.look) for part in node.parts]
            if drawn:
                parts = tuple(VisualPart(surface, look) for surface, look in surfaces)
                components.append(Visual(parts))
            if collides:
                found = _colliders(node, relative, [surface for surface, _ in surfaces], False)
                components.append(Colliders(*found))
            if node.index not in self.moving:
                components.append(Scenery(self.prefix + node.name))
            elif collides:  # moved by its clips, pushing what it meets
                components.append(RigidBody(kind=BodyKind.KINEMATIC))
            self.shown[node.index] = (self._spawn(node, components), here)
        else:
            self.shown[node.index] = (None, here)
        for child in node.children:
            self.place(self.model.nodes[child], here)

    def animator(self, at: Pose, scale: float) -> None:
        """The model's root entity, with an Animator of its clips over its node tree."""
        nodes = []
        for node in self.model.nodes:
            entity, here = self.shown.get(node.index, (None, np.eye(4)))
            rest = np.linalg.norm(here[:3, :3], axis=0)
            nodes.append(
                AnimatedNode(
                    entity,
                    node.parent,
                    node.translation,
                    node.rotation,
                    node.scale,
                    (float(rest[0]), float(rest[1]), float(rest[2])),
                )
            )
        clips = {clip.name: clip for clip in self.model.clips}
        root = self.world.spawn(
            Transform(at.position, at.rotation, spatial.vec3(scale, scale, scale)),
            Animator(clips, tuple(nodes)),
        )
        self.spawned.entities.setdefault(self.name, root)

    def body(self, node: ModelNode, parent: Matrix) -> None:
        """A dynamic body of `node` and everything under it."""
        here = parent @ local_matrix(node)
        body = _Body(node, _unscaled(here))
        self._gather(body, node, here)
        extras = self._extras(node)
        if not body.colliders:  # the reader made sure it draws something
            hull = ConvexHull(tuple(map(tuple, np.concatenate(body.points).tolist())))
            body.colliders.append(Collider(hull))
        layer = extras.layer or PROPS
        colliders = [replace(c, layer=layer) for c in body.colliders]
        stated = node.physics
        kinematic = stated is not None and stated.kinematic
        mass = extras.mass if extras.mass is not None or stated is None else stated.mass
        components: list[object] = [
            Transform(*_pose(body.frame)),
            RigidBody(kind=BodyKind.KINEMATIC) if kinematic else RigidBody(mass=mass),
            Colliders(*colliders),
            Prop(self.prefix + node.name),
        ]
        if body.parts:
            components.append(Visual(tuple(body.parts)))
        if extras.grabbable:
            components.append(Grabbable(tags=frozenset(extras.tags or ())))
        self.spawned.bodies.append(self._spawn(node, components))
        self.shown[node.index] = (None, here)  # physics moves it, not its clips

    def _gather(self, body: _Body, node: ModelNode, here: Matrix) -> None:
        if node.hint is Hint.NO_IMPORT:
            return
        relative = np.linalg.inv(body.frame) @ here
        surfaces = [(_baked(part.surface, relative), part.look) for part in node.parts]
        if node.hint.drawn:
            for surface, look in surfaces:
                body.parts.append(VisualPart(surface, look))
                body.points.append(surface.positions)
        if _collides(node):
            found = _colliders(node, relative, [surface for surface, _ in surfaces], True)
            body.colliders.extend(found)
        for child in node.children:
            child_node = self.model.nodes[child]
            self._gather(body, child_node, here @ local_matrix(child_node))

    def _extras(self, node: ModelNode) -> BodyExtras:
        read, given = node.body, self.overrides
        return BodyExtras(
            given.grabbable if given.grabbable is not None else read.grabbable,
            given.mass if given.mass is not None else read.mass,
            given.layer if given.layer is not None else read.layer,
            given.tags if given.tags is not None else read.tags,
        )

    def _spawn(self, node: ModelNode, components: list[object]) -> int:
        entity = self.world.spawn(*components)
        self.spawned.entities.setdefault(self.prefix + node.name, entity)
        return entity


def _pose_matrix(pose: Pose) -> Matrix:
    p = pose.position
    return trs_matrix((p.x, p.y, p.z), spatial.quat_to_xyzw(pose.rotation), (1.0, 1.0, 1.0))


def _unscaled(matrix: Matrix) -> Matrix:
    """`matrix` without its scale: the rigid frame an entity's Transform can hold."""
    return _pose_matrix(Pose(*_pose(matrix)))


def _pose(matrix: Matrix) -> tuple[spatial.Vec3, spatial.Quat]:
    """Where `matrix` puts an entity, its scale (a mirror too) left to its surfaces."""
    translation, rotation, _ = taken_apart(matrix)
    return spatial.vec3(*translation), spatial.quat_from_xyzw(rotation)


def _baked(surface: Surface, matrix: Matrix) -> Surface:
    """`surface` with `matrix` applied (the same surface when it is the identity)."""
    if np.allclose(matrix, np.eye(4)):
        return surface
    linear, shift = matrix[:3, :3], matrix[:3, 3]
    positions = (surface.positions.astype(np.float64) @ linear.T + shift).astype(np.float32)
    normals = surface.normals.astype(np.float64) @ np.linalg.inv(linear)
    lengths = np.linalg.norm(normals, axis=1, keepdims=True)
    normals = np.divide(normals, lengths, out=np.zeros_like(normals), where=lengths > 0)
    triangles = surface.triangles
    if np.linalg.det(linear) < 0:  # mirrored: keep the front face in front
        triangles = np.ascontiguousarray(triangles[:, ::-1])
    return Surface(positions, normals.astype(np.float32), surface.uvs, triangles)


def _is_body(node: ModelNode) -> bool:
    """Whether `node` is a body: a ``-rigid`` name, or a motion in its physics extension."""
    return node.hint is Hint.RIGID or (node.physics is not None and node.physics.motion)


def _collides(node: ModelNode) -> bool:
    """Whether `node` has a collider of its own: by its name's hint or its physics extension."""
    stated = node.physics
    return node.hint.collides or (
        stated is not None and (stated.collider is not None or stated.trigger is not None)
    )


def _colliders(
    node: ModelNode, relative: Matrix, surfaces: list[Surface], movable: bool
) -> list[Collider]:
    """`node`'s colliders, where `relative` puts it in its entity: its hint's, and what its
    physics extension states (a trigger as a sensor); for a body, triangles made hulls."""
    found = []
    if node.hint.collides:
        shape, offset = _collider_of(node, relative, surfaces)
        found.append(Collider(_movable(shape) if movable else shape, offset, ENVIRONMENT))
    stated = node.physics
    if stated is None:
        return found
    for geometry, sensor in ((stated.collider, False), (stated.trigger, True)):
        if geometry is None:
            continue
        shape, offset = _stated_shape(geometry, relative)
        collider = Collider(_movable(shape) if movable else shape, offset, ENVIRONMENT, sensor)
        if geometry.friction is not None:
            collider = replace(collider, friction=geometry.friction)
        if geometry.restitution is not None:
            collider = replace(collider, restitution=geometry.restitution)
        found.append(collider)
    return found


def _stated_shape(geometry: Geometry, relative: Matrix) -> tuple[Shape, Pose]:
    """A physics extension's geometry placed by `relative`: a primitive scaled by its node's
    scale (its size, whatever the sign, as the extension says), or the mesh's triangles."""
    translation, rotation, scale = taken_apart(relative)
    offset = Pose(spatial.vec3(*translation), spatial.quat_from_xyzw(rotation))
    sx, sy, sz = (abs(v) for v in scale)
    shape = geometry.shape
    if isinstance(shape, Box):
        x, y, z = shape.size
        return Box((x * sx, y * sy, z * sz)), offset
    if isinstance(shape, Sphere):
        return Sphere(shape.radius * max(sx, sy, sz)), offset
    if isinstance(shape, Capsule):
        return Capsule(shape.radius * max(sx, sz), shape.height * sy), offset
    if isinstance(shape, Cylinder):
        return Cylinder(shape.radius * max(sx, sz), shape.height * sy), offset
    baked = [_baked(surface, relative) for surface in geometry.surfaces]
    points = np.concatenate([s.positions for s in baked]).astype(np.float64)
    vertices = tuple(map(tuple, points.tolist()))
    if geometry.convex:
        return ConvexHull(vertices), Pose.identity()
    faces: list[tuple[int, int, int]] = []
    start = 0
    for surface in baked:
        faces.extend((a + start, b + start, c + start) for a, b, c in surface.triangles.tolist())
        start += len(surface.positions)
    return TriangleMesh(vertices, tuple(faces)), Pose.identity()


def _collider_of(node: ModelNode, relative: Matrix, surfaces: list[Surface]) -> tuple[Shape, Pose]:
    """The collider a hinted node asks for, made once per node and placement: a model spawned
    again (a level reloaded, a prop spawned many times) shares its shapes, and what physics
    built of them."""
    key = (node.parts, node.hint, relative.tobytes())
    made = _SHAPES.pop(key, None) or _shape(node, surfaces)
    _SHAPES[key] = made
    while len(_SHAPES) > KEPT_SHAPES:
        del _SHAPES[next(iter(_SHAPES))]
    return made


def _shape(node: ModelNode, surfaces: list[Surface]) -> tuple[Shape, Pose]:
    """The collider a hinted node asks for, from its surfaces as placed in its entity (the
    reader made sure it has some)."""
    points = np.concatenate([s.positions for s in surfaces]).astype(np.float64)
    low, high = points.min(axis=0), points.max(axis=0)
    centre = Pose(spatial.vec3(*((low + high) / 2)), spatial.identity())
    size = np.maximum(high - low, 1e-3)
    if node.hint in (Hint.COLLIDER, Hint.COLLIDER_ONLY):
        triangles, offset = [], 0
        for surface in surfaces:
            triangles.append(surface.triangles.astype(np.int64) + offset)
            offset += len(surface.positions)
        faces = np.concatenate(triangles)
        corners = tuple((int(a), int(b), int(c)) for a, b, c in faces.tolist())
        mesh = TriangleMesh(tuple(map(tuple, points.tolist())), corners)
        return mesh, Pose.identity()
    if node.hint in (Hint.CONVEX, Hint.CONVEX_ONLY):
        return ConvexHull(tuple(map(tuple, points.tolist()))), Pose.identity()
    if node.hint is Hint.BOX:
        return Box((float(size[0]), float(size[1]), float(size[2]))), centre
    if node.hint is Hint.SPHERE:
        return Sphere(float(size.max()) / 2), centre
    radius = float(max(size[0], size[2])) / 2
    return Capsule(radius, max(float(size[1]), 2 * radius + 1e-3)), centre


def _movable(shape: Shape) -> Shape:
    """A shape a dynamic body may carry: triangles have no inside, so a ``-col`` under a
    ``-rigid`` collides as its hull (as Godot's importer makes it convex there)."""
    if isinstance(shape, TriangleMesh):
        return ConvexHull(shape.vertices)
    return shape


def _animated(model: Model) -> set[int]:
    """The nodes a clip moves, and every node under one of them."""
    moving: set[int] = set()
    stack = [channel.node for clip in model.clips for channel in clip.channels]
    while stack:
        index = stack.pop()
        if index not in moving:
            moving.add(index)
            stack.extend(model.nodes[index].children)
    return moving
