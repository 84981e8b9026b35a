"""Both eyes in one pass: the same pixels as two passes, and the path named.

The kitchen (several batches, a shadowed floor with its grid, the sky, skinned hands, a ghost,
the standard passes and the comfort overlay) is drawn from two asymmetric eyes 6.4 cm apart,
once as two views into two framebuffers and once by ``Renderer.draw_stereo`` into a layered
target; both layers must hold exactly the bytes of their eye's view. Exactly, not within a
level: both ways run the same shader source (the one-eye programs index arrays of one with
eye 0) on the same driver, with the same uniforms and the same instances, so any difference
is a bug (an eye's uniform or instance mixed up), not rounding. Small pictures (64x48): the
test is about which pixels go where, not about resolution.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import TYPE_CHECKING

import numpy as np
import pytest

from playspace import spatial
from playspace.app import build_world
from playspace.app.replay import replay_source
from playspace.cli.doctor import doctor_report, gl_probe
from playspace.components import Prop
from playspace.components.drawn import Ghosts
from playspace.ecs import World
from playspace.formats.scene import load_scene
from playspace.loops.eyes import headset_eyes
from playspace.render import (
    HIGH,
    LOW,
    Offscreen,
    Quality,
    Renderer,
    View,
    add_standard_passes,
    eye_view,
    fov_projection,
)
from playspace.render.stereo import LAYERED, TWO_PASSES, LayeredTarget, StereoPath, stereo_path
from playspace.spatial import Pose
from playspace.xr.views import EyeTarget, Fov
from tests.loops import test_eyes
from tests.loops.test_eyes import read_color, read_depth, swapchain_image

if TYPE_CHECKING:
    from moderngl import Context

KITCHEN = Path(__file__).resolve().parents[2] / "examples" / "kitchen.toml"
SIZE = (64, 48)
FOVS = (Fov(-0.9, 0.75, 0.8, -0.85), Fov(-0.75, 0.9, 0.8, -0.85))  # left eye, right eye
GL_SRGB8_ALPHA8, GL_DEPTH_COMPONENT32F = 0x8C43, 0x8CAC
images = test_eyes.images  # swapchain-like images, deleted after the test


@pytest.fixture(scope="module")
def kitchen() -> Iterator[World]:
    """The kitchen one step in, a prop drawn as a ghost (as when held inside a wall)."""
    world, _ = build_world(load_scene(KITCHEN), replay_source(None))
    world.step(1)
    prop = next(entity for entity, _ in world.query(Prop))
    world.resource(Ghosts).entities.add(prop)
    yield world
    world.close()


def eyes_of(world: World) -> list[View]:
    """The player's two eyes, 6.4 cm apart, each with its own asymmetric field of view."""
    head = eye_view(world, SIZE[0] / SIZE[1]).pose
    return [
        View(
            Pose(head.position + spatial.vec3(dx, 0.0, 0.0), head.rotation),
            fov_projection(
                fov.angle_left, fov.angle_right, fov.angle_up, fov.angle_down, 0.05, 200
            ),
        )
        for dx, fov in zip((-0.032, 0.032), FOVS, strict=True)
    ]


def both_ways(
    gl: Context, world: World, quality: Quality, path: StereoPath | None = None
) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """The eyes drawn as two views, then by one stereo draw (on `path`, else the driver's):
    (two views, the stereo draw's layers)."""
    renderer = add_standard_passes(Renderer(gl, quality=quality))
    renderer.stereo = path or renderer.stereo
    assert renderer.one_pass_stereo == (path is None)
    layered = LayeredTarget(gl, SIZE)
    views = eyes_of(world)
    try:
        renderer.prepare(world)
        renderer.vignette, renderer.fade = 0.6, 0.2  # the overlay drawn too
        two = []
        for view in views:
            target = Offscreen(gl, SIZE)
            renderer.draw(view, target.framebuffer)
            two.append(target.read().copy())
            target.release()
        renderer.draw_stereo(views, layered)
        return two, [layered.read(eye).copy() for eye in range(2)]
    finally:
        layered.release()
        renderer.release()


