"""Text drawn: the game's screen text, its labels in the world, and why a teleport is refused.

:class:`TextPass` is a :class:`~playspace.render.renderer.RenderPass`
(``renderer.add_pass(TextPass(ctx))``). Each frame it reads

- the :class:`~playspace.components.text.ScreenText` resource: lines at the top left of every
  view, head-locked;
- every entity with a :class:`~playspace.components.text.Label` and a ``Transform``: the text
  a little above it, where LATE drew it this frame, turned towards each eye and kept upright
  (a cylindrical billboard: it turns about the vertical only, so it never rolls with the
  player's head);
- every ``Markers``' labels, just above their marker: while an aimed teleport's target is
  refused, the reason in the player's words ("too steep", "no room to stand") over the red
  target. The marker's color says *that* the teleport will not happen; the words say *why*,
  so the player knows whether to aim at flatter ground or at a wider gap.

Glyphs are rasterised on the CPU with Pillow's built-in scalable font (no font files, no
downloads) into one single-channel texture per distinct text, kept while it is used: text
that does not change is rasterised once, however many frames show it. Text is white ink over
a dark translucent plate, tinted in the shader, so it reads over sky and floor alike.

Labels are depth-tested (a wall hides the label of what is behind it) but write no depth;
screen text is drawn over everything. It sits at a fixed angle from straight ahead, the view's
top left edge but never more than :data:`SCREEN_MAX_ANGLE` out: a headset's lenses blur the
far periphery. Each eye of a headset puts it at the same angle, so it appears far away (at
optical infinity), like a heads-up display; it is in front of the comfort fade, which darkens
it with the rest of the view.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache

import moderngl
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from playspace.components.drawn import DrawnPoses, Markers
from playspace.components.text import RGBA, Label, ScreenText
from playspace.components.transform import Transform
from playspace.ecs import World
from playspace.render.gpu import Program
from playspace.render.matrices import column_major
from playspace.render.projection import view_matrix
from playspace.render.shaders import ENCODE_SRGB
from playspace.render.views import View
from playspace.spatial import FloatArray, Pose

FONT_PIXELS = 48  # a line's height in the texture: sharp up to about that many screen pixels
PLATE: RGBA = (0.0, 0.0, 0.0, 0.55)  # behind every text: dark, see-through
SCREEN_DISTANCE = 1.0  # metres in front of the eye the screen text's quad sits at
SCREEN_MAX_ANGLE = math.radians(40.0)  # from straight ahead, at most, across and up
SCREEN_MARGIN = 0.03  # tangent units between the screen text and the view's edges
MAX_CACHED = 64  # texts kept unused before the ones not drawn this frame are freed

MARKER_LABEL_OFFSET = 0.14  # metres above the marker (a refused target's disc)
MARKER_LABEL_HEIGHT = 0.15  # metres, a line of the label: some 2 degrees at 4 m
MARKER_LABEL_COLOR: RGBA = (1.0, 0.75, 0.7, 1.0)  # a light red: the refused marker's family

_QUAD_UVS = np.array([(0, 0), (1, 0), (1, 1), (0, 0), (1, 1), (0, 1)], dtype=np.float32)
VERTEX_FLOATS = 5  # position and uv

TEXT_VERTEX = """
#version 330 core
uniform mat4 u_matrix;
in vec3 in_position;
in vec2 in_uv;
out vec2 v_uv;
void main() {
    v_uv = in_uv;
    gl_Position = u_matrix * vec4(in_position, 1.0);
}
"""

# The ink over the plate in linear light, sRGB-encoded as the renderer's passes write, and
# premultiplied (blended with ONE, ONE_MINUS_SRC_ALPHA).
TEXT_FRAGMENT = (
    """
#version 330 core
uniform sampler2D u_text;
uniform vec4 u_color;
uniform vec4 u_plate;
in vec2 v_uv;
out vec4 f_color;
"""
    + ENCODE_SRGB
    + """
