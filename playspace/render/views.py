"""Views: a camera pose plus a projection, the one thing a draw needs to know about the eye.

The preview draws one view; a headset draws one per eye, each with the asymmetric field of
view OpenXR reports as four angles (`XrFovf`). Matrices here are numpy ``float64`` arrays in
the usual mathematical layout (``clip = projection @ view @ world``, column vectors); the
renderer transposes them into OpenGL's column-major order at upload, and only there.

Projections follow OpenGL's conventions: the camera looks down -Z with +Y up, and depth maps
the near plane to -1 and the far plane to +1 in normalised device coordinates.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from playspace.render.projection import perspective, view_matrix
from playspace.spatial import FloatArray, Pose

# The preview's and captures' field of view, across: 90 degrees as a headset gives each eye and
# as games on a monitor do; the vertical one follows from the window's aspect (90 degrees up
# and down in a 16:9 window stretched everything at the edges)
PREVIEW_FOVX = math.radians(90.0)


@dataclass(frozen=True, slots=True)
class View:
    """One eye: where it is in the world (`pose`, looking down its -Z) and its `projection`.

    `clear_top` is the fraction of the view's height, down from its top edge, that a window
    covers with text of its own (the preview's key help): the game's screen text starts below
    it, so neither hides the other."""

    pose: Pose
    projection: FloatArray
    clear_top: float = 0.0

    def view_projection(self) -> FloatArray:
        """World space straight to clip space."""
        return self.projection @ view_matrix(self.pose)

    def centre(self) -> tuple[float, float]:
        """Where the eye's straight-ahead direction lands in normalised device coordinates:
        (0, 0) for a symmetric projection, off-centre for a headset eye. The vignette is drawn
        around this point, so it closes in on what the eye looks at."""
        p = self.projection
        return (-float(p[0, 2]), -float(p[1, 2]))


def preview_view(head: Pose, aspect: float, fovy: float | None = None) -> View:
    """The desktop preview's (and headless captures') view: the head's pose, a symmetric
    projection 90 degrees across (:data:`PREVIEW_FOVX`), or `fovy` vertically when given."""
    if fovy is None:
        fovy = 2.0 * math.atan(math.tan(PREVIEW_FOVX / 2.0) / aspect)
    return View(head, perspective(fovy, aspect))
