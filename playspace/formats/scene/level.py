"""Where players may start: on the level, not past its edge nor below the kill height.

A run puts a body that leaves the world back on ground (the rescue), so a start 10 km out, or
a kill height above the start, would be rescued at once, every step. The loader refuses
those instead, naming the key. The level's extent across the floor is measured loosely here
(a turned box, stairs, a ramp, a mesh or a model as the ball around it): a start that passes may
still lie a little past the geometry, where the rescue's fallback takes the player to the
ground nearest it.
"""

from __future__ import annotations

import math

import numpy as np

from playspace.components.rig import LEVEL_MARGIN
from playspace.formats.scene.model import Scene, Triple

Extent = tuple[float, float, float, float]  # lowest x, lowest z, highest x, highest z


def start_problems(scene: Scene, file: str) -> list[str]:
    """What is wrong with where the scene's players start: each as the loader says it."""
    starts = [("[player]", scene.player.position)] + [
        (f"[[spawn]] {index}", spawn.position) for index, spawn in enumerate(scene.spawns, start=1)
    ]
    problems = []
    kill = scene.physics.kill_height
    lowest_where, lowest = min(starts, key=lambda start: start[1][1])
    if lowest[1] <= kill:
        problems.append(
            f"{file}: [physics], key 'kill_height': expected a height below every player's "
            f"start (the lowest: {lowest_where} position, y = {lowest[1]:g}), got {kill:g}"
        )
    extent = level_extent(scene)
    if extent is None:
        return problems
    low_x, low_z, high_x, high_z = (
        extent[0] - LEVEL_MARGIN,
        extent[1] - LEVEL_MARGIN,
        extent[2] + LEVEL_MARGIN,
        extent[3] + LEVEL_MARGIN,
    )
    for where, (x, _, z) in starts:
        if not (low_x <= x <= high_x and low_z <= z <= high_z):
            problems.append(
                f"{file}: {where}, key 'position': expected a place on the level, within "
                f"{LEVEL_MARGIN:g} m of its geometry across the floor (x {low_x:.4g} to "
                f"{high_x:.4g}, z {low_z:.4g} to {high_z:.4g}), got x = {x:g}, z = {z:g}"
            )
    return problems


def level_extent(scene: Scene) -> Extent | None:
    """The scenery's extent across the floor: a box as it lies, anything turned or sloped (and
    a model's static geometry) as the ball around it; None for a scene without scenery."""
    pieces: list[tuple[Triple, float, float]] = []  # centre, half its reach along x and z
    for box in scene.boxes:
        if any(box.rotation):
            reach = math.hypot(*box.size) / 2
            pieces.append((box.position, reach, reach))
        else:
            pieces.append((box.position, box.size[0] / 2, box.size[2] / 2))
    for stairs in scene.stairs:
        reach = stairs.steps * math.hypot(stairs.run, stairs.rise) + stairs.width / 2
        pieces.append((stairs.position, reach, reach))
    for ramp in scene.ramps:
        reach = ramp.length + ramp.width / 2
        pieces.append((ramp.position, reach, reach))
    for mesh in scene.meshes:
        reach = max((math.hypot(*vertex) for vertex in mesh.shape.vertices), default=0.0)
        pieces.append((mesh.position, reach, reach))
    for placed in scene.models:
        bounds = None if placed.dynamic else placed.model.static_bounds()
        if bounds is not None:
            reach = placed.scale * max(float(np.linalg.norm(corner)) for corner in bounds)
            pieces.append((placed.position, reach, reach))
    if not pieces:
        return None
    return (
        min(x - half_x for (x, _, _), half_x, _ in pieces),
        min(z - half_z for (_, _, z), _, half_z in pieces),
        max(x + half_x for (x, _, _), half_x, _ in pieces),
        max(z + half_z for (_, _, z), _, half_z in pieces),
    )
