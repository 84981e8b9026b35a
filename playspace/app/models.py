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

A node's joint (its extras', or the physics extension's) becomes a ``Joint`` on the body the
node is in, held to the body its connected node is in, or to the world. A skinned node's
entity gets a ``SkinPose``, bent to where the model places its joints (and, animated, each
step by its ``Animator``).

A node's scale is baked into its surfaces and colliders (physics has no scaled shapes); an
entity's ``Transform`` is the node's place in the world without it.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field, replace
from enum import Enum

import numpy as np

from playspace import spatial
from playspace.app.model_colliders import colliders_of, collides
from playspace.components import Transform
from playspace.components.animation import AnimatedNode, AnimatedSkin, Animator
from playspace.components.interaction import Grabbable
from playspace.components.joints import Joint
from playspace.components.physics import (
    BodyKind,
    Collider,
    Colliders,
    ConvexHull,
    RigidBody,
    Sphere,
)
from playspace.components.scene import Prop, Scenery
from playspace.components.sockets import Socket
from playspace.components.visual import SkinPose, Visual, VisualPart
from playspace.ecs import World
from playspace.formats.models import BodyExtras, Hint, Model, ModelNode
from playspace.formats.models.model import (
    Matrix,
    entity_pose,
    local_matrix,
    skin_matrices,
    transformed,
    unscaled,
)
from playspace.spatial import Pose

PROPS = "props"
log = logging.getLogger(__name__)


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
    attach: dict[str, Pose] = field(default_factory=dict)  # where hands hold it, body frame
    sockets: list[tuple[ModelNode, Pose]] = field(default_factory=list)  # carried, body frame
    nodes: list[int] = field(default_factory=list)  # every node it is made of


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
    root = spatial.pose_matrix(at or Pose.identity()) @ np.diag([scale, scale, scale, 1.0])
    for index in model.roots:
        node = model.nodes[index]
        if kind is ModelKind.DYNAMIC:
            spawner.body(node, root)
        else:
            spawner.place(node, root)
    spawner.join()
    spawner.bend()
    if model.clips and kind is ModelKind.STATIC:
        spawner.animator(at or Pose.identity(), scale)
    return spawner.spawned


def visual_of(model: Model, scale: float = 1.0) -> Visual:
    """Everything `model` draws, as one entity's visual in the model's frame (`scale` times
    its size): what a scene's shape with a ``model`` is drawn as, its own collider kept."""
    parts: list[VisualPart] = []
    for node, here in model.placed(np.diag([scale, scale, scale, 1.0])):
        if node.hint.drawn:
            parts.extend(VisualPart(transformed(p.surface, here), p.look) for p in node.parts)
    return Visual(tuple(parts))


