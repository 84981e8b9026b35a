"""Text on screen and in the world, and the teleport's refusal in words: pixels drawn."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np
import pytest

from playspace import spatial
from playspace.components import Scenery, Transform
from playspace.components.physics import Box, Collider, Colliders
from playspace.components.rig import AimProblem, TeleportAim
from playspace.components.text import Label, ScreenText
from playspace.ecs import Phase, World
from playspace.render import Offscreen, Renderer, View, fov_projection, perspective
from playspace.render.quality import LOW
from playspace.render.text import FONT_PIXELS, MARKER_LABEL_COLOR, TextPass, rasterise
from playspace.spatial import Pose
from playspace.systems.player.looks import REASONS
from tests.rig_helpers import shown_player

if TYPE_CHECKING:
    from moderngl import Context

SIZE = (192, 128)
GREEN = (0.0, 1.0, 0.0, 1.0)
YELLOW = (1.0, 1.0, 0.0, 1.0)
RED = (1.0, 0.0, 0.0, 1.0)


def camera(pose: Pose | None = None) -> View:
    return View(pose or Pose.identity(), perspective(math.pi / 2, SIZE[0] / SIZE[1]))


def draw(gl: Context, world: World, *views: View, text: TextPass | None = None) -> list[np.ndarray]:
    """`world` drawn once per view (one frame): rows top-down, RGB floats in [0, 1]."""
    renderer = Renderer(gl, quality=LOW)
    renderer.add_pass(text or TextPass(gl))
    target = Offscreen(gl, SIZE)
    try:
        renderer.prepare(world)
        images = []
        for view in views or (camera(),):
            renderer.draw(view, target.framebuffer)
            images.append(target.read() / 255.0)
        return images
    finally:
        target.release()
        renderer.release()


def ink(image: np.ndarray, color: tuple[float, ...]) -> np.ndarray:
    """Where the picture shows text of `color` (pure primaries: nothing else in these scenes
    is that saturated): a (rows, columns) mask."""
    wanted = np.asarray(color[:3]) > 0.5
    mask: np.ndarray = np.all(np.where(wanted, image > 0.75, image < 0.3), axis=2)
    return mask


def test_a_label_shows_its_color_above_its_entity(gl: Context) -> None:
    world = World()
    crate = world.spawn(Transform(spatial.vec3(0.0, -0.4, -2.0)))
    (plain,) = draw(gl, world)
    world.add(crate, Label("HELLO", offset=0.5, height=0.25, color=GREEN))
    (labelled,) = draw(gl, world)
    assert not ink(plain, GREEN).any()
    rows, columns = np.nonzero(ink(labelled, GREEN))
    assert len(rows) > 30
    # the crate is at row 64 + 0.4 / 2 * 64 = 77; its label from 0.1 m up to 0.35 m up
    assert rows.max() < 64 - 0.05 / 2 * 64 and rows.min() > 64 - 0.45 / 2 * 64
    assert abs(columns.mean() - SIZE[0] / 2) < 6  # centred over it


def test_a_label_turns_to_face_the_viewer_and_hides_behind_walls(gl: Context) -> None:
    world = World()
    world.spawn(Transform(spatial.vec3(0.0, 0.0, -2.0)), Label("SIDE", height=0.4, color=GREEN))
    side = Pose(spatial.vec3(2.0, 0.3, -2.0), spatial.yaw_rotation(math.pi / 2))  # faces -X
    front, from_side = draw(gl, world, camera(), camera(side))
    assert ink(front, GREEN).sum() > 30
    assert ink(from_side, GREEN).sum() > 0.7 * ink(front, GREEN).sum()  # not edge-on
    world.spawn(Transform(spatial.vec3(0.0, 0.0, -1.0)), Colliders(Collider(Box((3, 3, 0.1)))),
                Scenery("wall"))  # fmt: skip
    (walled,) = draw(gl, world)
    assert not ink(walled, GREEN).any()


def test_screen_text_sits_top_left_in_every_view(gl: Context) -> None:
    """In the preview, turned, and in a headset's off-centre eye, the text is in the top left
    corner of the picture, in the same place whichever way the view faces."""
    world = World()
    world.insert_resource(ScreenText(["SCORE 10"], color=YELLOW, height=0.15))
    turned = Pose(spatial.vec3(3.0, 1.0, 2.0), spatial.yaw_rotation(2.0))
    eye = View(Pose.identity(), fov_projection(-0.9, 0.75, 0.85, -0.8))
    images = draw(gl, world, camera(), camera(turned), eye)
    masks = [ink(image, YELLOW) for image in images]
    for mask in masks:
        rows, columns = np.nonzero(mask)
        assert len(rows) > 20
        assert rows.max() < SIZE[1] / 3
        assert columns.min() < SIZE[0] / 3 and columns.mean() < SIZE[0] / 2
    assert (masks[0] == masks[1]).all()  # head-locked
    world.resource(ScreenText).lines = []
    (empty,) = draw(gl, world)
    assert not ink(empty, YELLOW).any()


def test_a_color_given_as_a_list_or_an_array_is_drawn_and_followed(gl: Context) -> None:
    """A game's color may be a list it changes in place or a numpy array; a kept renderer
    draws each frame in the color the text has then (the program compares what it last sent
    by value, and a list kept by reference would have been changed with it)."""
    color = [1.0, 1.0, 0.0, 1.0]
    world = World()
    screen = ScreenText(["SCORE 10"], color=color, height=0.15)  # type: ignore[arg-type]
    world.insert_resource(screen)
    renderer = Renderer(gl, quality=LOW)
    renderer.add_pass(TextPass(gl))
    target = Offscreen(gl, SIZE)
    shown: list[tuple[int, ...]] = []
    try:
        for green in (1.0, 0.0, 1.0, None):
            if green is None:
                screen.color = np.array(GREEN)  # type: ignore[assignment]
            else:
                color[1] = green  # yellow, red, yellow again
            renderer.prepare(world)
            renderer.draw(camera(), target.framebuffer)
            image = target.read() / 255.0
            shown.append(tuple(int(ink(image, c).sum() > 20) for c in (YELLOW, RED, GREEN)))
    finally:
        target.release()
        renderer.release()
    assert shown == [(1, 0, 0), (0, 1, 0), (1, 0, 0), (0, 0, 1)]


def test_unchanged_text_is_rasterised_once(gl: Context) -> None:
    text = TextPass(gl)
    world = World()
    world.insert_resource(ScreenText(["SCORE 1"]))
    crate = world.spawn(Transform(), Label("crate"))
    try:
        for _ in range(3):
            text.prepare(world)
        assert text.rasterised == 2
        world.resource(ScreenText).lines = ["SCORE 2"]
        world.get(crate, Label).color = GREEN  # tinted in the shader: not rasterised again
        text.prepare(world)
        assert text.rasterised == 3
    finally:
        text.release()


def test_rasterised_text_has_ink_and_grows_with_lines() -> None:
    one, (width, height) = rasterise("A")
    _, (_, taller) = rasterise("A\nB")
    assert len(one) == width * height and max(one) == 255 and min(one) == 0
    assert taller > height + FONT_PIXELS // 2


def aimed_world(problem: AimProblem | None) -> World:
    """A player aiming a teleport at a target 2 m ahead, refused for `problem`, as LATE shows
    it this frame."""
    world = World()
    rig = shown_player(world)
    aim = world.get(rig.origin, TeleportAim)
    aim.aiming, aim.target, aim.problem = True, spatial.vec3(0.0, 0.0, -2.0), problem
    aim.arc = [spatial.vec3(0.0, 1.0 - 0.1 * i, -1.0 - 0.1 * i) for i in range(11)]
    world.run_phase(Phase.LATE)
    return world


def test_a_refused_teleport_says_why_above_its_marker(gl: Context) -> None:
    """Aimed at a slope: the words over the red marker; aimed at good floor: no words."""
    down = spatial.from_axis_angle(spatial.vec3(1, 0, 0), -math.radians(25))
    view = camera(Pose(spatial.vec3(0.0, 0.8, -0.6), down))
    # the marker 1.4 m ahead, at row 64 + tan(25 - atan(0.8 / 1.4)) * 96 = 71 of 128; the
    # words 0.15 m to 0.3 m above it, up to 20 rows higher
    above = (slice(40, 71), slice(SIZE[0] // 2 - 50, SIZE[0] // 2 + 50))
    assert min(MARKER_LABEL_COLOR[:3]) > 0.65  # light ink: brighter than the floor and the haze
    (refused,) = draw(gl, aimed_world(AimProblem.SLOPE), view)
    (valid,) = draw(gl, aimed_world(None), view)
    assert (refused[above].min(axis=2) > 0.6).sum() > 10
    assert not (valid[above].min(axis=2) > 0.6).any()


def test_every_refusal_has_words() -> None:
    assert set(REASONS) == set(AimProblem)
    assert REASONS[AimProblem.SLOPE] == "too steep"


def test_bad_text_settings_are_named() -> None:
    with pytest.raises(ValueError, match="Label 'x': height"):
        Label("x", height=0.0)
    with pytest.raises(ValueError, match="ScreenText: color"):
        ScreenText(["a"], color=(2.0, 0.0, 0.0, 1.0))
