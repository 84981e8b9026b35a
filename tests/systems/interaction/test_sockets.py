"""Sockets and snap zones on real Rapier, driven by scripted hands and checked as a player
sees them: where the tool is, step by step, in the telemetry."""

from __future__ import annotations

import math

import pytest

from playspace import spatial
from playspace.components import Transform
from playspace.components.drawn import Markers, Tint
from playspace.components.input import InputFrame
from playspace.components.interaction import Grabbable
from playspace.components.physics import (
    BodyKind,
    Box,
    Capsule,
    Colliders,
    PreviousTransform,
    RigidBody,
    Sphere,
)
from playspace.components.sockets import Socket
from playspace.ecs import World
from playspace.spatial import Pose
from playspace.systems.interaction.events import SOCKET_EVENTS
from tests.grab_helpers import HAND, grab_world, named, prop, right
from tests.physics_helpers import physics
from tests.rig_helpers import Run, head_at, rig_of, with_sticks

RACK = (0.25, 1.1, -0.55)  # a hook on the rack, in reach of the right hand
# where a socketed tool sits: 2 cm above the hook's centre, turned a quarter about +Y
SNAP = Pose(spatial.vec3(0.0, 0.02, 0.0), spatial.from_axis_angle(spatial.vec3(0, 1, 0), 1.5708))
SNAPPED = (RACK[0], RACK[1] + 0.02, RACK[2])
ASIDE = (0.45, 1.1, -0.3)  # where the hand drops the tool, away from the rack


def between(a: tuple[float, ...], b: tuple[float, ...], k: float) -> tuple[float, float, float]:
    k = min(max(k, 0.0), 1.0)
    x, y, z = (p + (q - p) * k for p, q in zip(a, b, strict=True))
    return (x, y, z)


def tool(world: World, tags: frozenset[str], at: tuple[float, float, float] = HAND) -> int:
    entity = prop(world, "wrench", spatial.vec3(*at), Box((0.04, 0.04, 0.2)))
    world.get(entity, Grabbable).tags = tags
    return entity


def rack(world: World, **socket: object) -> int:
    return world.spawn(
        Transform(position=spatial.vec3(*RACK)),
        Socket(Sphere(0.08), SNAP, frozenset({"tool"}), **socket),  # type: ignore[arg-type]
    )


def path(run: Run, name: str = "wrench") -> list[list[float]]:
    return [o["p"] for s in run.steps() for o in s["objects"] if o["name"] == name]


def steps_of(run: Run, kind: str) -> list[int]:
    return [s["step"] for s in run.steps() for e in s["events"] if e["type"] == kind]


def hang_it_on_the_rack(t: float) -> InputFrame:
    """Grab the tool at the hand, carry it to the rack, let go there, take the hand away."""
    k = (t - 0.3) / 0.4 if t < 1.2 else 1.0 - (t - 1.2) / 0.3
    return head_at(
        0.0, 1.7, 0.0, right=right(between(HAND, RACK, k), 1.0 if 0.1 < t < 1.0 else 0.0)
    )


@pytest.mark.parametrize(
    ("tags", "snaps"), [({"tool"}, True), ({"food"}, False)], ids=["a tool", "control: food"]
)
def test_a_tool_let_go_over_the_rack_snaps_into_place_and_stays(
    tags: set[str], snaps: bool
) -> None:
    """Let go inside the hook's zone, the tool jumps to the snap pose and stays there while
    physics runs on (it never falls); the rack lights up while the held tool is over it. An
    object the rack does not accept falls to the floor as usual, and the rack stays dark."""
    run = grab_world(
        hang_it_on_the_rack, lambda w: (tool(w, frozenset(tags)), rack(w)), SOCKET_EVENTS
    )
    run.world.step(round(0.9 * 90))  # the hand holds the tool over the hook
    wrench = named(run.world, "wrench")
    hook, socket = next(iter(run.world.each(Socket)))
    zone = run.world.get(hook, Markers)  # what is drawn of it
    assert socket.hovering == (wrench if snaps else None)
    assert [(m.shape, m.tint, m.see_through) for m in zone.shown] == (
        [(socket.zone, Tint.HOVER, True)] if snaps else []
    )
    run.world.step(round(2.1 * 90))
    assert socket.hovering is None and zone.shown == []
    end = path(run)[-1]
    if snaps:
        assert [e["object"] for e in run.events("socketed")] == [wrench]
        assert math.dist(end, SNAPPED) < 1e-3
        turned = spatial.rotate(run.world.get(wrench, Transform).rotation, spatial.vec3(0, 0, -1))
        assert spatial.length(turned - spatial.vec3(-1, 0, 0)) < 1e-3  # the snap's quarter turn
        socketed_at = steps_of(run, "socketed")[0]
        for p in path(run)[socketed_at:]:
            assert math.dist(p, SNAPPED) < 1e-3  # held there every step, through the hand leaving
        assert socket.holding == wrench
    else:
        assert run.events("socketed") == []
        assert end[1] < 0.1  # on the floor


