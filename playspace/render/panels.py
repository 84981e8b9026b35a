"""Panels in the world, and the hands' aim rays at them: a :class:`RenderPass`.

Once a frame (:meth:`PanelPass.prepare`) each visible panel whose interface drew a new frame
(``PanelDrawing.version``) is drawn into a texture of its own at its resolution, with Dear
ImGui's draw lists as any ImGui renderer draws them (alpha-blended triangles, a scissor per
command); the texture's mipmaps keep small text from shimmering at a distance. Per view
(:meth:`PanelPass.draw`) each panel is a textured rectangle at its entity's ``Transform``,
seen from the front only; a hand pointing at a panel gets a thin beam from its aim pose, where
LATE drew the hand, to the point it hit, and a round cursor there. Colors are display
values, as the rest of the picture's are once encoded, and are written unchanged.

Add it to a renderer with ``renderer.add_pass(PanelPass(renderer.ctx))``. It reads ``Panel``,
``PanelDrawing``, ``Pointer`` (every hand that points), ``PointerSettings``, ``Transform`` and
``DrawnPoses``, and writes nothing into the world.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import moderngl
import numpy as np

from playspace import spatial
from playspace.components import Transform
from playspace.components.drawn import DrawnPoses
from playspace.components.panels import (
    RGBA,
    Panel,
    PanelDrawing,
    PanelImage,
    Pointer,
    PointerSettings,
)
from playspace.components.renamed import renamed_fields
from playspace.ecs import World
from playspace.render.gpu import Program
from playspace.render.matrices import column_major
from playspace.render.views import View
from playspace.spatial import Pose, Vec3

UI_VERTEX = """
#version 330
uniform vec2 u_size;
in vec2 in_position;
in vec2 in_uv;
in vec4 in_color;
out vec2 v_uv;
out vec4 v_color;
void main() {
    v_uv = in_uv;
    v_color = in_color;
    vec2 ndc = in_position / u_size * 2.0 - 1.0;
    gl_Position = vec4(ndc.x, -ndc.y, 0.0, 1.0);  // Dear ImGui's y runs down
}
"""
UI_FRAGMENT = """
#version 330
uniform sampler2D u_texture;
in vec2 v_uv;
in vec4 v_color;
out vec4 f_color;
void main() {
    f_color = v_color * texture(u_texture, v_uv);
}
"""
QUAD_VERTEX = """
#version 330
uniform mat4 u_view_projection;
uniform mat4 u_model;
in vec2 in_corner;
out vec2 v_uv;
void main() {
    v_uv = in_corner + 0.5;
    gl_Position = u_view_projection * u_model * vec4(in_corner, 0.0, 1.0);
}
"""
QUAD_FRAGMENT = """
#version 330
uniform sampler2D u_texture;
in vec2 v_uv;
out vec4 f_color;
void main() {
    f_color = vec4(texture(u_texture, v_uv).rgb, 1.0);
}
"""
FLAT_VERTEX = """
#version 330
uniform mat4 u_view_projection;
in vec3 in_position;
void main() {
    gl_Position = u_view_projection * vec4(in_position, 1.0);
}
"""
FLAT_FRAGMENT = """
#version 330
uniform vec4 u_color;
out vec4 f_color;
void main() {
    f_color = u_color;
}
"""
CORNERS = np.array([-0.5, -0.5, 0.5, -0.5, 0.5, 0.5, -0.5, 0.5], dtype="f4")  # CCW from +Z
CURSOR_SEGMENTS = 20
CURSOR_LIFT = 0.002  # metres in front of the panel, so the cursor never sinks into it


@renamed_fields(ray_colour="ray_color", cursor_colour="cursor_color")
@dataclass(frozen=True, slots=True)
class PointerLook:
    """How the aim ray and its cursor look: colors (display RGBA), the beam's width and the
    cursor's radius in metres."""

    ray_color: RGBA = (1.0, 1.0, 1.0, 0.7)
    ray_width: float = 0.003
    cursor_color: RGBA = (1.0, 1.0, 1.0, 1.0)
    cursor_radius: float = 0.008


