"""A headset eye: sRGB encoding, depth drawn into the swapchain and submitted, and Monado.

The GL tests draw on Mesa's software renderer through EGL into GL textures made the way a
runtime makes swapchain images (immutable storage in the format it offers), and read the bytes
back; each fails on a GL error before or after it. They skip only where no GL context can be
made at all. The display tests run :class:`~playspace.xr.display.XrDisplay` against pyopenxr
calls answered here, and read the structures it hands to ``xrEndFrame`` during that call. The
last tests run against a real runtime when ``XR_RUNTIME_JSON`` names one, and fail (not skip)
when it cannot be used.
"""

from __future__ import annotations

import ctypes
import math
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np
import pytest
import xr  # type: ignore[import-untyped]

from playspace import spatial
from playspace.app import build_world
from playspace.app.replay import replay_source
from playspace.components import Prop, Scenery, Transform
from playspace.components.physics import Box, Collider, Colliders
from playspace.components.rig import ViewFade
from playspace.ecs import World
from playspace.formats.scene import load_scene
from playspace.loops.eyes import headset_eyes
from playspace.render import (
    Lighting,
    Material,
    Offscreen,
    Palette,
    Renderer,
    View,
)
from playspace.render.capture import eye_view
from playspace.render.projection import fov_projection
from playspace.spatial import Pose
from playspace.xr import display, views
from playspace.xr.backend import WANTED
from playspace.xr.views import FAR, NEAR, EyeTarget, Fov, FrameTiming
from tests.rig_helpers import rig_of

if TYPE_CHECKING:
    from moderngl import Context

ROOT = Path(__file__).resolve().parents[2]
PLAYGROUND = ROOT / "examples" / "scenes" / "playground.toml"
SIZE = (128, 96)
FOV = Fov(-0.9, 0.75, 0.8, -0.85)  # an asymmetric left eye, as a headset reports it
GL_TEXTURE_2D, GL_DEPTH_COMPONENT, GL_FLOAT, GL_PACK_ALIGNMENT = 0x0DE1, 0x1902, 0x1406, 0x0D05
GL_FRAMEBUFFER_SRGB = 0x8DB9
DEPTH_FORMATS = {
    "DEPTH_COMPONENT16": views.GL_DEPTH_COMPONENT16,
    "DEPTH_COMPONENT24": views.GL_DEPTH_COMPONENT24,
    "DEPTH_COMPONENT32F": views.GL_DEPTH_COMPONENT32F,
    "DEPTH24_STENCIL8": views.GL_DEPTH24_STENCIL8,
    "DEPTH32F_STENCIL8": views.GL_DEPTH32F_STENCIL8,
}


# GL: swapchain images as a runtime makes them ----------------------------------------------


def libgl() -> Any:
    return ctypes.CDLL("libGL.so.1")


@pytest.fixture
def images(gl: Context) -> Iterator[list[int]]:
    """Texture names made with :func:`swapchain_image`, deleted after the test."""
    made: list[int] = []
    yield made
    names = (ctypes.c_uint * len(made))(*made)
    libgl().glDeleteTextures(len(made), names)


def swapchain_image(made: list[int], image_format: int, size: tuple[int, int] = SIZE) -> int:
    """A 2D texture with immutable storage in `image_format`: what a runtime's GL swapchain
    hands out (``XrSwapchainImageOpenGLKHR.image``)."""
    lib, name = libgl(), ctypes.c_uint()
    lib.glGenTextures(1, ctypes.byref(name))
    lib.glBindTexture(GL_TEXTURE_2D, name)
    lib.glTexStorage2D(GL_TEXTURE_2D, 1, image_format, *size)
    lib.glBindTexture(GL_TEXTURE_2D, 0)
    made.append(name.value)
    return name.value


def read_color(gl: Context, name: int, size: tuple[int, int] = SIZE) -> np.ndarray:
    """The bytes stored in a color image (no sRGB decoding): (height, width, 4), bottom row
    first as GL keeps them."""
    texture = gl.external_texture(name, size, 4, 0, "f1")
    return np.frombuffer(texture.read(), dtype=np.uint8).reshape(size[1], size[0], 4)


