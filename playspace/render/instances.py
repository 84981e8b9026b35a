"""What to draw this frame: every visible collider, hand and head as instance matrices, batched
by mesh and material. CPU only (numpy), so it is tested and measured without GL.

The world is drawn as physics sees it, where LATE placed it for this frame
(:class:`~playspace.components.drawn.DrawnPoses`; an entity without a row there, and every
entity of a world without late placement, at its ``Transform``): each solid collider part of
an entity is a unit mesh scaled to the shape and placed at the part's offset (a convex hull
is the hull the physics engine built, from ``ColliderSurfaces``); sensors are invisible; the
player's own capsule (``CharacterBody``) is not drawn. The rig's hands are drawn as controller
models for the bound interaction profile (:mod:`playspace.render.controllers`; a generic one
in the preview), only while their ``TrackedDevice`` is tracked (as XRI and Godot hide a lost
controller: a hand never tracked would otherwise stand at the rig's origin, at the player's
feet), and a head marker (a white box) for spectators and captures. Another player's avatar
(``Avatar``: a networked client's drawing of a remote player's head, hands and body, with no
collider) is drawn as its shape, in the opponents' color. There is one batch per
mesh and material, whatever adds to it (a blocked hand's ghost is in its hand's batch). An
entity with a ``Appearance`` is drawn in the material made from it (its texture file loaded once
per path; one that cannot be read is said once, naming the entity and the file, and the
entity drawn without it); without one, in its kind's color from the palette. A
renderer-side appearance (:meth:`SceneInstances.set_appearance`) replaces an entity's
collider shapes with a mesh from a file.

Cost. Working out *what* is drawn (which entity, which parts, which batch, which offsets)
is redone only when the world's structure changes: esper hands out the same cached query
list until an entity or component is added or removed, so the list's identity, plus the
bodies whose ``Colliders`` the world says changed (``world.changed``) and that are drawn
otherwise now (a part added or cut, another shape, offset or sensor: not a new friction or
layer), and the number of hulls physics has built, says when to rebuild. Scenery
(``Scenery`` with no body) never moves, so its matrices are made then too. Each frame only the
moving entities' poses are read, one PyGLM array per field (only for those LATE did not
place), and everything else is numpy over all instances at once: model matrices, part
offsets, the ghost split.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from playspace import spatial
from playspace.components import Grabbable, Opponent, Prop, Scenery, Trail, Transform
from playspace.components.appearance import Appearance
from playspace.components.avatars import Avatar
from playspace.components.drawn import DrawnPoses
from playspace.components.interaction import Hover, PhysicsHand
from playspace.components.physics import (
    Box,
    Capsule,
    CharacterBody,
    Colliders,
    ColliderSurfaces,
    ConvexHull,
    Cylinder,
    RigidBody,
    Shape,
    Sphere,
)
from playspace.components.rig import Rig, TeleportAim
from playspace.components.session import HeadsetSession
from playspace.components.sockets import Socket
from playspace.components.tracking import DeviceRole, TrackedDevice
from playspace.ecs import World
from playspace.render import meshes
from playspace.render.assets import AssetError, Texture, load_texture
from playspace.render.cameras import shown_rig
from playspace.render.controllers import controller_mesh
from playspace.render.materials import Material, Palette
from playspace.render.matrices import NO_INSTANCES, column_major, scale_matrix, trs_many
from playspace.render.meshes import F32Array, MeshData
from playspace.render.projection import pose_matrix
from playspace.spatial import FloatArray, Pose

log = logging.getLogger(__name__)

HEAD_SIZE = (0.16, 0.2, 0.2)  # a head-sized block at the eyes (invisible from inside it)
HOVER_GROWTH = 1.06  # a hovered object's highlight shell, around the object itself
ARC_DOT = 0.015  # metres: the radius of the dots that draw a teleport arc
MARKER = (0.3, 0.01, 0.3)  # the target's disc: the body's width, flat on the floor


@dataclass(slots=True)
class Batch:
    """The instances of one mesh and material this frame, as column-major float32 matrices.

    `scenery` is the same every frame until the layout changes (`version`), so a renderer
    uploads it once; `moving` and `ghosts` change every frame (and are views of buffers the
    next frame reuses). Ghosts are drawn with the ghost passes instead of the lit one.
    """

    mesh: MeshData
    material: Material
    version: int
    scenery: F32Array
    moving: F32Array = field(default_factory=lambda: NO_INSTANCES)
    ghosts: F32Array = field(default_factory=lambda: NO_INSTANCES)

    @property
    def opaque_count(self) -> int:
        return len(self.scenery) + len(self.moving)


@dataclass(slots=True)
class _Part:
    row: int  # entity row among the moving entities, or -1 for scenery
    batch: tuple[MeshData, Material]
    local: FloatArray  # (4, 4): part offset times the shape's scale on the unit mesh
    scenery_world: FloatArray | None = None


class SceneInstances:
    """Collects the world's drawables into batches; one per renderer, kept between frames."""

    def __init__(self, palette: Palette | None = None) -> None:
        self.palette = palette or Palette()
        self._unit: dict[Hashable, MeshData] = {}
        self._shaped: dict[int, tuple[Shape, MeshData]] = {}  # by id; the shape kept alive
        self._appearances: dict[int, tuple[MeshData, Material, FloatArray]] = {}
        self._entries: object = None  # the query list the layout was made from
        self._rig: Rig | None = None
        self._controllers: str | None = None  # the profile the hands' models were made for
        self._surfaces: ColliderSurfaces | None = None
        self._hull_count = -1  # hulls in _surfaces when the layout was made; -1 without it
        self._warned_no_physics = False
        self._looks: dict[Appearance, Material] = {}
        self._textures: dict[Path, Texture | None] = {}  # None: the file cannot be read
        self._stale = False  # an appearance set or cleared since the layout was made
        # what each entity's colliders were drawn from: its parts' shapes, offsets, sensors
        self._drawn_from: dict[int, tuple[tuple[object, ...], ...]] = {}
        self._version = 0
        self._transforms: list[Transform] = []
        self._entities: list[int] = []  # the entity of each moving row
        self._drawn_key: tuple[int, int] = (-1, -1)  # layout and DrawnPoses versions indexed
        self._placed_rows = np.zeros(0, dtype=np.intp)  # moving rows LATE placed...
        self._drawn_rows = np.zeros(0, dtype=np.intp)  # ...and their DrawnPoses rows
        self._own_rows = np.zeros(0, dtype=np.intp)  # moving rows drawn at their Transform
        self._own: list[Transform] = []
        self._all_placed: slice | None = None  # the DrawnPoses rows of every moving row
        self._ghostable: list[tuple[int, Grabbable]] = []
        self._devices: list[tuple[int, TrackedDevice]] = []  # the rig's hands' rows
        self._rows = np.zeros(0, dtype=np.intp)
        self._locals = np.zeros((0, 4, 4))
        # a part whose offset only scales (a primitive at its body's origin, most of them)
        # is its entity's model with that scale folded into the entity's: no 4x4 product;
        # the rest are multiplied out
        self._part_scales = np.ones((0, 3))
        self._offset_parts = np.zeros(0, dtype=np.intp)
        self._placed = np.zeros((0, 4, 4), dtype=np.float32)
        self._batches: list[Batch] = []
        self._slices: list[slice] = []

    def set_appearance(
        self, entity: int, mesh: MeshData, material: Material, local: Pose | None = None
    ) -> None:
        """Draw `entity` as `mesh` (placed at `local` in the entity's frame) instead of its
        collider shapes or marker; for a mesh loaded with :func:`load_mesh_file`."""
        offset = pose_matrix(local) if local is not None else np.eye(4)
        self._appearances[entity] = (mesh, material, offset)
        self._stale = True

    def clear_appearance(self, entity: int) -> None:
        """Draw `entity` by its colliders again."""
        if self._appearances.pop(entity, None) is not None:
            self._stale = True

    # Layout ------------------------------------------------------------------------------

    def _unit_mesh(self, key: Hashable, make: Callable[[], MeshData]) -> MeshData:
        mesh = self._unit.get(key)
        if mesh is None:
            mesh = self._unit[key] = make()
        return mesh

    def shape_mesh(
        self, shape: Shape, surfaces: ColliderSurfaces | None
    ) -> tuple[MeshData, FloatArray] | None:
        """The mesh of `shape` and the scale that sizes it (unit primitives are shared).

        A ``ConvexHull`` is drawn as the hull the physics engine built from its points (in
        `surfaces`), never as a hull worked out here: two hull algorithms can disagree, and
        the player must see what collides. So a hull physics has not built yet (before the
        first fixed step, or in a world without physics) is None: not drawn, rather than
        drawn as something else.
        """
        if isinstance(shape, Box):
            return self._unit_mesh("box", meshes.box), scale_matrix(*shape.size)
        if isinstance(shape, Sphere):
            r = shape.radius
            return self._unit_mesh("sphere", meshes.sphere), scale_matrix(r, r, r)
        if isinstance(shape, Cylinder):
            r = shape.radius
            return self._unit_mesh("cylinder", meshes.cylinder), scale_matrix(r, shape.height, r)
        if isinstance(shape, Capsule):
            r, ratio = shape.radius, round(shape.height / shape.radius, 3)
            mesh = self._unit_mesh(("capsule", ratio), lambda: meshes.capsule(ratio))
            return mesh, scale_matrix(r, r, r)
        if isinstance(shape, ConvexHull):
            surface = None if surfaces is None else surfaces.hulls.get(shape)
            if surface is None:
                return None
            hull = self._unit_mesh(("hull", shape), lambda: meshes.from_triangles(*surface))
            return hull, np.eye(4)  # equal hulls share one mesh, so one batch
        known = self._shaped.get(id(shape))
        if known is None:
            mesh = meshes.from_triangles(shape.vertices, shape.triangles)
            known = self._shaped[id(shape)] = (shape, mesh)
        return known[1], np.eye(4)

    def _material(self, world: World, entity: int) -> Material:
        look = world.try_get(entity, Appearance)
        if look is not None:
            return self._look_material(entity, look)
        for kind, material in (
            (Scenery, self.palette.static),
            (Prop, self.palette.prop),
            (Opponent, self.palette.opponent),
            (Avatar, self.palette.opponent),  # another player: as an opponent is drawn
        ):
            if world.has(entity, kind):
                return material
        return self.palette.other

    def _look_material(self, entity: int, look: Appearance) -> Material:
        """The material of `look`, made once per distinct Appearance, so equal Looks share a batch
        (an Appearance checks its own values)."""
        material = self._looks.get(look)
        if material is None:
            texture = None if look.texture is None else self._texture(entity, look.texture)
            material = self._looks[look] = Material(
                look.color, texture, look.roughness, look.metallic, look.emissive
            )
        return material

    def _texture(self, entity: int, path: Path) -> Texture | None:
        """The texture in `path`, loaded once; a file that cannot be read is said once,
        naming the entity and the file, and the entity is drawn untextured."""
        if path not in self._textures:
            try:
                self._textures[path] = load_texture(path)
            except AssetError as error:
                log.warning("entity %d: texture not drawn: %s", entity, error)
                self._textures[path] = None
        return self._textures[path]

    def _plan(self, world: World, entity: int, colliders: Colliders | None) -> list[_Part]:
        """The parts one entity is drawn as, in its own frame."""
        appearance = self._appearances.get(entity)
        if appearance is not None:
            mesh, material, offset = appearance
            return [_Part(-1, (mesh, material), offset)]
        parts = []
        if colliders is not None and not world.has(entity, CharacterBody):  # the player's own
            material = self._material(world, entity)
            for collider in colliders.parts:
                if collider.sensor:
                    continue
                made = self.shape_mesh(collider.shape, self._surfaces)
                if made is None:
                    self._warn_unbuilt(entity)
                    continue
                mesh, scale = made
                local = pose_matrix(collider.offset) @ scale
                parts.append(_Part(-1, (mesh, material), local))
        avatar = world.try_get(entity, Avatar)
        if avatar is not None:  # another player's part: drawn only, never a collider
            made = self.shape_mesh(avatar.shape, self._surfaces)
            if made is not None:
                local = pose_matrix(avatar.offset) @ made[1]
                parts.append(_Part(-1, (made[0], self._material(world, entity)), local))
        rig = self._rig
        if rig is not None and entity == rig.head:
            box = self._unit_mesh("box", meshes.box)
            parts.append(_Part(-1, (box, self.palette.head), scale_matrix(*HEAD_SIZE)))
        elif rig is not None and entity in (rig.left_hand, rig.right_hand):
            side = DeviceRole.LEFT_HAND if entity == rig.left_hand else DeviceRole.RIGHT_HAND
            model = controller_mesh(self._controllers, side)
            parts.append(_Part(-1, (model, self.palette.hand), np.eye(4)))
        return parts

    def _warn_unbuilt(self, entity: int) -> None:
        """Say once that hulls are missing for good: without physics nothing builds them (with
        it, a hull not built yet is drawn from the step that builds it, and says nothing)."""
        if self._surfaces is None and not self._warned_no_physics:
            self._warned_no_physics = True
            log.warning(
                "entity %d: convex hulls are not drawn in a world without physics (the hull "
                "drawn is the one the physics engine builds)",
                entity,
            )

    def _rebuild(
        self, world: World, entries: list[tuple[int, tuple[Transform, Colliders]]]
    ) -> None:
        self._version += 1
        self._entries, self._rig = entries, shown_rig(world)
        self._controllers = _controllers(world)
        self._surfaces = world.try_resource(ColliderSurfaces)
        self._hull_count = _hull_count(self._surfaces)
        self._stale = False
        self._drawn_from = {e: _drawn_of(c) for e, (_, c) in entries}
        self._transforms, self._entities, self._ghostable, self._devices = [], [], [], []
        planned = [(e, t, self._plan(world, e, c)) for e, (t, c) in entries]
        extra = set(self._appearances)  # drawn without colliders: appearances, the rig,
        extra.update(entity for entity, _ in world.each(Avatar))  # other players' avatars
        if self._rig is not None:
            extra.update((self._rig.head, self._rig.left_hand, self._rig.right_hand))
        for entity in sorted(extra - {entity for entity, _ in entries}):
            transform = world.try_get(entity, Transform)
            if transform is not None:
                planned.append((entity, transform, self._plan(world, entity, None)))
        parts: list[_Part] = []
        rig = self._rig
        hands = () if rig is None else (rig.left_hand, rig.right_hand)
        for entity, transform, own in planned:
            if world.has(entity, Scenery) and not world.has(entity, RigidBody):
                placed = pose_matrix(transform.pose())
                placed = placed @ scale_matrix(*transform.scale)
                for part in own:
                    part.scenery_world = placed @ part.local
            elif own:
                row = len(self._transforms)
                self._transforms.append(transform)
                self._entities.append(entity)
                grabbable = world.try_get(entity, Grabbable)
                if grabbable is not None:
                    self._ghostable.append((row, grabbable))
                device = world.try_get(entity, TrackedDevice)
                if device is not None and entity in hands:
                    self._devices.append((row, device))
                for part in own:
                    part.row = row
            parts.extend(own)
        self._group(parts)

    def _group(self, parts: list[_Part]) -> None:
        """Sort parts into batches: scenery matrices final, moving ones as rows and offsets."""
        groups: dict[tuple[MeshData, Material], tuple[list[_Part], list[_Part]]] = {}
        for part in parts:
            scenery, moving = groups.setdefault(part.batch, ([], []))
            (moving if part.row >= 0 else scenery).append(part)
        ordered = [part for _, moving in groups.values() for part in moving]
        self._rows = np.array([p.row for p in ordered], dtype=np.intp)
        # column-major: (model @ local) transposed is local transposed @ model transposed
        self._locals = np.array([p.local.T for p in ordered]).reshape(-1, 4, 4)
        diagonals = np.einsum("nii->ni", self._locals)
        only_scales = (self._locals == diagonals[:, :, None] * np.eye(4)).all(axis=(1, 2))
        self._part_scales = np.where(only_scales[:, None], diagonals[:, :3], 1.0)
        self._offset_parts = np.flatnonzero(~only_scales)
        self._placed = np.zeros((len(ordered), 4, 4), dtype=np.float32)
        self._batches, self._slices, start = [], [], 0
        for (mesh, material), (scenery, moving) in groups.items():
            placed = [p.scenery_world for p in scenery]
            matrices = column_major(np.array(placed)) if placed else NO_INSTANCES
            self._batches.append(Batch(mesh, material, self._version, matrices))
            self._slices.append(slice(start, start + len(moving)))
            start += len(moving)

    # Every frame -------------------------------------------------------------------------

    def collect(self, world: World) -> list[Batch]:
        """This frame's batches, with moving things where LATE placed them. The batches'
        arrays are reused: they hold until the next call."""
        entries = world.query(Transform, Colliders)
        if (
            entries is not self._entries
            or shown_rig(world) != self._rig
            or _controllers(world) != self._controllers
            or self._stale
            or self._redrawn(world)
            or _hull_count(world.try_resource(ColliderSurfaces)) != self._hull_count
        ):
            self._rebuild(world, entries)
        self._place(world.try_resource(DrawnPoses))
        placed = self._placed.reshape(-1, 16)
        for batch, part_slice in zip(self._batches, self._slices, strict=True):
            batch.moving, batch.ghosts = placed[part_slice], NO_INSTANCES
        ghosts = [row for row, grabbable in self._ghostable if grabbable.ghost]
        hidden = [row for row, device in self._devices if not device.tracked]
        if ghosts or hidden:
            self._split(placed, ghosts, hidden)
        extra = [
            *self._hover(world),
            *self._aim(world),
            *self._trails(world),
            *self._sockets(world),
            *self._ghost_hands(world),
        ]
        # the world's own batches are one per key already
        return _one_per_key([*self._batches, *extra]) if extra else list(self._batches)

    def _redrawn(self, world: World) -> bool:
        """Whether a body whose colliders changed since the last look is drawn otherwise now."""
        for entity in world.changed(Colliders, self):
            colliders = world.try_get(entity, Colliders)
            drawn = None if colliders is None else _drawn_of(colliders)
            if drawn != self._drawn_from.get(entity):
                return True
        return False

    def _split(self, placed: F32Array, ghosts: list[int], hidden: list[int]) -> None:
        """Move the parts of ghosted rows from the lit instances to the ghost ones, and drop
        those of hidden rows (a hand not tracked)."""
        ghost = np.zeros(len(self._transforms), dtype=bool)
        ghost[ghosts] = True
        shown = np.ones(len(self._transforms), dtype=bool)
        shown[hidden] = False
        ghost_parts, shown_parts = ghost[self._rows], shown[self._rows]
        for batch, part_slice in zip(self._batches, self._slices, strict=True):
            mask, keep = ghost_parts[part_slice], shown_parts[part_slice]
            if mask.any() or not keep.all():
                rows = placed[part_slice]
                batch.moving, batch.ghosts = rows[keep & ~mask], rows[keep & mask]

    def _hover(self, world: World) -> list[Batch]:
        """What a free hand would take if it gripped now, drawn again in the hover color and
        a little larger, so it shows as highlighted (XRI's hover tint)."""
        hovered = _hovered(world)
        if not hovered:
            return []
        rows = {row for row, entity in enumerate(self._entities) if entity in hovered}
        if not rows:
            return []
        batches = []
        for batch, part_slice in zip(self._batches, self._slices, strict=True):
            picked = [i for i in range(part_slice.start, part_slice.stop) if self._rows[i] in rows]
            if picked:
                shells = self._placed[picked].copy()
                shells[:, :3, :3] *= HOVER_GROWTH  # column-major: the rotation-scale columns
                batches.append(
                    Batch(batch.mesh, self.palette.hover, self._version, NO_INSTANCES,
                          shells.reshape(-1, 16))
                )  # fmt: skip
        return batches

    def _aim(self, world: World) -> list[Batch]:
        """The teleport being aimed: dots along its arc and a disc where it lands, green when
        the body can stand there, red when the teleport would be refused; none while nothing
        is aimed."""
        aim = None if self._rig is None else world.try_get(self._rig.origin, TeleportAim)
        if aim is None or not aim.aiming or not aim.arc:
            return []
        valid = aim.target is not None and aim.problem is None
        material = self.palette.aim_valid if valid else self.palette.aim_refused
        points = np.array([(p.x, p.y, p.z) for p in aim.arc[::2]], dtype=np.float64)
        sphere = self._unit_mesh("sphere", meshes.sphere)
        dots = _placed(points, (ARC_DOT, ARC_DOT, ARC_DOT))
        batches = [Batch(sphere, material, self._version, NO_INSTANCES, dots)]
        if aim.target is not None:
            t = aim.target
            disc = self._unit_mesh("cylinder", meshes.cylinder)
            marker = _placed(np.array([(t.x, t.y + MARKER[1], t.z)]), MARKER)
            batches.append(Batch(disc, material, self._version, NO_INSTANCES, marker))
        return batches

    def _trails(self, world: World) -> list[Batch]:
        """Each :class:`Trail` as a dot at every position it recorded, in the trail's look
        (trails of one look and size share a batch)."""
        dots: dict[tuple[Material, float], list[FloatArray]] = {}
        for entity, trail in world.each(Trail):
            if trail.points:
                points = np.array([(p.x, p.y, p.z) for p in trail.points], dtype=np.float64)
                key = (self._look_material(entity, trail.look), trail.dot)
                dots.setdefault(key, []).append(points)
        sphere = self._unit_mesh("sphere", meshes.sphere)
        return [
            Batch(sphere, material, self._version, NO_INSTANCES,
                  _placed(np.concatenate(found), (size, size, size)))
            for (material, size), found in dots.items()
        ]  # fmt: skip

    def _sockets(self, world: World) -> list[Batch]:
        """A socket that would take what a hand holds if it let go now shows its zone, a
        translucent shape in the hover color (XRI's socket hover mesh), so the player sees
        where the object will snap."""
        zones: dict[MeshData, list[FloatArray]] = {}
        for _, (socket, transform) in world.query(Socket, Transform):
            if socket.hovering is not None:
                made = self.shape_mesh(socket.zone, None)
                if made is not None:
                    mesh, scale = made
                    zones.setdefault(mesh, []).append(pose_matrix(transform.pose()) @ scale)
        return [
            Batch(mesh, self.palette.hover, self._version, NO_INSTANCES,
                  ghosts=column_major(np.array(found)))
            for mesh, found in zones.items()
        ]  # fmt: skip

    def _ghost_hands(self, world: World) -> list[Batch]:
        """A physics hand the environment keeps from its tracked pose (``PhysicsHand.blocked``) is
        drawn where it stopped; the tracked hand is drawn again as a ghost, inside the table,
        so the player sees where their real hand is."""
        rig = self._rig
        if rig is None:
            return []
        batches = []
        for entity, side in (
            (rig.left_hand, DeviceRole.LEFT_HAND),
            (rig.right_hand, DeviceRole.RIGHT_HAND),
        ):
            hand = world.try_get(entity, PhysicsHand)
            if hand is None or not hand.blocked or hand.controller is None:
                continue
            model = controller_mesh(self._controllers, side)
            ghost = column_major(pose_matrix(hand.controller)[np.newaxis])
            batches.append(Batch(model, self.palette.hand, self._version, NO_INSTANCES,
                                 ghosts=ghost))  # fmt: skip
        return batches

    def _index(self, drawn: DrawnPoses | None) -> None:
        """Which moving rows LATE placed, and where; the rest are drawn at their Transform."""
        version = -1 if drawn is None else drawn.version
        if self._drawn_key == (self._version, version):
            return
        self._drawn_key = (self._version, version)
        rows = {} if drawn is None else drawn.rows
        found = [(row, rows.get(entity, -1)) for row, entity in enumerate(self._entities)]
        self._placed_rows = np.array([r for r, d in found if d >= 0], dtype=np.intp)
        self._drawn_rows = np.array([d for _, d in found if d >= 0], dtype=np.intp)
        self._own_rows = np.array([r for r, d in found if d < 0], dtype=np.intp)
        self._own = [self._transforms[r] for r in self._own_rows]
        # LATE placed every moving row, in its own order: the frame's poses are its arrays
        # (a view), not gathered row by row
        self._all_placed = None
        if not self._own and _consecutive(self._drawn_rows):
            first = int(self._drawn_rows[0]) if len(self._drawn_rows) else 0
            self._all_placed = slice(first, first + len(self._drawn_rows))

    def _place(self, drawn: DrawnPoses | None) -> None:
        """World matrices of the moving parts into ``_placed``: the entities' drawn poses
        times each part's offset (column-major, so the product is taken the other way
        round). Buffers are kept between frames: arrays this size would otherwise be fresh
        pages from the system every frame."""
        self._index(drawn)
        every = self._all_placed
        if drawn is not None and every is not None:
            assert every.stop <= len(drawn.positions)  # a short slice would draw too few
            position, rotation = drawn.positions[every], drawn.rotations[every]
        else:
            count = len(self._transforms)
            position, rotation = np.empty((count, 3)), np.empty((count, 4))
            if drawn is not None and len(self._placed_rows):
                position[self._placed_rows] = drawn.positions[self._drawn_rows]
                rotation[self._placed_rows] = drawn.rotations[self._drawn_rows]
            if self._own:
                position[self._own_rows] = spatial.vec3_rows([t.position for t in self._own])
                rotation[self._own_rows] = spatial.quat_rows([t.rotation for t in self._own])
        scales = spatial.vec3_rows([t.scale for t in self._transforms])
        rows = self._rows  # each part's entity: the per-row inputs gathered, not the matrices
        trs_many(position[rows], rotation[rows], scales[rows] * self._part_scales, self._placed)
        offset = self._offset_parts
        if len(offset):  # column-major: local transposed @ model transposed
            at = rows[offset]
            models = trs_many(position[at], rotation[at], scales[at], np.empty((len(at), 4, 4)))
            self._placed[offset] = np.matmul(self._locals[offset], models)