class _PanelTarget:
    """One panel's texture, the framebuffer that draws its interface into it, and the GPU
    copies of the images its interface samples."""

    def __init__(self, ctx: moderngl.Context, resolution: tuple[int, int]) -> None:
        self.resolution = resolution
        self.texture = ctx.texture(resolution, 4)
        self.texture.filter = moderngl.LINEAR_MIPMAP_LINEAR, moderngl.LINEAR
        self.framebuffer = ctx.framebuffer(color_attachments=[self.texture])
        self.images: dict[int, tuple[int, moderngl.Texture]] = {}
        self.version = 0

    def image(self, ctx: moderngl.Context, key: int, image: PanelImage) -> moderngl.Texture:
        kept = self.images.get(key)
        if kept is not None and kept[0] == image.revision:
            return kept[1]
        if kept is not None:
            kept[1].release()
        made = ctx.texture((image.width, image.height), 4, image.pixels)
        made.filter = moderngl.LINEAR, moderngl.LINEAR
        self.images[key] = image.revision, made
        return made

    def release(self) -> None:
        for _, texture in self.images.values():
            texture.release()
        self.framebuffer.release()
        self.texture.release()


class PanelPass:
    """Draws panels, and the hands' rays and cursors on them; see the module docstring."""

    def __init__(self, ctx: moderngl.Context, look: PointerLook | None = None) -> None:
        self.ctx = ctx
        self.look = look or PointerLook()
        self._ui = Program(ctx, UI_VERTEX, UI_FRAGMENT)
        self._quad = Program(ctx, QUAD_VERTEX, QUAD_FRAGMENT)
        self._flat = Program(ctx, FLAT_VERTEX, FLAT_FRAGMENT)
        self._corners = ctx.buffer(CORNERS.tobytes())
        self._quad_array = ctx.vertex_array(
            self._quad.program, [(self._corners, "2f", "in_corner")]
        )
        self._ui_vertices = ctx.buffer(reserve=64 * 1024, dynamic=True)
        self._ui_indices = ctx.buffer(reserve=64 * 1024, dynamic=True)
        self._ui_array = self._ui_vertex_array()
        self._lines = ctx.buffer(reserve=4096, dynamic=True)
        self._line_array = ctx.vertex_array(
            self._flat.program, [(self._lines, "3f", "in_position")]
        )
        self._targets: dict[int, _PanelTarget] = {}
        self._drawn: list[tuple[_PanelTarget, bytes]] = []
        self._rays: list[tuple[Vec3, Vec3, Vec3]] = []  # from, to, the panel's front

    def _ui_vertex_array(self) -> moderngl.VertexArray:
        return self.ctx.vertex_array(
            self._ui.program,
            [(self._ui_vertices, "2f 2f 4f1", "in_position", "in_uv", "in_color")],
            index_buffer=self._ui_indices,
            index_element_size=4,
        )

    def prepare(self, world: World) -> None:
        self._drawn = []
        seen: set[int] = set()
        for entity, (panel, drawing, transform) in world.query(Panel, PanelDrawing, Transform):
            if not panel.visible:
                continue
            target = self._targets.get(entity)
            if target is not None and target.resolution != panel.resolution:
                target.release()
                target = None
            if target is None:
                target = self._targets[entity] = _PanelTarget(self.ctx, panel.resolution)
            if target.version != drawing.version:
                self._draw_interface(target, panel, drawing)
                target.version = drawing.version
            seen.add(entity)
            model = _model(transform.pose(), panel.size)
            self._drawn.append((target, column_major(model[None]).tobytes()))
        for entity in [e for e in self._targets if e not in seen]:
            self._targets.pop(entity).release()
        self._rays = list(_rays(world))

    def _draw_interface(self, target: _PanelTarget, panel: Panel, drawing: PanelDrawing) -> None:
        """Draw the panel's latest Dear ImGui frame into its texture."""
        ctx = self.ctx
        target.framebuffer.use()
        target.framebuffer.clear(*panel.background)
        grew = False
        for buffer, data in (
            (self._ui_vertices, drawing.vertices),
            (self._ui_indices, drawing.indices),
        ):
            if len(data) > buffer.size:
                buffer.orphan(max(len(data), 2 * buffer.size))
                grew = True
            if data:
                buffer.write(data)
        if grew:
            self._ui_array.release()
            self._ui_array = self._ui_vertex_array()
        ctx.enable_only(moderngl.BLEND)
        ctx.blend_func = moderngl.SRC_ALPHA, moderngl.ONE_MINUS_SRC_ALPHA  # the quad is opaque
        width, height = panel.resolution
        self._ui.set("u_size", (float(width), float(height)))
        self._ui.set("u_texture", 0)
        for command in drawing.commands:
            image = drawing.images.get(command.image)
            if image is None:
                continue  # a texture Dear ImGui has not made yet: nothing to sample
            target.image(ctx, command.image, image).use(0)
            x0, y0, x1, y1 = (max(c, 0.0) for c in command.clip)
            x1, y1 = min(x1, width), min(y1, height)
            if x1 <= x0 or y1 <= y0:
                continue
            ctx.scissor = (int(x0), int(height - y1), int(x1 - x0), int(y1 - y0))
            self._ui_array.render(moderngl.TRIANGLES, vertices=command.count, first=command.first)
        ctx.scissor = None
        ctx.enable_only(moderngl.NOTHING)
        target.texture.build_mipmaps()

    def draw(self, view: View, framebuffer: moderngl.Framebuffer) -> None:
        if not self._drawn and not self._rays:
            return
        ctx = self.ctx
        matrix = column_major(view.view_projection()[None]).tobytes()
        self._quad.write("u_view_projection", matrix)
        self._quad.set("u_texture", 0)
        for target, model in self._drawn:
            self._quad.write("u_model", model)
            target.texture.use(0)
            self._quad_array.render(moderngl.TRIANGLE_FAN)
        if not self._rays:
            return
        self._flat.write("u_view_projection", matrix)
        ctx.disable(moderngl.CULL_FACE)
        look, eye = self.look, view.pose.position
        for start, end, front in self._rays:
            ctx.enable(moderngl.BLEND)
            ctx.blend_func = moderngl.SRC_ALPHA, moderngl.ONE_MINUS_SRC_ALPHA
            self._flat.set("u_color", look.ray_color)
            self._fan(_beam(start, end, eye, look.ray_width))
            ctx.disable(moderngl.BLEND)
            self._flat.set("u_color", look.cursor_color)  # over the beam's end
            self._fan(_disc(end + front * CURSOR_LIFT, front, look.cursor_radius))

    def _fan(self, points: np.ndarray) -> None:
        if len(points) < 3:
            return
        self._lines.write(points.astype("f4").tobytes())
        self._line_array.render(moderngl.TRIANGLE_FAN, vertices=len(points))

    def release(self) -> None:
        for target in self._targets.values():
            target.release()
        self._targets = {}
        for item in (
            self._quad_array,
            self._ui_array,
            self._line_array,
            self._corners,
            self._ui_vertices,
            self._ui_indices,
            self._lines,
            self._ui,
            self._quad,
            self._flat,
        ):
            item.release()


