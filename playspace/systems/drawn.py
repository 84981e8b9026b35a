"""Late placement: what is drawn this frame (DESIGN.md, "One frame": LATE).

Fixed steps and display frames do not line up, so nothing is drawn where the last step left it:

- **Bodies** are drawn between their last two fixed-step poses (``PreviousTransform`` and
  ``Transform``) at the frame's overstep ``alpha``: motion is smooth at any display rate, one
  step behind the simulation (what engines that step physics at a fixed rate all do).
- **Every player's head, hands and what they hold** are drawn where tracking puts them *at the
  display time*: the newest frame that player's input source read (``InputState.latest``; in a
  headset, located for the frame's predicted display time), through the player's origin, and
  for a held object through its hand's hold offset. Late latching, as OpenXR engines do it: a
  hand drawn behind its fresh pose by a different amount each frame is judder, while the eyes
  are current.

The result is the :class:`~playspace.components.drawn.DrawnPoses` resource, which the renderer,
the preview's camera and captures read, and nothing else. Poses are gathered and interpolated as
numpy rows (one list comprehension a field), so the frame pays for a few array operations, not
for a Python loop over the bodies.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from playspace import spatial
from playspace.components import DeviceRole, TrackedDevice, Transform
from playspace.components.drawn import DrawnPoses
from playspace.components.input import InputState
from playspace.components.interaction import Holding, PhysicsHand
from playspace.components.physics import PreviousTransform
from playspace.components.rig import Rig
from playspace.components.scene import Grabbable
from playspace.ecs import Phase, World, system
from playspace.spatial import FloatArray, Pose
from playspace.systems.input.placement import tracked_world_pose
from playspace.systems.input.tracking import sample_of
from playspace.systems.interaction.hold import held_pose, second_hands
from playspace.systems.physics import Physics
from playspace.systems.sets import LateSet, add_late_sets

_Moving = list[tuple[int, tuple[Transform, PreviousTransform]]]
# Row numbers, sorted. numpy indexes by an array in half the time it takes to index by a list
# (which it converts again on every use), and a frame indexes by the same rows six times.
Rows = npt.NDArray[np.intp]


@dataclass(slots=True)
class DrawnLayout:
    """Which entity has which row (kept until the world's structure changes), and each row's
    last two poses as gathered (rows of numpy arrays, refreshed where physics says a body
    changed); a resource."""

    entries: object = None  # the query list the rows were made from
    rigs: object = None  # the players' rigs the rows were made with
    current: list[Transform] = field(default_factory=list)
    previous: list[Transform | PreviousTransform] = field(default_factory=list)
    now: tuple[FloatArray, FloatArray] | None = None  # positions, rotations (xyzw)
    was: tuple[FloatArray, FloatArray] | None = None
    moving: Rows | None = None  # rows between two poses since a step; None: every row


def _layout(world: World, drawn: DrawnPoses, layout: DrawnLayout) -> bool:
    """Rows for every body that moves between steps, then every player's head and hands;
    whether they were made anew."""
    entries: _Moving = world.query(Transform, PreviousTransform)
    rigs = world.each(Rig)
    if entries is layout.entries and rigs is layout.rigs:
        return False
    layout.entries, layout.rigs = entries, rigs
    rows = {entity: row for row, (entity, _) in enumerate(entries)}
    layout.current = [transform for _, (transform, _) in entries]
    layout.previous = [previous for _, (_, previous) in entries]
    for entity in (e for _, rig in rigs for e in (rig.head, rig.left_hand, rig.right_hand)):
        transform = world.try_get(entity, Transform)
        if entity not in rows and transform is not None:
            rows[entity] = len(layout.current)
            layout.current.append(transform)
            layout.previous.append(transform)
    drawn.rows = rows
    drawn.version += 1
    layout.now = layout.was = None  # new rows: gathered whole
    return True


def _gather(layout: DrawnLayout, rows: Rows | None) -> None:
    """Read the poses of `rows` (all when None) from their components into the arrays."""
    if rows is None or layout.now is None or layout.was is None:
        layout.now = _poses(layout.current)
        layout.was = _poses(layout.previous)
        return
    if not len(rows):
        return
    now_p, now_q = layout.now
    was_p, was_q = layout.was
    numbers = rows.tolist()
    now_p[rows], now_q[rows] = _poses([layout.current[r] for r in numbers])
    was_p[rows], was_q[rows] = _poses([layout.previous[r] for r in numbers])


def _poses(items: Sequence[Transform | PreviousTransform]) -> tuple[FloatArray, FloatArray]:
    return (
        spatial.vec3_rows([t.position for t in items]),
        spatial.quat_rows([t.rotation for t in items]),
    )


def _changed_rows(world: World, drawn: DrawnPoses) -> tuple[Rows | None, bool]:
    """The rows whose poses may have changed since the last frame: what physics wrote, stopped,
    teleported or re-kinded since, every kinematic body (moved by its Transform), and the
    tracked devices; None (all rows) in a world without physics, when physics lost count, or
    when most of the rows moved (gathering them all is then cheaper than picking them). And
    whether a step ran since: the rows then moving are the ones just gathered."""
    physics = world.try_resource(Physics)
    if physics is None or physics.redrawn_all:
        if physics is not None:
            physics.redrawn_all = False
            physics.redrawn.clear()
        return None, True
    rows = drawn.rows
    stepped = bool(physics.redrawn)  # each write-back adds its lists, empty or not
    if sum(map(len, physics.redrawn)) * 2 > len(rows):  # most of it moved: gather it whole
        physics.redrawn.clear()
        return None, True
    changed = {rows[e] for e in physics.kinematic if e in rows}
    for bodies in physics.redrawn:
        changed.update(row for b in bodies if (row := rows.get(b.entity)) is not None)
    physics.redrawn.clear()
    for _, rig in world.each(Rig):
        changed.update(rows[e] for e in (rig.head, rig.left_hand, rig.right_hand) if e in rows)
    return np.array(sorted(changed), dtype=np.intp), stepped


def place_drawn(world: World, alpha: float) -> None:
    """Write this frame's :class:`DrawnPoses`: bodies at `alpha` between their last two steps
    (1.0: the end of the last step, as a capture shows it), tracked things at the display
    time. Only the rows physics changed since the last frame are read from their components
    again: a level at rest costs a few array operations, not a conversion a body."""
    drawn, layout = world.resource(DrawnPoses), world.resource(DrawnLayout)
    fresh = _layout(world, drawn, layout)
    changed, stepped = _changed_rows(world, drawn)
    _gather(layout, changed)
    if fresh or changed is None or len(drawn.positions) != len(layout.current):
        positions, rotations = _between(layout, slice(None), alpha)
        drawn.positions, drawn.rotations = positions.copy(), rotations.copy()  # not views
        layout.moving = None
    else:  # the rows at rest keep what was drawn; the rest are placed at this alpha
        if stepped:
            layout.moving = changed
        elif layout.moving is not None:
            layout.moving = np.union1d(layout.moving, changed)  # sorted, each row once
        moving = slice(None) if layout.moving is None else layout.moving
        if layout.moving is None or len(layout.moving):
            drawn.positions[moving], drawn.rotations[moving] = _between(layout, moving, alpha)
    _place_tracked(world, drawn)


def _between(
    layout: DrawnLayout, rows: slice | Rows, alpha: float
) -> tuple[FloatArray, FloatArray]:
    """`rows` at `alpha` between their last two poses (fresh arrays)."""
    assert layout.now is not None and layout.was is not None
    positions, rotations = _taken(layout.now[0], rows), _taken(layout.now[1], rows)
    if alpha < 1.0 and len(positions):
        before, earlier = _taken(layout.was[0], rows), _taken(layout.was[1], rows)
        positions = before + (positions - before) * alpha
        rotations = spatial.nlerp_unit_many(earlier, rotations, alpha)
    return positions, rotations


def _taken(array: FloatArray, rows: slice | Rows) -> FloatArray:
    """`array`'s `rows`: a slice as a view, an index array by ``take``, which gathers rows ten
    times faster than indexing with the array does."""
    return array[rows] if isinstance(rows, slice) else array.take(rows, axis=0)


def _place_tracked(world: World, drawn: DrawnPoses) -> None:
    """Every player's head, hands and what they hold, from that player's newest frame,
    through their origin."""
    placed: dict[int, Pose] = {}
    for origin_entity, (rig, state) in world.query(Rig, InputState):
        origin = world.get(origin_entity, Transform).pose()
        for entity, role in (
            (rig.head, DeviceRole.HEAD),
            (rig.left_hand, DeviceRole.LEFT_HAND),
            (rig.right_hand, DeviceRole.RIGHT_HAND),
        ):
            sample = sample_of(state.latest, role)
            if sample is not None and entity in drawn.rows:
                placed[entity] = tracked_world_pose(origin, sample.pose)
    for entity, hand in world.each(PhysicsHand):
        stopped = placed.get(entity)
        if stopped is not None and hand.blocked and hand.physical and hand.controller:
            # a physics hand stopped by the table: drawn where it stopped, by this step's gap
            # between the controller and the stopped hand (its ghost shows the controller's)
            gap = hand.physical.position - hand.controller.position
            placed[entity] = Pose(stopped.position + gap, hand.physical.rotation)
    seconds = second_hands(world, {e: pose.position for e, pose in placed.items()})
    for entity, holding in world.each(Holding):
        grip, held = placed.get(entity), holding.object
        if grip is None or held is None or holding.second or holding.offset is None:
            continue
        grabbable = world.try_get(held, Grabbable)
        if grabbable is not None and held in drawn.rows:
            placed[held] = held_pose(holding.offset, grip, grabbable, seconds.get(held))
    for entity, pose in placed.items():
        row = drawn.rows[entity]
        p, q = pose.position, spatial.normalize(pose.rotation)
        drawn.positions[row] = (p.x, p.y, p.z)
        drawn.rotations[row] = (q.x, q.y, q.z, q.w)


@system(
    Phase.LATE,
    in_set=LateSet.PLACEMENT,
    reads=(
        Transform,
        PreviousTransform,
        TrackedDevice,
        Grabbable,
        Holding,
        PhysicsHand,
        InputState,
        Rig,
    ),
    writes=(DrawnPoses, DrawnLayout, Physics),
)
def late_placement(world: World) -> None:
    """Place what is drawn for this frame's display time."""
    place_drawn(world, world.fixed_time.alpha)


class DrawnPlugin:
    """Late placement for every display: the :class:`DrawnPoses` resource, written in LATE."""

    def build(self, world: World) -> None:
        world.insert_resource(DrawnPoses())
        world.insert_resource(DrawnLayout())
        add_late_sets(world)
        world.add_systems(late_placement)


__all__ = ["DrawnLayout", "DrawnPlugin", "late_placement", "place_drawn"]
