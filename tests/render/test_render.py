"""The renderer on Mesa's software renderer through EGL: pixels, projections, captures.

GL tests draw into a small offscreen framebuffer and read pixels back; each fails on a GL
error before or after it. They skip (saying why) only where no GL context can be made at
all; CI installs what EGL needs (``.ci/run``).
"""

from __future__ import annotations

import math
import subprocess
import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pytest

from playspace import spatial
from playspace.app import build_world
from playspace.app.replay import replay_source
from playspace.components import DeviceRole, Prop, Scenery, TrackedDevice, Transform
from playspace.components.drawn import DrawnPoses, Figure, Ghosts, Highlights, Model
from playspace.components.physics import (
    BodyKind,
    Box,
    Capsule,
    CharacterBody,
    Collider,
    Colliders,
    ConvexHull,
    PreviousTransform,
    RigidBody,
    Sphere,
)
from playspace.components.rig import (
    AimProblem,
    OriginMotion,
    RigSettings,
    TeleportAim,
    TurnMode,
    ViewFade,
)
from playspace.components.session import HeadsetSession
from playspace.components.sockets import Socket
from playspace.ecs import Phase, World
from playspace.formats.scene import load_scene
from playspace.formats.telemetry import read_telemetry
from playspace.render import (
    AssetError,
    Batch,
    Comfort,
    GhostSettings,
    GLUnavailableError,
    Lighting,
    Material,
    Offscreen,
    Palette,
    Renderer,
    SceneInstances,
    Sky,
    View,
    VignetteSettings,
    create_context,
    fov_projection,
    load_mesh_file,
    load_texture,
    meshes,
    perspective,
    preview_view,
    write_png,
)
from playspace.render.controllers import controller_mesh
from playspace.render.materials import RGB
from playspace.render.matrices import trs_many
from playspace.render.meshes import MeshData
from playspace.render.quality import LOW
from playspace.spatial import Pose
from playspace.systems.drawn import DrawnPlugin, place_drawn
from playspace.systems.interaction.layers import HeldSensors
from playspace.systems.interaction.looks import show_hands
from playspace.systems.sets import add_late_sets
from tests.physics_helpers import physics, physics_world
from tests.rig_helpers import head_at, rig_of, shown_player, with_sticks
from tests.rig_helpers import rig_world as player_world

if TYPE_CHECKING:
    from moderngl import Context

ROOT = Path(__file__).resolve().parents[2]
PLAYGROUND = ROOT / "examples" / "scenes" / "playground.toml"
SIZE = (96, 64)


def glow(material: Material) -> Material:
    """`material` giving off its own color: with the lights off (UNLIT) that is exactly what
    it shows, wherever it faces."""
    return Material(material.color, material.texture, emissive=material.color[:3])


def shown(linear: tuple[float, ...]) -> np.ndarray:
    """What a linear color is in a picture (sRGB-encoded, 0..1)."""
    c = np.clip(np.asarray(linear[:3], dtype=np.float64), 0.0, 1.0)
    encoded: np.ndarray = np.where(c <= 0.0031308, 12.92 * c, 1.055 * c ** (1 / 2.4) - 0.055)
    return encoded


RED = glow(Material((1.0, 0.0, 0.0, 1.0)))
GREEN = glow(Material((0.0, 1.0, 0.0, 1.0)))
GREY = glow(Material((0.5, 0.5, 0.5, 1.0)))
# No light at all: every surface shows its emissive color exactly (see glow()).
UNLIT = Lighting(color=(0.0, 0.0, 0.0), sky=(0.0, 0.0, 0.0), ground=(0.0, 0.0, 0.0))
BACKGROUND_LINEAR: RGB = (0.0, 0.0, 0.25)
BACKGROUND = shown(BACKGROUND_LINEAR)  # the plain sky below, as it shows in a picture
PLAIN_SKY = Sky(BACKGROUND_LINEAR, BACKGROUND_LINEAR, BACKGROUND_LINEAR, sun=(0.0, 0.0, 0.0))


def camera() -> View:
    """At the origin looking down -Z, 90 degrees vertically."""
    return View(Pose.identity(), perspective(math.pi / 2, SIZE[0] / SIZE[1]))


def box(
    world: World, at: tuple[float, float, float], size: tuple[float, float, float], *kind: object
) -> int:
    return world.spawn(Transform(spatial.vec3(*at)), Colliders(Collider(Box(size))), *kind)


def draw(
    gl: Context,
    world: World,
    view: View | None = None,
    vignette: float = 0.0,
    fade: float = 0.0,
    **renderer_options: Any,
) -> np.ndarray:
    """`world` drawn once with this vignette and fade: rows top-down, RGB floats in [0, 1]."""
    options = {"lighting": UNLIT, "sky": PLAIN_SKY, "quality": LOW, **renderer_options}
    renderer = Renderer(gl, **options)
    target = Offscreen(gl, SIZE)
    try:
        renderer.prepare(world)
        renderer.vignette, renderer.fade = vignette, fade
        renderer.draw(view or camera(), target.framebuffer)
        return target.read() / 255.0
    finally:
        target.release()
        renderer.release()


