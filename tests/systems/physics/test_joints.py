"""Joints on real Rapier: built, edited and removed through components; a hand moves a jointed
object through its joint, and it keeps its physics when let go."""

from __future__ import annotations

import math
from itertools import pairwise

import pytest

from playspace import spatial
from playspace.components import Transform
from playspace.components.input import InputFrame
from playspace.components.joints import Joint, JointKind, Spring
from playspace.components.physics import (
    BodyCommands,
    Box,
    Collider,
    Colliders,
    RigidBody,
    SetVelocity,
)
from playspace.components.scene import Grabbable
from playspace.ecs import World
from playspace.systems.physics import PhysicsError
from tests.ecs_helpers import raised_in_a_system
from tests.grab_helpers import grab_world, right
from tests.physics_helpers import floor, physics, physics_world
from tests.rig_helpers import Run, head_at

DT = 1 / 90
STEP_BOUND = 0.08  # metres a jointed object may move in a step (the drive's cap: 6.7 cm)
HAND = (0.25, 1.1, -0.6)  # where the right hand grips: an arm's length, clear of the body


def panel(
    world: World, centre: spatial.Vec3, size: tuple[float, float, float], joint: Joint
) -> int:
    return world.spawn(
        Transform(position=centre),
        RigidBody(mass=4.0),
        Colliders(Collider(Box(size))),
        Grabbable(),
        joint,
    )


def test_a_hinge_swings_to_its_limit_and_reports_its_angle() -> None:
    """A door given a push about its hinge turns about the hinge (its far edge stays 0.8 m from
    it), stops at its limit, and its Joint says the angle; a spring edited in pulls it back."""
    world = physics_world()
    floor(world)
    hinge = spatial.vec3(0.0, 1.0, 0.0)
    door = panel(
        world,
        spatial.vec3(0.4, 1.0, 0.0),
        (0.8, 1.8, 0.04),
        Joint(JointKind.HINGE, anchor=spatial.vec3(-0.4, 0, 0), limits=(0.0, 1.2)),
    )
    world.step(1)
    world.resource(BodyCommands).send(
        SetVelocity(door, spatial.vec3(0, 0, -0.8), spatial.vec3(0, 2.0, 0))
    )
    world.step(120)
    joint = world.get(door, Joint)
    centre = world.get(door, Transform).position
    assert joint.position == pytest.approx(1.2, abs=0.01)
    assert spatial.length(centre - hinge) == pytest.approx(0.4, abs=0.005)
    assert math.atan2(-(centre.z - hinge.z), centre.x - hinge.x) == pytest.approx(1.2, abs=0.01)
    world.get_mut(door, Joint).spring = Spring(0.3, 100.0, 20.0)
    world.step(180)
    assert joint.position == pytest.approx(0.3, abs=0.02)


def test_a_slider_between_two_bodies_and_its_removal_with_either() -> None:
    """A box on a slider to a heavier box moves only along the axis, within its limits; when
    the other box is despawned the joint goes (the box falls), and the engine holds no joint."""
    world = physics_world(gravity=(0.0, 0.0, 0.0))
    base = world.spawn(
        Transform(position=spatial.vec3(0, 2, 0)),
        RigidBody(mass=50.0),
        Colliders(Collider(Box((0.2, 0.2, 0.2)))),
    )
    box = world.spawn(
        Transform(position=spatial.vec3(0.5, 2, 0)),
        RigidBody(mass=1.0),
        Colliders(Collider(Box((0.1, 0.1, 0.1)))),
        Joint(JointKind.SLIDER, to=base, axis=spatial.vec3(1, 0, 0), limits=(-0.2, 0.3)),
    )
    world.step(1)
    world.resource(BodyCommands).send(SetVelocity(box, spatial.vec3(2.0, 1.0, 0.0)))
    world.step(90)
    joint = world.get(box, Joint)
    assert joint.position == pytest.approx(0.3, abs=0.01)
    held = world.get(base, Transform)  # the slide is along the base's own x axis
    apart = spatial.rotate(
        spatial.inverse(held.rotation), world.get(box, Transform).position - held.position
    )
    assert apart.y == pytest.approx(0.0, abs=0.005)
    assert apart.x == pytest.approx(0.8, abs=0.01)
    world.despawn(base)
    world.step(1)
    assert len(physics(world).joints) == 1 and physics(world).joints[box].handle is None
    world.resource(BodyCommands).send(SetVelocity(box, spatial.vec3(2.0, 0.0, 0.0)))
    world.step(45)
    assert joint.position == pytest.approx(0.3, abs=0.01)  # no longer written: no joint
    assert world.get(box, Transform).position.x > 1.5  # free of its limit


