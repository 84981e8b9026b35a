"""Moving platforms: a body standing on a kinematic body rides it, and the view with it,
checked as a player standing on a lift or a turntable would notice it."""

from __future__ import annotations

import math
from collections.abc import Callable
from itertools import pairwise

import pytest

from playspace import spatial
from playspace.components import Transform
from playspace.components.physics import BodyKind, Box, Collider, Colliders, RigidBody
from playspace.components.scene import PlayerStart
from playspace.ecs import Phase, World
from playspace.systems.sets import FixedSet
from tests.rig_helpers import head_at, rig_of, rig_world

HZ = 90
TOP = 0.1  # the platform's top stands above the floor, so what is stood on is not in doubt


def platform(world: World, move: Callable[[float], tuple[float, float]]) -> None:
    """A 2 m square kinematic platform, its top at TOP, moved by a game system each step:
    `move(t)` gives its rise (m) and its turn (rad) at time t."""
    entity = world.spawn(
        Transform(position=spatial.vec3(0.0, TOP / 2, 0.0)),
        RigidBody(kind=BodyKind.KINEMATIC),
        Colliders(Collider(Box((2.0, TOP, 2.0)))),
    )

    def drive(w: World) -> None:
        rise, turn = move(w.fixed_time.step / HZ)
        transform = w.get(entity, Transform)
        transform.position = spatial.vec3(0.0, TOP / 2 + rise, 0.0)
        transform.rotation = spatial.yaw_rotation(turn)

    world.add_system(
        drive, phase=Phase.FIXED, in_set=FixedSet.GAME_BEFORE_PHYSICS, writes=(Transform,)
    )


def ramp(t: float, start: float = 0.5, span: float = 2.0) -> float:
    """0 until `start`, then up to 1 over `span` seconds."""
    return min(max(t - start, 0.0) / span, 1.0)


ON_IT = PlayerStart(spatial.vec3(0.0, TOP, 0.0))


def test_a_lift_carries_the_body_and_the_view_up_2_m_without_judder() -> None:
    run = rig_world(
        lambda t: head_at(0.0, 1.7, 0.0),
        build=lambda w: platform(w, lambda t: (2.0 * ramp(t), 0.0)),
        start=ON_IT,
    )
    run.world.step(3 * HZ)
    steps = run.steps()
    feet = [s["body"]["p"][1] for s in steps]
    eyes = [s["head"]["p"][1] for s in steps]
    assert feet[0] == pytest.approx(TOP, abs=0.01)
    assert feet[-1] - feet[0] == pytest.approx(2.0, abs=0.01)
    assert eyes[-1] - eyes[0] == pytest.approx(2.0, abs=0.01)
    above = [e - f for e, f in zip(eyes, feet, strict=True)]  # the head over the feet
    judder = max(abs(b - a) for a, b in pairwise(above))
    assert judder < 1e-3
    assert run.events("floor_snapped") == []  # the view rode; it was never snapped


def test_a_lift_coming_down_brings_the_player_down_too() -> None:
    run = rig_world(
        lambda t: head_at(0.0, 1.7, 0.0),
        build=lambda w: platform(w, lambda t: (1.0 - ramp(t, 0.5, 1.0), 0.0)),
        start=PlayerStart(spatial.vec3(0.0, TOP + 1.0, 0.0)),
    )
    run.world.step(2 * HZ)
    steps = run.steps()
    feet = [s["body"]["p"][1] for s in steps]
    assert feet[-1] == pytest.approx(TOP, abs=0.01)
    above = [s["head"]["p"][1] - s["body"]["p"][1] for s in steps]
    assert max(abs(b - a) for a, b in pairwise(above)) < 1e-3
    assert run.events("floor_snapped") == []


def test_a_turntable_turns_the_player_with_it() -> None:
    """Standing 0.5 m from the centre of a platform that turns a quarter turn: the player
    goes round with it, and faces a quarter turn further round."""
    run = rig_world(
        lambda t: head_at(0.5, 1.7, 0.0),
        build=lambda w: platform(w, lambda t: (0.0, math.pi / 2 * ramp(t))),
        start=ON_IT,
    )
    run.world.step(3 * HZ)
    steps = run.steps()
    first, last = steps[0]["body"]["p"], steps[-1]["body"]["p"]
    assert (first[0], first[2]) == (pytest.approx(0.5), pytest.approx(0.1))  # the neck
    # a quarter turn to the left about the centre: +x goes to -z, +z to +x
    assert (last[0], last[2]) == (pytest.approx(0.1, abs=0.01), pytest.approx(-0.5, abs=0.01))
    origin = run.world.get(rig_of(run.world).origin, Transform)
    assert spatial.yaw(origin.rotation) == pytest.approx(math.pi / 2, abs=1e-3)
