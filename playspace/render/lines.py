"""The physics debug view drawn: Rapier's line segments over the scene.

:class:`DebugLinesPass` is a :class:`~playspace.render.renderer.RenderPass`: add it to a
renderer (``renderer.add_pass(DebugLinesPass(ctx))``) and, while the world's
:class:`~playspace.components.debug.PhysicsDebug` is ``shown``, every view draws the lines the
physics package put there (collider outlines, contact normals), one draw call for all of them.
Hidden, or in a world without physics, it uploads and draws nothing.

The lines are drawn **on top of everything**, depth test off. Most of them lie exactly on the
surfaces of the shapes they outline, so a depth-tested line fights its own surface for the
pixel and comes out dashed; and what is worth seeing in a debug view is often hidden: a sensor
inside a wall, a held object's twin colliders, a capsule under the floor, the contact under a
crate. A line behind a wall reads as behind it from the shape it draws and from the scene's own
depth cues. Lines are one pixel wide: OpenGL's core profile promises no wider. Their colors
are taken as linear and written sRGB-encoded, as the renderer's own passes write theirs.
"""

from __future__ import annotations

import moderngl
import numpy as np

from playspace.components.debug import PhysicsDebug
from playspace.ecs import World
from playspace.render.gpu import Program
from playspace.render.matrices import column_major
from playspace.render.shaders import ENCODE_SRGB
from playspace.render.views import View

VERTEX_BYTES = 7 * 4  # position (3 floats) and color (4) per end point

LINE_VERTEX = """
#version 330 core
uniform mat4 u_view_projection;
in vec3 in_position;
in vec4 in_color;
out vec4 v_color;
void main() {
    v_color = in_color;
    gl_Position = u_view_projection * vec4(in_position, 1.0);
}
"""

LINE_FRAGMENT = (
    """
#version 330 core
in vec4 v_color;
out vec4 f_color;
"""
    + ENCODE_SRGB
    + """
void main() {
    f_color = vec4(encode_srgb(v_color.rgb), v_color.a);
}
"""
)


class DebugLinesPass:
    """Draws ``PhysicsDebug``'s lines in every view while it is shown (a render pass)."""

    def __init__(self, ctx: moderngl.Context) -> None:
        self.ctx = ctx
        self.program = Program(ctx, LINE_VERTEX, LINE_FRAGMENT)
        self.count = 0  # end points uploaded this frame
        self._capacity = 0
        self._buffer: moderngl.Buffer | None = None
        self._array: moderngl.VertexArray | None = None

    def prepare(self, world: World) -> None:
        """Upload this frame's lines, or nothing while the debug view is hidden."""
        debug = world.try_resource(PhysicsDebug)
        if debug is None or not debug.shown or not len(debug.lines):
            self.count = 0
            return
        lines = np.asarray(debug.lines, dtype=np.float32).reshape(-1, 2, 3)
        colors = np.asarray(debug.colors, dtype=np.float32).reshape(-1, 1, 4)
        if len(colors) != len(lines):
            raise ValueError(
                f"PhysicsDebug: {len(lines)} lines but {len(colors)} colors; expected one "
                f"color per line"
            )
        rows = np.concatenate([lines, np.broadcast_to(colors, (len(lines), 2, 4))], axis=2)
        self.count = 2 * len(lines)
        self._reserve(self.count)
        assert self._buffer is not None
        self._buffer.write(np.ascontiguousarray(rows, dtype=np.float32).tobytes())

    def _reserve(self, count: int) -> None:
        if count <= self._capacity:
            return
        capacity = max(count, 2 * self._capacity, 256)
        self._free()
        self._capacity = capacity
        self._buffer = self.ctx.buffer(reserve=self._capacity * VERTEX_BYTES, dynamic=True)
        self._array = self.ctx.vertex_array(
            self.program.program, [(self._buffer, "3f 4f", "in_position", "in_color")]
        )

    def draw(self, view: View, framebuffer: moderngl.Framebuffer) -> None:
        """Draw the uploaded lines over what `framebuffer` holds, ignoring depth."""
        if not self.count or self._array is None:
            return
        self.ctx.enable_only(moderngl.NOTHING)
        self.program.write(
            "u_view_projection", column_major(view.view_projection()[None]).tobytes()
        )
        self._array.render(moderngl.LINES, vertices=self.count)

    def _free(self) -> None:
        for item in (self._array, self._buffer):
            if item is not None:
                item.release()
        self._array, self._buffer, self._capacity = None, None, 0

    def release(self) -> None:
        self._free()
        self.program.release()
