"""The physics debug view: Rapier's outlines filled only while shown, and drawn over the scene."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from playspace import spatial
from playspace.components import Scenery, Transform
from playspace.components.debug import PhysicsDebug
from playspace.components.physics import Box, Collider, Colliders, RigidBody
from playspace.ecs import World
from playspace.render import Offscreen, Renderer, View, perspective
from playspace.render.lines import DebugLinesPass
from playspace.render.quality import LOW
from playspace.spatial import Pose
from tests.physics_helpers import floor, physics_world

if TYPE_CHECKING:
    from moderngl import Context

SIZE = (96, 64)
ORANGE = (0.8, 0.4, 0.0)  # Rapier's color for fixed colliders (linear)
WHITE = (1.0, 1.0, 1.0)  # a contact's normal


def crate_on_floor() -> World:
    world = physics_world()
    floor(world)
    world.spawn(
        Transform(spatial.vec3(0.0, 0.3, 0.0)),
        RigidBody(mass=1.0),
        Colliders(Collider(Box((0.5, 0.5, 0.5)))),
    )
    world.step(60)  # resting on the floor: it has contacts
    return world


def has_color(lines: PhysicsDebug, color: tuple[float, float, float]) -> bool:
    return bool((np.abs(lines.colors[:, :3] - color).max(axis=1) < 0.01).any())


def test_physics_fills_the_lines_only_while_shown() -> None:
    world = crate_on_floor()
    debug = world.resource(PhysicsDebug)
    assert not debug.shown and debug.lines.shape == (0, 2, 3)  # hidden: nothing computed
    debug.shown = True
    world.step(1)
    assert debug.lines.shape[1:] == (2, 3) and len(debug.lines) >= 24  # two boxes' edges
    assert debug.colors.shape == (len(debug.lines), 4)
    assert has_color(debug, ORANGE) and has_color(debug, WHITE)  # the floor, a contact
    top = float(debug.lines[..., 1].max())
    assert 0.45 < top < 0.55  # the crate's top edge, resting on the floor at y = 0
    debug.contacts = False
    world.step(1)
    assert has_color(debug, ORANGE) and not has_color(debug, WHITE)
    debug.shown = False
    world.step(1)
    assert len(debug.lines) == 0 and len(debug.colors) == 0


def test_a_game_may_bring_its_own_debug_resource() -> None:
    from playspace.systems.physics import PhysicsPlugin

    world = World()
    mine = world.insert_resource(PhysicsDebug(shown=True))
    world.add_plugin(PhysicsPlugin())
    assert world.resource(PhysicsDebug) is mine


def draw(gl: Context, world: World) -> np.ndarray:
    renderer = Renderer(gl, quality=LOW)
    renderer.add_pass(DebugLinesPass(gl))
    target = Offscreen(gl, SIZE)
    try:
        renderer.prepare(world)
        view = View(Pose.identity(), perspective(math.pi / 2, SIZE[0] / SIZE[1]))
        renderer.draw(view, target.framebuffer)
        return target.read() / 255.0
    finally:
        target.release()
        renderer.release()


def encoded(linear: tuple[float, ...]) -> np.ndarray:
    """What a linear color is in the picture: the renderer writes sRGB."""
    c = np.asarray(linear)
    return np.where(c <= 0.0031308, 12.92 * c, 1.055 * c ** (1 / 2.4) - 0.055)


def orange_pixels(image: np.ndarray) -> int:
    return int((np.abs(image - encoded(ORANGE)).max(axis=2) < 0.03).sum())


def test_the_outlines_are_drawn_over_the_scene_only_while_shown(gl: Context) -> None:
    """A wall in front of the camera and a crate hidden behind it: shown, the wall's outline
    is drawn in Rapier's orange, and so is the hidden crate's (lines are drawn on top);
    hidden, no orange at all, even with lines left over from the last showing."""
    world = physics_world()
    world.spawn(Transform(spatial.vec3(0.0, 0.0, -2.0)), Colliders(Collider(Box((1, 1, 0.1)))),
                Scenery("wall"))  # fmt: skip
    world.spawn(Transform(spatial.vec3(0.0, 0.0, -3.0)), Colliders(Collider(Box((0.6,) * 3))),
                Scenery("crate"))  # fmt: skip
    world.step(1)
    hidden = draw(gl, world)
    debug = world.resource(PhysicsDebug)
    debug.shown = True
    world.step(1)
    shown = draw(gl, world)
    assert orange_pixels(hidden) == 0
    assert orange_pixels(shown) > 40
    # the wall's left edge, at x = -0.5 m, 1.95 m away: about a quarter of the way in
    column = round(SIZE[0] / 2 * (1 - 0.5 / 1.95 / (SIZE[0] / SIZE[1])))
    edge = shown[SIZE[1] // 2, column - 1 : column + 2]
    assert (np.abs(edge - encoded(ORANGE)).max(axis=1) < 0.03).any(), edge
    # the crate's outline, within 4 pixels of the middle, where the wall covers it
    middle = shown[SIZE[1] // 2 - 6 : SIZE[1] // 2 + 7, SIZE[0] // 2 - 6 : SIZE[0] // 2 + 7]
    assert orange_pixels(middle) > 8
    debug.shown = False  # the lines stay until the next frame's LATE: not drawn anyway
    assert orange_pixels(draw(gl, world)) == 0
