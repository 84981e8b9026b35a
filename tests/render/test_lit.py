"""The lit renderer, pixel by pixel: metallic-roughness shading, the sun's shadow, textures
and emissive light from a ``Appearance``, the floor grid, the sky, the sRGB output and the quality
presets. Offscreen on Mesa's software renderer through EGL, as tests/render/test_render.py."""

from __future__ import annotations

import functools
import logging
import math
from pathlib import Path
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

import numpy as np
import pytest

from playspace import spatial
from playspace.app.models import spawn_model
from playspace.components import Prop, Scenery, Transform
from playspace.components.appearance import Appearance
from playspace.components.physics import BodyKind, Box, Collider, Colliders, RigidBody, Sphere
from playspace.ecs import World
from playspace.formats.models import read_model
from playspace.formats.models.write import ModelSpec, write_glb
from playspace.render import (
    HIGH,
    LOW,
    ULTRA,
    Lighting,
    Offscreen,
    Quality,
    Renderer,
    Sky,
    View,
    perspective,
    quality_named,
    shaders,
    shadows,
    write_png,
)
from playspace.render.gpu import Program
from playspace.render.matrices import trs_many
from playspace.spatial import Pose
from tests.model_helpers import surface

if TYPE_CHECKING:
    from moderngl import Context

SIZE = (128, 96)
DOWN = spatial.from_axis_angle(spatial.vec3(1.0, 0.0, 0.0), -math.pi / 2)
DARK = Lighting(color=(0.0, 0.0, 0.0), sky=(0.0, 0.0, 0.0), ground=(0.0, 0.0, 0.0))
BLACK_SKY = Sky((0.0, 0.0, 0.0), (0.0, 0.0, 0.0), (0.0, 0.0, 0.0), sun=(0.0, 0.0, 0.0))


def level_view(at: tuple[float, float, float] = (0.0, 0.0, 0.0)) -> View:
    """Looking down -Z, level, 90 degrees vertically."""
    return View(
        Pose(spatial.vec3(*at), spatial.identity()), perspective(math.pi / 2, SIZE[0] / SIZE[1])
    )


def view_down(at: tuple[float, float, float]) -> View:
    """Looking straight down from `at`; the top of the picture is -Z, its right +X."""
    return View(Pose(spatial.vec3(*at), DOWN), perspective(math.pi / 2, SIZE[0] / SIZE[1]))


def pixel_of(view: View, point: tuple[float, float, float]) -> tuple[int, int]:
    """(row, column) of a world point in a picture drawn from `view`, top row first."""
    clip = view.view_projection() @ np.array([*point, 1.0])
    x, y = clip[:2] / clip[3]
    return round((1 - (y + 1) / 2) * SIZE[1] - 0.5), round((x + 1) / 2 * SIZE[0] - 0.5)


def render(gl: Context, world: World, view: View, **options: Any) -> np.ndarray:
    """`world` drawn once: rows top-down, RGB floats in [0, 1]."""
    renderer = Renderer(gl, **{"sky": BLACK_SKY, **options})
    try:
        return draw_with(renderer, world, view)
    finally:
        renderer.release()


def draw_with(renderer: Renderer, world: World, view: View) -> np.ndarray:
    target = Offscreen(renderer.ctx, SIZE)
    try:
        renderer.prepare(world)
        renderer.draw(view, target.framebuffer)
        return target.read() / 255.0
    finally:
        target.release()


def ball(world: World, at: tuple[float, float, float], look: Appearance | None = None) -> int:
    parts: list[object] = [Transform(spatial.vec3(*at)), Colliders(Collider(Sphere(1.0)))]
    return world.spawn(*parts, Prop("ball"), *([look] if look else []))


def floor(world: World, *extra: object, size: float = 20.0) -> int:
    return world.spawn(
        Transform(spatial.vec3(0.0, -0.1, 0.0)),
        Colliders(Collider(Box((size, 0.2, size)))),
        Scenery("floor"),
        *extra,
    )


def brightness(image: np.ndarray, at: tuple[int, int]) -> float:
    return float(image[at].mean())


# Shading ----------------------------------------------------------------------------------


