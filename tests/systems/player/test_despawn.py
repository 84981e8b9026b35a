"""Despawning anything at any time: a held object, one released this step, one held in both
hands, an opponent being hit. A game does this whenever its rules say; nothing may break, and
nothing the grab systems keep may outlive its entity."""

from __future__ import annotations

import math
import random
from collections.abc import Callable

import pytest

from playspace import spatial
from playspace.components import Transform
from playspace.components.input import InputFrame
from playspace.components.interaction import Hand, Holding
from playspace.components.physics import BodyKind, Box, Collider, Colliders, RigidBody, Sphere
from playspace.components.scene import Grabbable, Opponent, Prop
from playspace.ecs import Phase, World, system
from playspace.systems.input import hand_input
from playspace.systems.interaction import TELEMETRY_EVENTS, GrabPlugin, ThrowHistory, ThrowPlugin
from playspace.systems.interaction.layers import HeldSensors
from playspace.systems.sets import FixedSet
from tests.physics_helpers import physics
from tests.rig_helpers import head_at, rig_of, rig_world

REACH = (0.25, 0.1, -0.35)  # where the hands work, in the room: near the floor


def fumbling(seed: int) -> Callable[[float], InputFrame]:
    """Both hands wander around the same spot, gripping and opening at random moments."""
    rng = random.Random(seed)
    grips = [(rng.uniform(0, 60), rng.uniform(0.05, 0.6)) for _ in range(400)]

    def frame(t: float) -> InputFrame:
        def hand(phase: float, dx: float) -> tuple[tuple[float, float, float], float]:
            x = REACH[0] + dx + 0.12 * math.sin(2.1 * t + phase)
            z = REACH[2] + 0.12 * math.cos(1.7 * t + phase)
            held = any(start <= t + phase < start + length for start, length in grips)
            return (x, REACH[1] + 0.05 * math.sin(3 * t), z), 1.0 if held else 0.0

        (right, right_grip), (left, left_grip) = hand(0.0, 0.0), hand(0.37, -0.1)
        return head_at(
            0.0, 1.7, 0.0,
            right=hand_input(right, grip=right_grip),
            left=hand_input(left, grip=left_grip),
        )  # fmt: skip

    return frame


def chaos(seed: int) -> object:
    """A game that spawns grabbables at the hands, despawns any prop at random (held, just
    released or not), and swaps the opponent out now and then."""
    rng = random.Random(seed)
    made = 0

    @system(Phase.FIXED, in_set=FixedSet.GAME)
    def churn(world: World) -> None:
        nonlocal made
        props = [e for e, _ in world.each(Prop)]
        if len(props) < 12 and rng.random() < 0.3:
            made += 1
            at = spatial.vec3(*REACH) + spatial.vec3(
                rng.uniform(-0.15, 0.1), 0, rng.uniform(-0.1, 0.1)
            )
            shape = Sphere(0.04) if made % 2 else Box((0.08, 0.08, 0.2))
            world.spawn(
                Transform(position=at), RigidBody(mass=0.2), Colliders(Collider(shape)),
                Prop(f"thing {made}"), Grabbable(),
            )  # fmt: skip
        held = [h.object for _, h in world.each(Holding) if h.object is not None]
        if held and rng.random() < 0.02:
            world.despawn(rng.choice(held))  # out of the player's hand
        elif props and rng.random() < 0.05:
            world.despawn(rng.choice(props))
        opponents = [e for e, _ in world.each(Opponent)]
        if not opponents or rng.random() < 0.01:
            for gone in opponents:
                world.despawn(gone)
            world.spawn(
                Transform(position=spatial.vec3(*REACH) + spatial.vec3(0.0, 0.0, -0.15)),
                RigidBody(kind=BodyKind.KINEMATIC), Colliders(Collider(Sphere(0.1))),
                Opponent("bee"),
            )  # fmt: skip

    def build(world: World) -> None:
        world.add_systems(churn)

    return build


@pytest.mark.slow
def test_ten_thousand_steps_of_grabbing_and_despawning_break_nothing_and_leak_nothing() -> None:
    plugins = (GrabPlugin(), ThrowPlugin(), chaos(4))
    run = rig_world(fumbling(3), plugins=plugins, events=TELEMETRY_EVENTS)
    world = run.world
    world.step(10_000)
    grabs = len(run.events("grabbed"))
    releases = len(run.events("released"))
    assert grabs > 30 and releases > 5, (grabs, releases)  # held and let go, many times
    live = {e for e, _ in world.each(Grabbable)}
    held = world.resource(HeldSensors)
    for table in (held.sensors, held.inside):
        assert set(table) <= live
    for _, grabbable in world.each(Grabbable):  # what it holds of a hand is a live hand
        assert grabbable.held_by is None or world.has(grabbable.held_by, Hand)
    rig = rig_of(world)
    assert set(world.resource(ThrowHistory).hands) <= {rig.left_hand, rig.right_hand}
    for _, holding in world.each(Holding):
        assert holding.object is None or world.exists(holding.object)
    bodies = set(physics(world).bodies)
    assert bodies <= {e for e, _ in world.each(Transform)}