def test_grabbing_a_socketed_tool_takes_it_out_and_it_drops_as_it_was() -> None:
    """A tool the game put on the rack stays there; the hand takes it, carries it away and
    lets go: it falls, a dynamic prop again."""

    def script(t: float) -> InputFrame:
        k = (t - 0.2) / 0.3 if t < 0.8 else 1.0 - (t - 0.8) / 0.3
        return head_at(0, 1.7, 0, right=right(between(HAND, RACK, k), 1.0 if 0.6 < t < 1.5 else 0))

    def build(world: World) -> None:
        rack(world, holding=tool(world, frozenset({"tool"}), at=(0.0, 0.1, -1.0)))

    run = grab_world(script, build, SOCKET_EVENTS)
    run.world.step(round(1.3 * 90))
    wrench = named(run.world, "wrench")
    assert steps_of(run, "socketed") == [0]  # put on the rack by the game, at the first step
    assert math.dist(path(run)[round(0.55 * 90)], SNAPPED) < 1e-3  # waiting there
    (grab,) = run.events("grabbed")
    (out,) = run.events("unsocketed")
    assert steps_of(run, "grabbed") == steps_of(run, "unsocketed")
    assert out["object"] == grab["object"] == wrench and out["hand"] == grab["hand"]
    assert math.dist(path(run)[-1], HAND) < 0.05  # in the hand, back where it came from
    run.world.step(round(1.5 * 90))
    assert path(run)[-1][1] < 0.1  # let go away from the rack: it fell
    assert run.world.get(wrench, RigidBody).kind is BodyKind.DYNAMIC
    assert run.world.get(wrench, Colliders).parts[0].layer == "props"
    assert next(s for _, s in run.world.each(Socket)).holding is None


@pytest.mark.parametrize(
    ("after", "returns"),
    [(2.0, round(2.0 * 90) - 1), (0.0, 0), (None, None)],
    ids=["after 2 s", "at once", "control: never"],
)
def test_a_tool_dropped_elsewhere_comes_back_to_the_rack(
    after: float | None, returns: int | None
) -> None:
    """Taken from a rack that calls its tool back and dropped aside, the tool lies on the
    floor until it has been free for `return_after` (the step of the drop is the first of
    those steps), then is back on its hook; a rack that does not call it back leaves it."""

    def script(t: float) -> InputFrame:
        k = (t - 0.2) / 0.3 if t < 0.8 else 1.0 - (t - 0.8) / 0.3
        place = between(HAND, RACK, k) if t < 1.1 else between(HAND, ASIDE, (t - 1.1) / 0.2)
        return head_at(0, 1.7, 0, right=right(place, 1.0 if 0.6 < t < 1.5 else 0.0))

    def build(world: World) -> None:
        rack(world, holding=tool(world, frozenset({"tool"})), return_after=after)

    run = grab_world(script, build, SOCKET_EVENTS)
    run.world.step(round(4.5 * 90))
    (dropped,) = steps_of(run, "released")
    came_back = steps_of(run, "returned")
    wrench = path(run)
    if returns is None:
        assert came_back == []
        assert wrench[-1][1] < 0.1  # still on the floor
        return
    assert came_back == [dropped + returns]
    if returns > 60:
        assert wrench[dropped + 60][1] < 0.1  # it fell to the floor first
    assert steps_of(run, "socketed") == [0, dropped + returns]  # the game's, then the return
    assert math.dist(wrench[-1], SNAPPED) < 1e-3