def read_depth(name: int, size: tuple[int, int] = SIZE) -> np.ndarray:
    """The depth stored in a depth (or depth-stencil) image, as floats: (height, width)."""
    lib, values = libgl(), (ctypes.c_float * (size[0] * size[1]))()
    lib.glBindTexture(GL_TEXTURE_2D, name)
    lib.glPixelStorei(GL_PACK_ALIGNMENT, 4)
    lib.glGetTexImage(GL_TEXTURE_2D, 0, GL_DEPTH_COMPONENT, GL_FLOAT, values)
    lib.glBindTexture(GL_TEXTURE_2D, 0)
    return np.frombuffer(bytes(values), dtype=np.float32).reshape(size[1], size[0]).copy()


def playground() -> tuple[World, Pose]:
    """The playground one step in, and the player's eye (the rig's head)."""
    world, _ = build_world(load_scene(PLAYGROUND), replay_source(None))
    world.step(1)
    return world, eye_view(world, SIZE[0] / SIZE[1]).pose


def draw_eye(
    renderer: Renderer, world: World, pose: Pose, target: EyeTarget, fov: Fov = FOV
) -> None:
    """One eye drawn through the headset loop's drawer."""
    headset_eyes(renderer)(world)(pose, fov, target)


def projection_of(fov: Fov) -> np.ndarray:
    """The eye's projection, as the renderer makes it, between the eyes' clip planes."""
    return fov_projection(fov.angle_left, fov.angle_right, fov.angle_up, fov.angle_down, NEAR, FAR)


def preview_of(renderer: Renderer, gl: Context, world: World, pose: Pose) -> Offscreen:
    """What the preview shows of the same eye: the renderer into a linear RGBA8 target, from
    the very pose and projection the eye drawer uses."""
    target = Offscreen(gl, SIZE)
    renderer.prepare(world)
    view = View(pose, projection_of(FOV))
    renderer.draw(view, target.framebuffer)
    return target


def raw_rgba(target: Offscreen) -> np.ndarray:
    data = target.framebuffer.read(components=4, alignment=1)
    return np.frombuffer(data, dtype=np.uint8).reshape(SIZE[1], SIZE[0], 4)


# sRGB ----------------------------------------------------------------------------------------


def eye_against_preview(
    gl: Context, images: list[int], fade: float = 0.0, gl_encodes: bool = False
) -> np.ndarray:
    """|stored sRGB eye - preview| per color channel, in levels of 0..255: the playground
    (faded by `fade`) drawn into a ``GL_SRGB8_ALPHA8`` image by the eye drawer, against the
    preview's picture of the same eye. `gl_encodes` leaves GL's own sRGB encoding switched on
    before the eye is drawn, as another library might."""
    world, pose = playground()
    world.get(rig_of(world).head, ViewFade).amount = fade
    renderer = Renderer(gl)
    image = swapchain_image(images, views.GL_SRGB8_ALPHA8)
    preview = preview_of(renderer, gl, world, pose)
    try:
        shown = raw_rgba(preview)[..., :3].astype(np.float64)
        # the test is about mid-tones: the sky, shaded surfaces, not only black and white
        assert np.mean((shown > 40) & (shown < 215)) > 0.5
        if gl_encodes:
            gl.enable_direct(GL_FRAMEBUFFER_SRGB)
        try:
            draw_eye(
                renderer, world, pose, EyeTarget(image, None, *SIZE, views.GL_SRGB8_ALPHA8, None)
            )
        finally:
            gl.disable_direct(GL_FRAMEBUFFER_SRGB)
        stored = read_color(gl, image)[..., :3].astype(np.float64)
        return np.abs(stored - shown)
    finally:
        preview.release()
        renderer.release()


@pytest.mark.parametrize("fade", [0.0, 0.5], ids=["plain", "half-faded"])
def test_an_srgb_eye_holds_the_preview_s_bytes(gl: Context, images: list[int], fade: float) -> None:
    """The renderer writes sRGB-encoded values, which is what an SRGB8_ALPHA8 image holds: the
    compositor decodes them back to the light the renderer computed, and the bytes are the
    preview's. Blended passes too (the fade)."""
    difference = eye_against_preview(gl, images, fade)
    assert difference.max() <= 2.0, f"max difference {difference.max():.2f} levels"


