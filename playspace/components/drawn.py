"""What is drawn this frame: where each moving entity is shown, for every display to read.

The LATE phase writes it once a frame (:mod:`playspace.systems.drawn`): bodies between their
last two fixed-step poses, and the head, the hands and what they hold where tracking puts them
at the display time. The renderer, the preview's camera and captures read only this, so a
headset, a window and a capture all show the world at one instant.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from playspace.spatial import FloatArray, Pose, quat_from_xyzw, vec3_from


@dataclass(slots=True)
class DrawnPoses:
    """Where moving entities are drawn this frame; a resource.

    `rows` maps an entity to its row of `positions` ((N, 3), metres, world space) and
    `rotations` ((N, 4) ``xyzw``, unit length). `version` changes whenever `rows` does, so a
    reader can keep an index of its own between frames. An entity without a row is drawn at
    its ``Transform``: scenery, and anything that does not move between fixed steps.
    """

    rows: dict[int, int] = field(default_factory=dict)
    positions: FloatArray = field(default_factory=lambda: np.zeros((0, 3)))
    rotations: FloatArray = field(default_factory=lambda: np.zeros((0, 4)))
    version: int = 0

    def pose(self, entity: int) -> Pose | None:
        """The entity's drawn pose, or None when it has no row."""
        row = self.rows.get(entity)
        if row is None:
            return None
        return Pose(vec3_from(self.positions[row]), quat_from_xyzw(self.rotations[row]))