def _consecutive(rows: np.ndarray) -> bool:
    """Whether `rows` count up by one from their first."""
    return bool((np.diff(rows) == 1).all())


def _one_per_key(batches: list[Batch]) -> list[Batch]:
    """`batches` with those of one mesh and material joined into one. A renderer keeps one GPU
    batch per pair, so two batches of a pair would overwrite each other's instances: a
    blocked hand's ghost (the hand's own model and material) would replace the solid hand,
    a socket's zone the highlight of a hovered object of the same shape. Joined, the first
    batch's scenery is kept as it is (only the world's own batches have scenery), so it is
    still uploaded once per layout."""
    joined: dict[tuple[MeshData, Material], Batch] = {}
    for batch in batches:
        key = (batch.mesh, batch.material)
        first = joined.get(key)
        if first is None:
            joined[key] = batch
            continue
        scenery = first.scenery
        if len(batch.scenery):
            scenery = np.concatenate((first.scenery, batch.scenery))
        joined[key] = Batch(
            batch.mesh,
            batch.material,
            first.version,
            scenery,
            np.concatenate((first.moving, batch.moving)),
            np.concatenate((first.ghosts, batch.ghosts)),
        )
    return list(joined.values())


def _hovered(world: World) -> set[int]:
    return {hover.object for _, hover in world.each(Hover) if hover.object is not None}


def _placed(points: FloatArray, size: tuple[float, float, float]) -> F32Array:
    """Column-major matrices of a unit mesh scaled to `size` at each of `points` (N, 3)."""
    matrices = np.zeros((len(points), 4, 4))
    matrices[:, 0, 0], matrices[:, 1, 1], matrices[:, 2, 2] = size
    matrices[:, :3, 3] = points
    matrices[:, 3, 3] = 1.0
    return column_major(matrices)


def _drawn_of(colliders: Colliders) -> tuple[tuple[object, ...], ...]:
    """What of a body's colliders is drawn: each part's shape, offset and whether it is a
    sensor (not drawn)."""
    return tuple((part.shape, part.offset, part.sensor) for part in colliders.parts)


def _controllers(world: World) -> str | None:
    """The bound interaction profile's name: the controller models follow it."""
    session = world.try_resource(HeadsetSession)
    return None if session is None else session.controllers


def _hull_count(surfaces: ColliderSurfaces | None) -> int:
    """How many hulls physics has built (only ever more), or -1 in a world without physics."""
    return -1 if surfaces is None else len(surfaces.hulls)
