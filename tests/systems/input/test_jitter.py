"""A held object does not jitter while the player moves and turns smoothly: its pose relative
to the hand holding it stays the same each step, in the simulation and in what is drawn."""

from __future__ import annotations

import math
from itertools import pairwise

from playspace import spatial
from playspace.components import Transform
from playspace.components.drawn import DrawnPoses
from playspace.components.input import InputFrame
from playspace.components.rig import RigSettings, TurnMode
from playspace.spatial import Pose
from playspace.systems.drawn import DrawnPlugin, place_drawn
from tests.grab_helpers import HAND, ball_in_hand, grab_world, named, right
from tests.rig_helpers import head_at, rig_of, with_sticks

HZ = 90


def walk_and_turn(t: float) -> InputFrame:
    """Hold the ball from 0.1 s; from 0.5 s walk forward and turn smoothly, both full stick."""
    frame = head_at(0.0, 1.7, 0.0, right=right(HAND, 1.0 if t > 0.1 else 0.0))
    going = 1.0 if t > 0.5 else 0.0
    return with_sticks(frame, left=(0.0, going), right=(going, 0.0))


def relative(hand: Pose, held: Pose) -> Pose:
    return spatial.compose(spatial.invert(hand), held)


def change(a: Pose, b: Pose) -> tuple[float, float]:
    """How far apart two poses are: metres, degrees."""
    _, angle = spatial.to_axis_angle(spatial.multiply(spatial.inverse(a.rotation), b.rotation))
    angle = abs(angle) % (2 * math.pi)
    return spatial.length(a.position - b.position), math.degrees(min(angle, 2 * math.pi - angle))


def test_a_held_ball_keeps_its_pose_in_the_hand_while_walking_and_turning() -> None:
    settings = RigSettings(turn_mode=TurnMode.SMOOTH)
    run = grab_world(walk_and_turn, ball_in_hand, settings=settings)
    run.world.add_plugin(DrawnPlugin())
    world = run.world
    rig = rig_of(world)
    ball = named(world, "ball")
    simulated: list[Pose] = []
    drawn: list[Pose] = []
    for step in range(2 * HZ):
        world.step(1)
        hand, held = world.get(rig.right_hand, Transform), world.get(ball, Transform)
        simulated.append(relative(hand.pose(), held.pose()))
        place_drawn(world, (0.2, 0.9, 0.5)[step % 3])  # frames between steps, unevenly
        poses = world.resource(DrawnPoses)
        at = {e: poses.rows[e] for e in (rig.right_hand, ball)}
        p, q = poses.positions, poses.rotations
        drawn.append(
            relative(
                Pose(
                    spatial.vec3_from(p[at[rig.right_hand]]),
                    spatial.quat_from_xyzw(q[at[rig.right_hand]]),
                ),
                Pose(spatial.vec3_from(p[at[ball]]), spatial.quat_from_xyzw(q[at[ball]])),
            )
        )
    moved = world.get(rig.origin, Transform)
    assert spatial.length(moved.position) > 2.0  # it did walk, and turn
    assert abs(spatial.yaw(moved.rotation)) > 1.0
    held_from = round(0.3 * HZ)
    for relatives in (simulated, drawn):
        steps = [change(a, b) for a, b in pairwise(relatives[held_from:])]
        assert max(d for d, _ in steps) < 1e-3
        assert max(a for _, a in steps) < 0.1
