"""Gamepad opponents across the network: the kitchen's bees, flown by the gamepads of a player
who joined a host, move in the host's world as they would in a local one."""

from __future__ import annotations

import socket
import threading
from dataclasses import replace
from pathlib import Path

import pytest

from playspace.app.replay import prepare_replay
from playspace.components import Transform
from playspace.components.input import Gamepad
from playspace.components.scene import Opponent
from playspace.net import Client, Host, Network
from playspace.net.session import paced
from playspace.spatial import Vec3
from playspace.systems.input import TraceWriter, standing_frame

KITCHEN = Path(__file__).resolve().parents[2] / "examples" / "kitchen.py"
FLOWN = 1.5  # seconds the first pad's left stick is pushed forward


def _endpoint() -> str:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return f"tcp/127.0.0.1:{s.getsockname()[1]}"


def _pads(path: Path, pushed: bool) -> None:
    """A player standing still for 2.5 s with one gamepad, its left stick forward from 0.3 s
    for FLOWN seconds (or never)."""
    with TraceWriter(path, 90.0) as writer:
        for i in range(round(2.5 * 90)):
            t = i / 90
            forward = pushed and 0.3 <= t < 0.3 + FLOWN
            pad = Gamepad(left_stick=(0.0, 1.0 if forward else 0.0))
            writer.write(replace(standing_frame(), time=t, pads=(pad,)))


def _first_bee(host: Host) -> Vec3:
    world = host.world
    entity = min(e for e, _ in world.query(Opponent, Transform))
    return Vec3(world.get(entity, Transform).position)


def _play(tmp_path: Path, pushed: bool) -> tuple[Vec3, Vec3]:
    """The kitchen hosted (in a thread), a client playing the pad trace: where the host had
    the first bee before and after."""
    _pads(tmp_path / "pads.jsonl", pushed)
    endpoint = _endpoint()
    host = Host(KITCHEN, Network("k", listen=[endpoint]))
    client = Client(Network("k", connect=[endpoint]), "gail")
    stop = False
    hosting = threading.Thread(target=lambda: paced(host.step, 90.0, None, lambda: stop))
    try:
        before = _first_bee(host)
        hosting.start()
        client.wait_for_host()
        replay = prepare_replay(KITCHEN, tmp_path / "pads.jsonl", seconds=2.5)
        world = replay.world([client.plugin])
        paced(lambda: world.step(1), replay.fixed_hz, replay.steps, None)
    finally:
        stop = True
        hosting.join()
        client.close()
        host.close()
    return before, _first_bee(host)


@pytest.mark.slow
@pytest.mark.parametrize("pushed", [True, False], ids=["flown", "control: no stick"])
def test_a_joined_player_s_gamepad_flies_the_host_s_bee(tmp_path: Path, pushed: bool) -> None:
    """The stick forward flies the first bee away from the chef (-Z) at the pad's speed on the
    host; with the stick at rest it flies toward the chef instead."""
    before, after = _play(tmp_path, pushed)
    if pushed:
        assert before.z - after.z > 1.0  # flown forward, away from the chef
    else:
        assert after.z > before.z  # it came for the chef
