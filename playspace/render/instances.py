"""What to draw this frame: every visible collider and figure as instance matrices, batched
by mesh and material. CPU only (numpy), so it is tested and measured without GL.

The renderer knows no gameplay: it draws the scene's drawable components and what the
features wrote in LATE for it to draw (:mod:`playspace.components.drawn`), never a rig, a
hand, a teleport or a socket. The world is drawn as physics sees it, where LATE placed it for
this frame (``DrawnPoses``; an entity without a row there, and every entity of a world without
late placement, at its ``Transform``): each solid collider part of an entity is a unit mesh
scaled to the shape and placed at the part's offset (a convex hull is the hull the physics
engine built, from ``ColliderSurfaces``); sensors are invisible; a player's own capsule
(``CharacterBody``) is not drawn. An entity with a ``Visual`` (a model's surfaces) is drawn as
its parts instead of its colliders. An entity with a ``Figure`` and no collider is drawn as the
figure says: a head marker (a white box, for spectators and captures), a controller model for
the bound interaction profile (:mod:`playspace.render.controllers`; a generic one in the
preview), or a shape in the opponents' color (another player, as a networked client sees
them); not while the figure is hidden (a controller whose tracking is lost). Over them:
``Highlights`` (drawn again, a little larger, in the hover color), ``Ghosts`` (see-through
where they are, or once more at another pose), every ``Markers`` (shapes at poses in a tint,
solid or see-through) and every ``Trail``. There is one batch per mesh and material, whatever
adds to it (a blocked hand's ghost is in its hand's batch). An entity with a ``Appearance`` is
drawn in the material made from it (its texture file loaded once per path; one that cannot be
read is said once, naming the entity and the file, and the entity drawn without it); without
one, in its kind's color from the palette. A renderer-side appearance
(:meth:`SceneInstances.set_appearance`) replaces an entity's collider shapes with a mesh from
a file.

Cost. Working out *what* is drawn (which entity, which parts, which batch, which offsets)
is redone only when the world's structure changes: esper hands out the same cached query
list until an entity or component is added or removed, so the lists' identity, plus the
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
from playspace.components import Opponent, Prop, Scenery, Trail, Transform
from playspace.components.appearance import Appearance
from playspace.components.drawn import (
    DrawnPoses,
    Figure,
    Ghosts,
    Highlights,
    Markers,
    Model,
    Tint,
)
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
from playspace.components.session import HeadsetSession
from playspace.components.tracking import DeviceRole
from playspace.components.visual import Surface, Visual, VisualPart
from playspace.ecs import World
from playspace.render import meshes
from playspace.render.assets import AssetError, Texture, load_texture
from playspace.render.controllers import controller_mesh
from playspace.render.materials import Material, Palette
from playspace.render.matrices import NO_INSTANCES, column_major, scale_matrix, trs_many
from playspace.render.meshes import F32Array, MeshData
from playspace.render.skinning import SkinnedDraw, SkinnedMesh, skinned_draws, skinned_mesh
from playspace.spatial import FloatArray, Pose, pose_matrix

log = logging.getLogger(__name__)

HOVER_GROWTH = 1.06  # a highlighted object's shell, around the object itself
CONTROLLERS = {
    Model.LEFT_CONTROLLER: DeviceRole.LEFT_HAND,
    Model.RIGHT_CONTROLLER: DeviceRole.RIGHT_HAND,
}


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
        self._tints = {
            Tint.HOVER: self.palette.hover,
            Tint.VALID: self.palette.aim_valid,
            Tint.REFUSED: self.palette.aim_refused,
        }
        self._unit: dict[Hashable, MeshData] = {}
        self._shaped: dict[int, tuple[Shape | Surface, MeshData]] = {}  # by id; kept alive
        self._skinned: dict[int, tuple[Surface, SkinnedMesh]] = {}  # the same, skinned
        self._appearances: dict[int, tuple[MeshData, Material, FloatArray]] = {}
        self._entries: object = None  # the query list the layout was made from
        self._figure_list: object = None  # ...and the Figures' list
        self._visual_list: object = None  # ...and the Visuals' list
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
        self._row_of: dict[int, int] = {}  # ...and the moving row of each entity
        self._planned: dict[int, list[_Part]] = {}  # what each entity is drawn as
        self._drawn_key: tuple[int, int] = (-1, -1)  # layout and DrawnPoses versions indexed
        self._placed_rows = np.zeros(0, dtype=np.intp)  # moving rows LATE placed...
        self._drawn_rows = np.zeros(0, dtype=np.intp)  # ...and their DrawnPoses rows
        self._own_rows = np.zeros(0, dtype=np.intp)  # moving rows drawn at their Transform
        self._own: list[Transform] = []
        self._all_placed: slice | None = None  # the DrawnPoses rows of every moving row
        self._figures: list[tuple[int, Figure]] = []  # the figures' rows
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
            (Figure, self.palette.opponent),  # another player's shape: as opponents are drawn
        ):
            if world.has(entity, kind):
                return material
        return self.palette.other

    def _part_material(self, world: World, entity: int, part: VisualPart) -> Material:
        if part.look is None:
            return self._material(world, entity)
        return self._look_material(entity, part.look)

    def _surface_mesh(self, surface: Surface) -> MeshData:
        """The mesh of a model's surface, made once per surface."""
        known = self._shaped.get(id(surface))
        if known is None:
            mesh = meshes.from_surface(
                surface.positions, surface.normals, surface.uvs, surface.triangles
            )
            known = self._shaped[id(surface)] = (surface, mesh)
        return known[1]

    def skinned(self, world: World) -> list[SkinnedDraw]:
        """This frame's skinned surfaces (:func:`playspace.render.skinning.skinned_draws`)."""
        return skinned_draws(world, self._skinned_mesh, self._part_material)

    def _skinned_mesh(self, surface: Surface) -> SkinnedMesh:
        """The mesh and skin of a skinned surface, made once per surface."""
        known = self._skinned.get(id(surface))
        if known is None or known[0] is not surface:
            known = self._skinned[id(surface)] = (surface, skinned_mesh(surface))
        return known[1]

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
        visual = world.try_get(entity, Visual)
        parts = []
        if visual is not None:  # a model's surfaces, in place of its colliders (skinned ones
            # are bent and drawn on their own: :mod:`playspace.render.skinning`)
            parts = [
                _Part(
                    -1,
                    (self._surface_mesh(part.surface), self._part_material(world, entity, part)),
                    pose_matrix(part.offset),
                )
                for part in visual.parts
                if not part.surface.skinned
            ]
        elif colliders is not None and not world.has(entity, CharacterBody):  # the player's own
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
        figure = world.try_get(entity, Figure)
        if figure is not None:  # drawn only, never a collider
            parts.extend(self._figure(world, entity, figure))
        return parts

    def _figure(self, world: World, entity: int, figure: Figure) -> list[_Part]:
        """The parts a figure is drawn as: one of the renderer's models, or its shape."""
        offset = pose_matrix(figure.offset)
        look = figure.look
        if look is Model.HEAD:
            return [
                _Part(-1, (self._unit_mesh(shape, make), material), offset @ place)
                for shape, make, material, place in self._headset()
            ]
        if isinstance(look, Model):
            model = controller_mesh(self._controllers, CONTROLLERS[look])
            return [_Part(-1, (model, self.palette.hand), offset)]
        made = self.shape_mesh(look, self._surfaces)
        if made is None:
            return []
        return [_Part(-1, (made[0], self._material(world, entity)), offset @ made[1])]

    def _headset(self) -> list[tuple[str, Callable[[], MeshData], Material, FloatArray]]:
        """A head seen from outside: a face under a headset (a white shell, a dark visor, a
        strap), every piece around the eyes, so from inside none is seen (back faces)."""
        palette = self.palette
        return [
            ("box", meshes.box, palette.head, _box_at((0.0, 0.0, -0.01), (0.2, 0.11, 0.07))),
            ("box", meshes.box, palette.visor, _box_at((0.0, 0.0, -0.04), (0.18, 0.09, 0.1))),
            ("box", meshes.box, palette.visor, _box_at((0.0, 0.01, 0.06), (0.205, 0.035, 0.2))),
            (
                "sphere",
                meshes.sphere,
                palette.skin,
                _box_at((0.0, -0.02, 0.05), (0.085, 0.11, 0.1)),
            ),
        ]

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
        self._entries, self._figure_list = entries, world.each(Figure)
        self._visual_list = world.each(Visual)
        self._controllers = _controllers(world)
        self._surfaces = world.try_resource(ColliderSurfaces)
        self._hull_count = _hull_count(self._surfaces)
        self._stale = False
        self._drawn_from = {e: _drawn_of(c) for e, (_, c) in entries}
        self._transforms, self._entities, self._figures = [], [], []
        planned = [(e, t, self._plan(world, e, c)) for e, (t, c) in entries]
        extra = set(self._appearances)  # drawn without colliders: appearances, figures
        extra.update(entity for entity, _ in self._figure_list)
        extra.update(entity for entity, _ in self._visual_list)
        for entity in sorted(extra - {entity for entity, _ in entries}):
            transform = world.try_get(entity, Transform)
            if transform is not None:
                planned.append((entity, transform, self._plan(world, entity, None)))
        self._planned = {entity: own for entity, _, own in planned}
        parts: list[_Part] = []
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
                figure = world.try_get(entity, Figure)
                if figure is not None:
                    self._figures.append((row, figure))
                for part in own:
                    part.row = row
            parts.extend(own)
        self._row_of = {entity: row for row, entity in enumerate(self._entities)}
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
            or world.each(Figure) is not self._figure_list
            or world.each(Visual) is not self._visual_list
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
        seen_through = world.try_resource(Ghosts)
        row_of = self._row_of
        ghosts = [] if seen_through is None else [
            row_of[e] for e in seen_through.entities if e in row_of
        ]  # fmt: skip
        hidden = [row for row, figure in self._figures if not figure.shown]
        if ghosts or hidden:
            self._split(placed, ghosts, hidden)
        solid, see_through = self._markers(world)
        extra = [
            *self._highlights(world),
            *solid,
            *self._trails(world),
            *see_through,
            *self._ghost_copies(world),
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
        those of hidden rows (a figure not shown)."""
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

    def _highlights(self, world: World) -> list[Batch]:
        """What a feature highlights (what a free hand would take if it gripped now), drawn
        again in the hover color and a little larger, so it shows as highlighted (XRI's hover
        tint)."""
        highlights = world.try_resource(Highlights)
        if highlights is None or not highlights.entities:
            return []
        row_of = self._row_of
        rows = {row_of[e] for e in highlights.entities if e in row_of}
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

    def _markers(self, world: World) -> tuple[list[Batch], list[Batch]]:
        """What the features show this frame (a teleport's arc dots and target, a socket's
        zone): each marker's shape at each of its poses in its tint; the solid ones, and the
        see-through ones (drawn with the ghost passes)."""
        found: dict[tuple[MeshData, Material, bool], list[FloatArray]] = {}
        for _, markers in world.each(Markers):
            for marker in markers.shown:
                made = self.shape_mesh(marker.shape, self._surfaces)
                if made is None:
                    continue
                mesh, scale = made
                key = (mesh, self._tints[marker.tint], marker.see_through)
                placed = found.setdefault(key, [])
                placed.extend(pose_matrix(pose) @ scale for pose in marker.poses)
        solid, see_through = [], []
        for (mesh, material, ghost), matrices in found.items():
            columns = column_major(np.array(matrices))
            if ghost:
                see_through.append(Batch(mesh, material, self._version, NO_INSTANCES,
                                         ghosts=columns))  # fmt: skip
            else:
                solid.append(Batch(mesh, material, self._version, NO_INSTANCES, columns))
        return solid, see_through

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

    def _ghost_copies(self, world: World) -> list[Batch]:
        """Entities drawn once more, as ghosts, at another pose (a physics hand the table
        stops: its controller where the player's real hand is, inside the table)."""
        ghosts = world.try_resource(Ghosts)
        if ghosts is None or not ghosts.copies:
            return []
        batches = []
        for entity, pose in ghosts.copies.items():
            at = pose_matrix(pose)
            for part in self._planned.get(entity, ()):
                mesh, material = part.batch
                ghost = column_major((at @ part.local)[np.newaxis])
                batches.append(Batch(mesh, material, self._version, NO_INSTANCES,
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
                position[self._placed_rows] = drawn.positions.take(self._drawn_rows, axis=0)
                rotation[self._placed_rows] = drawn.rotations.take(self._drawn_rows, axis=0)
            if self._own:
                position[self._own_rows] = spatial.vec3_rows([t.position for t in self._own])
                rotation[self._own_rows] = spatial.quat_rows([t.rotation for t in self._own])
        scales = spatial.vec3_rows([t.scale for t in self._transforms])
        # each part's entity: the per-row inputs gathered, not the matrices; ``take`` gathers
        # rows ten times faster than indexing with an array does
        rows = self._rows
        trs_many(
            position.take(rows, axis=0),
            rotation.take(rows, axis=0),
            scales.take(rows, axis=0) * self._part_scales,
            self._placed,
        )
        offset = self._offset_parts
        if len(offset):  # column-major: local transposed @ model transposed
            at = rows[offset]
            models = trs_many(
                position.take(at, axis=0),
                rotation.take(at, axis=0),
                scales.take(at, axis=0),
                np.empty((len(at), 4, 4)),
            )
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


def _box_at(centre: tuple[float, float, float], size: tuple[float, float, float]) -> FloatArray:
    """A unit shape scaled by `size` with its centre at `centre`."""
    matrix = scale_matrix(*size)
    matrix[:3, 3] = centre
    return matrix
