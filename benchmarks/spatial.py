"""What the pose and quaternion maths of ``playspace.spatial`` costs, and why it has two forms.

Three tables: each per-entity function (PyGLM doubles) in nanoseconds per call; each batched
``*_many`` function at N = 10,000 in nanoseconds per element; and, for reference, the same
per-entity work done with numpy on a single vector, the way it reads most naturally, and the
batched functions called on a single row. The last two are why systems use glm per entity.

Each figure is the best of several timeit repeats of a statement that calls the public function
as a system would (argument passing included), less the cost of timeit's empty loop.

Under glibc, much of each batched figure is the allocator handing freed memory back to the
system and faulting it in again on the next call; ``MALLOC_TOP_PAD_=10000000 python
benchmarks/spatial.py`` leaves the arithmetic alone, at a half to a third of the default figures.

Run: ``python benchmarks/spatial.py``. It takes a few seconds; the last line printed is one JSON
object with every figure.
"""

from __future__ import annotations

import json
import math
import sys
import timeit
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from playspace import spatial as S

N = 10_000
REPEATS = 5
TARGET_S = 0.03  # per repeat


def best_seconds(stmt: str, namespace: dict[str, Any]) -> float:
    """Best time of one execution of ``stmt`` over REPEATS repeats of about TARGET_S each."""
    timer = timeit.Timer(stmt, globals=namespace)
    number = 1
    while (elapsed := timer.timeit(number)) < TARGET_S / 4:
        number *= 4 if elapsed < TARGET_S / 40 else 2
    number = max(1, int(number * TARGET_S / max(elapsed, 1e-9)))
    return min(timer.repeat(repeat=REPEATS, number=number)) / number


def measure(
    statements: dict[str, str], namespace: dict[str, Any], per: int = 1
) -> dict[str, float]:
    """Nanoseconds per call (or per element, with ``per`` elements a call), loop cost removed."""
    empty = best_seconds("pass", namespace)
    figures = {}
    for name, stmt in statements.items():
        ns = (best_seconds(stmt, namespace) - empty) * 1e9 / per
        figures[name] = round(max(ns, 0.0), 2)
    return figures


def per_entity() -> dict[str, float]:
    q = S.normalize(S.quat(0.1, 0.2, 0.3, 0.9))
    r = S.normalize(S.quat(-0.3, 0.2, 0.1, 0.8))
    v = S.vec3(1.0, 2.0, 3.0)
    a = S.Pose(v, q)
    b = S.Pose(S.vec3(-1.0, 0.5, 2.0), r)
    raw = S.quat(0.3, 0.6, 0.9, 2.7)
    namespace = {"S": S, "q": q, "r": r, "v": v, "a": a, "b": b, "raw": raw}
    return measure(
        {
            "rotate": "S.rotate(q, v)",
            "multiply": "S.multiply(q, r)",
            "inverse": "S.inverse(q)",
            "compose": "S.compose(a, b)",
            "invert": "S.invert(a)",
            "transform_point": "S.transform_point(a, v)",
            "slerp": "S.slerp(q, r, 0.3)",
            "lerp_pose": "S.lerp_pose(a, b, 0.3)",
            "yaw": "S.yaw(q)",
            "yaw_rotation": "S.yaw_rotation(0.3)",
            "normalize": "S.normalize(raw)",
            "from_axis_angle": "S.from_axis_angle(v, 0.3)",
            "to_axis_angle": "S.to_axis_angle(q)",
            "look_rotation": "S.look_rotation(v)",
            "Pose(...)": "S.Pose(v, q)",
        },
        namespace,
    )


def batched() -> dict[str, float]:
    rng = np.random.default_rng(7)
    q = S.normalize_many(rng.normal(size=(N, 4)))
    r = S.normalize_many(rng.normal(size=(N, 4)))
    v = rng.normal(size=(N, 3))
    p = rng.normal(size=(N, 3))
    t = rng.uniform(size=N)
    raw = rng.normal(size=(N, 4))
    angles = rng.uniform(-math.pi, math.pi, size=N)
    namespace = {"S": S, "q": q, "r": r, "v": v, "p": p, "t": t, "raw": raw, "angles": angles}
    return measure(
        {
            "rotate_many": "S.rotate_many(q, v)",
            "multiply_many": "S.multiply_many(q, r)",
            "inverse_many": "S.inverse_many(q)",
            "compose_many": "S.compose_many(p, q, v, r)",
            "invert_many": "S.invert_many(p, q)",
            "transform_points_many": "S.transform_points_many(p, q, v)",
            "slerp_many": "S.slerp_many(q, r, t)",
            "yaw_many": "S.yaw_many(q)",
            "normalize_many": "S.normalize_many(raw)",
            "from_axis_angle_many": "S.from_axis_angle_many(v, angles)",
            "to_axis_angle_many": "S.to_axis_angle_many(q)",
            "look_rotation_many": "S.look_rotation_many(v)",
        },
        namespace,
        per=N,
    )


def numpy_single() -> dict[str, float]:
    q = S.normalize_many([0.1, 0.2, 0.3, 0.9])
    r = S.normalize_many([-0.3, 0.2, 0.1, 0.8])
    u, w = q[:3].copy(), float(q[3])
    v = np.array([1.0, 2.0, 3.0])
    raw = np.array([0.3, 0.6, 0.9, 2.7])
    namespace = {"S": S, "np": np, "q": q, "r": r, "u": u, "w": w, "v": v, "raw": raw}
    return measure(
        {
            "rotate (np.cross)": "v + 2.0 * w * np.cross(u, v) + 2.0 * np.cross(u, np.cross(u, v))",
            "rotate_many (one row)": "S.rotate_many(q, v)",
            "multiply_many (one row)": "S.multiply_many(q, r)",
            "normalize (np.linalg.norm)": "raw / np.linalg.norm(raw)",
            "normalize_many (one row)": "S.normalize_many(raw)",
            "add (v + v)": "v + v",
        },
        namespace,
    )


def table(title: str, unit: str, figures: dict[str, float]) -> str:
    width = max(len(name) for name in figures)
    lines = [f"{title}", f"  {'operation':<{width}}  {unit:>12}"]
    lines += [f"  {name:<{width}}  {value:>12,.1f}" for name, value in figures.items()]
    return "\n".join(lines)


def main() -> None:
    results = {
        "per_entity_ns": per_entity(),
        "batched_ns_per_element": batched(),
        "numpy_single_ns": numpy_single(),
    }
    print(table("Per entity (PyGLM doubles)", "ns / call", results["per_entity_ns"]))
    print()
    print(table(f"Batched, N = {N:,}", "ns / element", results["batched_ns_per_element"]))
    print()
    print(table("numpy on one vector (reference)", "ns / call", results["numpy_single_ns"]))
    glm_rotate = results["per_entity_ns"]["rotate"]
    numpy_rotate = results["numpy_single_ns"]["rotate (np.cross)"]
    print()
    print(
        f"One rotation: glm {glm_rotate:,.0f} ns, numpy {numpy_rotate:,.0f} ns "
        f"({numpy_rotate / max(glm_rotate, 1e-9):,.0f}x)."
    )
    print(json.dumps({"n": N, **results}))


if __name__ == "__main__":
    main()