def centre(image: np.ndarray) -> np.ndarray:
    middle: np.ndarray = image[image.shape[0] // 2, image.shape[1] // 2]
    return middle


# Pixels -----------------------------------------------------------------------------------


def test_a_red_box_in_front_of_the_camera_is_red_at_the_centre(gl: Context) -> None:
    world = World()
    box(world, (0, 0, -3), (1, 1, 1), Prop("crate"))
    image = draw(gl, world, palette=Palette(prop=RED))
    assert centre(image) == pytest.approx((1.0, 0.0, 0.0), abs=1 / 255)
    assert image[0, 0] == pytest.approx(BACKGROUND, abs=1 / 255)


def test_another_players_avatar_is_drawn_where_it_is_placed_and_gone_when_despawned(
    gl: Context,
) -> None:
    """A remote player's head (an avatar: a shape Figure, no collider, no body) shows in the
    opponents' color at its Transform, follows it when moved, and is no longer drawn once
    despawned."""
    world = World()
    head = world.spawn(Transform(spatial.vec3(0, 0, -3)), Figure(Sphere(0.5)))
    palette = Palette(opponent=RED)
    assert centre(draw(gl, world, palette=palette)) == pytest.approx((1, 0, 0), abs=1 / 255)
    world.get(head, Transform).position = spatial.vec3(1.5, 0.0, -3.0)  # moved to the right
    image = draw(gl, world, palette=palette)
    assert centre(image) == pytest.approx(BACKGROUND, abs=1 / 255)
    # 1.5 m right of 3 m ahead: a third of the way from the centre to the right edge
    assert image[SIZE[1] // 2, SIZE[0] * 2 // 3] == pytest.approx((1, 0, 0), abs=1 / 255)
    world.despawn(head)
    red = np.isclose(draw(gl, world, palette=palette), (1.0, 0.0, 0.0), atol=1 / 255)
    assert not red.all(axis=2).any()


def test_a_box_behind_another_is_hidden_whatever_the_order(gl: Context) -> None:
    for near_first in (True, False):
        world = World()
        spots = [((0, 0, -3), Prop("near")), ((0, 0, -6), Scenery("far"))]
        for at, kind in spots if near_first else spots[::-1]:
            box(world, at, (1, 1, 1), kind)
        image = draw(gl, world, palette=Palette(prop=GREEN, static=RED))
        assert centre(image) == pytest.approx((0.0, 1.0, 0.0), abs=1 / 255)


def test_a_ghost_behind_a_wall_shows_through_it_fainter(gl: Context) -> None:
    """A held crate reaching into a wall that covers the left half of the picture: over the
    background it is the strong pass; behind the wall, the faint one blended over the wall."""
    settings = GhostSettings()
    palette = Palette(static=GREY, prop=RED)
    world = World()
    box(world, (-2.5, 0, -2), (5, 5, 0.1), Scenery("wall"))
    crate = box(world, (0, 0, -3), (3, 1, 0.2), Prop("crate"))
    ghosts = world.insert_resource(Ghosts(entities={crate}))  # held, inside the wall
    image = draw(gl, world, ghost=settings, palette=palette)
    row = SIZE[1] // 2
    behind, in_front = image[row, SIZE[0] // 2 - 12], image[row, SIZE[0] // 2 + 12]
    wall = shown(GREY.color)
    # a face turned to the eye has no rim: color as the material, opacity facing_alpha
    strong = settings.in_front * settings.facing_alpha
    faint = settings.behind * settings.facing_alpha
    red = shown(RED.color)
    assert in_front == pytest.approx(BACKGROUND * (1 - strong) + red * strong, abs=0.02)
    assert behind == pytest.approx(wall * (1 - faint) + red * faint, abs=0.02)
    assert faint < strong
    # not a ghost: the wall hides it
    ghosts.entities.clear()
    image = draw(gl, world, palette=palette)
    assert image[row, SIZE[0] // 2 - 12] == pytest.approx(wall, abs=1 / 255)
    assert image[row, SIZE[0] // 2 + 12] == pytest.approx(red, abs=1 / 255)


def test_the_vignette_darkens_the_corners_and_not_the_centre(gl: Context) -> None:
    world = World()
    box(world, (0, 0, -2), (20, 20, 0.1), Scenery("backdrop"))
    palette = Palette(static=GREY)
    plain = draw(gl, world, palette=palette)
    vignetted = draw(gl, world, palette=palette, vignette=0.8)
    assert centre(vignetted) == pytest.approx(centre(plain), abs=1 / 255)
    for corner in (vignetted[0, 0], vignetted[0, -1], vignetted[-1, 0], vignetted[-1, -1]):
        assert corner.max() < 0.5 * plain[0, 0].max()


def test_a_full_fade_is_black_everywhere(gl: Context) -> None:
    world = World()
    box(world, (0, 0, -3), (1, 1, 1), Prop("crate"))
    image = draw(gl, world, fade=1.0)
    assert image.max() == 0.0
    half = draw(gl, world, fade=0.5, palette=Palette(prop=RED))
    assert centre(half) == pytest.approx((0.5, 0.0, 0.0), abs=2 / 255)


def test_an_asymmetric_eye_sees_straight_ahead_off_centre(gl: Context) -> None:
    """A headset eye sees more to its own side: what is straight ahead lands off the image
    centre, where the projection says, and the vignette centres on it."""
    world = World()
    box(world, (0, 0, -10), (0.3, 0.3, 0.3), Prop("marker"))
    eye = View(Pose.identity(), fov_projection(-0.9, 0.6, 0.7, -0.7))
    image = draw(gl, world, eye, palette=Palette(prop=RED))
    x_ndc, y_ndc = eye.centre()
    column = round((x_ndc + 1) / 2 * SIZE[0] - 0.5)
    row = round((1 - (y_ndc + 1) / 2) * SIZE[1] - 0.5)
    assert x_ndc > 0.1
    assert image[row, column] == pytest.approx((1.0, 0.0, 0.0), abs=1 / 255)
    assert centre(image) == pytest.approx(BACKGROUND, abs=1 / 255)


def test_a_textured_mesh_from_a_file(gl: Context, tmp_path: Path) -> None:
    """An OBJ quad with uvs, textured with a PNG whose top half is green, bottom half red."""
    obj = tmp_path / "quad.obj"
    obj.write_text(
        "v -1 -1 0\nv 1 -1 0\nv 1 1 0\nv -1 1 0\nvt 0 0\nvt 1 0\nvt 1 1\nvt 0 1\n"
        "f 1/1 2/2 3/3\nf 1/1 3/3 4/4\n"
    )
    picture = np.zeros((4, 4, 3), dtype=np.uint8)
    picture[:2] = (0, 255, 0)
    picture[2:] = (255, 0, 0)
    write_png(tmp_path / "halves.png", picture)
    world = World()
    entity = world.spawn(Transform(spatial.vec3(0, 0, -1.5)))
    white = Material((1.0, 1.0, 1.0, 1.0), load_texture(tmp_path / "halves.png"), roughness=1.0)
    # white light from everywhere, no specular at low quality: the texture's own colors
    everywhere = Lighting(color=(0.0, 0.0, 0.0), sky=(1.0, 1.0, 1.0), ground=(1.0, 1.0, 1.0))
    renderer = Renderer(gl, lighting=everywhere, quality=LOW)
    renderer.instances.set_appearance(entity, load_mesh_file(obj), white)
    target = Offscreen(gl, SIZE)
    try:
        renderer.prepare(world)
        renderer.draw(camera(), target.framebuffer)
        image = target.read() / 255.0
    finally:
        target.release()
        renderer.release()
    x = SIZE[0] // 2
    assert image[SIZE[1] // 2 - 10, x] == pytest.approx((0.0, 1.0, 0.0), abs=0.03)
    assert image[SIZE[1] // 2 + 10, x] == pytest.approx((1.0, 0.0, 0.0), abs=0.03)


# Projections ------------------------------------------------------------------------------


def test_the_per_eye_projection_matches_the_hand_computed_matrix() -> None:
    """OpenXR's angles left -0.9, right 0.7, up 0.8, down -0.75 rad; near 0.1, far 100.
    Tangents l, r, t, d = -1.2601582, 0.8422884, 1.0296386, -0.9315965, worked by hand into
    2/(r-l), (r+l)/(r-l), 2/(t-d), (t+d)/(t-d), -(f+n)/(f-n), -2fn/(f-n)."""
    expected = np.array(
        [
            [0.9512727, 0.0, -0.1987541, 0.0],
            [0.0, 1.0197656, 0.0499900, 0.0],
            [0.0, 0.0, -1.0020020, -0.2002002],
            [0.0, 0.0, -1.0, 0.0],
        ]
    )
    projection = fov_projection(-0.9, 0.7, 0.8, -0.75, near=0.1, far=100.0)
    assert projection == pytest.approx(expected, abs=1e-6)
    # the frustum's edges land on the edges of the picture, near plane at depth -1
    corner = projection @ np.array([0.1 * -1.2601582, 0.1 * 1.0296386, -0.1, 1.0])
    assert corner[:3] / corner[3] == pytest.approx((-1.0, 1.0, -1.0), abs=1e-6)


@pytest.mark.parametrize("aspect", [16 / 9, 4 / 3, 1.0, 0.75])
def test_the_preview_sees_90_degrees_across_whatever_the_window(aspect: float) -> None:
    """As a headset eye and a desktop game: 90 degrees across, the vertical angle from the
    window's shape; in a 16:9 window that is 59 degrees up and down, not 90."""
    projection = preview_view(Pose.identity(), aspect).projection
    assert projection[0, 0] == pytest.approx(1.0)  # 1 / tan(45 degrees): 90 across
    assert projection[1, 1] == pytest.approx(aspect)  # and the pixels stay square
    assert math.degrees(2 * math.atan(1 / projection[1, 1])) == pytest.approx(
        math.degrees(2 * math.atan(1 / aspect))
    )


def test_the_preview_projection_is_the_usual_symmetric_one() -> None:
    p = perspective(math.radians(90), 16 / 9, 0.05, 200.0)
    f = 1 / math.tan(math.radians(45))
    assert p[0, 0] == pytest.approx(f * 9 / 16) and p[1, 1] == pytest.approx(f)
    assert p[0, 2] == 0 and p[1, 2] == 0
    with pytest.raises(ValueError, match="near < far"):
        fov_projection(-0.5, 0.5, 0.5, -0.5, near=1.0, far=0.5)


def test_the_view_matrix_takes_the_world_into_the_eye() -> None:
    turned = Pose(spatial.vec3(1.0, 2.0, 3.0), spatial.yaw_rotation(math.pi / 2))  # facing -X
    ahead = View(turned, perspective(1.0, 1.0)).view_projection() @ np.array([-1.0, 2.0, 3.0, 1])
    assert ahead[0] / ahead[3] == pytest.approx(0.0, abs=1e-12)
    assert ahead[1] / ahead[3] == pytest.approx(0.0, abs=1e-12)


# What is drawn ----------------------------------------------------------------------------


def moving_matrices(batches: list[Batch]) -> np.ndarray:
    return np.vstack([b.moving for b in batches if len(b.moving)]).reshape(-1, 4, 4)


def test_moving_things_are_drawn_between_their_last_two_fixed_steps() -> None:
    world = World()
    quarter = spatial.yaw_rotation(math.pi / 2)
    world.spawn(
        Transform(spatial.vec3(2.0, 0.0, 0.0), quarter),
        PreviousTransform(spatial.vec3(0.0, 0.0, 0.0), spatial.identity()),
        Colliders(Collider(Sphere(0.5))),
        Prop("ball"),
    )
    world.add_plugin(DrawnPlugin())
    instances = SceneInstances()
    place_drawn(world, alpha=0.25)
    (matrix,) = moving_matrices(instances.collect(world))  # column-major rows
    assert matrix[3, :3] == pytest.approx((0.5, 0.0, 0.0))
    place_drawn(world, alpha=0.5)
    (matrix,) = moving_matrices(instances.collect(world))
    # half of a quarter turn about +Y, scaled by the radius: the first column is (cos, 0, -sin)
    angle = math.pi / 4
    assert matrix[0, :3] == pytest.approx((0.5 * math.cos(angle), 0.0, -0.5 * math.sin(angle)))
    world.fixed_time.alpha = 1.0
    world.run_phase(Phase.LATE)  # the LATE system places at the frame's alpha
    (matrix,) = moving_matrices(instances.collect(world))
    assert matrix[3, :3] == pytest.approx((2.0, 0.0, 0.0))


def test_each_moving_thing_is_drawn_at_its_own_row_of_the_drawn_poses() -> None:
    """Whatever order LATE's rows are in: every entity placed in order (drawn from LATE's
    arrays as they are), out of order, or some not placed (drawn at their Transform)."""
    world = World()
    props = [
        world.spawn(
            Transform(spatial.vec3(0.0, 0.0, -i)), Colliders(Collider(Sphere(0.1))), Prop(f"p{i}")
        )
        for i in range(3)
    ]
    instances = SceneInstances()
    for version, rows in enumerate(([0, 1, 2], [2, 0, 1], [1, 0], [3, 4, 5])):
        placed = dict(zip(props, rows, strict=False))
        at = np.arange(6.0)[:, None] * (1.0, 10.0, 0.0)  # row r drawn at (r, 10 r, 0)
        world.insert_resource(
            DrawnPoses(placed, at, np.tile((0.0, 0.0, 0.0, 1.0), (6, 1)), version=version)
        )
        drawn = moving_matrices(instances.collect(world))[:, 3, :3]
        expected = [at[placed[e]] if e in placed else (0.0, 0.0, -i) for i, e in enumerate(props)]
        np.testing.assert_array_equal(drawn, expected)


def test_rotations_between_steps_match_slerp_for_a_step_worth_of_turn() -> None:
    """Drawn between two fixed steps 5 degrees apart (a fast spin), the rotation is slerp's
    to a few millionths, and trs_many's matrices are rotations: orthonormal, scaled per axis."""
    rng = np.random.default_rng(7)
    start = spatial.normalize_many(rng.normal(size=(200, 4)))
    step = spatial.from_axis_angle_many(rng.normal(size=(200, 3)), np.full(200, math.radians(5)))
    end = spatial.multiply_many(step, start) * np.where(rng.random(200) < 0.5, -1, 1)[:, None]

    def matrices(xyzw: np.ndarray, scale: tuple[float, float, float] = (1, 1, 1)) -> np.ndarray:
        rotations = spatial.quat_rows([spatial.quat_from_xyzw(q) for q in xyzw])  # as drawn
        scales = np.broadcast_to(scale, (len(xyzw), 3))
        return trs_many(np.zeros((len(xyzw), 3)), rotations, scales, np.zeros((len(xyzw), 4, 4)))

    for t in (0.1, 0.37, 0.5, 0.9):
        drawn = matrices(spatial.nlerp_many(start, end, t))
        assert drawn == pytest.approx(matrices(spatial.slerp_many(start, end, t)), abs=5e-6)
    axes = matrices(start, (1, 2, 3))[:, :3, :3]  # column-major: row c is the image of axis c
    gram = np.einsum("nij,nkj->nik", axes, axes)
    assert gram == pytest.approx(np.broadcast_to(np.diag([1.0, 4.0, 9.0]), gram.shape))
    points = rng.normal(size=(200, 3))
    rotated = np.einsum("ncr,nc->nr", matrices(start)[:, :3, :3], points)
    assert rotated == pytest.approx(spatial.rotate_many(start, points))


def test_shapes_are_drawn_as_physics_sees_them() -> None:
    world = World()
    offset = Pose(spatial.vec3(0.0, 1.0, 0.0), spatial.identity())
    world.spawn(
        Transform(spatial.vec3(5.0, 0.0, 0.0)),
        Colliders(
            Collider(Capsule(0.25, 1.5), offset=offset),
            Collider(Sphere(0.4), sensor=True),  # sensors are invisible
        ),
        Prop("pawn"),
    )
    world.spawn(Transform(), CharacterBody(), Colliders(Collider(Capsule(0.3, 1.8))))  # never
    batches = SceneInstances().collect(world)
    (matrix,) = moving_matrices(batches)
    assert np.diag(matrix)[:3] == pytest.approx((0.25, 0.25, 0.25))  # a 1:6 unit capsule
    assert matrix[3, :3] == pytest.approx((5.0, 1.0, 0.0))
    (batch,) = [b for b in batches if len(b.moving)]
    heights = batch.mesh.vertices[:, 1]
    assert (heights.min(), heights.max()) == pytest.approx((-3.0, 3.0))


def test_a_part_replaced_cut_or_reshaped_is_drawn_as_the_body_now_is() -> None:
    """Replacing a collider part by one of another shape (a crate grown, a capsule crouched)
    keeps the count of parts, so the layout must learn of it from the change the world
    recorded, as physics does; a new friction or layer is nothing drawn, and lays nothing out
    anew."""
    world = World()
    crate = world.spawn(Transform(), Colliders(Collider(Box((1.0, 1.0, 1.0)))), Prop("crate"))
    instances = SceneInstances()

    def sizes() -> list[list[float]]:
        return [np.diag(m)[:3].tolist() for m in moving_matrices(instances.collect(world))]

    assert sizes() == [[1.0, 1.0, 1.0]]
    world.get_mut(crate, Colliders).parts[0] = Collider(Box((2.0, 3.0, 4.0)))
    assert sizes() == [[2.0, 3.0, 4.0]]
    world.get_mut(crate, Colliders).parts.append(Collider(Sphere(0.5)))
    assert sorted(sizes()) == [[0.5, 0.5, 0.5], [2.0, 3.0, 4.0]]
    world.get_mut(crate, Colliders).parts.pop(0)
    assert sizes() == [[0.5, 0.5, 0.5]]
    parts = world.get_mut(crate, Colliders).parts
    parts[0] = replace(parts[0], shape=Sphere(0.25))
    assert sizes() == [[0.25, 0.25, 0.25]]
    laid_out = instances.collect(world)[0].version
    parts = world.get_mut(crate, Colliders).parts
    parts[0] = replace(parts[0], friction=0.0, layer="held")
    assert instances.collect(world)[0].version == laid_out


def test_a_part_at_an_offset_is_drawn_where_the_same_part_stands_at_the_composed_pose() -> None:
    """Most parts sit at their body's origin and their offset only scales the unit mesh; those
    are placed by scaling, the rest by a full product: both must agree on where a box is."""
    world = World()
    body = Pose(spatial.vec3(1.0, 2.0, -3.0), spatial.from_axis_angle(spatial.vec3(1, 2, 3), 0.7))
    offset = Pose(spatial.vec3(0.2, -0.5, 0.1), spatial.yaw_rotation(0.9))
    size = (0.2, 0.4, 0.6)
    world.spawn(
        Transform(body.position, body.rotation),
        Colliders(Collider(Box(size), offset=offset)),
        Prop("offset"),
    )
    placed = spatial.compose(body, offset)
    world.spawn(Transform(placed.position, placed.rotation), Colliders(Collider(Box(size))))
    at_offset, composed = moving_matrices(SceneInstances().collect(world))
    np.testing.assert_allclose(at_offset, composed, atol=1e-6)
    assert np.diag(composed)[:3] != pytest.approx(size)  # turned: not a bare scale


def figures(world: World) -> tuple[int, int, int]:
    """A head and two hands drawn as the renderer's models (the controllers shown)."""
    head = world.spawn(Transform(), Figure(Model.HEAD))
    left = world.spawn(Transform(), Figure(Model.LEFT_CONTROLLER))
    right = world.spawn(Transform(), Figure(Model.RIGHT_CONTROLLER))
    return head, left, right


def test_scenery_is_placed_once_and_figures_are_the_renderers_models() -> None:
    world = World()
    box(world, (0, -0.1, 0), (10, 0.2, 10), Scenery("floor"))
    figures(world)
    instances = SceneInstances()
    batches = instances.collect(world)
    assert sum(len(b.scenery) for b in batches) == 1
    hands = [b for b in batches if b.material == instances.palette.hand]
    assert [len(b.moving) for b in hands] == [1, 1]  # a model for each hand, mirrored
    assert {b.mesh for b in hands} == {
        controller_mesh(None, DeviceRole.LEFT_HAND),
        controller_mesh(None, DeviceRole.RIGHT_HAND),
    }
    head_count = sum(len(b.moving) for b in batches if b.material == instances.palette.head)
    assert head_count == 1
    again = instances.collect(world)
    assert again[0].version == batches[0].version  # nothing changed: no new layout
    box(world, (0, 1, -3), (1, 1, 1), Prop("crate"))
    assert instances.collect(world)[0].version != batches[0].version


def test_a_hand_that_is_not_tracked_is_not_drawn(gl: Context) -> None:
    """A hand the tracker has lost, or never found (a bare-hands player who keeps one hand
    out of view), is not drawn at its Transform (its last pose, or the rig's origin: a stray
    controller at the player's feet), as XRI and Godot hide a lost controller; it is drawn
    again once it is tracked."""
    world = World()
    rig = shown_player(world)
    across = spatial.from_axis_angle(spatial.vec3(0, 1, 0), math.pi / 2)  # seen side on
    hand = world.get(rig.left_hand, Transform)
    hand.position, hand.rotation = spatial.vec3(0.0, 0.0, -0.3), across
    palette = Palette(hand=RED)

    def red_pixels() -> int:
        world.run_phase(Phase.LATE)
        image = draw(gl, world, palette=palette)
        return int((np.abs(image - [1.0, 0.0, 0.0]).max(axis=2) < 0.05).sum())

    assert red_pixels() == 0
    world.get(rig.left_hand, TrackedDevice).tracked = True
    assert red_pixels() > 20
    world.get(rig.left_hand, TrackedDevice).tracked = False  # lost again
    assert red_pixels() == 0


def test_the_hands_are_the_bound_profiles_controllers() -> None:
    """Before a profile binds, the generic model; once the runtime binds Touch controllers,
    their model, from the next frame on."""
    world = World()
    figures(world)
    session = world.insert_resource(HeadsetSession())
    instances = SceneInstances()

    def right_hand_model() -> MeshData:
        (model,) = [
            b.mesh
            for b in instances.collect(world)
            if b.material == instances.palette.hand and b.mesh in right_models
        ]
        return model

    right_models = {controller_mesh(name, DeviceRole.RIGHT_HAND) for name in (None, "Meta Touch")}
    assert right_hand_model() == controller_mesh(None, DeviceRole.RIGHT_HAND)
    session.controllers = "Meta Touch"
    assert right_hand_model() == controller_mesh("Meta Touch", DeviceRole.RIGHT_HAND)
    assert right_hand_model() != controller_mesh(None, DeviceRole.RIGHT_HAND)


def test_the_playground_is_drawn_piece_by_piece() -> None:
    """Floor, wall, eight steps, platform and ramp as scenery; four props and the opponent
    moving; a head (a headset over a face), and two hands with fingers (each the hand model's
    skin, bent apart from the instances; the controllers hidden); the player's capsule and the
    grab sensors not at all."""
    world, _ = build_world(load_scene(PLAYGROUND), replay_source(None))
    world.step(1)
    instances = SceneInstances()
    batches = instances.collect(world)
    palette = instances.palette
    assert sum(len(b.scenery) for b in batches) == 12
    count = {palette.hand: 0, palette.head: 0, palette.skin: 0}
    for batch in batches:
        if batch.material in count:
            count[batch.material] += len(batch.moving)
    assert list(count.values()) == [0, 1, 1]  # the face is skin
    assert sum(len(b.moving) for b in batches) == 4 + 1 + 3 + 1
    hands = instances.skinned(world)
    assert len(hands) == 2 and not any(hand.ghost for hand in hands)
    assert {len(hand.joints) for hand in hands} == {26}


def test_a_ghost_moves_from_the_lit_instances_to_the_ghost_ones() -> None:
    world = World()
    crate = box(world, (0, 0, -3), (1, 1, 1), Prop("crate"))
    ghosts = world.insert_resource(Ghosts())
    instances = SceneInstances()
    (batch,) = instances.collect(world)
    assert (len(batch.moving), len(batch.ghosts)) == (1, 0)
    ghosts.entities.add(crate)
    (batch,) = instances.collect(world)
    assert (len(batch.moving), len(batch.ghosts)) == (0, 1)


CUBE = tuple((x, y, z) for x in (0.0, 1.0) for y in (0.0, 1.0) for z in (0.0, 1.0))
SCATTERED = tuple(
    (float(x), float(y), float(z)) for x, y, z in np.random.default_rng(3).normal(size=(40, 3))
)


def hull_world(points: tuple[tuple[float, float, float], ...]) -> tuple[World, int]:
    """A world with physics (no gravity) and one body whose only collider is the hull of
    `points`, stepped once so the engine has built it."""
    world = physics_world(gravity=(0.0, 0.0, 0.0))
    body = world.spawn(Transform(), RigidBody(), Colliders(Collider(ConvexHull(points))))
    world.step(1)
    return world, body


def drawn_hull(points: tuple[tuple[float, float, float], ...]) -> meshes.MeshData:
    """The mesh a renderer draws for the hull of `points`, in a world with physics."""
    (batch,) = SceneInstances().collect(hull_world(points)[0])
    return batch.mesh


@pytest.mark.parametrize(
    "make",
    [
        meshes.box,
        meshes.plane,
        meshes.sphere,
        lambda: meshes.capsule(5.0),
        meshes.cylinder,
        lambda: drawn_hull(SCATTERED),
    ],
    ids=["box", "plane", "sphere", "capsule", "cylinder", "hull"],
)
def test_every_mesh_winds_counter_clockwise_from_outside(
    make: Callable[[], meshes.MeshData],
) -> None:
    mesh = make()
    corners = mesh.vertices[:, :3][mesh.indices]
    faces = np.cross(corners[:, 1] - corners[:, 0], corners[:, 2] - corners[:, 0])
    real = np.linalg.norm(faces, axis=1) > 1e-9  # a sphere's pole triangles have no area
    normals = mesh.vertices[:, 3:6][mesh.indices].mean(axis=1)
    assert (np.einsum("ij,ij->i", faces[real], normals[real]) > 0).all()


def test_a_convex_hull_collider_is_drawn_as_its_hull() -> None:
    mesh = drawn_hull((*CUBE, (0.5, 0.5, 0.5)))
    assert len(mesh.indices) == 12  # six faces of two triangles; the inner point is gone


def test_a_hull_is_drawn_with_rapiers_faces_not_an_exact_hull_of_its_points() -> None:
    # Points a millimetre above two faces: an exact hull raises a flat tent over each (16
    # triangles); Rapier merges them into the cube's faces, and that cube is what is drawn.
    mesh = drawn_hull((*CUBE, (0.5, 1.001, 0.5), (0.3, 0.7, 1.001)))
    assert len(mesh.indices) == 12
    drawn = {tuple(v) for v in mesh.vertices[:, :3].tolist()}
    assert drawn == set(CUBE)


def test_the_drawn_hull_is_the_surface_physics_collides_with() -> None:
    world, body = hull_world(SCATTERED)
    (batch,) = SceneInstances().collect(world)
    mesh = batch.mesh
    corners = mesh.vertices[:, :3].astype(np.float64)[mesh.indices]
    volume = np.einsum("ij,ij->i", corners[:, 0], np.cross(corners[:, 1], corners[:, 2])).sum() / 6
    assert volume == pytest.approx(physics(world).mass(body) / 1000.0, rel=1e-4)  # density 1000
    # Rays from all round at the middle hit the drawn surface: a point on a convex surface is
    # on the plane of some face and behind all the others.
    normals = mesh.vertices[mesh.indices[:, 0], 3:6].astype(np.float64)
    offsets = np.einsum("ij,ij->i", normals, corners[:, 0])
    middle = spatial.vec3(*corners.reshape(-1, 3).mean(axis=0))
    for direction in np.random.default_rng(5).normal(size=(50, 3)):
        towards = spatial.vec3(*direction)
        hit = physics(world).ray_cast(middle - towards * 10.0, towards, 100.0)
        assert hit is not None and hit.entity == body
        point = np.array([hit.point.x, hit.point.y, hit.point.z])
        assert abs(float((normals @ point - offsets).max())) < 1e-4


def test_a_hull_is_drawn_from_the_step_physics_builds_it() -> None:
    world = physics_world()
    world.spawn(Transform(), Colliders(Collider(ConvexHull(CUBE))))
    instances = SceneInstances()
    assert instances.collect(world) == []  # not built yet: nothing, rather than a guess
    world.step(1)
    (batch,) = instances.collect(world)
    assert len(batch.mesh.indices) == 12


def test_without_physics_a_hull_is_not_drawn_and_that_is_said_once(
    caplog: pytest.LogCaptureFixture,
) -> None:
    world = World()
    for x in (0.0, 3.0):
        world.spawn(Transform(spatial.vec3(x, 0, 0)), Colliders(Collider(ConvexHull(CUBE))))
    box(world, (0, 0, -3), (1, 1, 1))
    with caplog.at_level("WARNING", logger="playspace.render.instances"):
        (batch,) = SceneInstances().collect(world)
    assert len(batch.scenery) + len(batch.moving) == 1  # the box alone
    (record,) = caplog.records  # two hulls, one warning
    assert "without physics" in record.getMessage()


# Bad input --------------------------------------------------------------------------------


def test_a_missing_or_malformed_mesh_file_is_an_error_naming_it(tmp_path: Path) -> None:
    with pytest.raises(AssetError, match=r"no such file: .*nowhere\.obj"):
        load_mesh_file(tmp_path / "nowhere.obj")
    broken = tmp_path / "broken.obj"
    broken.write_text("v 0 0 0\nf 1 7 9\n")
    with pytest.raises(AssetError, match=r"broken\.obj"):
        load_mesh_file(broken)
    wrong = tmp_path / "model.fbx"
    wrong.write_text("")
    with pytest.raises(AssetError, match=r"model\.fbx: expected an OBJ"):
        load_mesh_file(wrong)


def test_a_missing_or_malformed_texture_is_an_error_naming_it(tmp_path: Path) -> None:
    with pytest.raises(AssetError, match=r"gone\.png: no such texture file"):
        load_texture(tmp_path / "gone.png")
    junk = tmp_path / "junk.png"
    junk.write_bytes(b"not a picture at all")
    with pytest.raises(AssetError, match=r"junk\.png: cannot read this image"):
        load_texture(junk)


def test_a_missing_gl_driver_says_which(tmp_path: Path) -> None:
    with pytest.raises(GLUnavailableError, match="libegl1"):
        create_context(libegl="libEGL-not-here.so.1")
    with pytest.raises(GLUnavailableError, match="libgl1"):
        create_context(libgl="libGL-not-here.so.1")


# Comfort ----------------------------------------------------------------------------------


def test_the_vignette_eases_in_while_carried_smoothly_and_has_an_off_switch() -> None:
    world = World(fixed_hz=90)
    rig = shown_player(world)
    comfort = Comfort(VignetteSettings(strength=0.6, ramp=0.1))
    world.step(1)
    assert comfort.update(world) == (0.0, 0.0)
    world.get(rig.origin, OriginMotion).continuous = True
    amounts = []
    for _ in range(12):
        world.step(1)
        amounts.append(comfort.update(world)[0])
    assert 0 < amounts[0] < 0.6 and amounts[-1] == pytest.approx(0.6)  # eased, not popped
    comfort.settings.enabled = False
    world.step(1)
    assert comfort.update(world)[0] == 0.0
    world.get(rig.head, ViewFade).amount = 0.7
    world.step(1)
    assert comfort.update(world)[1] == 0.7


@pytest.mark.parametrize(("mode", "vignette"), [("smooth", True), ("snap", False)])
def test_smooth_turning_brings_the_vignette_and_a_snap_turn_does_not(
    mode: str, vignette: bool
) -> None:
    run = player_world(
        lambda t: with_sticks(head_at(0.0, 1.7, 0.0), right=(1.0 if t > 0.1 else 0.0, 0.0)),
        settings=RigSettings(turn_mode=TurnMode(mode)),
    )
    comfort = Comfort(VignetteSettings(ramp=0.0))
    seen = []
    for _ in range(30):
        run.world.step(1)
        seen.append(comfort.update(run.world)[0])
    turned = abs(spatial.yaw(run.world.get(rig_of(run.world).origin, Transform).rotation))
    assert turned > 0.3  # it turned either way
    assert (max(seen) == comfort.settings.strength) is vignette


# The command ------------------------------------------------------------------------------


def playspace(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "playspace.cli", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.mark.slow
def test_a_headless_screenshot_of_the_playground(ctx: Context, tmp_path: Path) -> None:
    from PIL import Image

    shot = tmp_path / "shot.png"
    done = playspace("run", PLAYGROUND, "--headless", "--seconds", "0.2", "--screenshot", shot)
    assert done.returncode == 0, done.stderr
    assert f"screenshot in {shot}" in done.stdout
    with Image.open(shot) as picture:
        assert picture.size == (1280, 720)
        pixels = np.asarray(picture.convert("RGB"))
    assert len(np.unique(pixels.reshape(-1, 3), axis=0)) > 50  # sky, floor, stairs, props...
    sky, floor = pixels[10, 640], pixels[-10, 640]
    assert sky[2] > sky[0] and floor[1] > floor[2]  # blue above, the grass below


def test_numbered_frames_every_n_steps(ctx: Context, tmp_path: Path) -> None:
    """Frames are named by telemetry's `step` (from 0): the picture `step_000003.png` shows the
    state of the telemetry line with `"step": 3`."""
    frames, telemetry = tmp_path / "frames", tmp_path / "telemetry.jsonl"
    done = playspace(
        "run", PLAYGROUND, "--headless", "--seconds", "0.1", "--frames", frames, "--every", "3",
        "--telemetry", telemetry,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    steps = [step["step"] for step in read_telemetry(telemetry).steps]
    assert steps == list(range(9))  # 0.1 s at 90 Hz
    assert sorted(p.name for p in frames.iterdir()) == [
        "step_000000.png",
        "step_000003.png",
        "step_000006.png",
    ]
    assert "3 frames in" in done.stdout


def test_no_render_still_simulates_and_loads_no_gl(tmp_path: Path) -> None:
    shot = tmp_path / "shot.png"
    code = (
        "import sys; from playspace.cli import main; code = main(sys.argv[1:]); "
        "assert 'moderngl' not in sys.modules, 'no-render must not load GL'; sys.exit(code)"
    )
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            code,
            "run",
            str(PLAYGROUND),
            "--headless",
            "--seconds",
            "0.1",
            "--screenshot",
            str(shot),
            "--no-render",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "9 fixed steps" in done.stdout and "nothing drawn (--no-render)" in done.stdout
    assert not shot.exists()


def test_no_gl_is_exit_2_with_the_reason(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from playspace import cli
    from playspace.render import capture

    def refuse() -> object:
        raise GLUnavailableError("no OpenGL context: libEGL, the EGL loader, is missing")

    monkeypatch.setattr(capture, "create_context", refuse)
    status = cli.main(
        ["run", str(PLAYGROUND), "--headless", "--screenshot", str(tmp_path / "x.png")]
    )
    assert status == 2
    assert "libEGL, the EGL loader, is missing" in capsys.readouterr().err


def test_every_must_be_a_whole_number_of_steps(capsys: pytest.CaptureFixture[str]) -> None:
    from playspace import cli

    with pytest.raises(SystemExit) as exit_info:
        cli.main(["run", str(PLAYGROUND), "--headless", "--frames", "out", "--every", "0"])
    assert exit_info.value.code == 2
    assert "--every must be a whole number >= 1" in capsys.readouterr().err


def test_a_headset_eye_is_drawn_into_its_swapchain_image(gl: Context) -> None:
    """The OpenXR loop's drawer: an eye 1.6 m up, turned a quarter left, sees the red box that
    stands 3 m along its -Z; the swapchain image (a GL texture) is what it draws into."""
    from playspace.loops.eyes import headset_eyes
    from playspace.xr.views import EyeTarget, Fov

    world = World()
    box(world, (-3.0, 1.6, 0.0), (0.6, 0.6, 0.6), Prop("crate"))
    eye = Pose(spatial.vec3(0.0, 1.6, 0.0), spatial.yaw_rotation(math.pi / 2))
    image = gl.texture(SIZE, 4)
    renderer = Renderer(gl, lighting=UNLIT, sky=PLAIN_SKY, palette=Palette(prop=RED))
    try:
        draw_eye = headset_eyes(renderer)(world)
        target = EyeTarget(image.glo, None, SIZE[0], SIZE[1], 0x8058, None)  # GL_RGBA8
        draw_eye(eye, Fov(-0.8, 0.8, 0.7, -0.7), target)
        pixels = np.frombuffer(image.read(), dtype=np.uint8).reshape(SIZE[1], SIZE[0], 4)
        assert pixels[SIZE[1] // 2, SIZE[0] // 2, :3].tolist() == [255, 0, 0]
        assert pixels[0, 0, :3].tolist() == [round(c * 255) for c in BACKGROUND]
    finally:
        renderer.release()
        image.release()


@pytest.mark.parametrize(
    ("problem", "color"),
    [(None, "aim_valid"), (AimProblem.SLOPE, "aim_refused")],
    ids=["valid", "refused"],
)
def test_the_teleport_arc_and_its_target_are_drawn_green_or_red(
    gl: Context, problem: AimProblem | None, color: str
) -> None:
    """A teleport being aimed is seen: dots along the arc and a disc where it lands, green when
    the body can stand there and red when the teleport would be refused; nothing when no
    teleport is aimed."""
    world = World()
    rig = shown_player(world)
    down = spatial.from_axis_angle(spatial.vec3(1, 0, 0), -math.pi / 2)
    above = View(Pose(spatial.vec3(0.0, 2.0, -2.0), down), perspective(math.pi / 2, 1.5))
    palette = Palette(aim_valid=glow(Palette().aim_valid), aim_refused=glow(Palette().aim_refused))
    expected = shown(getattr(palette, color).color)
    world.run_phase(Phase.LATE)
    quiet = draw(gl, world, above, palette=palette)
    aim = world.get(rig.origin, TeleportAim)
    aim.aiming, aim.target, aim.problem = True, spatial.vec3(0.0, 0.0, -2.0), problem
    aim.arc = [spatial.vec3(0.0, 1.0 - 0.1 * i, -1.5 - 0.05 * i) for i in range(11)]
    world.run_phase(Phase.LATE)
    aimed = draw(gl, world, above, palette=palette)
    middle = (slice(SIZE[1] // 2 - 3, SIZE[1] // 2 + 4), slice(SIZE[0] // 2 - 3, SIZE[0] // 2 + 4))
    assert not (np.abs(quiet - expected).max(axis=2) < 0.05).any()
    marked = np.abs(aimed[middle] - expected).max(axis=2) < 0.05  # the disc, flat below
    assert marked.mean() > 0.8, aimed[middle][3, 3]


def test_what_a_hand_would_grab_is_drawn_highlighted(gl: Context) -> None:
    """What a feature highlights (the object a free hand would take if it gripped now) shows
    in the hover color; the same object not highlighted shows its own."""
    world = World()
    prop = world.spawn(
        Transform(spatial.vec3(0.0, 0.0, -2.0)),
        RigidBody(kind=BodyKind.KINEMATIC),
        Colliders(Collider(Box((0.6, 0.6, 0.6)))),
        Prop("pan"),
    )
    highlights = world.insert_resource(Highlights())
    palette = Palette(prop=RED, hover=glow(Palette().hover))
    plain = centre(draw(gl, world, palette=palette))
    highlights.entities.add(prop)
    highlighted = centre(draw(gl, world, palette=palette))
    assert plain == pytest.approx([1.0, 0.0, 0.0], abs=0.02)
    assert highlighted == pytest.approx(shown(palette.hover.color), abs=0.02)


def test_a_socket_that_would_take_the_held_object_shows_its_zone(gl: Context) -> None:
    """Held over a rack's hook, an object it accepts: the hook's zone shows, translucent, in
    the hover color (the sky behind it shows through); not while nothing is over it."""
    world = World()
    world.insert_resource(Highlights())
    world.insert_resource(Ghosts())
    world.insert_resource(HeldSensors())
    add_late_sets(world)
    world.add_systems(show_hands)
    rack = world.spawn(Transform(spatial.vec3(0.0, 0.0, -2.0)), Socket(zone=Sphere(0.5)))
    palette = Palette(hover=glow(Palette().hover))
    world.run_phase(Phase.LATE)
    empty = centre(draw(gl, world, palette=palette))
    world.get(rack, Socket).hovering = world.spawn()
    world.run_phase(Phase.LATE)
    shown_zone = centre(draw(gl, world, palette=palette))
    assert empty == pytest.approx(BACKGROUND, abs=0.02)
    hover = shown(palette.hover.color)
    assert np.abs(shown_zone - BACKGROUND).max() > 0.1  # something drawn over the sky...
    # ...tinted towards the hover color, not covering the sky
    assert np.abs(shown_zone - hover).max() < np.abs(BACKGROUND - hover).max()
    assert np.abs(shown_zone - hover).max() > 0.02