void main() {
    float ink = texture(u_text, v_uv).r * u_color.a;
    float plate = u_plate.a * (1.0 - ink);
    float alpha = ink + plate;
    vec3 color = (u_color.rgb * ink + u_plate.rgb * plate) / max(alpha, 1e-6);
    f_color = vec4(encode_srgb(color) * alpha, alpha);
}
"""
)


@cache
def _font(pixels: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=pixels)


def rasterise(text: str, pixels: int = FONT_PIXELS) -> tuple[bytes, tuple[int, int]]:
    """`text` (lines split at ``\\n``) as 8-bit coverage, rows bottom-up as OpenGL samples
    them, and its size in pixels: a line is about `pixels` tall, with a margin all round."""
    font = _font(pixels)
    spacing = pixels // 4
    measure = ImageDraw.Draw(Image.new("L", (1, 1)))
    left, top, right, bottom = measure.multiline_textbbox((0, 0), text, font=font, spacing=spacing)
    pad = pixels // 4
    width, height = math.ceil(right - left), math.ceil(bottom - top)
    size = (max(width, 1) + 2 * pad, max(height, pixels // 2) + 2 * pad)
    image = Image.new("L", size, 0)
    ImageDraw.Draw(image).multiline_text(
        (pad - math.floor(left), pad - math.floor(top)), text, fill=255, font=font, spacing=spacing
    )
    return image.transpose(Image.Transpose.FLIP_TOP_BOTTOM).tobytes(), size


@dataclass(slots=True)
class _Text:
    texture: moderngl.Texture
    size: tuple[int, int]  # pixels
    used: int = 0  # the frame it was last drawn in


@dataclass(slots=True)
class _Placed:
    text: _Text
    anchor: tuple[float, float, float]  # world: the bottom middle of a label
    line_height: float  # metres for labels, tangent units for screen text
    color: RGBA

    @property
    def extent(self) -> tuple[float, float]:
        """Width and height of the quad, in the units of `line_height`."""
        scale = self.line_height / FONT_PIXELS
        return self.text.size[0] * scale, self.text.size[1] * scale


class TextPass:
    """Draws the screen text, the labels and the markers' labels (a render pass).

    `rasterised` counts the texts rasterised so far: it grows only when a new text appears.
    """

    def __init__(self, ctx: moderngl.Context) -> None:
        self.ctx = ctx
        self.program = Program(ctx, TEXT_VERTEX, TEXT_FRAGMENT)
        self.rasterised = 0
        self._texts: dict[str, _Text] = {}
        self._frame = 0
        self._labels: list[_Placed] = []
        self._screen: _Placed | None = None
        self._capacity = 0  # quads
        self._buffer: moderngl.Buffer | None = None
        self._array: moderngl.VertexArray | None = None

    # Once a frame ------------------------------------------------------------------------

    def prepare(self, world: World) -> None:
        """Gather what is written where this frame; rasterise only texts not seen before."""
        self._frame += 1
        self._labels = []
        drawn = world.try_resource(DrawnPoses)
        for entity, (transform, label) in world.query(Transform, Label):
            if label.text:
                x, y, z = _drawn_at(drawn, entity, transform)
                anchor = (x, y + label.offset, z)
                text = self._text(label.text)
                self._labels.append(_Placed(text, anchor, label.height, label.color))
        for _, markers in world.each(Markers):
            for marker in markers.shown:
                if marker.label:
                    self._labels.append(self._over(marker.label, marker.poses[0]))
        screen = world.try_resource(ScreenText)
        self._screen = None
        if screen is not None and any(screen.lines):
            text = self._text("\n".join(screen.lines))
            self._screen = _Placed(text, (0.0, 0.0, 0.0), screen.height, screen.color)
        if len(self._texts) > MAX_CACHED:
            for key in [k for k, t in self._texts.items() if t.used != self._frame]:
                self._texts.pop(key).texture.release()
        self._reserve(len(self._labels) + 1)

    def _over(self, label: str, at: Pose) -> _Placed:
        """A marker's label, just above where the marker is."""
        p = at.position
        anchor = (float(p.x), float(p.y) + MARKER_LABEL_OFFSET, float(p.z))
        return _Placed(self._text(label), anchor, MARKER_LABEL_HEIGHT, MARKER_LABEL_COLOR)

    def _text(self, text: str) -> _Text:
        found = self._texts.get(text)
        if found is None:
            pixels, size = rasterise(text)
            texture = self.ctx.texture(size, 1, pixels, alignment=1)
            texture.build_mipmaps()
            texture.filter = (moderngl.LINEAR_MIPMAP_LINEAR, moderngl.LINEAR)
            texture.repeat_x = texture.repeat_y = False
            found = self._texts[text] = _Text(texture, size)
            self.rasterised += 1
        found.used = self._frame
        return found

    def _reserve(self, quads: int) -> None:
        if quads <= self._capacity:
            return
        capacity = max(quads, 2 * self._capacity, 16)
        self._free()
        self._capacity = capacity
        self._buffer = self.ctx.buffer(reserve=capacity * 6 * VERTEX_FLOATS * 4, dynamic=True)
        self._array = self.ctx.vertex_array(
            self.program.program, [(self._buffer, "3f 2f", "in_position", "in_uv")]
        )

    # Once a view -------------------------------------------------------------------------

    def draw(self, view: View, framebuffer: moderngl.Framebuffer) -> None:
        """Labels in the world (depth-tested, no depth written), then the screen text on top."""
        if (not self._labels and self._screen is None) or self._buffer is None:
            return
        quads = [self._label_quads(view)] if self._labels else []
        if self._screen is not None:
            quads.append(_screen_quad(self._screen, view))
        self._buffer.write(np.concatenate(quads).astype(np.float32).tobytes())
        ctx, program = self.ctx, self.program
        ctx.enable_only(moderngl.DEPTH_TEST | moderngl.BLEND)
        ctx.blend_func = moderngl.ONE, moderngl.ONE_MINUS_SRC_ALPHA
        framebuffer.depth_mask = False
        program.set("u_plate", PLATE)
        program.set("u_text", 0)
        program.write("u_matrix", column_major(view.view_projection()[None]).tobytes())
        for index, placed in enumerate(self._labels):
            self._draw_quad(index, placed)
        if self._screen is not None:
            ctx.disable(moderngl.DEPTH_TEST)
            program.write("u_matrix", column_major(view.projection[None]).tobytes())
            self._draw_quad(len(self._labels), self._screen)
        framebuffer.depth_mask = True

    def _draw_quad(self, index: int, placed: _Placed) -> None:
        assert self._array is not None
        placed.text.texture.use(0)
        self.program.set("u_color", placed.color)
        self._array.render(moderngl.TRIANGLES, vertices=6, first=6 * index)

    def _label_quads(self, view: View) -> FloatArray:
        """Each label's quad for this eye: upright, turned about the vertical to face it."""
        anchors = np.array([p.anchor for p in self._labels])
        extents = np.array([p.extent for p in self._labels])
        eye = view.pose.position
        towards = np.array([eye.x, eye.y, eye.z]) - anchors
        towards[:, 1] = 0.0
        right = np.stack([towards[:, 2], np.zeros(len(anchors)), -towards[:, 0]], axis=1)
        length = np.linalg.norm(right, axis=1, keepdims=True)
        # straight above or below a label: face the way the view's own right points
        view_right = view_matrix(view.pose)[0, :3] * (1.0, 0.0, 1.0)
        fallback = view_right / max(float(np.linalg.norm(view_right)), 1e-9)
        if not fallback.any():
            fallback = np.array([1.0, 0.0, 0.0])
        right = np.where(length > 1e-6, right / np.maximum(length, 1e-6), fallback)
        half = right * (extents[:, :1] / 2)
        up = np.zeros_like(anchors)
        up[:, 1] = extents[:, 1]
        bottom_left, bottom_right = anchors - half, anchors + half
        corners = np.stack(
            [bottom_left, bottom_right, bottom_right + up, bottom_left, bottom_right + up,
             bottom_left + up], axis=1
        )  # fmt: skip
        return _with_uvs(corners)

    # Freeing ---------------------------------------------------------------------------

    def _free(self) -> None:
        for item in (self._array, self._buffer):
            if item is not None:
                item.release()
        self._array, self._buffer, self._capacity = None, None, 0

    def release(self) -> None:
        self._free()
        for text in self._texts.values():
            text.texture.release()
        self._texts.clear()
        self.program.release()