def test_a_sphere_is_lit_on_the_side_the_light_comes_from(gl: Context) -> None:
    world = World()
    ball(world, (0.0, 0.0, -3.0))
    view = level_view()
    from_right = Lighting(direction=(-1.0, 0.0, 0.0))
    image = render(gl, world, view, lighting=from_right, quality=LOW)
    right, left = pixel_of(view, (0.7, 0.0, -2.3)), pixel_of(view, (-0.7, 0.0, -2.3))
    assert brightness(image, right) > brightness(image, left) + 0.3
    from_left = render(gl, world, view, lighting=Lighting(direction=(1.0, 0.0, 0.0)), quality=LOW)
    assert brightness(from_left, left) > brightness(from_left, right) + 0.3


def test_emissive_glows_on_the_dark_side(gl: Context) -> None:
    world = World()
    plain = ball(world, (0.0, 0.0, -3.0), Appearance(color=(0.5, 0.5, 0.5, 1.0)))
    view = level_view()
    from_right = Lighting(direction=(-1.0, 0.0, 0.0))
    dark_side = pixel_of(view, (-0.7, 0.0, -2.3))
    unlit = render(gl, world, view, lighting=from_right, quality=LOW)[dark_side]
    world.add(plain, Appearance(color=(0.5, 0.5, 0.5, 1.0), emissive=(0.6, 0.0, 0.0)))
    glowing = render(gl, world, view, lighting=from_right, quality=LOW)[dark_side]
    assert glowing[0] > unlit[0] + 0.4
    assert glowing[1] == pytest.approx(unlit[1], abs=2 / 255)


SHADED = Quality("shaded", shadow_size=0, shadow_taps=1, samples=0)  # specular, no shadows


def highlight(
    gl: Context, look: Appearance, quality: Quality = SHADED
) -> tuple[np.ndarray, np.ndarray]:
    """The sphere's point facing the eye, lit from the eye, and a point half a radius off it."""
    world = World()
    ball(world, (0.0, 0.0, -3.0), look)
    view = level_view()
    along = Lighting(direction=(0.0, 0.0, -1.0))
    image = render(gl, world, view, lighting=along, quality=quality)
    return image[pixel_of(view, (0.0, 0.0, -2.0))], image[pixel_of(view, (0.5, 0.0, -2.13))]


def test_a_smooth_surface_has_a_specular_highlight_and_a_rough_one_none(gl: Context) -> None:
    red = (0.5, 0.05, 0.05, 1.0)
    peak, off = highlight(gl, Appearance(color=red, roughness=0.15))
    assert peak.min() > 0.9  # white: the light's own color, reflected
    assert off.min() < 0.5
    rough_peak, rough_off = highlight(gl, Appearance(color=red, roughness=1.0))
    assert rough_peak[1] < 0.5  # no white spot: Lambert's red, a little brighter than off it
    assert abs(rough_peak - rough_off).max() < 0.12


def test_low_quality_has_no_highlights_but_keeps_color_and_metal(gl: Context) -> None:
    """The low preset drops the specular term (its cost on a software renderer): no white
    spot on a smooth surface, the same lit color off it, and a metal still darker than a
    dielectric of its color."""
    red = (0.5, 0.05, 0.05, 1.0)
    peak, off = highlight(gl, Appearance(color=red, roughness=0.15), LOW)
    assert peak[1] < 0.5  # red, not white
    _, full_off = highlight(gl, Appearance(color=red, roughness=0.15))
    assert abs(off - full_off).max() < 0.1
    _, metal = highlight(
        gl, Appearance(color=(0.9, 0.1, 0.1, 1.0), roughness=0.5, metallic=1.0), LOW
    )
    _, plastic = highlight(gl, Appearance(color=(0.9, 0.1, 0.1, 1.0), roughness=0.5), LOW)
    assert metal[0] < 0.6 * plastic[0]


def test_a_metal_has_no_diffuse_light(gl: Context) -> None:
    """Off its highlight a metal shows only dim reflections; a dielectric of the same color
    shows its color, lit."""
    red = (0.9, 0.1, 0.1, 1.0)
    _, metal = highlight(gl, Appearance(color=red, roughness=0.5, metallic=1.0))
    _, plastic = highlight(gl, Appearance(color=red, roughness=0.5, metallic=0.0))
    assert plastic[0] > 0.8
    assert metal[0] < 0.6 * plastic[0]


# Shadows ----------------------------------------------------------------------------------


