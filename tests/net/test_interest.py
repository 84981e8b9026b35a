"""Interest management: what each client hears of within its budget, and how its view draws
bodies that come by turns."""

from __future__ import annotations

import itertools
import statistics
import time
from collections import Counter

import numpy as np
import pytest

from playspace.net.client import PROFILES, ImpairedLink, RemoteView
from playspace.net.interest import REPEAT, Audience, BodyTable
from playspace.net.wire import State, decode_state, encode_state
from playspace.spatial import Pose, identity, vec3

ORIGIN = vec3(0.0, 0.0, 0.0)


def _poses(xs: dict[int, float]) -> dict[int, Pose]:
    return {entity: Pose(vec3(x, 1.0, 0.0), identity()) for entity, x in xs.items()}


def _chosen(
    table: BodyTable, audience: Audience, room: int, own: set[int] | None = None, full: bool = False
) -> tuple[np.ndarray, tuple[int, bytes]]:
    """One client's (at the origin) mask and packed bodies this state (one call a state:
    after the table's update)."""
    audience.fit(table, ["c"])
    mine = np.zeros((1, len(table)), bool)
    mine[0, [table.slots[e] for e in own or ()]] = True
    centre = np.array([[ORIGIN.x, ORIGIN.y, ORIGIN.z]])
    chosen = audience.choose(table, centre, mine, np.array([full]), room)
    return chosen[0], audience.send(table, chosen)[0]


def _sent(table: BodyTable, audience: Audience, room: int, own: set[int] | None = None) -> set[int]:
    """The bodies a client gets this state."""
    chosen, _ = _chosen(table, audience, room, own)
    return {int(table.records["entity"][slot]) for slot in np.flatnonzero(chosen)}


def test_near_bodies_go_more_often_than_far_ones_and_none_starves() -> None:
    table, audience = BodyTable(), Audience()
    counts = {1: 0, 2: 0, 3: 0}
    for step in range(90):
        # every body moves a little each state: a near one (1 m), a mid one, a far one (30 m)
        table.update(_poses({1: 1.0 + step * 1e-3, 2: 8.0 + step * 1e-3, 3: 30.0 + step * 1e-3}),
                     1 / 90)  # fmt: skip
        for entity in _sent(table, audience, room=1):
            counts[entity] += 1
    assert counts[1] > counts[2] > counts[3] > 0  # by turns: the far one still goes
    assert sum(counts.values()) == 90  # one a state: the budget holds


def test_a_body_at_rest_goes_repeat_times_and_then_not_again() -> None:
    table, audience = BodyTable(), Audience()
    got = []
    for step in range(10):
        table.update(_poses({1: min(step, 3) * 0.1}), 1 / 90)  # moves until step 3, then rests
        got.append(bool(_sent(table, audience, room=4)))
    assert got == [True] * (4 + REPEAT - 1) + [False] * (10 - 4 - REPEAT + 1)


def test_a_client_s_own_parts_go_only_on_a_full_state() -> None:
    table, audience = BodyTable(), Audience()
    table.update(_poses({1: 0.5, 2: 0.6}), 1 / 90)
    assert _sent(table, audience, room=4, own={2}) == {1}
    table.update(_poses({1: 0.5, 2: 0.6}), 1 / 90)
    chosen, _ = _chosen(table, audience, room=4, own={2}, full=True)
    assert set(table.records["entity"][chosen]) == {1, 2}  # a full state: its own too


def test_a_body_that_stood_still_is_flagged_and_held_until_it_moved() -> None:
    table, audience = BodyTable(), Audience()
    view = RemoteView()
    flagged = []
    for step in range(12):
        x = 0.0 if step < 10 else 1.0  # still for ten states, then a step of 1 m
        table.update(_poses({7: x}), 1 / 90)
        _, (count, packed) = _chosen(table, audience, 8)
        head = State(step + 1, (step + 1) / 90, {}, full=step == 0)
        state = decode_state(encode_state(head, (count, packed)))
        view.add(state, 0.0)
        flagged.append(7 in state.resumed)
    assert flagged == [False] * 10 + [True, False]
    track = [(round(t * 90), pose.position.x) for t, pose in view.tracks[7]]
    # sent REPEAT times, then held at rest until the state before the move (10/90), not
    # gliding there from 3/90
    assert track == [(1, 0.0), (2, 0.0), (3, 0.0), (10, 0.0), (11, 1.0), (12, 1.0)]


def test_slots_of_bodies_gone_are_taken_again_and_start_afresh() -> None:
    table, audience = BodyTable(), Audience()
    for _ in range(REPEAT):
        table.update(_poses({1: 0.0, 2: 1.0}), 1 / 90)
        _sent(table, audience, room=4)
    table.update(_poses({1: 0.0}), 1 / 90)  # 2 gone
    table.update(_poses({1: 0.0, 3: 2.0}), 1 / 90)  # 3 takes 2's slot
    assert table.slots[3] == 1 and _sent(table, audience, room=4) == {3}
    assert np.isfinite(table.speed).all()


def test_internet_profiles_lose_in_bursts_and_delay_by_the_round_trip() -> None:
    arrived: list[tuple[float, int]] = []
    profile = PROFILES["internet-200"]
    link = ImpairedLink(
        lambda data: arrived.append((time.monotonic(), int.from_bytes(data))), profile
    )
    sent, count = time.monotonic(), 20_000
    for i in range(count):
        link(i.to_bytes(2))
    link.close()
    assert 0.04 < link.dropped / count < 0.06  # 5 %
    got = {i for _, i in arrived}
    runs = [len(list(run)) for lost, run in itertools.groupby(range(count), lambda i: i in got)
            if not lost]  # fmt: skip
    assert 2.5 < statistics.mean(runs) < 3.5  # in bursts of three (alone: about one)
    first = [t - sent for t, _ in arrived[:100]]
    assert profile.base == pytest.approx(0.085) and min(first) >= profile.base  # 200 ms there
    # and back: half a round trip each way, and 30 ms of jitter


def test_each_client_hears_most_of_what_is_near_it_and_keeps_its_row() -> None:
    table, audience = BodyTable(), Audience()
    heard = {"a": Counter[int](), "b": Counter[int]()}
    centres = np.array([[0.0, 1.0, 0.0], [30.0, 1.0, 0.0]])  # a by body 1, b by body 2
    for step in range(150):
        table.update(_poses({1: step * 1e-3, 2: 30.0 + step * 1e-3}), 1 / 90)
        clients = ["a", "b"] if step < 130 else ["b"]  # a leaves
        audience.fit(table, clients)
        own = np.zeros((len(clients), len(table)), bool)
        rows = centres[: len(clients)] if step < 130 else centres[1:]
        chosen = audience.choose(table, rows, own, np.zeros(len(clients), bool), 1)
        audience.send(table, chosen)
        for client, row in zip(clients, chosen, strict=True):
            heard[client].update(int(table.records["entity"][s]) for s in np.flatnonzero(row))
    assert heard["a"][1] > 2 * heard["a"][2] > 0 and heard["b"][2] > 2 * heard["b"][1] > 0
    assert audience.clients == ["b"] and audience.gained.shape == (1, 2)
