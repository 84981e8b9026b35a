"""Physics hands: a hand pushed into a table stops at its surface while the tracked hand goes
on and shows as a ghost; what it holds stays with the stopped hand; off, hands pass through."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np
import pytest

from playspace import spatial
from playspace.components import Transform
from playspace.components.drawn import DrawnPoses
from playspace.components.input import HandInput, InputFrame
from playspace.components.interaction import GrabSettings, Holding, PhysicsHand
from playspace.components.physics import Box
from playspace.ecs import World
from playspace.render import (
    GhostSettings,
    Lighting,
    Material,
    Offscreen,
    Palette,
    Renderer,
    Sky,
    View,
    perspective,
)
from playspace.render.instances import SceneInstances
from playspace.spatial import Pose
from playspace.systems.drawn import DrawnPlugin, place_drawn
from playspace.systems.interaction.hand_collision import SKIN
from tests.grab_helpers import grab_world, prop, right
from tests.hand_helpers import hand as bare_hand
from tests.physics_helpers import static
from tests.rig_helpers import Run, head_at, rig_of

if TYPE_CHECKING:
    from moderngl import Context

TOP = 0.9  # the table's top, metres
ABOVE = (0.25, 1.0, -0.4)  # the right hand, 10 cm over the table
HALF_THICK = 0.02  # half the default hand shape's thickness (GrabSettings.hand_shape)


def table(world: World) -> None:
    static(world, Box((1.0, 0.1, 0.6)), spatial.vec3(0.25, TOP - 0.05, -0.4))


def pushed_down(depth: float, grip: float = 0.0) -> Callable[[float], InputFrame]:
    """The hand comes down over 0.5 s from 10 cm above the table to `depth` below its top."""

    def script(t: float) -> InputFrame:
        y = ABOVE[1] - (ABOVE[1] - TOP + depth) * min(max(t - 0.2, 0.0) / 0.5, 1.0)
        return head_at(0.0, 1.7, 0.0, right=right((ABOVE[0], y, ABOVE[2]), grip))

    return script


def run_pushed(collide: bool | None, settings: bool = False) -> Run:
    run = grab_world(pushed_down(0.1), table)
    run.world.resource(GrabSettings).hand_collision = settings
    hand = run.world.get(rig_of(run.world).right_hand, PhysicsHand)
    hand.collide = collide
    run.world.step(90)
    return run


def right_hand(run: Run) -> tuple[int, PhysicsHand]:
    entity = rig_of(run.world).right_hand
    return entity, run.world.get(entity, PhysicsHand)


@pytest.mark.parametrize(("collide", "settings"), [(True, False), (None, True)])
def test_a_physics_hand_stops_at_the_table_and_the_tracked_hand_goes_on(
    collide: bool | None, settings: bool
) -> None:
    """Pushed 10 cm into the table, the hand (per hand or for every hand) rests on its top;
    the tracked hand is 10 cm in and the hand says it is blocked."""
    run = run_pushed(collide, settings)
    entity, hand = right_hand(run)
    assert hand.physical is not None and hand.controller is not None
    bottom = hand.physical.position.y - HALF_THICK
    assert bottom == pytest.approx(TOP + SKIN, abs=5e-4)  # on the surface, a skin's width over
    assert hand.controller.position.y == pytest.approx(TOP - 0.1, abs=1e-6)
    assert hand.blocked
    assert run.world.get(entity, Transform).position == hand.physical.position  # what grabs


def test_a_bare_hand_laid_palm_down_stops_on_the_table_as_flat_as_it_is() -> None:
    """A hand tracker's bare hand, palm down, fingers forward, lowered 10 cm into the table:
    the flat hand's underside (the palm, less half the shape's 4 cm thickness) rests on the
    top, as a controller's does. (Its pose is the palm's, whose X is the palm's normal as in
    OpenXR's grip pose: the shape unturned stood its 8 cm across the knuckles on end, and the
    hand stopped in the air over the table.)"""

    def script(t: float) -> InputFrame:
        held = pushed_down(0.1)(t).right.pose
        assert held is not None
        x, y, z = held.pose.position
        return head_at(0.0, 1.7, 0.0, right=HandInput(joints=bare_hand((x, y, z))))

    run = grab_world(script, table)
    run.world.resource(GrabSettings).hand_collision = True
    run.world.step(90)
    _, hand = right_hand(run)
    assert hand.physical is not None and hand.controller is not None and hand.blocked
    assert hand.controller.position.y == pytest.approx(TOP - 0.1, abs=1e-6)  # the palm joint
    bottom = hand.physical.position.y - HALF_THICK
    assert bottom == pytest.approx(TOP + SKIN, abs=5e-4)


def test_without_the_option_the_hand_passes_through_as_before() -> None:
    run = run_pushed(None, settings=False)
    entity, hand = right_hand(run)
    assert run.world.get(entity, Transform).position.y == pytest.approx(TOP - 0.1, abs=1e-6)
    assert not hand.blocked and hand.physical is None and hand.controller is None


def test_a_per_hand_no_overrides_the_setting() -> None:
    run = run_pushed(False, settings=True)
    _, hand = right_hand(run)
    assert not hand.blocked and hand.physical is None


def test_the_hand_slides_along_the_table_and_comes_back_when_lifted() -> None:
    """Inside the table the physics hand still follows sideways (it slides on the top); lifted
    out, it is back with the tracked hand and no longer blocked."""

    def script(t: float) -> InputFrame:
        x = ABOVE[0] + 0.2 * min(max(t - 1.0, 0.0), 1.0)  # 20 cm sideways, 5 cm deep
        y = TOP - 0.05 if 0.3 < t < 2.2 else ABOVE[1]
        return head_at(0.0, 1.7, 0.0, right=right((x, y, ABOVE[2]), 0.0))

    run = grab_world(script, table)
    run.world.resource(GrabSettings).hand_collision = True
    run.world.step(round(2.1 * 90))
    _, hand = right_hand(run)
    assert hand.physical is not None and hand.blocked
    assert hand.physical.position.x == pytest.approx(ABOVE[0] + 0.2, abs=1e-3)
    assert hand.physical.position.y - HALF_THICK == pytest.approx(TOP + SKIN, abs=5e-4)
    run.world.step(round(0.3 * 90))
    assert hand.physical is not None and hand.controller is not None and not hand.blocked
    assert spatial.length(hand.physical.position - hand.controller.position) < 1e-9


def test_what_the_hand_holds_stays_with_the_stopped_hand() -> None:
    """A ball held while the hand is pushed into the table stays over the table with the
    physics hand, not with the tracked hand inside it."""

    def build(world: World) -> None:
        table(world)
        prop(world, "ball", spatial.vec3(*ABOVE), gravity_scale=0.0)

    run = grab_world(pushed_down(0.1, grip=1.0), build)
    run.world.resource(GrabSettings).hand_collision = True
    run.world.step(90)
    entity, hand = right_hand(run)
    held = run.world.get(entity, Holding).object
    assert held is not None and hand.physical is not None
    ball = run.world.get(held, Transform).position
    assert spatial.length(ball - hand.physical.position) < 1e-6
    assert ball.y > TOP


def test_the_renderer_draws_the_blocked_tracked_hand_as_a_ghost() -> None:
    """What is drawn: one ghost controller at the tracked pose while the hand is blocked, none
    without the option."""
    for on in (True, False):
        run = run_pushed(None, settings=on)
        _, hand = right_hand(run)
        batches = SceneInstances().collect(run.world)
        ghosts = [b.ghosts for b in batches if len(b.ghosts)]
        if not on:
            assert ghosts == []
            continue
        assert len(ghosts) == 1 and len(ghosts[0]) == 1
        assert hand.controller is not None
        where = ghosts[0][0][12:15]  # column-major: the translation column
        assert tuple(where) == pytest.approx(tuple(hand.controller.position), abs=1e-5)


def test_a_stopped_hand_is_drawn_where_it_stopped_not_inside_the_table() -> None:
    """Late placement draws the hands from the freshest tracked poses; a blocked physics hand
    is drawn shifted by its step's gap, on the table, with its ghost at the tracked pose."""
    run = grab_world(pushed_down(0.1), table)
    run.world.resource(GrabSettings).hand_collision = True
    run.world.add_plugin(DrawnPlugin())
    run.world.step(90)
    entity, hand = right_hand(run)
    place_drawn(run.world, 1.0)
    drawn = run.world.resource(DrawnPoses).pose(entity)
    assert drawn is not None and hand.physical is not None
    assert drawn.position.y == pytest.approx(hand.physical.position.y, abs=1e-3)
    assert drawn.position.y > TOP  # above the top, where the tracked hand is 10 cm below it