def test_gl_s_own_srgb_encoding_left_on_does_not_encode_twice(
    gl: Context, images: list[int]
) -> None:
    """With GL_FRAMEBUFFER_SRGB left on by someone else, an sRGB image would encode the
    shaders' already encoded values again (every mid-tone far brighter); the renderer switches
    it off while it draws."""
    difference = eye_against_preview(gl, images, gl_encodes=True)
    assert difference.max() <= 2.0, f"max difference {difference.max():.2f} levels"


def test_srgb_encoding_is_off_again_after_an_eye(gl: Context, images: list[int]) -> None:
    """The preview draws with GL_FRAMEBUFFER_SRGB off; an eye drawn before must not leave it
    on (into an sRGB framebuffer the renderer then writes raw bytes, as the preview does)."""
    world, pose = playground()
    renderer = Renderer(gl)
    eye = swapchain_image(images, views.GL_SRGB8_ALPHA8)
    after = gl.texture(SIZE, 4, internal_format=views.GL_SRGB8_ALPHA8)
    framebuffer = gl.framebuffer([after], gl.depth_renderbuffer(SIZE))
    preview = preview_of(renderer, gl, world, pose)
    try:
        draw_eye(renderer, world, pose, EyeTarget(eye, None, *SIZE, views.GL_SRGB8_ALPHA8, None))
        view = View(pose, projection_of(FOV))
        renderer.draw(view, framebuffer)
        raw = np.frombuffer(after.read(), dtype=np.uint8).reshape(SIZE[1], SIZE[0], 4)
        assert np.array_equal(raw[..., :3], raw_rgba(preview)[..., :3])
    finally:
        preview.framebuffer.use()  # its release binds the default framebuffer, not a freed one
        framebuffer.release()
        preview.release()
        after.release()
        renderer.release()


# Depth ---------------------------------------------------------------------------------------


def window_depth(distance: float) -> float:
    """Where a point `distance` m straight ahead lands in the depth buffer (0 near, 1 far)."""
    ndc = (FAR + NEAR) / (FAR - NEAR) - 2 * FAR * NEAR / ((FAR - NEAR) * distance)
    return (ndc + 1) / 2


