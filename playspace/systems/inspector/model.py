"""What the inspector shows and changes, without Dear ImGui: names, fields, edits, picks.

An edit goes in through the same one way a game's does: ``world.get_mut`` on the component, so
physics (and anything else that reads changes) sees it at the next step; a body's pose goes
through physics' teleport, as a scene reload's does, since a dynamic body's ``Transform`` is
physics' to write.
"""

from __future__ import annotations

import dataclasses
import enum
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from playspace import spatial
from playspace.components import Transform
from playspace.components.physics import RigidBody
from playspace.components.rig import Rig
from playspace.ecs import World
from playspace.systems.physics import Physics
from playspace.systems.physics.commands import teleport_body

ROLES = ("origin", "head", "left_hand", "right_hand", "body")
BRIEF_ITEMS = 6  # a sequence longer than this is shown by its length
BRIEF_CHARACTERS = 120


def entity_names(world: World) -> dict[int, str]:
    """Each entity's name: a player's parts by role (``player 0/head``), else the ``name`` a
    component of it gives (a scene's table, a model's ``name/node``), else ``entity N``."""
    names: dict[int, str] = {}
    for _, rig in world.each(Rig):
        for role in ROLES:
            names[getattr(rig, role)] = f"player {rig.player}/{role}"
    for kind in world.component_kinds():
        if not (dataclasses.is_dataclass(kind) and "name" in _field_names(kind)):
            continue
        for entity, component in world.each(kind):
            named = getattr(component, "name", None)
            if isinstance(named, str):
                names.setdefault(entity, named)
    for entity in world.entities():
        names.setdefault(entity, f"entity {entity}")
    return names


def _field_names(kind: type) -> set[str]:
    return {f.name for f in dataclasses.fields(kind)}


def tree(names: dict[int, str]) -> list[tuple[str, list[tuple[int, str]]]]:
    """The entities grouped as the inspector lists them: by the part of their name before the
    first ``/`` (a player, a model), the rest each on its own, in name order."""
    groups: dict[str, list[tuple[int, str]]] = {}
    for entity, name in sorted(names.items(), key=lambda item: (item[1], item[0])):
        head, _, rest = name.partition("/")
        groups.setdefault(head if rest else "", []).append((entity, rest or name))
    return sorted(groups.items(), key=lambda item: (item[0] == "", item[0]))


@dataclass(frozen=True, slots=True)
class Field:
    """One field of a component as the inspector shows it: `kind` says which editor it gets
    (``float``, ``int``, ``bool``, ``vec3``, ``color``) or ``text`` for one only shown."""

    name: str
    value: Any
    kind: str


def fields_of(component: object) -> list[Field]:
    """A component's fields, each with the editor its value takes."""
    if not dataclasses.is_dataclass(component):
        return [Field("value", repr(component), "text")]
    return [
        Field(f.name, value, _kind(f.name, value))
        for f in dataclasses.fields(component)
        for value in (getattr(component, f.name),)
    ]


def _kind(name: str, value: object) -> str:
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int) and not isinstance(value, enum.Enum):
        return "int"
    if isinstance(value, float):
        return "float"
    if isinstance(value, spatial.Vec3):
        return "vec3"
    if "color" in name and isinstance(value, tuple) and len(value) in (3, 4):
        return "color" if all(isinstance(c, float | int) for c in value) else "text"
    return "text"


def brief(value: object, depth: int = 0) -> str:
    """`value` in a few words: an array by its shape, a component by its class, a long
    sequence by its length (a mesh's full ``repr`` costs milliseconds a frame)."""
    if isinstance(value, np.ndarray):
        return f"array {value.shape} {value.dtype}"
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return f"{type(value).__qualname__}(...)"
    if isinstance(value, tuple | list | dict | set | frozenset):
        if len(value) > BRIEF_ITEMS or depth > 1:
            return f"{type(value).__name__} of {len(value)}"
        items = value.items() if isinstance(value, dict) else value
        inner = ", ".join(brief(item, depth + 1) for item in items)
        return f"[{inner}]" if isinstance(value, list) else f"({inner})"
    shown = repr(value)
    return shown if len(shown) <= BRIEF_CHARACTERS else shown[: BRIEF_CHARACTERS - 3] + "..."


def edit(world: World, entity: int, kind: type, name: str, value: Any) -> None:
    """Set field `name` of `entity`'s `kind` to `value`, through the one way in (see the module
    docstring). A value that is not finite is refused (ValueError): it would reach physics."""
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError(f"{kind.__qualname__}.{name}: {value} is not a finite number")
    if kind is Transform and world.has(entity, RigidBody) and name in ("position", "rotation"):
        transform = world.get(entity, Transform)
        position = value if name == "position" else transform.position
        rotation = value if name == "rotation" else transform.rotation
        teleport_body(world, entity, position, rotation)
        return
    component: Any = world.get(entity, kind)
    made = {f.name for f in dataclasses.fields(component)} if _dataclass(component) else set()
    if name in made:  # its own checks first, as at its making: a mass <= 0 changes nothing
        changed = dataclasses.replace(component, **{name: value})
        params = getattr(type(component), "__dataclass_params__", None)
        if params is not None and params.frozen:
            world.add(entity, changed)
            world.set_changed(entity, kind)
            return
    setattr(world.get_mut(entity, kind), name, value)


def _dataclass(value: object) -> bool:
    return dataclasses.is_dataclass(value) and not isinstance(value, type)


def pick(world: World, origin: spatial.Vec3, direction: spatial.Vec3, reach: float) -> int | None:
    """The entity whose collider the ray meets first within `reach` (the aim ray's pick)."""
    physics = world.try_resource(Physics)
    if physics is None:
        return None
    hit = physics.ray_cast(origin, direction, reach)
    return None if hit is None else hit.entity


def slowest(timings: Mapping[str, Iterable[float]], count: int) -> list[tuple[str, list[float]]]:
    """The `count` systems with the most time over the frames kept, slowest first."""
    rows = [(name, list(kept)) for name, kept in timings.items()]
    rows.sort(key=lambda row: sum(row[1]), reverse=True)
    return rows[:count]
