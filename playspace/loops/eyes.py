"""The renderer drawing into a headset's eyes: OpenXR's swapchain images as framebuffers.

``playspace run --vr`` hands :func:`headset_eyes` to the headset loop, which calls the drawer
once per eye per frame with that eye's view and projection (located for the frame's predicted
display time) and the swapchain images to draw into. The world is prepared once a frame,
before the first eye; each image is wrapped once and kept, since swapchains reuse a few images.
"""

from __future__ import annotations

from collections.abc import Callable

import moderngl
import numpy as np

from playspace import spatial
from playspace.ecs import World
from playspace.render.renderer import Renderer
from playspace.render.views import View
from playspace.spatial import Pose
from playspace.xr.views import EyeTarget, Matrix, RenderEye


def eye_pose(view: Matrix) -> Pose:
    """The eye's pose in the world from its world-to-eye matrix (maths layout)."""
    world_from_eye = np.linalg.inv(view.astype(np.float64))
    up, back = (spatial.vec3_from(world_from_eye[:3, i]) for i in (1, 2))
    rotation = spatial.look_rotation(-back, up)  # exact for the orthonormal basis of a pose
    return Pose(spatial.vec3_from(world_from_eye[:3, 3]), rotation)


def headset_eyes(renderer: Renderer) -> Callable[[World], RenderEye]:
    """A maker of eye drawers for `renderer` (its context current when they run)."""

    def make(world: World) -> RenderEye:
        ctx = renderer.ctx
        targets: dict[tuple[int, int, int], moderngl.Framebuffer] = {}
        prepared = -1

        def draw(view: Matrix, projection: Matrix, target: EyeTarget) -> None:
            nonlocal prepared
            if world.time.frame != prepared:
                renderer.prepare(world)
                prepared = world.time.frame
            key = (target.color_texture, target.width, target.height)
            framebuffer = targets.get(key)
            if framebuffer is None:
                size = (target.width, target.height)
                colour = ctx.external_texture(target.color_texture, size, 4, 0, "f1")
                framebuffer = ctx.framebuffer([colour], ctx.depth_renderbuffer(size))
                targets[key] = framebuffer
            renderer.draw(View(eye_pose(view), projection.astype(np.float64)), framebuffer)

        return draw

    return make
