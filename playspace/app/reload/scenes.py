"""A saved scene file applied to the running world as a difference.

Every table of a scene has a name (its own, or its kind and number: ``box 2``), and the names
are how the saved file is matched to what the world holds: a table with a new name is spawned,
a name gone is despawned, a table that changed only where it stands (``position``,
``rotation``) moves (a prop's body is teleported there, scenery is put there anew), any other
change spawns it anew. What did not change is not touched, so a prop resting or asleep keeps
its physics state, and a held one stays held. A model's table covers all its nodes
(``name/node``). Tables that set the world up rather than fill it (``[physics]``, ``[player]``,
``[grab]``, ``[climb]``) apply when the scene starts: a change to one is said, not applied.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from playspace.app.spawn import SpawnedScene, euler_rotation, spawn_scene
from playspace.components.physics import RigidBody
from playspace.ecs import World
from playspace.formats.scene.model import Scene
from playspace.spatial import vec3
from playspace.systems.physics.commands import teleport_body

KINDS = ("boxes", "stairs", "ramps", "meshes", "models", "props", "opponents", "sockets")
PLACEMENT = ("position", "rotation")
SET_UP = ("physics", "player", "grab", "climb", "spawns")  # applied when a scene starts


@dataclass(frozen=True, slots=True)
class SceneReload:
    """What applying a saved scene changed, by table name."""

    path: Path
    added: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()
    moved: tuple[str, ...] = ()
    remade: tuple[str, ...] = ()
    restart: tuple[str, ...] = ()  # set-up tables that changed: a restart applies them

    def line(self) -> str:
        said = [
            f"{what} {', '.join(names)}"
            for what, names in (
                ("added", self.added),
                ("removed", self.removed),
                ("moved", self.moved),
                ("remade", self.remade),
            )
            if names
        ]
        if self.restart:
            tables = ", ".join(f"[{t}]" for t in self.restart)
            said.append(f"{tables} changed: restart to apply")
        return f"reloaded {self.path.name}: {'; '.join(said) or 'nothing changed'}"


def apply_scene(world: World, old: Scene, new: Scene) -> SceneReload:
    """Make the world hold `new` where it held `old` (see the module docstring)."""
    before, after = dict(_tables(old)), dict(_tables(new))
    added = [key for key in after if key not in before]
    removed = [key for key in before if key not in after]
    moved, remade = [], []
    for key in before.keys() & after.keys():
        if same(before[key], after[key]):
            continue
        if key[0] == "props" and _only_placed(before[key], after[key]):
            moved.append(key)
        else:
            remade.append(key)
    spawned = world.try_resource(SpawnedScene) or SpawnedScene({}, (), (), ())
    dropped = {e for key in (*removed, *remade) for e in _entities(spawned, key)}
    fresh = {*added, *remade}
    chosen: dict[str, Any] = {
        k: tuple(t for t in getattr(new, k) if (k, t.name) in fresh) for k in KINDS
    }
    part = dataclasses.replace(new, **chosen)
    known = {name: e for name, e in spawned.entities.items() if e not in dropped}
    made = spawn_scene(world, part, known)  # first: a scene this world refuses changes nothing
    for entity in dropped:
        if world.exists(entity):
            world.despawn(entity)
    for key in moved:
        _move(world, spawned.entities[key[1]], after[key])
    world.insert_resource(_merged(spawned, made, dropped))
    order = list(after)
    return SceneReload(
        new.path,
        tuple(k[1] for k in order if k in added),
        tuple(k[1] for k in removed),
        tuple(k[1] for k in order if k in moved),
        tuple(k[1] for k in order if k in remade),
        tuple(t for t in SET_UP if not same(getattr(old, t), getattr(new, t))),
    )


def _tables(scene: Scene) -> Iterator[tuple[tuple[str, str], Any]]:
    for kind in KINDS:
        for table in getattr(scene, kind):
            yield (kind, table.name), table


def _entities(spawned: SpawnedScene, key: tuple[str, str]) -> list[int]:
    """The entities a table became: its own, and for a model every ``name/node``."""
    kind, name = key
    found = [e for n, e in spawned.entities.items() if n == name]
    if kind == "models":
        found += [e for n, e in spawned.entities.items() if n.startswith(name + "/")]
    return found


def _only_placed(old: object, new: object) -> bool:
    """Whether two tables differ only where they stand."""
    return all(
        same(getattr(old, f.name), getattr(new, f.name))
        for f in dataclasses.fields(old)  # type: ignore[arg-type]
        if f.name not in PLACEMENT
    )


def _move(world: World, entity: int, table: Any) -> None:
    """A prop put where its table now says: its body teleported, so it does not sweep there."""
    if world.has(entity, RigidBody):
        teleport_body(world, entity, vec3(*table.position), euler_rotation(table.rotation))


def _merged(spawned: SpawnedScene, made: SpawnedScene, dropped: set[int]) -> SpawnedScene:
    def kept(entities: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(e for e in entities if e not in dropped)

    names = {n: e for n, e in spawned.entities.items() if e not in dropped} | made.entities
    return SpawnedScene(
        names,
        kept(spawned.statics) + made.statics,
        kept(spawned.props) + made.props,
        kept(spawned.opponents) + made.opponents,
        kept(spawned.sockets) + made.sockets,
    )


def same(a: Any, b: Any) -> bool:
    """Whether two scene values are equal, arrays (a mesh's, a model's) by their contents."""
    if a is b:
        return True
    try:  # plain values compare at C speed; a table holding arrays refuses to
        return bool(a == b)
    except ValueError:
        pass
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return (
            isinstance(a, np.ndarray)
            and isinstance(b, np.ndarray)
            and a.shape == b.shape
            and a.dtype == b.dtype
            and bool(np.array_equal(a, b))
        )
    if type(a) is not type(b):
        return False
    if dataclasses.is_dataclass(a) and not isinstance(a, type):
        return all(same(getattr(a, f.name), getattr(b, f.name)) for f in dataclasses.fields(a))
    if isinstance(a, tuple | list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    return bool(a == b)
