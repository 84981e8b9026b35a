"""A held object does not jump when the network loses or delays a player's input or the
host's states: at the host, a run of lost input frames is played as the motion between the
frames either side of it (not the one before again, then a jump the whole way), and after
catching up the head and hands ease onto the frames (not a jump the frames dropped); at a
client, a body drawn held past the newest state it had settles onto the host's path (not a
jump there) once the next comes.
Each test has its control: the same run with the old behaviour jumps."""

from __future__ import annotations

import itertools
import math
import threading
from pathlib import Path

import pytest

import playspace.net.client as client_module
import playspace.net.inputs as inputs_module
from playspace.app import build_world
from playspace.app.replay import prepare_replay
from playspace.components import Transform
from playspace.components.input import InputFrame
from playspace.components.interaction import Holding
from playspace.net.client import RemoteView
from playspace.net.inputs import InputQueue, NetSource
from playspace.net.wire import REDUNDANCY, State
from playspace.spatial import Pose, identity, vec3
from playspace.systems.input import hand_input, standing_frame
from playspace.systems.player.players import player_rig

SNOWBALL = Path(__file__).resolve().parents[2] / "examples" / "snowball.py"
HZ = 90.0
PILE = (0.3, 0.92, -0.3)  # snowball 1, where player 0's right hand grabs it
LOST = range(100, 114)  # input messages lost in a burst: frames 100 to 111 with every copy


def waving(step: int) -> InputFrame:
    """Player 0's frame at client step `step`: the right hand on snowball 1, gripping from
    0.2 s, then lifting it and waving it in a loop (about 1 m/s) in front of the body."""
    t = step / HZ
    wave = max(t - 0.3, 0.0)
    lift = min(wave / 0.6, 1.0)
    right = (
        PILE[0] + 0.15 * math.sin(4 * wave) * lift,
        PILE[1] + (0.3 + 0.1 * math.sin(6 * wave)) * lift,
        PILE[2] + 0.15 * (1 - math.cos(4 * wave)) * lift,
    )
    frame = standing_frame()
    return InputFrame(t, frame.head, frame.left, hand_input(right, grip=1.0 * (t >= 0.2)))


def _held_steps(lost: range, steps: int = 130) -> list[float]:
    """How far the snowball player 0 holds moved each host step (metres), their input coming
    through a host's queue one message a step, each with the frames before it, the messages
    in `lost` never arriving."""
    replay = prepare_replay(SNOWBALL, None)
    assert replay.example is not None
    source = NetSource(threading.Lock())
    source.queue = queue = InputQueue()
    world, _ = build_world(replay.scene, source, HZ, replay.seed, [replay.example.build])
    rig = player_rig(world, 0)
    assert rig is not None
    where: list[tuple[float, float, float] | None] = []
    for step in range(1, steps + 1):
        if step not in lost:
            first = max(step - REDUNDANCY + 1, 1)
            queue.offer(tuple((s, waving(s)) for s in range(first, step + 1)))
        world.step(1)
        held = world.get(rig.right_hand, Holding).object
        p = world.get(held, Transform).position if held is not None else None
        where.append(None if p is None else (p.x, p.y, p.z))
    assert queue.filled == max(len(lost) - REDUNDANCY + 1, 0)
    return [
        math.dist(a, b) for a, b in itertools.pairwise(where) if a is not None and b is not None
    ]


def test_a_burst_of_lost_input_moves_the_held_object_no_further_than_the_hand_moved(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    moved = max(_held_steps(range(0)))  # the hand's own largest step, nothing lost
    assert moved > 0.005
    bound = 1.5 * moved + 0.002  # twelve frames' motion over eleven steps, and a margin
    assert max(_held_steps(LOST)) < bound
    # the control: each lost frame played as the one before again holds the hand still for
    # twelve steps, then it jumps the whole way it moved meanwhile
    monkeypatch.setattr(inputs_module, "between", lambda a, b, share: a)
    assert max(_held_steps(LOST)) > 5 * moved


def _caught_up(monkeypatch: pytest.MonkeyPatch, ease: int) -> tuple[list[int], list[float]]:
    """A queue offered 200 frames far ahead, the right hand 1 cm further along x each frame,
    taken until it has caught up: the client steps taken, and the right hand's x played."""
    monkeypatch.setattr(inputs_module, "EASE", ease)
    queue = InputQueue(playout=2)
    frame = standing_frame()
    queue.offer(tuple(
        (s, InputFrame(s / HZ, frame.head, frame.left, hand_input((0.01 * s, 1.0, 0.0))))
        for s in range(1, 200)
    ))  # fmt: skip
    taken, hand = [], []
    while (played := queue.take()) is not None:
        assert played.right.pose is not None
        taken.append(queue.taken)
        hand.append(played.right.pose.pose.position.x)
    assert queue.skipped > 50  # it caught up
    return taken, hand


def test_catching_up_drops_at_once_and_eases_the_hands_over_to_the_frames(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    taken, hand = _caught_up(monkeypatch, inputs_module.EASE)
    jumps = [b - a for a, b in itertools.pairwise(taken)]
    dropped = max(jumps) - 1
    assert dropped > 50 and sorted(jumps)[-2] == 1  # one catch-up, at once: one correction
    gap = dropped * 0.01
    steps = [b - a for a, b in itertools.pairwise(hand)]
    assert max(steps) <= gap / inputs_module.EASE + 0.01 + 1e-9  # eased: no jump of the hand
    after = jumps.index(max(jumps)) + 1 + inputs_module.EASE  # the drop's step, then the ease
    assert hand[after:] == pytest.approx([0.01 * s for s in taken[after:]])  # back on them
    _, unease = _caught_up(monkeypatch, 0)  # the control: the hand jumps the frames dropped
    assert max(b - a for a, b in itertools.pairwise(unease)) >= gap


def _drawn_steps(view: RemoteView) -> list[float]:
    """How far a body moving at 1 m/s along x is drawn to move each frame at 90 Hz, the
    host's states coming a frame after each step, those of host steps 30 to 49 lost."""
    drawn = []
    for step in range(1, 80):
        t = step / HZ
        if not 30 <= step < 50:
            view.add(State(step, t, {7: Pose(vec3(t, 0.0, 0.0), identity())}), arrived=t + 1 / HZ)
        drawn.append(view.poses(t + 1 / HZ + 0.5 / HZ)[7].position.x)
    return [abs(b - a) for a, b in itertools.pairwise(drawn)]


def test_a_body_drawn_held_through_lost_states_settles_rather_than_jumps(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    frame = 1.0 / HZ  # the body's real motion a frame
    assert max(_drawn_steps(RemoteView())) < 3 * frame
    monkeypatch.setattr(client_module, "SNAP", 0.0)  # the control: every correction at once
    assert max(_drawn_steps(RemoteView())) > 10 * frame