def _model(pose: Pose, size: tuple[float, float]) -> np.ndarray:
    """The panel's model matrix: its pose, the unit square scaled to its size."""
    matrix = np.eye(4)
    for column, axis in enumerate(((size[0], 0, 0), (0, size[1], 0), (0, 0, 1))):
        direction = spatial.transform_direction(pose, spatial.vec3(*map(float, axis)))
        matrix[:3, column] = (direction.x, direction.y, direction.z)
    matrix[:3, 3] = (pose.position.x, pose.position.y, pose.position.z)
    return matrix


def _rays(world: World) -> list[tuple[Vec3, Vec3, Vec3]]:
    """Each hand pointing at a panel: the beam's start (its aim pose where LATE drew the
    hand), its end (the hit) and the front of the panel hit."""
    settings = world.try_resource(PointerSettings)
    if settings is None:
        return []
    drawn = world.try_resource(DrawnPoses)
    rays = []
    for hand, pointer in world.each(Pointer):
        if pointer.panel is None or pointer.point is None:
            continue
        pose = drawn.pose(hand) if drawn is not None else None
        if pose is None:
            pose = world.get(hand, Transform).pose()
        start = spatial.compose(pose, settings.aim).position
        panel = world.get(pointer.panel, Transform).pose()
        front = spatial.transform_direction(panel, spatial.vec3(0.0, 0.0, 1.0))
        rays.append((start, pointer.point, front))
    return rays


def _disc(centre: Vec3, normal: Vec3, radius: float) -> np.ndarray:
    """A fan of points: a disc of `radius` at `centre`, facing `normal`."""
    facing = spatial.look_rotation(-normal)
    turns = np.linspace(0.0, 2.0 * math.pi, CURSOR_SEGMENTS + 1)
    points = [(centre.x, centre.y, centre.z)]
    for turn in turns:
        local = spatial.vec3(radius * math.cos(turn), radius * math.sin(turn), 0.0)
        p = centre + spatial.rotate(facing, local)
        points.append((p.x, p.y, p.z))
    return np.array(points)


def _beam(start: Vec3, end: Vec3, eye: Vec3, width: float) -> np.ndarray:
    """A flat strip from `start` to `end`, `width` across, turned to face `eye`."""
    along = end - start
    across = spatial.cross(along, (start + end) * 0.5 - eye)
    size = spatial.length(across)
    if size < 1e-12:
        return np.zeros((0, 3))
    side = across * (0.5 * width / size)
    corners = (start - side, end - side, end + side, start + side)
    return np.array([(p.x, p.y, p.z) for p in corners])