def shadow_scene() -> tuple[World, View, tuple[int, int], tuple[int, int]]:
    """A box floating 1.5 m above the floor, the light coming down at 45 degrees from +X: its
    shadow falls 2 m towards -X. Returns the world, a view from above, and the pixels of a
    shadowed and an open bit of floor (cell centres of the grid, away from its lines)."""
    world = World()
    floor(world)
    world.spawn(
        Transform(spatial.vec3(0.0, 2.0, -4.0)),
        Colliders(Collider(Box((1.0, 1.0, 1.0)))),
        Prop("box"),
    )
    view = view_down((0.0, 9.0, -4.0))
    return world, view, pixel_of(view, (-1.875, 0.0, -4.125)), pixel_of(view, (2.125, 0.0, -4.125))


def test_the_lights_box_holds_every_instance_and_fits_the_scenery_exactly() -> None:
    """The shadow map's box is fitted in the light's frame: to the scenery's own boxes, turned
    and scaled as each instance is (every corner inside, some corner on each side), and
    loosely but never too small for what moves (the rows' largest entry)."""
    rng = np.random.default_rng(11)
    count = 40
    points = rng.normal(size=(30, 3)) * (0.5, 0.2, 0.3) + (0.1, -0.2, 0.05)
    extent = shadows.Extent.of(points.astype(np.float32))
    rotations = spatial.normalize_many(rng.normal(size=(count, 4)))
    scales = rng.uniform(0.2, 3.0, size=(count, 3))
    centres = rng.normal(size=(count, 3)) * 5.0
    matrices = trs_many(centres, rotations, scales, np.zeros((count, 4, 4)))  # column-major
    rows = matrices.reshape(-1, 16).astype(np.float32)
    basis = shadows.light_basis((0.3, 0.9, -0.2))
    corners = np.array(
        [[(extent.low, extent.high)[k][axis] for axis, k in enumerate(pick)]
         for pick in np.ndindex(2, 2, 2)]
    )  # fmt: skip
    placed = np.einsum("nrc,kc->nkr", matrices.transpose(0, 2, 1)[:, :3, :3], corners)
    in_light = (placed + centres[:, None, :]) @ basis.T
    exact = shadows.scenery_bounds(rows, extent, basis)
    np.testing.assert_allclose(
        exact, [in_light.min(axis=(0, 1)), in_light.max(axis=(0, 1))], atol=1e-5
    )
    sphere = scales.max(axis=1)[:, None] * extent.radius
    centred = centres @ basis.T
    assert ((centred - sphere).min(axis=0) < exact[0] - 0.1).all()  # tighter than spheres
    loose = shadows.moving_bounds(rows, extent.radius, basis)
    assert (loose[0] <= exact[0]).all() and (loose[1] >= exact[1]).all()
    bad = rows.copy()
    bad[3, 12], bad[7, :] = np.nan, np.inf  # a NaN place, an infinite matrix
    others = np.delete(rows, [3, 7], axis=0)
    for bounds in (
        functools.partial(shadows.scenery_bounds, extent=extent, basis=basis),
        functools.partial(shadows.moving_bounds, radius=extent.radius, basis=basis),
    ):
        kept = shadows.finite_bounds(bad, bounds)
        np.testing.assert_array_equal(kept, bounds(others))  # the rest boxed, not dropped
        assert shadows.finite_bounds(bad[[3, 7]], bounds) is None


def test_the_lights_box_maps_what_it_holds_into_clip_and_texture_space() -> None:
    """The box fitted around a light-space box: its snapped corners go to clip space's -1 and
    +1 (the side nearest the light to depth -1), the same points to texture space's 0 and 1,
    and its sides across are cut to the distance around the eye."""
    basis = shadows.light_basis(Lighting(direction=(-0.3, -0.9, 0.2)).towards_light())
    low, high = (-3.2, -1.1, -7.4), (2.6, 30.0, 4.1)
    eye = (1.0, 1.6, -2.0)
    box = shadows.fit(low, high, basis, eye, 10.0)
    clip = np.frombuffer(box.clip_bytes(), dtype=np.float32).reshape(4, 4).T
    lookup = np.frombuffer(box.lookup_bytes(), dtype=np.float32).reshape(4, 4).T
    x, y, _ = basis @ np.array(eye)  # cut across the light to 10 m around it, then snapped
    cut_low = (max(low[0], x - 10.0), max(low[1], y - 10.0), low[2])
    cut_high = (min(high[0], x + 10.0), min(high[1], y + 10.0), high[2])
    expected_low = [math.floor(v / 0.5) * 0.5 for v in cut_low]
    expected_high = [math.ceil(v / 0.5) * 0.5 for v in cut_high]
    expected_high[2] += 0.5  # never flat along the light
    assert expected_high[1] < 30.0  # the cut took off what is more than 10 m away
    for corner, clipped in ((expected_low, (-1.0, -1.0, 1.0)), (expected_high, (1, 1, -1))):
        world = np.append(basis.T @ np.array(corner), 1.0)  # light space back to the world
        np.testing.assert_allclose(clip @ world, [*clipped, 1.0], atol=1e-5)
        np.testing.assert_allclose(lookup @ world, [*(np.array(clipped) + 1) / 2, 1.0], atol=1e-5)
    widths = np.array(expected_high[:2]) - np.array(expected_low[:2])
    assert box.texel_metres(1024) == pytest.approx(widths.max() / 1024)