def _drawn_at(
    drawn: DrawnPoses | None, entity: int, transform: Transform
) -> tuple[float, float, float]:
    """Where the entity is drawn this frame: LATE's pose, or its Transform without one."""
    row = None if drawn is None else drawn.rows.get(entity)
    if drawn is not None and row is not None:
        x, y, z = drawn.positions[row]
        return float(x), float(y), float(z)
    at = transform.position
    return float(at.x), float(at.y), float(at.z)


def _with_uvs(corners: FloatArray) -> FloatArray:
    """(N, 6, 3) quad corners as (N * 6, 5) vertex rows with the quad's uvs."""
    uvs = np.broadcast_to(_QUAD_UVS, (*corners.shape[:2], 2))
    return np.concatenate([corners, uvs], axis=2).reshape(-1, VERTEX_FLOATS)


def _screen_quad(placed: _Placed, view: View) -> FloatArray:
    """The screen text's quad in the eye's own frame, its top left corner at the view's top
    left (no further out than SCREEN_MAX_ANGLE, and below the window's own text,
    ``view.clear_top``) less a margin: the same direction for both eyes of a headset."""
    p = view.projection
    left = float((p[0, 2] - 1.0) / p[0, 0])  # the tangents of the view's edges
    bottom, top = float((p[1, 2] - 1.0) / p[1, 1]), float((p[1, 2] + 1.0) / p[1, 1])
    limit = math.tan(SCREEN_MAX_ANGLE)
    x0 = max(left, -limit) + SCREEN_MARGIN
    y1 = min(top - view.clear_top * (top - bottom), limit) - SCREEN_MARGIN
    width, height = placed.extent
    x1, y0 = x0 + width, y1 - height
    d = SCREEN_DISTANCE
    bl, br, tr, tl = ((x * d, y * d, -d) for x, y in ((x0, y0), (x1, y0), (x1, y1), (x0, y1)))
    corners = np.array([[bl, br, tr, bl, tr, tl]], dtype=np.float64)
    return _with_uvs(corners)
