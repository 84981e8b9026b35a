"""Headset eyes: OpenXR's located views, placed in the world, and the images drawn into.

Each frame ``xrLocateViews`` gives one ``XrView`` per eye: a pose in the reference space and a
field of view as four angles. :class:`EyeView` is that record; :func:`eye_pose` places an eye in
the world through the rig's origin, and the drawer (``RenderEye``) gets that pose, the eye's
field of view and its images. The eyes are located for the frame's predicted display time, the
time the head pose in the input frame was located for too, so what is drawn and what the world
simulated agree. Turning a field of view into a projection is the renderer's
(``playspace.render.projection.fov_projection``), with the clip planes the target names: the
compositor is told the same planes with each eye's depth.

The swapchain formats come from the runtime in its order of preference;
:func:`choose_formats` takes the first it offers that the GL renderer draws into. A depth
swapchain is asked for only when the depth will be submitted (``XR_KHR_composition_layer_depth``
enabled): an image the compositor never sees would be drawn for nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeAlias

from playspace import spatial
from playspace.spatial import Pose

NEAR = 0.05  # metres: the eyes' clip planes; close enough for a hand held to the face
FAR = 200.0


# GL internal formats, as OpenXR's GL swapchains name them (runtime preference decides).
GL_SRGB8_ALPHA8 = 0x8C43
GL_RGBA8 = 0x8058
GL_DEPTH_COMPONENT16 = 0x81A5
GL_DEPTH_COMPONENT24 = 0x81A6
GL_DEPTH_COMPONENT32F = 0x8CAC
GL_DEPTH24_STENCIL8 = 0x88F0
GL_DEPTH32F_STENCIL8 = 0x8CAD
COLOR_FORMATS = frozenset({GL_SRGB8_ALPHA8, GL_RGBA8})  # 8-bit RGBA the renderer wraps
SRGB_FORMATS = frozenset({GL_SRGB8_ALPHA8})  # color stored sRGB-encoded
DEPTH_STENCIL_FORMATS = frozenset({GL_DEPTH24_STENCIL8, GL_DEPTH32F_STENCIL8})
DEPTH_FORMATS = frozenset(
    {GL_DEPTH_COMPONENT16, GL_DEPTH_COMPONENT24, GL_DEPTH_COMPONENT32F, *DEPTH_STENCIL_FORMATS}
)


@dataclass(frozen=True, slots=True)
class Fov:
    """``XrFovf``: radians from the view direction; left and down are negative for an
    ordinary eye, and each eye sees further to its own side than towards the nose."""

    angle_left: float
    angle_right: float
    angle_up: float
    angle_down: float


@dataclass(frozen=True, slots=True)
class EyeView:
    """``XrView``: an eye's pose in the reference space (orientation x, y, z, w) and its fov."""

    position: tuple[float, float, float]
    orientation: tuple[float, float, float, float]
    fov: Fov


@dataclass(frozen=True, slots=True)
class EyeTarget:
    """An eye's swapchain images for this frame: GL texture names, size and GL formats.

    The caller's ``render_eye`` wraps them in a framebuffer (ModernGL:
    ``ctx.external_texture(color_texture, (width, height), 4, 0, "f1")``).

    Color: the compositor samples an :attr:`srgb` image (``GL_SRGB8_ALPHA8``) through sRGB
    decoding, so the texel it reads is the *linear* light the value encodes; it blends layers
    and distorts in linear light and encodes again for the display. The renderer works in
    linear light and writes sRGB-encoded values, the same bytes the desktop preview shows, so
    the compositor's decoding gives back the light the renderer computed. A linear ``GL_RGBA8``
    image would be read as linear and the same bytes would look washed out, which is why
    :func:`choose_formats` takes the sRGB format whenever the runtime offers it.

    Depth: `depth_texture` is the depth swapchain image to draw the eye's depth into, submitted
    with the color (``XR_KHR_composition_layer_depth``); None when the runtime does not take
    depth or offers no depth format the renderer knows, and the renderer then brings its own
    depth buffer. :attr:`depth_stencil` says it has a stencil part too (attach it as
    depth-stencil).

    The frame: this is eye `eye` of the `eyes` drawn this frame. The display acquires every
    eye's images before the first is drawn and releases them after the last, so a drawer may
    draw them all at the last eye's call (both eyes in one pass, then each copied into its own
    images).
    """

    color_texture: int
    depth_texture: int | None
    width: int
    height: int
    color_format: int
    depth_format: int | None
    near: float = NEAR  # the clip planes to draw with, told to the compositor with the depth
    far: float = FAR
    eye: int = 0  # which of the frame's `eyes` this image is
    eyes: int = 1

    @property
    def srgb(self) -> bool:
        """The color image stores sRGB-encoded values (what the renderer writes)."""
        return self.color_format in SRGB_FORMATS

    @property
    def depth_stencil(self) -> bool:
        """The depth image is a combined depth-stencil format."""
        return self.depth_format in DEPTH_STENCIL_FORMATS


@dataclass(frozen=True, slots=True)
class FrameTiming:
    """``XrFrameState``: when this frame will be shown (XrTime, ns), the display's frame
    period (ns) and whether the runtime wants it drawn."""

    time: int
    period: int
    should_render: bool


RenderEye: TypeAlias = Callable[[Pose, Fov, EyeTarget], None]
"""``render_eye(pose, fov, target)``: draw the world seen from an eye at `pose` (world space)
with field of view `fov` into the target's images, between its clip planes."""


def eye_pose(view: EyeView, origin: Pose, space_height: float = 0.0) -> Pose:
    """Where an eye is in the world: its reference-space pose, lifted onto the floor by
    `space_height` (LOCAL space), then placed by the rig's origin."""
    x, y, z = view.position
    tracked = Pose(
        spatial.vec3(x, y + space_height, z),
        spatial.normalize(spatial.quat_from_xyzw(view.orientation)),
    )
    return spatial.compose(origin, tracked)


@dataclass(frozen=True, slots=True)
class SwapchainFormats:
    color: int
    depth: int | None


def choose_formats(
    offered: Sequence[int],
    color: frozenset[int] = COLOR_FORMATS,
    depth: frozenset[int] = DEPTH_FORMATS,
    *,
    submit_depth: bool = True,
) -> SwapchainFormats:
    """The color format the renderer writes correctly, sRGB, when the runtime offers it, else
    the runtime's most preferred one the renderer can use; likewise depth, by preference (None
    when it offers none, or when `submit_depth` is False: the runtime does not take a depth
    layer, so a depth swapchain would be drawn for nothing); ValueError naming the offer when
    there is no color format."""
    usable = [f for f in offered if f in color]
    chosen_color = next((f for f in usable if f in SRGB_FORMATS), usable[0] if usable else None)
    if chosen_color is None:
        offer = ", ".join(f"0x{f:04X}" for f in offered) or "nothing"
        raise ValueError(f"the runtime offers no RGBA8 or SRGB8_ALPHA8 swapchain ({offer})")
    chosen_depth = next((f for f in offered if f in depth), None) if submit_depth else None
    return SwapchainFormats(chosen_color, chosen_depth)