class _Spawner:
    def __init__(self, world: World, model: Model, name: str, overrides: BodyExtras) -> None:
        self.world, self.model, self.overrides = world, model, overrides
        self.prefix = f"{name}/" if name else ""
        self.name = name or model.path.stem
        self.spawned = SpawnedModel()
        self.moving = _animated(model)  # nodes a clip moves, and what hangs from them
        self.shown: dict[int, tuple[int | None, Matrix]] = {}  # node: its entity, rest place
        self.skinned: list[tuple[ModelNode, int]] = []  # skinned nodes and their entities
        self.where: dict[int, Matrix] = {}  # every node placed: its place in the world
        self.body_of: dict[int, int] = {}  # every node in a body: the body's entity

    def place(self, node: ModelNode, parent: Matrix) -> None:
        """`node` and what is under it, outside any body."""
        if node.hint is Hint.NO_IMPORT:
            return
        here = parent @ local_matrix(node)
        if _is_body(node):
            self.body(node, parent)
            return
        self.where[node.index] = here
        drawn = node.parts and node.hint.drawn
        solid = collides(node)
        if drawn or solid:
            frame = unscaled(here)
            relative = np.linalg.inv(frame) @ here
            components: list[object] = [Transform(*entity_pose(frame))]
            surfaces = [(transformed(part.surface, relative), part.look) for part in node.parts]
            skinned = drawn and node.skin is not None
            if skinned:  # in the skin's bind space: glTF draws a skin without its node's place
                components.append(Visual(tuple(VisualPart(p.surface, p.look) for p in node.parts)))
            elif drawn:
                parts = tuple(VisualPart(surface, look) for surface, look in surfaces)
                components.append(Visual(parts))
            if solid:
                found = colliders_of(node, relative, [surface for surface, _ in surfaces], False)
                components.append(Colliders(*found))
            if node.index not in self.moving:
                components.append(Scenery(self.prefix + node.name))
            elif solid:  # moved by its clips, pushing what it meets
                components.append(RigidBody(kind=BodyKind.KINEMATIC))
            entity = self._spawn(node, components)
            self.shown[node.index] = (entity, here)
            if skinned:
                self.skinned.append((node, entity))
        else:
            self.shown[node.index] = (None, here)
        if node.body.socket is not None:
            self._socket(node, Transform(*entity_pose(unscaled(here))))
        for child in node.children:
            self.place(self.model.nodes[child], here)

    def _socket(
        self,
        node: ModelNode,
        at: Transform,
        carried_by: int | None = None,
        offset: Pose | None = None,
    ) -> None:
        """A snap zone where `node`'s socket extras say, carried by a body when under one."""
        given = node.body.socket
        assert given is not None
        socket = Socket(
            Sphere(given.radius),
            accepts=frozenset(given.accepts),
            return_after=given.return_after,
            carried_by=carried_by,
            offset=offset or Pose.identity(),
        )
        entity = self.world.spawn(at, socket)
        self.spawned.entities.setdefault(f"{self.prefix}{node.name} socket", entity)

    def join(self) -> None:
        """Each joint a node states, on the body the node is in, held to the body its
        connected node is in (or the world); a joint with no body to move is said and left."""
        for index, here in self.where.items():
            joint = self.model.nodes[index].joint
            if joint is None:
                continue
            own = self.body_of.get(index)
            other = None if joint.connected is None else self.body_of.get(joint.connected)
            holder, to = (own, other) if own is not None else (other, None)
            if holder is None or holder == to:
                log.warning(
                    "%s: nodes[%d]: its joint holds no body to another; not made",
                    self.model.path,
                    index,
                )
                continue
            frame = np.linalg.inv(spatial.pose_matrix(self.world.get(holder, Transform).pose()))
            anchor = frame @ here @ np.array([*joint.anchor, 1.0])
            axis = frame[:3, :3] @ here[:3, :3] @ np.array(joint.axis)
            sign = -1.0 if (holder == own) == joint.from_node else 1.0
            limits, spring = joint.limits, joint.spring
            if limits is not None and sign < 0:
                limits = (-limits[1], -limits[0])
            if spring is not None and sign < 0:
                spring = replace(spring, target=-spring.target)
            made = Joint(
                joint.kind,
                to,
                spatial.vec3(*anchor[:3]),
                spatial.vec3(*(axis / np.linalg.norm(axis))),
                limits,
                spring,
                joint.friction,
            )
            self.world.add(holder, made)

    def bend(self) -> None:
        """Each skinned node's SkinPose, its joints where the model places them at rest."""
        for node, entity in self.skinned:
            assert node.skin is not None
            frame = self.shown[node.index][1]
            if not all(j in self.shown for j in node.skin.joints):
                continue  # a joint in a body, or left out: drawn unbent
            joints = [self.shown[j][1] for j in node.skin.joints]
            self.world.add(
                entity, SkinPose(skin_matrices(unscaled(frame), joints, node.skin.inverse_binds))
            )

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
        skins = tuple(
            AnimatedSkin(entity, node.skin.joints, node.skin.inverse_binds)
            for node, entity in self.skinned
            if node.skin is not None and self.world.has(entity, SkinPose)
        )
        root = self.world.spawn(
            Transform(at.position, at.rotation, spatial.vec3(scale, scale, scale)),
            Animator(clips, tuple(nodes), skins=skins),
        )
        self.spawned.entities.setdefault(self.name, root)

    def body(self, node: ModelNode, parent: Matrix) -> None:
        """A dynamic body of `node` and everything under it."""
        here = parent @ local_matrix(node)
        body = _Body(node, unscaled(here))
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
            Transform(*entity_pose(body.frame)),
            RigidBody(kind=BodyKind.KINEMATIC) if kinematic else RigidBody(mass=mass),
            Colliders(*colliders),
            Prop(self.prefix + node.name),
        ]
        if body.parts:
            components.append(Visual(tuple(body.parts)))
        if extras.grabbable:
            second = body.attach.get("second")
            components.append(
                Grabbable(
                    tags=frozenset(extras.tags or ()),
                    attach_left=body.attach.get("left"),
                    attach_right=body.attach.get("right"),
                    second_grip=None if second is None else second.position,
                )
            )
        entity = self._spawn(node, components)
        self.spawned.bodies.append(entity)
        self.body_of.update((index, entity) for index in body.nodes)
        for held, offset in body.sockets:  # a holster on a belt, a slot in a toolbox
            self._socket(held, Transform(), carried_by=entity, offset=offset)
        self.shown[node.index] = (None, here)  # physics moves it, not its clips

    def _gather(self, body: _Body, node: ModelNode, here: Matrix) -> None:
        if node.hint is Hint.NO_IMPORT:
            return
        self.where[node.index] = here
        body.nodes.append(node.index)
        relative = np.linalg.inv(body.frame) @ here
        if node.body.attach is not None:
            body.attach[node.body.attach] = Pose(*entity_pose(relative))
        if node.body.socket is not None:
            body.sockets.append((node, Pose(*entity_pose(relative))))
        surfaces = [(transformed(part.surface, relative), part.look) for part in node.parts]
        if node.hint.drawn:
            for surface, look in surfaces:
                body.parts.append(VisualPart(surface, look))
                body.points.append(surface.positions)
        if collides(node):
            found = colliders_of(node, relative, [surface for surface, _ in surfaces], True)
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


def _is_body(node: ModelNode) -> bool:
    """Whether `node` is a body: a ``-rigid`` name, or a motion in its physics extension."""
    return node.hint is Hint.RIGID or (node.physics is not None and node.physics.motion)


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