def test_a_blocked_hand_is_drawn_on_the_table_and_its_ghost_inside_it(gl: Context) -> None:
    """Seen from the side, pushed 10 cm into the table: the solid hand in the hand's color
    just over the top, and its ghost tinting the table's side where the tracked hand is. (The
    ghost is the hand's own model and material: uploaded as a batch of its own, it took the
    solid hand's place, and only the ghost was drawn.)"""
    run = run_pushed(None, settings=True)
    _, hand = right_hand(run)
    assert hand.blocked and hand.physical is not None and hand.controller is not None
    red, grey = (1.0, 0.0, 0.0), (0.5, 0.5, 0.5)
    hand_look, table_look = (
        Material((*red, 1.0), emissive=red),
        Material((*grey, 1.0), emissive=grey),
    )
    palette = Palette(hand=hand_look, other=table_look)  # the table is a plain collider
    dark = (0.0, 0.0, 0.0)
    size = (96, 64)
    look_left = spatial.from_axis_angle(spatial.vec3(0, 1, 0), math.pi / 2)  # -Z turned to -X
    eye = spatial.vec3(ABOVE[0] + 0.75, TOP + 0.02, ABOVE[2])
    view = View(Pose(eye, look_left), perspective(math.radians(40), size[0] / size[1]))
    renderer = Renderer(
        gl,
        palette=palette,
        lighting=Lighting(color=dark, sky=dark, ground=dark),  # emissive colors exactly
        sky=Sky(dark, dark, dark, sun=dark),
        ghost=GhostSettings(in_front=1.0, behind=1.0, facing_alpha=1.0),
    )
    target = Offscreen(gl, size)
    try:
        renderer.prepare(run.world)
        renderer.draw(view, target.framebuffer)
        image = target.read() / 255.0
    finally:
        target.release()
        renderer.release()

    def seen(position: spatial.Vec3) -> np.ndarray:
        clip = view.view_projection() @ np.array([position.x, position.y, position.z, 1.0])
        x, y = clip[:2] / clip[3]
        pixel: np.ndarray = image[round((1 - y) / 2 * size[1]), round((x + 1) / 2 * size[0])]
        return pixel

    table_side = seen(spatial.vec3(ABOVE[0], TOP - 0.05, ABOVE[2] + 0.2))  # no hand before it
    assert table_side == pytest.approx([0.735, 0.735, 0.735], abs=0.02)  # grey, sRGB-encoded
    assert seen(hand.physical.position) == pytest.approx([1.0, 0.0, 0.0], abs=0.02)
    ghost = seen(hand.controller.position + spatial.vec3(0.0, 0.01, 0.0))  # inside the table
    assert ghost[0] > table_side[0] + 0.05 and ghost[1] < table_side[1] - 0.1  # tinted red
