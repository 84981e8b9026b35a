"""Joints a model states: a node's ``joint`` extras, or a joint of the Khronos physics extension
(``KHR_physics_rigid_bodies``: a node with a ``joint`` naming its ``connectedNode`` and one of
the document's ``physicsJoints``), read as one :class:`ModelJoint` per node.

playspace's joints are hinges and sliders (``playspace.components.joints``), which is what a
VR level's doors, drawers, levers and dials need. The extension builds a joint from limits on
axes of the joint node's frame; one that locks every linear axis and two angular ones is a
hinge about the third (its limit, when it has one, the hinge's), one that locks every angular
axis and two linear ones a slider along the third. A drive on that axis is the joint's spring.
Any other joint (a ball, a cone, a fixed weld) is left out and said, as the reader says what it
cannot use.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from playspace.components.joints import JointKind, Spring
from playspace.formats.gltf import GltfFile
from playspace.formats.models.model import ModelError, ModelJoint

KHR = "KHR_physics_rigid_bodies"
AXES = ("x", "y", "z")


def node_joint(
    gltf: GltfFile, node: dict[str, Any], where: str, names: Mapping[str, int]
) -> ModelJoint | str | None:
    """The joint `node` states (by its extras or the extension), a sentence saying why one it
    states is not made, or None when it states none. `names` finds an extras joint's `to`."""
    extras = node.get("extras")
    if isinstance(extras, dict) and "joint" in extras:
        return _extras_joint(gltf, extras["joint"], f"{where}.extras.joint", names)
    extensions = node.get("extensions")
    holder = extensions.get(KHR) if isinstance(extensions, dict) else None
    if isinstance(holder, dict) and isinstance(holder.get("joint"), dict):
        return _khr_joint(gltf, holder["joint"], f"{where}.extensions.{KHR}.joint")
    return None


def _extras_joint(
    gltf: GltfFile, given: object, where: str, names: Mapping[str, int]
) -> ModelJoint:
    """``{"kind": "hinge", "axis": [0, 1, 0], "anchor": [0, 0, 0], "to": "Frame",
    "limits": [0, 1.6], "spring": {"target": 0, "stiffness": 200, "damping": 28},
    "friction": 2}``: all but `kind` optional; `to` a node's name (the world when left out)."""
    key = f"{gltf.path}: {where}"
    if not isinstance(given, dict):
        raise ModelError(f"{key}: expected an object (kind, axis, anchor, to, limits, ...)")
    kinds = {kind.value: kind for kind in JointKind}
    name = given.get("kind")
    kind = kinds.get(name) if isinstance(name, str) else None
    if kind is None:
        raise ModelError(f"{key}.kind: expected one of {sorted(kinds)}, got {given.get('kind')!r}")
    connected = None
    if "to" in given:
        to = given["to"]
        if not isinstance(to, str) or to not in names:
            raise ModelError(f"{key}.to: expected the name of a node in the file, got {to!r}")
        connected = names[to]
    limits = None
    if given.get("limits") is not None:
        low, high = _numbers(given["limits"], 2, f"{key}.limits")
        if low > high:
            raise ModelError(f"{key}.limits: expected [min, max] with min <= max")
        limits = (low, high)
    spring = None
    if given.get("spring") is not None:
        spring = _spring(given["spring"], f"{key}.spring")
    friction = given.get("friction", 0.0)
    if not _finite(friction) or friction < 0:
        raise ModelError(f"{key}.friction: expected a number >= 0, got {friction!r}")
    x, y, z = _numbers(given.get("axis", [0.0, 1.0, 0.0]), 3, f"{key}.axis")
    if math.sqrt(x * x + y * y + z * z) < 1e-6:
        raise ModelError(f"{key}.axis: expected a direction, not zero")
    ax, ay, az = _numbers(given.get("anchor", [0.0, 0.0, 0.0]), 3, f"{key}.anchor")
    return ModelJoint(kind, (ax, ay, az), (x, y, z), connected, limits, spring, float(friction))