def test_the_floor_under_a_box_is_in_its_shadow(gl: Context) -> None:
    world, view, shaded, open_floor = shadow_scene()
    slanted = Lighting(direction=(-1.0, -1.0, 0.0))
    renderer = Renderer(gl, lighting=slanted, sky=BLACK_SKY, quality=HIGH)
    try:
        image = draw_with(renderer, world, view)
        assert brightness(image, shaded) < 0.6 * brightness(image, open_floor)
        renderer.quality = LOW  # no shadow map: the same floor everywhere
        flat = draw_with(renderer, world, view)
        assert brightness(flat, shaded) == pytest.approx(brightness(flat, open_floor), abs=0.02)
    finally:
        renderer.release()


@pytest.mark.parametrize("place", [math.nan, math.inf])
def test_a_thing_at_a_nan_or_infinite_place_leaves_the_other_shadows_be(
    gl: Context, place: float
) -> None:
    """A game that puts a box at NaN (or infinity) gets the rest of its picture: the light's
    box is fitted without it and the other box, of the same batch, still shadows the floor."""
    world, view, shaded, open_floor = shadow_scene()
    world.spawn(
        Transform(spatial.vec3(place, 1.0, place)),
        Colliders(Collider(Box((1.0, 1.0, 1.0)))),
        Prop("lost box"),
    )
    image = render(gl, world, view, lighting=Lighting(direction=(-1.0, -1.0, 0.0)), quality=HIGH)
    assert brightness(image, shaded) < 0.6 * brightness(image, open_floor)


def test_a_lit_floor_has_no_shadow_acne(gl: Context) -> None:
    """Open floor under a low sun is evenly lit: no stripes of self-shadowing."""
    world, view, _, _ = shadow_scene()
    low_sun = Lighting(direction=(-1.0, -0.4, 0.3))
    image = render(gl, world, view, lighting=low_sun, quality=HIGH)
    row, column = pixel_of(view, (4.0, 0.0, -4.0))
    patch = image[row - 8 : row + 8, column - 8 : column + 8].mean(axis=2)
    reference = render(gl, world, view, lighting=low_sun, quality=LOW)
    flat = reference[row - 8 : row + 8, column - 8 : column + 8].mean(axis=2)
    assert np.abs(patch - flat).max() < 0.02


# Looks and textures -----------------------------------------------------------------------


