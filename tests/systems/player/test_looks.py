"""How the players look, said in LATE for whatever draws them: the view of the player this
process shows, every player's controllers and teleport aim."""

from __future__ import annotations

import math

from playspace import spatial
from playspace.components.drawn import DrawnPoses, DrawnView, Figure, Markers, Tint
from playspace.components.input import HandInput, InputFrame
from playspace.components.physics import Box, Cylinder
from playspace.components.rig import Separation, ViewFade
from playspace.components.scene import PlayerStart
from playspace.ecs import World
from playspace.systems.drawn import DrawnPlugin
from playspace.systems.input import ScriptedSource, hand_input
from playspace.systems.player import spawn_player
from tests.physics_helpers import static
from tests.rig_helpers import aiming_hand, head_at, rig_of, rig_world, walking, with_sticks


def test_an_aimed_teleport_shows_its_arc_and_target_green_and_nothing_once_let_go() -> None:
    """Aimed at the floor ahead: dots along the arc and a disc on the floor where it lands,
    in the aim's valid tint, with no words; the stick let go, the teleport is made and
    nothing is shown any more."""

    def script(t: float) -> InputFrame:
        stick = (0.0, 1.0) if t < 0.5 else (0.0, 0.0)
        hand = HandInput(aiming_hand((0.2, 1.2, -0.2), math.radians(20)), stick=stick)
        return with_sticks(head_at(0.0, 1.7, 0.0, right=hand), right=stick)

    run = rig_world(script)
    run.world.step(30)
    markers = run.world.get(rig_of(run.world).origin, Markers)
    dots, disc = markers.shown
    assert dots.tint is disc.tint is Tint.VALID and len(dots.poses) > 3
    assert isinstance(disc.shape, Cylinder) and disc.label is None
    (landing,) = disc.poses
    assert landing.position.y < 0.05 and landing.position.z < -1.0  # on the floor, ahead
    run.world.step(30)
    assert markers.shown == [] and run.events("teleported")


def test_a_refused_teleport_is_red_and_says_why() -> None:
    """Aimed at a wall's face (no floor to stand on): the refused tint, and the reason in the
    player's words written over the target."""

    def script(t: float) -> InputFrame:
        hand = HandInput(aiming_hand((0.2, 1.2, -0.2), math.radians(5)), stick=(0.0, 1.0))
        return with_sticks(head_at(0.0, 1.7, 0.0, right=hand), right=(0.0, 1.0))

    def build(world: World) -> None:
        static(world, Box((4.0, 3.0, 0.2)), spatial.vec3(0.0, 1.5, -2.0))

    run = rig_world(script, build=build)
    run.world.step(30)
    _, disc = run.world.get(rig_of(run.world).origin, Markers).shown
    assert disc.tint is Tint.REFUSED and disc.label == "too steep"


def test_the_view_is_the_shown_players_head_as_drawn_and_how_dark_it_is() -> None:
    """Walking into a wall: the view's head is where late placement drew the head, its fade
    the head's, and while the player is walled in, how far the head is from the body."""

    def build(world: World) -> None:
        static(world, Box((4.0, 2.5, 0.2)), spatial.vec3(0, 1.25, -1.1))  # near face z = -1

    run = rig_world(walking(0.5), build=build, plugins=(DrawnPlugin(),))
    view, rig = run.world.resource(DrawnView), rig_of(run.world)
    run.world.step(10)
    assert view.head == run.world.resource(DrawnPoses).pose(rig.head)
    assert view.fade == 0.0 and view.walled_in is None
    run.world.step(round(3.5 * 90))
    separation = run.world.get(rig.body, Separation)
    assert separation.blocked and view.walled_in == separation.distance > 0.2
    assert view.fade == run.world.get(rig.head, ViewFade).amount == 1.0


def test_every_players_controllers_show_only_while_tracked() -> None:
    """A controller the tracker lost, or never found, is not drawn (XRI and Godot hide one),
    whoever's it is: the shown player's left hand, another player's until it is found."""

    def other(t: float) -> InputFrame:
        found = hand_input((2.2, 0.9, 0.0)) if t > 0.5 else HandInput()
        return head_at(0.0, 1.7, 0.0, left=found)

    run = rig_world(lambda t: head_at(0.0, 1.7, 0.0, left=HandInput()))
    world = run.world
    them = spawn_player(world, ScriptedSource(other), PlayerStart(spatial.vec3(2, 0, 0)))
    me = rig_of(world)

    def shown(entity: int) -> bool:
        return world.get(entity, Figure).shown

    assert not shown(me.right_hand)  # before any frame: not tracked yet
    world.step(10)
    assert shown(me.right_hand) and not shown(me.left_hand)
    assert shown(them.right_hand) and not shown(them.left_hand)
    world.step(60)
    assert shown(them.left_hand)