def test_a_joint_to_an_entity_without_a_body_is_refused() -> None:
    world = physics_world()
    nothing = world.spawn(Transform())
    world.spawn(
        Transform(),
        RigidBody(),
        Colliders(Collider(Box((0.1, 0.1, 0.1)))),
        Joint(JointKind.HINGE, to=nothing),
    )
    with raised_in_a_system(PhysicsError, f"`to` names entity {nothing}, which has no body"):
        world.step(1)


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("axis", spatial.vec3(0, 0, 0), "axis must not be zero"),
        ("limits", (1.0, 0.0), "min <= max"),
        ("friction", -1.0, "friction must be a finite number >= 0"),
    ],
)
def test_bad_joints_are_refused_where_they_are_written(
    field: str, value: object, message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        Joint(JointKind.HINGE, **{field: value})  # type: ignore[arg-type]


# Through the hands ------------------------------------------------------------------------


def drawer(world: World, friction: float = 3.0, spring: Spring | None = None) -> int:
    """A drawer whose front is at the right hand, sliding toward the player up to 0.35 m."""
    return panel(
        world,
        spatial.vec3(HAND[0], HAND[1], HAND[2] - 0.16),
        (0.3, 0.1, 0.3),
        Joint(
            JointKind.SLIDER,
            axis=spatial.vec3(0, 0, 1),
            limits=(0.0, 0.35),
            friction=friction,
            spring=spring,
        ),
    )


def pull(distance: float, start: float = 0.3, over: float = 0.5, let_go: float = 1.0):  # type: ignore[no-untyped-def]
    """Grip at the hand's rest, pull toward the player by `distance` over `over` s, open the
    hand at `let_go` and keep it still."""

    def script(t: float) -> InputFrame:
        z = HAND[2] + distance * min(max(t - start, 0.0) / over, 1.0)
        grip = 1.0 if 0.1 < t < let_go else 0.0
        return head_at(0.0, 1.7, 0.0, right=right((HAND[0], HAND[1], z), grip))

    return script


def positions(run: Run, entity: int, seconds: float) -> list[float]:
    out = []
    for _ in range(round(seconds * 90)):
        run.world.step(1)
        out.append(run.world.get(entity, Joint).position)
    return out


@pytest.mark.parametrize("springy", [False, True], ids=["drawer", "control: a spring closes it"])
def test_a_drawer_opens_when_pulled_and_stays_open(springy: bool) -> None:
    """Pulled 25 cm by its front and let go, a drawer with friction stays open where the hand
    left it; the same drawer with a spring back closes (so the test sees closing)."""
    made: list[int] = []
    spring = Spring(0.0, 60.0, 15.0) if springy else None
    run = grab_world(pull(0.25), lambda w: made.append(drawer(w, spring=spring)))
    path = positions(run, made[0], 2.5)
    assert len(run.events("grabbed")) == 1
    opened = path[round(0.95 * 90)]
    if springy:
        assert path[-1] < 0.02
        return
    assert opened == pytest.approx(0.25, abs=0.02)
    assert path[-1] == pytest.approx(opened, abs=0.03)  # stays open
    steps = [abs(b - a) for a, b in pairwise(path)]
    assert max(steps) < STEP_BOUND


def door(world: World) -> int:
    """A door 0.8 m wide hinged at its left edge, its right end at the hand, opening away from
    the player up to 1.2 rad, with a little friction."""
    return panel(
        world,
        spatial.vec3(HAND[0] - 0.3, HAND[1], HAND[2] - 0.04),
        (0.8, 1.0, 0.04),
        Joint(JointKind.HINGE, anchor=spatial.vec3(-0.4, 0, 0), limits=(0.0, 1.2), friction=0.3),
    )


def test_a_door_swings_on_when_let_go_and_stops_at_its_limit() -> None:
    """Pushed 30 cm by its handle and let go as the hand stops, the door goes on turning
    (further after the let-go than at it) and comes to rest at its limit."""
    made: list[int] = []

    def script(t: float) -> InputFrame:
        z = HAND[2] - 0.3 * min(max(t - 0.3, 0.0) / 0.3, 1.0)
        return head_at(
            0.0, 1.7, 0.0, right=right((HAND[0], HAND[1], z), 1.0 if 0.1 < t < 0.6 else 0.0)
        )

    run = grab_world(script, lambda w: made.append(door(w)))
    path = positions(run, made[0], 3.0)
    at_let_go = path[round(0.6 * 90)]
    assert 0.2 < at_let_go < 0.7
    assert path[round(0.9 * 90)] > at_let_go + 0.2  # it swings on; the hand stood still
    assert path[-1] == pytest.approx(1.2, abs=0.02)
    assert max(path) < 1.2 + 0.03
    assert run.events("released")[0]["object"] == run.events("grabbed")[0]["object"]


@pytest.mark.parametrize("jointed", [True, False], ids=["jointed", "control: no joint"])
def test_a_jointed_object_never_teleports(jointed: bool) -> None:
    """The hand holding a drawer jumps 1 m in one step (a tracking glitch): the drawer moves
    no more than its drive's cap (6 m/s) in a step. The same box without a joint jumps with
    the hand."""
    made: list[int] = []

    def build(world: World) -> None:
        made.append(drawer(world))
        if not jointed:
            world.remove(made[0], Joint)

    def script(t: float) -> InputFrame:
        z = HAND[2] + (1.0 if t > 0.5 else 0.0)
        return head_at(0.0, 1.7, 0.0, right=right((HAND[0], HAND[1], z), 1.0 if t > 0.1 else 0.0))

    run = grab_world(script, build)
    where = []
    for _ in range(90):
        run.world.step(1)
        where.append(spatial.Vec3(run.world.get(made[0], Transform).position))
    moves = [spatial.length(b - a) for a, b in pairwise(where)]
    if jointed:
        assert max(moves) < STEP_BOUND
        assert where[-1].z - where[0].z == pytest.approx(0.35, abs=0.01)  # to its limit
    else:
        assert max(moves) > 0.9