def checker(path: Path) -> Appearance:
    """A white look textured with a red and green checker written to `path`."""
    pixels = np.zeros((64, 64, 3), dtype=np.uint8)
    cells = (np.add.outer(np.arange(64) // 16, np.arange(64) // 16) % 2).astype(bool)
    pixels[cells], pixels[~cells] = (230, 30, 30), (30, 200, 30)
    write_png(path, pixels)
    return Appearance(color=(1.0, 1.0, 1.0, 1.0), roughness=1.0, texture=path)


def shows_both_checker_colors(gl: Context, world: World) -> bool:
    """Whether the middle of `world` drawn level, lit from everywhere, is a third red and a
    third green at least."""
    everywhere = Lighting(color=(0.0, 0.0, 0.0), sky=(1.0, 1.0, 1.0), ground=(1.0, 1.0, 1.0))
    image = render(gl, world, level_view(), lighting=everywhere, quality=LOW)
    middle = image[30:66, 40:88].reshape(-1, 3)
    reds = (middle[:, 0] > 0.7) & (middle[:, 1] < 0.35)
    greens = (middle[:, 1] > 0.6) & (middle[:, 0] < 0.35)
    return bool(reds.mean() > 0.3 and greens.mean() > 0.3)


def test_a_checker_texture_shows_both_colors(gl: Context, tmp_path: Path) -> None:
    look = checker(tmp_path / "checker.png")
    world = World()
    world.spawn(
        Transform(spatial.vec3(0.0, 0.0, -1.2)),
        Colliders(Collider(Box((2.0, 2.0, 0.2)))),
        Prop("board"),
        look,
    )
    assert shows_both_checker_colors(gl, world)


def test_a_textured_gltf_prop_is_drawn_with_its_texture(gl: Context, tmp_path: Path) -> None:
    """The texture travels inside the GLB (embedded, as exporters write it) and the model's own
    uvs place it: both colors of the checker show on the board's face."""
    board = ModelSpec("Board-rigid", surface("box", (2.0, 2.0, 0.2)), checker(tmp_path / "c.png"))
    model = read_model(write_glb(tmp_path / "board.glb", [board]))
    world = World()
    spawn_model(world, model, Pose(spatial.vec3(0.0, 0.0, -1.2), spatial.identity()))
    assert shows_both_checker_colors(gl, world)


def test_an_unreadable_texture_is_said_once_and_drawn_without(
    gl: Context, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    missing = tmp_path / "missing.png"
    world = World()
    entity = ball(
        world,
        (0.0, 0.0, -3.0),
        Appearance((0.0, 0.0, 0.0, 1.0), emissive=(0.0, 1.0, 0.0), texture=missing),
    )
    renderer = Renderer(gl, lighting=DARK, sky=BLACK_SKY, quality=LOW)
    try:
        with caplog.at_level(logging.WARNING):
            first = draw_with(renderer, world, level_view())
            draw_with(renderer, world, level_view())
    finally:
        renderer.release()
    said = [r.getMessage() for r in caplog.records if "texture" in r.getMessage()]
    assert len(said) == 1
    assert f"entity {entity}" in said[0] and str(missing) in said[0]
    assert first[SIZE[1] // 2, SIZE[0] // 2] == pytest.approx((0.0, 1.0, 0.0), abs=2 / 255)


def test_replacing_a_look_is_seen_by_the_renderer(gl: Context) -> None:
    world = World()
    entity = ball(
        world, (0.0, 0.0, -3.0), Appearance((1.0, 0.0, 0.0, 1.0), emissive=(1.0, 0.0, 0.0))
    )
    renderer = Renderer(gl, lighting=DARK, sky=BLACK_SKY, quality=LOW)
    try:
        red = draw_with(renderer, world, level_view())[SIZE[1] // 2, SIZE[0] // 2]
        world.add(entity, Appearance((0.0, 0.0, 1.0, 1.0), emissive=(0.0, 0.0, 1.0)))
        blue = draw_with(renderer, world, level_view())[SIZE[1] // 2, SIZE[0] // 2]
    finally:
        renderer.release()
    assert red == pytest.approx((1.0, 0.0, 0.0), abs=2 / 255)
    assert blue == pytest.approx((0.0, 0.0, 1.0), abs=2 / 255)


def test_a_kept_renderer_draws_each_frame_as_it_is_set_changed_back_or_not(gl: Context) -> None:
    """A renderer sends a uniform only when its value changes: a sky changed and changed back
    shows each time, and two materials drawn one after the other in every frame keep theirs."""
    world = World()
    red, blue = (1.0, 0.0, 0.0), (0.0, 0.0, 1.0)
    ball(world, (-1.5, 0.0, -4.0), Appearance((*red, 1.0), emissive=red))
    ball(world, (1.5, 0.0, -4.0), Appearance((*blue, 1.0), emissive=blue))
    grey = Sky((0.5, 0.5, 0.5), (0.5, 0.5, 0.5), (0.5, 0.5, 0.5), sun=(0.0, 0.0, 0.0))
    renderer = Renderer(gl, lighting=DARK, sky=BLACK_SKY, quality=LOW)
    view = level_view()
    frames = []
    try:
        for sky in (BLACK_SKY, grey, BLACK_SKY, BLACK_SKY):
            renderer.sky = sky
            frames.append(draw_with(renderer, world, view))
    finally:
        renderer.release()
    for frame, shade in zip(frames, (0.0, 0.735, 0.0, 0.0), strict=True):  # 0.5 in sRGB: 0.735
        assert brightness(frame, (2, 2)) == pytest.approx(shade, abs=0.01)
        assert frame[pixel_of(view, (-1.5, 0.0, -4.0))] == pytest.approx(red, abs=2 / 255)
        assert frame[pixel_of(view, (1.5, 0.0, -4.0))] == pytest.approx(blue, abs=2 / 255)


def test_a_uniform_is_sent_when_it_changes_and_only_then(gl: Context) -> None:
    """Re-sending the same sky, light and material every view costs a packing and a GL call
    each; the renderer's programs skip a value already sent."""
    program = Program(gl, shaders.SKY_VERTEX, shaders.SKY_FRAGMENT)
    sent: list[object] = []

    class Spy:
        def __setattr__(self, name: str, value: object) -> None:
            sent.append(value)

        def write(self, data: bytes) -> None:
            sent.append(data)

    try:
        program.uniforms["u_zenith"] = Spy()  # type: ignore[assignment]
        program.uniforms["u_view_projection"] = Spy()  # type: ignore[assignment]
        for value in ((0.1, 0.2, 0.3), (0.1, 0.2, 0.3), (0.3, 0.2, 0.1), (0.1, 0.2, 0.3)):
            program.set("u_zenith", value)
        for data in (b"a" * 64, b"a" * 64, b"b" * 64):
            program.write("u_view_projection", data)
    finally:
        program.release()
    assert sent == [(0.1, 0.2, 0.3), (0.3, 0.2, 0.1), (0.1, 0.2, 0.3), b"a" * 64, b"b" * 64]


# sRGB, sky, grid --------------------------------------------------------------------------


def test_a_linear_color_lands_at_its_srgb_encoding(gl: Context) -> None:
    """Emissive linear (0.2, 0.5, 0.8) with no light: the picture holds its sRGB encoding,
    (124, 188, 231), as a display and a headset's sRGB swapchain expect."""
    world = World()
    ball(world, (0.0, 0.0, -3.0), Appearance((0.0, 0.0, 0.0, 1.0), emissive=(0.2, 0.5, 0.8)))
    image = render(gl, world, level_view(), lighting=DARK, quality=LOW)
    assert (image[SIZE[1] // 2, SIZE[0] // 2] * 255) == pytest.approx((124, 188, 231), abs=1.0)


def test_the_sky_is_blue_above_hazy_at_the_horizon_and_ground_below(gl: Context) -> None:
    sky = Sky()
    image = render(gl, World(), level_view(), sky=sky, quality=LOW)
    top, horizon, bottom = image[0, 5], image[SIZE[1] // 2, 5], image[-1, 5]
    assert top[2] > top[0] + 0.2  # blue
    assert horizon.mean() > top.mean()  # paler at the horizon
    encoded = np.where(
        np.array(sky.ground) <= 0.0031308,
        12.92 * np.array(sky.ground),
        1.055 * np.array(sky.ground) ** (1 / 2.4) - 0.055,
    )
    assert bottom == pytest.approx(encoded, abs=2 / 255)


def seen_towards(
    image: np.ndarray, view: View, direction: tuple[float, float, float]
) -> np.ndarray:
    """The pixel that looks along `direction` from `view`'s eye."""
    p = view.pose.position
    d = np.array(direction) / np.linalg.norm(direction)
    row, column = pixel_of(view, tuple(np.array([p.x, p.y, p.z]) + 50.0 * d))
    assert 0 <= row < SIZE[1] and 0 <= column < SIZE[0]
    return np.asarray(image[row, column])


def test_the_sky_turns_with_the_eye_and_stays_where_it_is_as_the_eye_moves(gl: Context) -> None:
    """An eye far from the origin, turned and looking up: the sun's disc is drawn where the
    light comes from and the ground color starts below the horizon, wherever the eye is."""
    sky, lighting = Sky(), Lighting(direction=(-0.3, -0.4, 0.6))
    # turned right and up: the sun (31 degrees up) 15 degrees to the eye's left, above its centre
    turned = spatial.yaw_rotation(math.radians(-41.6)) * spatial.from_axis_angle(
        spatial.vec3(1.0, 0.0, 0.0), math.radians(20.0)
    )
    ahead = turned * spatial.vec3(0.0, 0.0, -1.0)
    level = math.hypot(ahead.x, ahead.z)
    below, above = (ahead.x, -0.3 * level, ahead.z), (ahead.x, 0.3 * level, ahead.z)
    sun = lighting.towards_light()
    beside = (sun[0] + 0.25, sun[1], sun[2] - 0.25)
    ground = 1.055 * np.array(sky.ground) ** (1 / 2.4) - 0.055
    for at in ((0.0, 1.6, 0.0), (800.0, 3.0, -600.0)):
        view = View(Pose(spatial.vec3(*at), turned), perspective(math.pi / 2, SIZE[0] / SIZE[1]))
        image = render(gl, World(), view, sky=sky, lighting=lighting, quality=LOW)
        disc = seen_towards(image, view, sun)
        assert disc.min() > 0.95  # the disc, on top of the glow
        assert seen_towards(image, view, beside).mean() < disc.mean() - 0.1
        assert seen_towards(image, view, below) == pytest.approx(ground, abs=2 / 255)
        assert seen_towards(image, view, above)[2] > ground[2] + 0.3


def test_the_floor_shows_a_metre_grid_and_moving_things_do_not(gl: Context) -> None:
    view = view_down((0.3, 0.6, -0.3))
    line, cell = pixel_of(view, (0.0, 0.0, -0.3)), pixel_of(view, (0.125, 0.0, -0.3))
    world = World()
    floor(world)
    image = render(gl, world, view, quality=LOW)
    assert brightness(image, line) < 0.9 * brightness(image, cell)
    moving = World()
    floor(moving, RigidBody(kind=BodyKind.KINEMATIC))  # not scenery: no grid
    plain = render(gl, moving, view, quality=LOW)
    assert brightness(plain, line) == pytest.approx(brightness(plain, cell), abs=0.02)


def test_the_grid_fades_to_an_even_tone_in_the_distance(gl: Context) -> None:
    """Towards the horizon a metre is less than a pixel: the lines blend into a flat tone
    (no moire), darker than a floor without lines."""
    view = level_view((0.3, 1.6, 0.0))
    world = World()
    floor(world, size=400.0)
    image = render(gl, world, view, quality=LOW)
    moving = World()
    floor(moving, RigidBody(kind=BodyKind.KINEMATIC), size=400.0)
    plain = render(gl, moving, view, quality=LOW)
    row = SIZE[1] // 2 + 2  # just below the horizon: tens of metres away
    far, far_plain = image[row].mean(axis=1), plain[row].mean(axis=1)
    assert far.std() < 0.02
    assert far.mean() < far_plain.mean() - 0.003


# Quality ----------------------------------------------------------------------------------


def test_quality_presets_by_name() -> None:
    assert quality_named("low") is LOW
    assert quality_named("high") is HIGH
    assert quality_named("ultra") is ULTRA
    with pytest.raises(ValueError, match=r"'medium': expected one of auto, low, high, ultra"):
        quality_named("medium")


def test_auto_quality_is_low_on_a_software_renderer_and_high_on_a_gpu(gl: Context) -> None:
    """The tests draw on Mesa's llvmpipe: auto picks low there; a GPU's context gets high."""
    assert "llvmpipe" in gl.info["GL_RENDERER"]
    assert quality_named("auto", gl) is LOW
    assert quality_named("auto") is HIGH

    gpu = SimpleNamespace(info={"GL_RENDERER": "NVIDIA H200/PCIe/SSE2"})
    assert quality_named("auto", gpu) is HIGH  # type: ignore[arg-type]


def test_multisampling_smooths_edges_and_can_be_switched_at_run_time(gl: Context) -> None:
    world = World()
    world.spawn(
        Transform(
            spatial.vec3(0.0, 0.0, -3.0), spatial.from_axis_angle(spatial.vec3(0, 0, 1), 0.3)
        ),
        Colliders(Collider(Box((1.5, 1.5, 0.2)))),
        Prop("tilted"),
        Appearance((1.0, 1.0, 1.0, 1.0), emissive=(1.0, 1.0, 1.0)),
    )
    renderer = Renderer(gl, lighting=DARK, sky=BLACK_SKY, quality=HIGH)
    try:
        hard = draw_with(renderer, world, level_view())
        renderer.quality = ULTRA
        smooth = draw_with(renderer, world, level_view())
    finally:
        renderer.release()

    def between(image: np.ndarray) -> int:
        """Pixels neither black nor white: edges blended by multisampling."""
        return int(((image[..., 0] > 0.1) & (image[..., 0] < 0.9)).sum())

    assert between(hard) == 0
    assert between(smooth) > 20
    assert smooth[SIZE[1] // 2, SIZE[0] // 2] == pytest.approx((1.0, 1.0, 1.0), abs=1 / 255)