@pytest.mark.parametrize("carried", [True, False], ids=["holster", "control: left behind"])
def test_a_holster_on_the_body_carries_its_tool_as_the_player_walks_and_turns(
    carried: bool,
) -> None:
    """A holster at the body's right hip holds a tool; the player walks 2 m with the stick
    and snap-turns: the tool stays at the hip every step. A socket not carried by the body
    stays where it was, and the player walks away from it."""
    hip = Pose(spatial.vec3(0.25, 0.9, 0.0), spatial.identity())

    def script(t: float) -> InputFrame:
        stick = (0.0, 1.0) if t < 1.5 else (0.0, 0.0)
        turn = (1.0, 0.0) if 1.6 < t < 1.7 else (0.0, 0.0)
        return with_sticks(head_at(0.0, 1.7, 0.0), left=stick, right=turn)

    run = grab_world(script, lambda w: tool(w, frozenset({"pistol"}), at=(0.0, 0.1, -1.0)))
    rig = rig_of(run.world)
    pistol = named(run.world, "wrench")
    run.world.spawn(
        Transform(),
        Socket(Box((0.1, 0.2, 0.1)), holding=pistol, carried_by=rig.body if carried else None,
               offset=hip),
    )  # fmt: skip
    run.world.step(round(2.5 * 90))
    bodies = [s["body"]["p"] for s in run.steps()]
    assert math.dist(bodies[0], bodies[-1]) > 1.5  # the player went somewhere
    apart = [math.dist(p, b) for p, b in zip(path(run), bodies, strict=True)]
    if not carried:
        assert apart[-1] > 1.5
        return
    assert max(abs(a - spatial.length(hip.position)) for a in apart) < 1e-3
    body = run.world.get(rig.body, Transform).pose()
    assert abs(spatial.yaw(body.rotation)) > 0.3  # the snap turn turned the body
    at_hip = spatial.compose(body, hip).position
    assert spatial.length(run.world.get(pistol, Transform).position - at_hip) < 1e-3


def test_a_tool_put_on_the_rack_is_there_at_once_not_swept_from_where_it_lay() -> None:
    """The game puts a tool lying on the floor on the rack: from the first step it is drawn
    on the hook (its previous pose, which drawing interpolates from, is there too), and it is
    at rest there, not sent flying by a kinematic drive across the room."""
    run = grab_world(
        lambda t: head_at(0, 1.7, 0),
        lambda w: rack(w, holding=tool(w, frozenset({"tool"}), at=(0.0, 0.1, -1.0))),
    )
    run.world.step(1)
    wrench = named(run.world, "wrench")
    previous = run.world.get(wrench, PreviousTransform).position
    assert spatial.length(previous - spatial.vec3(*SNAPPED)) < 1e-3
    linear, _ = physics(run.world).velocity(wrench)
    assert spatial.length(linear) < 1e-3


def test_a_rack_taken_away_drops_what_it_held() -> None:
    run = grab_world(
        lambda t: head_at(0, 1.7, 0), lambda w: rack(w, holding=tool(w, frozenset({"tool"})))
    )
    run.world.step(30)
    assert math.dist(path(run)[-1], SNAPPED) < 1e-3
    run.world.despawn(next(e for e, _ in run.world.each(Socket)))
    run.world.step(90)
    assert path(run)[-1][1] < 0.1
    assert run.world.get(named(run.world, "wrench"), Grabbable).socketed_in is None


def test_bad_socket_settings_are_refused_where_they_are_written() -> None:
    with pytest.raises(TypeError, match="zone must be a Sphere or a Box"):
        Socket(Capsule(0.1, 0.3))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="return_after must be None or a finite"):
        Socket(return_after=-1.0)
    with pytest.raises(TypeError, match="accepts must be a set of tag names"):
        Socket(accepts="tool")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="tags must be a set of names"):
        Grabbable(tags="tool")  # type: ignore[arg-type]
    assert Socket(accepts=["tool"]).accepts == frozenset({"tool"})  # type: ignore[arg-type]
