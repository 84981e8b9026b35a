"""Headless captures: draw the world offscreen and write PNG files.

``playspace run SCENE --headless --screenshot OUT.png`` draws the last fixed step;
``--frames DIR --every N`` draws every N-th step, from the first, into ``DIR/step_000000.png``,
``DIR/step_00000N.png``, ...: each file is named by the step's index from 0, the ``step`` of
the telemetry line that reports the same state. The camera is the player's eye (the rig
head's drawn pose), or with ``--camera spectator`` a third-person view behind and above the
head (:mod:`playspace.render.cameras`), with the preview's symmetric projection. A capture
draws what the world's LATE phase placed; the headless loop places the end of each step (as
telemetry reports it) before a capture looks.

PNG files are written with Pillow, which moderngl-window requires and installs.
"""

from __future__ import annotations

from pathlib import Path

import moderngl
import numpy as np
import numpy.typing as npt

from playspace.ecs import World
from playspace.render.cameras import Camera, HeadCamera, head_pose
from playspace.render.context import create_context
from playspace.render.passes import add_standard_passes
from playspace.render.quality import AUTO, quality_named
from playspace.render.renderer import Renderer
from playspace.render.views import View, preview_view

SIZE = (1280, 720)
U8Image = npt.NDArray[np.uint8]


class Offscreen:
    """A color and depth framebuffer to draw into without a window."""

    def __init__(self, ctx: moderngl.Context, size: tuple[int, int] = SIZE) -> None:
        self.ctx, self.size = ctx, size
        self._color = ctx.renderbuffer(size, 4)
        self._depth = ctx.depth_renderbuffer(size)
        self.framebuffer = ctx.framebuffer(self._color, self._depth)

    @property
    def aspect(self) -> float:
        return self.size[0] / self.size[1]

    def read(self) -> U8Image:
        """The picture as (height, width, 3) RGB bytes, top row first (GL reads bottom-up)."""
        width, height = self.size
        data = self.framebuffer.read(components=3, alignment=1)
        return np.frombuffer(data, dtype=np.uint8).reshape(height, width, 3)[::-1]

    def release(self) -> None:
        if self.ctx.fbo is self.framebuffer:
            # ModernGL rebinds the last framebuffer used after making a new one: let that not
            # be a deleted one (an invalid operation in a core profile).
            (self.ctx.screen or self.ctx.detect_framebuffer(0)).use()
        for item in (self.framebuffer, self._color, self._depth):
            item.release()


def write_png(path: Path | str, image: U8Image) -> None:
    """Write an (height, width, 3) RGB image as a PNG file."""
    from PIL import Image  # here: only captures pay for it

    # the fastest zlib level: a frame a step is written while the run waits, and level 6
    # (Pillow's default) took 31 of a capture's 49 ms for files a few percent smaller
    Image.fromarray(np.ascontiguousarray(image), "RGB").save(path, format="PNG", compress_level=1)


def eye_view(world: World, aspect: float) -> View:
    """The player's eye: the rig head where LATE drew it this frame (the ``head`` camera of
    :mod:`playspace.render.cameras`)."""
    return preview_view(head_pose(world), aspect)


class Capture:
    """Draws and saves the fixed steps a headless run asks for; the run calls it after each
    step. The `camera` is the player's eyes unless given (a spectator's follows smoothly
    from one picture to the next); `quality` names the renderer's preset (``auto``: see
    :mod:`playspace.render.quality`). Owns its GL context, renderer and framebuffer:
    :meth:`release` frees them."""

    def __init__(
        self,
        screenshot: Path | None = None,
        frames: Path | None = None,
        every: int = 1,
        size: tuple[int, int] = SIZE,
        camera: Camera | None = None,
        quality: str = AUTO,
    ) -> None:
        if every < 1:
            raise ValueError(f"capture every N steps needs N >= 1, got {every}")
        self.screenshot, self.frames, self.every = screenshot, frames, every
        self.camera: Camera = camera if camera is not None else HeadCamera()
        self.frame_count = 0  # files written into `frames`
        self.ctx = create_context()
        self.renderer = add_standard_passes(
            Renderer(self.ctx, quality=quality_named(quality, self.ctx))
        )
        self.target = Offscreen(self.ctx, size)
        if frames is not None:
            frames.mkdir(parents=True, exist_ok=True)

    def shoot(self, world: World) -> U8Image:
        """Draw the world as it is at the end of its last step, from the capture's camera."""
        self.renderer.prepare(world)
        self.renderer.draw(self.camera.view(world, self.target.aspect), self.target.framebuffer)
        return self.target.read()

    def __call__(self, world: World, steps: int, last: bool) -> None:
        """After `steps` fixed steps have run; `last`: that was the run's final step. The step
        just run is telemetry's ``step`` ``steps - 1`` (indices count from 0): its frame, every
        `every` steps from index 0, is named by that index."""
        step = steps - 1
        frame = self.frames is not None and step % self.every == 0
        screenshot = self.screenshot is not None and last
        if not (frame or screenshot):
            return
        image = self.shoot(world)
        if frame and self.frames is not None:
            write_png(self.frames / f"step_{step:06d}.png", image)
            self.frame_count += 1
        if screenshot and self.screenshot is not None:
            write_png(self.screenshot, image)

    def release(self) -> None:
        self.target.release()
        self.renderer.release()
        self.ctx.release()
