"""World-space panels: flat 2D interfaces (Dear ImGui) hung in the world, pointed at with a
controller's aim ray and clicked with its trigger, as XR Interaction Toolkit's world-space
canvases and Godot XR Tools' viewport-in-3D do.

A :class:`Panel` is a rectangle in the world: its entity's ``Transform`` is the panel's
centre, the panel's front faces the entity's +Z (a player in front of it looks down its -Z),
its width runs along +X and its height along +Y. What it shows is named, not held: `content`
is a key into the ``PanelContent`` registry of the panels plugin, because a component holds
no behaviour. Each fixed step the panels plugin casts each hand's aim ray, records what it
hit in the hand's :class:`Pointer`, runs each panel's interface with that pointer as its
mouse, and keeps the frame it drew in the panel's :class:`PanelDrawing`: plain bytes and
numbers that the renderer draws, so nothing outside the plugin sees Dear ImGui.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from playspace.spatial import Pose, Vec3

RGBA = tuple[float, float, float, float]


@dataclass(slots=True)
class Panel:
    """A flat interface in the world, `size` metres (width, height) across, drawn at
    `resolution` pixels; `content` names its interface in the ``PanelContent`` registry.

    `font_size` is in the panel's pixels (20 px on a 0.6 m panel of 600 px is 2 cm text,
    easy to read at arm's length); `background` is the color behind the widgets. A panel that
    is not `visible` is neither drawn nor hit.
    """

    content: str
    size: tuple[float, float] = (0.6, 0.4)
    resolution: tuple[int, int] = (600, 400)
    font_size: float = 20.0
    background: RGBA = (0.12, 0.14, 0.18, 1.0)
    visible: bool = True

    def __post_init__(self) -> None:
        if not (len(self.size) == 2 and all(s > 0 for s in self.size)):
            raise ValueError(f"Panel size must be two lengths > 0 in metres, got {self.size!r}")
        width, height = self.resolution
        if not (16 <= width <= 4096 and 16 <= height <= 4096):
            raise ValueError(
                f"Panel resolution must be two whole pixel counts in [16, 4096], "
                f"got {self.resolution!r}"
            )
        if not 4 <= self.font_size <= 200:
            raise ValueError(f"Panel font_size must be in [4, 200] pixels, got {self.font_size!r}")


@dataclass(frozen=True, slots=True)
class DrawnLate:
    """On a panel its owner draws once a frame in LATE rather than each fixed step (the
    inspector, which must answer while the world is paused): the panels' own systems leave
    it alone."""


@dataclass(slots=True)
class Pointer:
    """On each hand: where its aim ray met a panel this fixed step, and its trigger.

    `panel` is the panel hit (None: none), `point` the hit in the world, `pixel` where that is
    on the panel (x right, y down, from its top-left corner) and `distance` the metres along
    the ray from the aim pose. `pressed` is the trigger past the press threshold; `captured`
    is the panel the press began on, which keeps the mouse while the trigger is held, even if
    the ray slides off it (dragging a slider past its end).
    """

    panel: int | None = None
    point: Vec3 | None = None
    pixel: tuple[float, float] | None = None
    distance: float = 0.0
    pressed: bool = False
    captured: int | None = None


@dataclass(slots=True)
class PointerSettings:
    """How the hands point, a resource.

    `aim` is the aim ray's origin and direction in the hand's grip frame: the ray leaves
    ``aim.position`` along the aim's -Z (identity: from the grip, straight ahead). `reach` is
    how far the ray finds panels; `press` is the trigger value past which the hand clicks.
    """

    aim: Pose = field(default_factory=Pose.identity)
    reach: float = 5.0
    press: float = 0.5

    def __post_init__(self) -> None:
        if not self.reach > 0:
            raise ValueError(f"PointerSettings reach must be > 0 metres, got {self.reach!r}")
        if not 0 < self.press < 1:
            raise ValueError(f"PointerSettings press must be in (0, 1), got {self.press!r}")


@dataclass(frozen=True, slots=True)
class PanelImage:
    """A texture a panel's drawing samples: `width` x `height` RGBA bytes, rows top first.
    `revision` changes whenever the pixels do, so the renderer uploads only what changed."""

    width: int
    height: int
    pixels: bytes
    revision: int


@dataclass(frozen=True, slots=True)
class DrawCommand:
    """One draw call of a panel's frame: `count` indices from `first`, sampling the image
    `image`, clipped to `clip` (x0, y0, x1, y1 in panel pixels, y down)."""

    image: int
    clip: tuple[float, float, float, float]
    first: int
    count: int


VERTEX_BYTES = 20  # a vertex: position (2 float32, pixels), uv (2 float32), color (4 uint8)


@dataclass(slots=True)
class PanelDrawing:
    """A panel's latest frame, as plain data the renderer draws into the panel's texture.

    `vertices` holds :data:`VERTEX_BYTES` per vertex; `indices` are uint32 into `vertices`;
    `images` are the textures the `commands` sample, by id. `version` changes with every
    frame the panel system draws.
    """

    vertices: bytes = b""
    indices: bytes = b""
    commands: tuple[DrawCommand, ...] = ()
    images: dict[int, PanelImage] = field(default_factory=dict)
    version: int = 0
