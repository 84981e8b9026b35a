"""Where a scene's own camera stands: the ``[camera]`` table of a scene file, as a resource.

A scene that says where it is best seen from (a README picture, a replay shown to others)
gets this resource when it is spawned; ``--camera scene`` draws from it. It is a fixed point in
the world, not a part of the rig: the player walking, turning or teleporting does not move it.
"""

from __future__ import annotations

from dataclasses import dataclass

from playspace.spatial import Vec3


@dataclass(frozen=True, slots=True)
class SceneCamera:
    """A camera at `position` looking at `look_at` (world space, metres), +Y up; the two
    points differ (the scene reader checks it), so it always has a direction. `fov` is the
    vertical field of view in radians, or None for the preview's (90 degrees across)."""

    position: Vec3
    look_at: Vec3
    fov: float | None = None