@pytest.mark.parametrize("quality", [HIGH, LOW], ids=["high", "low"])
def test_one_pass_draws_the_pixels_of_two_passes(
    gl: Context, kitchen: World, quality: Quality
) -> None:
    renderer = Renderer(gl, quality=quality)
    renderer.prepare(kitchen)
    drawn = renderer._drawn  # what the scene brings: the comparison covers each kind of draw
    assert renderer.stereo.name == LAYERED and renderer.one_pass_stereo
    assert len(drawn) >= 5 and renderer._skinned
    assert any(gpu.batch is not None and len(gpu.batch.ghosts) for gpu in drawn)
    renderer.release()
    two, one = both_ways(gl, kitchen, quality)
    for eye in range(2):
        assert np.array_equal(one[eye], two[eye]), (
            f"eye {eye}: {np.abs(one[eye].astype(int) - two[eye]).max()}"
        )
    # the control: the eyes see different pictures, so a swap (or one eye twice) would fail
    assert (np.abs(two[0].astype(int) - two[1]).max(axis=-1) > 8).mean() > 0.05
    assert not np.array_equal(one[0], two[1]) and not np.array_equal(one[1], two[0])


def test_without_the_layer_extensions_each_eye_is_drawn_into_its_layer(
    gl: Context, kitchen: World
) -> None:
    """Two passes, into the layers: the same pictures again."""
    two, layers = both_ways(gl, kitchen, HIGH, StereoPath(TWO_PASSES))
    assert all(np.array_equal(a, b) for a, b in zip(layers, two, strict=True))


def test_the_path_is_chosen_from_the_driver_s_extensions() -> None:
    def offering(*extensions: str) -> StereoPath:
        return stereo_path(SimpleNamespace(extensions=set(extensions)))  # type: ignore[arg-type]

    assert offering("GL_AMD_vertex_shader_layer") == StereoPath(
        LAYERED, "GL_AMD_vertex_shader_layer"
    )
    assert offering("GL_OVR_multiview2") == StereoPath(TWO_PASSES)
    assert offering() == StereoPath(TWO_PASSES)


def test_doctor_names_the_stereo_path(gl: Context) -> None:
    """llvmpipe (Mesa 22.3) offers GL_ARB_shader_viewport_layer_array: one pass, layered."""
    (line,) = [line for line in doctor_report(gl_probe, environ={}) if line.startswith("GL: ")]
    assert line.endswith(f"both eyes: {stereo_path(gl).describe()}")
    assert "both eyes: one pass, instanced layered (GL_ARB_shader_viewport_layer_array)" in line


def test_the_headset_draws_both_eyes_in_one_pass_into_their_images(
    gl: Context, kitchen: World, images: list[int]
) -> None:
    """The eye drawer, handed both eyes' images of a frame (as the display hands them out),
    draws both in one pass and copies each layer, color and depth, into its eye's images
    (Monado's formats): the bytes the two-pass drawer writes, and the same depth."""
    views = eyes_of(kitchen)
    renderer = add_standard_passes(Renderer(gl))
    try:
        pictures = []
        for eyes in (1, 2):  # one eye at a time (two passes), then both
            draw = headset_eyes(renderer)(kitchen)
            made = []
            for eye, (view, fov) in enumerate(zip(views, FOVS, strict=True)):
                color = swapchain_image(images, GL_SRGB8_ALPHA8, SIZE)
                depth = swapchain_image(images, GL_DEPTH_COMPONENT32F, SIZE)
                formats = (GL_SRGB8_ALPHA8, GL_DEPTH_COMPONENT32F)
                draw(view.pose, fov, EyeTarget(color, depth, *SIZE, *formats, eye=eye, eyes=eyes))
                made.append((color, depth))
            pictures.append([(read_color(gl, c, SIZE), read_depth(d, SIZE)) for c, d in made])
        two, one = pictures
        for (shown, far), (shown_two, far_two) in zip(one, two, strict=True):
            assert np.array_equal(shown, shown_two)
            assert np.array_equal(far, far_two)
            assert 0.1 < (far < 1.0).mean() < 1.0  # the kitchen's surfaces, and the sky
        assert not np.array_equal(one[0][0], one[1][0])
    finally:
        renderer.release()