def _spring(given: object, key: str) -> Spring:
    if not isinstance(given, dict):
        raise ModelError(f"{key}: expected an object (target, stiffness, damping)")
    values = [given.get(name, default) for name, default in (
        ("target", 0.0), ("stiffness", 200.0), ("damping", 28.0))]  # fmt: skip
    if not all(_finite(v) for v in values) or values[1] < 0 or values[2] < 0:
        raise ModelError(f"{key}: expected a target and a stiffness and damping >= 0")
    return Spring(*(float(v) for v in values))


def _khr_joint(gltf: GltfFile, holder: dict[str, Any], where: str) -> ModelJoint | str:
    key = f"{gltf.path}: {where}"
    connected = holder.get("connectedNode")
    gltf.item("nodes", connected, f"{where}.connectedNode")
    assert isinstance(connected, int)  # checked by item
    extensions = gltf.document.get("extensions")
    found = extensions.get(KHR, {}) if isinstance(extensions, dict) else {}
    joints = found.get("physicsJoints", []) if isinstance(found, dict) else []
    index = holder.get("joint")
    if not isinstance(joints, list) or type(index) is not int or not 0 <= index < len(joints):
        raise ModelError(f"{key}.joint: expected one of the file's physicsJoints, got {index!r}")
    spec = joints[index]
    named = f"physicsJoints[{index}]"
    if not isinstance(spec, dict):
        raise ModelError(f"{gltf.path}: {named}: expected an object")
    locked: dict[str, set[int]] = {"linear": set(), "angular": set()}
    ranges: dict[tuple[str, int], tuple[float, float]] = {}
    for number, limit in enumerate(spec.get("limits", [])):
        there = f"{gltf.path}: {named}.limits[{number}]"
        if not isinstance(limit, dict):
            raise ModelError(f"{there}: expected an object")
        low, high = limit.get("min", -math.inf), limit.get("max", math.inf)
        if not (isinstance(low, int | float) and isinstance(high, int | float)) or low > high:
            raise ModelError(f"{there}: expected min <= max, got {low!r} and {high!r}")
        for kind in ("linear", "angular"):
            axes = limit.get(f"{kind}Axes", [])
            if not isinstance(axes, list) or not all(a in (0, 1, 2) for a in axes):
                raise ModelError(f"{there}.{kind}Axes: expected axes 0, 1 or 2, got {axes!r}")
            if high - low < 1e-9 and abs(low) < 1e-9:
                locked[kind].update(axes)
            elif len(axes) == 1:
                ranges[kind, axes[0]] = (float(low), float(high))
            elif axes:
                return f"{where}: {named} limits {kind} axes {axes} together (a cone or a sphere)"
    free = [(kind, axis) for kind in locked for axis in range(3) if axis not in locked[kind]]
    if len(free) != 1:
        moves = ", ".join(f"{kind} {AXES[axis]}" for kind, axis in free) or "nothing"
        return f"{where}: {named} leaves {moves} free: only hinges and sliders are made"
    kind, axis = free[0]
    x, y, z = (1.0 if i == axis else 0.0 for i in range(3))
    return ModelJoint(
        JointKind.HINGE if kind == "angular" else JointKind.SLIDER,
        (0.0, 0.0, 0.0),
        (x, y, z),
        connected,
        _finite_range(ranges.get((kind, axis))),
        _drive(spec, kind, axis),
        from_node=True,
    )


def _finite_range(given: tuple[float, float] | None) -> tuple[float, float] | None:
    """A limit with an open end is no limit on that side: Rapier's limits are two numbers."""
    if given is None or not all(math.isfinite(v) for v in given):
        return None
    return given


def _drive(spec: dict[str, Any], kind: str, axis: int) -> Spring | None:
    """The drive on the free axis, as the joint's spring (its target, stiffness, damping)."""
    for drive in spec.get("drives", []):
        if isinstance(drive, dict) and drive.get("type") == kind and drive.get("axis") == axis:
            values = [drive.get(n, 0.0) for n in ("positionTarget", "stiffness", "damping")]
            if all(_finite(v) for v in values) and values[1] >= 0 and values[2] >= 0:
                return Spring(*(float(v) for v in values))
    return None


def _numbers(given: object, count: int, key: str) -> tuple[float, ...]:
    if not (isinstance(given, list) and len(given) == count and all(_finite(v) for v in given)):
        raise ModelError(f"{key}: expected {count} numbers, got {given!r}")
    return tuple(float(v) for v in given)


def _finite(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)