@pytest.mark.parametrize("depth_format", DEPTH_FORMATS.values(), ids=DEPTH_FORMATS.keys())
def test_the_eye_s_depth_image_holds_the_scene_s_depth(
    gl: Context, images: list[int], depth_format: int
) -> None:
    """A wall 3 m ahead covering the middle of the view: in the depth image it is at the depth
    the projection puts 3 m at, around it the clear value (far); color is drawn as well, and
    the whole depth image is what the renderer's own depth buffer gets from the same view."""
    world = World()
    world.spawn(
        Transform(spatial.vec3(0.0, 0.0, -3.0)),
        Colliders(Collider(Box((3.0, 2.4, 0.1)))),
        Scenery("wall"),
    )
    pose = Pose.identity()
    square = Fov(-math.pi / 4, math.pi / 4, math.pi / 4, -math.pi / 4)
    renderer = Renderer(gl)
    color = swapchain_image(images, views.GL_SRGB8_ALPHA8)
    depth = swapchain_image(images, depth_format)
    reference = Offscreen(gl, SIZE)
    try:
        target = EyeTarget(color, depth, *SIZE, views.GL_SRGB8_ALPHA8, depth_format)
        draw_eye(renderer, world, pose, target, square)
        drawn = read_depth(depth)
        # the wall's front face is 2.95 m away; tolerance: 16-bit depth steps
        tolerance = 4e-5 if depth_format == views.GL_DEPTH_COMPONENT16 else 1e-6
        middle = drawn[SIZE[1] // 2, SIZE[0] // 2]
        assert middle == pytest.approx(window_depth(2.95), abs=tolerance)
        assert middle < 1.0 - 1e-3
        assert drawn[0, 0] == 1.0 and drawn[-1, -1] == 1.0  # the sky: the clear value
        covered = drawn < 1.0
        assert 0.1 < covered.mean() < 0.6
        # the color image has the wall where the depth image has it
        wall = read_color(gl, color)[..., :3].astype(int)
        assert (np.abs(wall - wall[0, 0]).sum(axis=-1) > 0)[covered].mean() > 0.99
        # and the same depth as the renderer's own depth buffer, everywhere
        renderer.prepare(world)
        renderer.draw(View(pose, projection_of(square)), reference.framebuffer)
        own = reference.framebuffer.read(components=1, attachment=-1, dtype="f4")
        own_depth = np.frombuffer(own, dtype=np.float32).reshape(SIZE[1], SIZE[0])
        assert np.abs(drawn - own_depth).max() <= tolerance
    finally:
        reference.release()
        renderer.release()


def test_without_a_depth_image_the_eye_brings_its_own_depth(gl: Context, images: list[int]) -> None:
    """No depth swapchain (the runtime takes no depth layer): the near box still hides the far
    one, in the color image alone."""
    world = World()
    for z, kind in ((-3.0, Prop("near")), (-6.0, Scenery("far"))):
        box = Colliders(Collider(Box((1.0, 1.0, 1.0))))
        world.spawn(Transform(spatial.vec3(0.0, 0.0, z)), box, kind)
    green, red = (0.0, 1.0, 0.0), (1.0, 0.0, 0.0)  # glowing: the same whatever the light
    palette = Palette(
        prop=Material((*green, 1.0), emissive=green), static=Material((*red, 1.0), emissive=red)
    )
    dark = Lighting(color=(0.0, 0.0, 0.0), sky=(0.0, 0.0, 0.0), ground=(0.0, 0.0, 0.0))
    renderer = Renderer(gl, palette=palette, lighting=dark)
    color = swapchain_image(images, views.GL_RGBA8)
    try:
        target = EyeTarget(color, None, *SIZE, views.GL_RGBA8, None)
        draw_eye(renderer, world, Pose.identity(), target)
        pixel = read_color(gl, color)[SIZE[1] // 2, SIZE[0] // 2]
        assert pixel[1] > 100 and pixel[0] < 20  # green (near), not red (far)
    finally:
        renderer.release()


# The display: depth swapchains and the depth layer, against answered pyopenxr calls ----------


def number(handle: Any) -> int:
    """A swapchain handle made by :class:`Answers` as its number."""
    return int(ctypes.cast(handle, ctypes.c_void_p).value or 0)


class Answers:
    """The pyopenxr calls :class:`~playspace.xr.display.XrDisplay` makes, answered as a
    runtime offering Monado's formats would; `ended` keeps what each ``xrEndFrame`` saw."""

    OFFERED: ClassVar[list[int]] = [
        0x805B,
        0x881A,
        views.GL_SRGB8_ALPHA8,
        views.GL_RGBA8,
        0x8CAC,
        0x81A5,
        0x88F0,
    ]

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.created: list[Any] = []  # SwapchainCreateInfo, in order
        self.ended: list[list[dict[str, Any]]] = []
        self.acquired: list[int] = []
        answers = {
            "enumerate_environment_blend_modes": lambda *a: [xr.EnvironmentBlendMode.OPAQUE],
            "enumerate_swapchain_formats": lambda session: list(self.OFFERED),
            "enumerate_view_configuration_views": lambda *a: [
                xr.ViewConfigurationView(
                    recommended_image_rect_width=64 + i, recommended_image_rect_height=48
                )
                for i in range(2)
            ],
            "create_swapchain": self._create,
            "enumerate_swapchain_images": self._images,
            "acquire_swapchain_image": self._acquire,
            "wait_swapchain_image": lambda *a: None,
            "release_swapchain_image": lambda *a: None,
            "end_frame": self._end,
        }
        for name, answer in answers.items():
            monkeypatch.setattr(xr, name, answer)

    def _create(self, session: Any, info: Any) -> Any:
        self.created.append(info)
        return ctypes.cast(ctypes.c_void_p(len(self.created)), xr.Swapchain)  # 1, 2, ...

    def _images(self, handle: Any, kind: Any) -> list[Any]:
        return [xr.SwapchainImageOpenGLKHR(image=100 * number(handle) + i) for i in range(3)]

    def _acquire(self, handle: Any, info: Any) -> int:
        self.acquired.append(number(handle))
        return 0

    def _end(self, session: Any, info: Any) -> None:
        """Read the submitted layers now, as the runtime does inside xrEndFrame."""
        seen = []
        for pointer in info.layers:
            layer = ctypes.cast(pointer, ctypes.POINTER(xr.CompositionLayerProjection)).contents
            for view in layer.views:
                record: dict[str, Any] = {"swapchain": number(view.sub_image.swapchain)}
                record["depth"] = None
                if view.next:
                    chained = ctypes.cast(
                        view.next, ctypes.POINTER(xr.CompositionLayerDepthInfoKHR)
                    ).contents
                    assert chained.type == xr.StructureType.COMPOSITION_LAYER_DEPTH_INFO_KHR
                    sub = chained.sub_image
                    record["depth"] = {
                        "swapchain": number(sub.swapchain),
                        "extent": (sub.image_rect.extent.width, sub.image_rect.extent.height),
                        "range": (chained.min_depth, chained.max_depth),
                        "planes": (chained.near_z, chained.far_z),
                    }
                seen.append(record)
        self.ended.append(seen)


class Backend:
    """What the display reads of :class:`~playspace.xr.backend.OpenXRBackend`."""

    def __init__(self, enabled: list[str]) -> None:
        self.session, self.instance, self.system, self.space = object(), object(), 1, None
        self.enabled = enabled

    def own(self, destroy: Any, handle: Any) -> Any:
        return handle


def run_one_frame(answers: Answers, enabled: list[str]) -> tuple[Any, list[EyeTarget]]:
    shown = display.XrDisplay(Backend(enabled))  # type: ignore[arg-type]
    pose = xr.Posef()
    shown._views = [xr.View(pose=pose, fov=xr.Fovf(-0.8, 0.8, 0.7, -0.7)) for _ in range(2)]
    targets: list[EyeTarget] = []
    shown.end_frame(FrameTiming(1, 11_111_111, True), lambda i, target: targets.append(target))
    return shown, targets


def test_the_depth_extension_is_asked_for() -> None:
    assert display.DEPTH_LAYER == "XR_KHR_composition_layer_depth"
    assert display.DEPTH_LAYER in WANTED


def test_without_the_depth_extension_no_depth_swapchain_is_made(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    answers = Answers(monkeypatch)
    shown, targets = run_one_frame(answers, ["XR_MNDX_egl_enable"])
    assert not shown.submits_depth
    assert [info.format for info in answers.created] == [views.GL_SRGB8_ALPHA8] * 2
    assert all(
        not info.usage_flags & xr.SwapchainUsageFlags.DEPTH_STENCIL_ATTACHMENT_BIT
        for info in answers.created
    )
    assert [t.depth_texture for t in targets] == [None, None]
    assert answers.acquired == [1, 2]  # color only
    assert [view["depth"] for view in answers.ended[0]] == [None, None]


def test_with_the_depth_extension_each_view_carries_its_depth(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    answers = Answers(monkeypatch)
    shown, targets = run_one_frame(answers, ["XR_MNDX_egl_enable", display.DEPTH_LAYER])
    assert shown.submits_depth
    formats = [info.format for info in answers.created]
    # color then depth per eye; depth in the runtime's preferred format (32F for Monado)
    assert formats == [views.GL_SRGB8_ALPHA8, views.GL_DEPTH_COMPONENT32F] * 2
    assert answers.created[1].usage_flags & xr.SwapchainUsageFlags.DEPTH_STENCIL_ATTACHMENT_BIT
    assert [(t.depth_texture, t.depth_format) for t in targets] == [
        (200, views.GL_DEPTH_COMPONENT32F),
        (400, views.GL_DEPTH_COMPONENT32F),
    ]
    (submitted,) = answers.ended
    for eye, view in enumerate(submitted):
        color_chain, depth_chain = 2 * eye + 1, 2 * eye + 2
        assert view["swapchain"] == color_chain
        assert view["depth"]["swapchain"] == depth_chain
        assert view["depth"]["extent"] == (64 + eye, 48)
        assert view["depth"]["range"] == (0.0, 1.0)
        assert view["depth"]["planes"] == pytest.approx((NEAR, FAR))


def test_no_depth_swapchain_when_the_runtime_offers_no_depth_format(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    answers = Answers(monkeypatch)
    monkeypatch.setattr(Answers, "OFFERED", [views.GL_RGBA8])
    shown, targets = run_one_frame(answers, [display.DEPTH_LAYER])
    assert not shown.submits_depth
    assert [t.depth_texture for t in targets] == [None, None]
    assert [info.format for info in answers.created] == [views.GL_RGBA8] * 2
    assert [view["depth"] for view in answers.ended[0]] == [None, None]


def test_choose_formats_leaves_depth_out_unless_it_is_submitted() -> None:
    offered = [views.GL_SRGB8_ALPHA8, views.GL_DEPTH_COMPONENT32F, views.GL_DEPTH24_STENCIL8]
    assert views.choose_formats(offered, submit_depth=False).depth is None
    chosen = views.choose_formats(offered, submit_depth=True)
    assert chosen.depth == views.GL_DEPTH_COMPONENT32F
    stencil = views.choose_formats([views.GL_RGBA8, views.GL_DEPTH32F_STENCIL8])
    assert stencil.depth == views.GL_DEPTH32F_STENCIL8
    target = EyeTarget(1, 2, 8, 8, views.GL_SRGB8_ALPHA8, views.GL_DEPTH32F_STENCIL8)
    assert target.srgb and target.depth_stencil
    plain = EyeTarget(1, None, 8, 8, views.GL_RGBA8, None)
    assert not plain.srgb and not plain.depth_stencil


# A real runtime ------------------------------------------------------------------------------

RUNTIME = os.environ.get("XR_RUNTIME_JSON")
needs_runtime = pytest.mark.xr  # conftest checks for the runtime
KITCHEN = ROOT / "examples" / "kitchen.py"


def runtime_env() -> dict[str, str]:
    env = dict(os.environ)
    for name, value in (
        ("XRT_COMPOSITOR_NULL", "1"),
        ("NULL_COMPOSITOR_HZ", "90"),
        ("XRT_LOG", "warning"),
        ("XR_LOADER_DEBUG", "none"),
    ):
        env.setdefault(name, value)
    return env


def log_tail(done: subprocess.CompletedProcess[str]) -> str:
    """The end of a run's output for a failure message, without Monado's harmless
    ``close failed`` lines (one per swapchain image destroyed)."""
    lines = [line for line in done.stderr.splitlines() if "close failed" not in line]
    return (done.stdout + "\n".join(lines))[-3000:]


@pytest.mark.slow
@needs_runtime
def test_the_kitchen_submits_depth_to_a_real_runtime() -> None:
    """``playspace run --vr`` against the runtime XR_RUNTIME_JSON names (Monado here): frames
    with a depth layer go through xrEndFrame's validation for two seconds, and it stops
    cleanly. A runtime that cannot be used fails this test: it does not skip."""
    done = subprocess.run(
        [sys.executable, "-m", "playspace.cli", "run", str(KITCHEN), "--vr", "--seconds", "2"],
        capture_output=True,
        text=True,
        timeout=120,
        env=runtime_env(),
        cwd=ROOT,
    )
    assert done.returncode == 0, log_tail(done)
    assert "XR_ERROR" not in done.stderr, log_tail(done)
    assert "stopped: 2 s are over" in done.stdout


BAD_DEPTH_RANGE = """
import sys
import xr
from playspace import cli
from playspace.xr import display

def reversed_range(sub_image, near=0.05, far=200.0):
    return xr.CompositionLayerDepthInfoKHR(
        sub_image=sub_image, min_depth=1.0, max_depth=0.0, near_z=near, far_z=far)

display.depth_info = reversed_range
sys.exit(cli.main(sys.argv[1:]))
"""


@needs_runtime
def test_the_runtime_reads_the_depth_info_chained_to_each_view() -> None:
    """The same run with a depth range the specification forbids (min > max): the runtime
    refuses the frame, naming the XrCompositionLayerDepthInfoKHR found in the view's chain. So
    the depth info reaches the runtime, and the run above passes its checks."""
    done = subprocess.run(
        [sys.executable, "-c", BAD_DEPTH_RANGE, "run", str(KITCHEN), "--vr", "--seconds", "2"],
        capture_output=True,
        text=True,
        timeout=120,
        env=runtime_env(),
        cwd=ROOT,
    )
    assert done.returncode != 0
    assert "XR_ERROR_LAYER_INVALID" in done.stderr, log_tail(done)
    assert "next<XrCompositionLayerDepthInfoKHR>.minDepth" in done.stderr
