"""Buffered events: each reader sees each event once, in order, across steps and frames."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from playspace.ecs import Phase, World
from playspace.ecs.events import EventQueue


@dataclass(frozen=True)
class Pressed:
    button: str


class Reader:
    """A system that collects what it reads each time it runs."""

    def __init__(self, world: World, phase: Phase, name: str) -> None:
        self.seen: list[str] = []
        world.add_system(self.run, phase=phase, name=name, reads=[Pressed])

    def run(self, world: World) -> None:
        self.seen.extend(e.button for e in world.read_events(Pressed, reader=self.run))


def input_sender(world: World, script: list[list[str]]) -> None:
    """An INPUT system that sends the next frame's presses."""
    frames = iter(script)

    def run(w: World) -> None:
        for button in next(frames, []):
            w.send(Pressed(button))

    world.add_system(run, phase=Phase.INPUT, name="input")


def test_a_fixed_reader_sees_input_events_once_across_frames_with_zero_or_many_steps() -> None:
    world = World(fixed_hz=90)
    world.add_event(Pressed)
    input_sender(world, [["a"], ["b"], ["c", "d"], [], ["e"]])
    fixed = Reader(world, Phase.FIXED, "fixed")
    late = Reader(world, Phase.LATE, "late")

    world.advance(0.004)  # no step: "a" waits for the fixed reader
    assert fixed.seen == [] and late.seen == ["a"]
    world.advance(0.004)  # no step again: "b" waits too
    world.advance(0.030)  # three steps: the first sees a, b, c, d; the others nothing
    assert fixed.seen == ["a", "b", "c", "d"]
    world.advance(0.0)
    world.step(2)
    assert fixed.seen == ["a", "b", "c", "d", "e"]
    assert late.seen == ["a", "b", "c", "d", "e"]


def test_events_sent_during_fixed_reach_a_later_fixed_reader_and_late() -> None:
    world = World(fixed_hz=90)
    world.add_event(Pressed)
    step = {"n": 0}

    def sender(w: World) -> None:
        step["n"] += 1
        w.send(Pressed(f"s{step['n']}"))

    world.add_system(sender, phase=Phase.FIXED, name="sender")
    fixed = Reader(world, Phase.FIXED, "fixed")
    late = Reader(world, Phase.LATE, "late")
    world.advance(3 / 90 + 0.001)
    assert fixed.seen == ["s1", "s2", "s3"]
    assert late.seen == ["s1", "s2", "s3"]


def test_events_no_reader_asked_for_are_kept_two_frames() -> None:
    world = World()
    queue = world.add_event(Pressed)
    world.send(Pressed("early"))
    world.step(1)
    assert len(queue) == 1
    world.step(1)
    assert len(queue) == 0


def test_a_late_reader_first_sees_what_is_still_kept() -> None:
    world = World()
    world.add_event(Pressed)
    world.send(Pressed("early"))
    world.step(1)
    assert [e.button for e in world.read_events(Pressed, reader="newcomer")] == ["early"]
    assert world.read_events(Pressed, reader="newcomer") == []


def test_events_are_dropped_once_every_reader_has_passed_them() -> None:
    world = World()
    queue = world.add_event(Pressed)
    world.read_events(Pressed, reader="a")
    world.read_events(Pressed, reader="b")
    for name in "xyz":
        world.send(Pressed(name))
    world.read_events(Pressed, reader="a")
    world.step(1)
    assert len(queue) == 3  # b has not read yet
    assert [e.button for e in world.read_events(Pressed, reader="b")] == ["x", "y", "z"]
    world.step(1)
    assert len(queue) == 0


def test_removing_a_reading_system_stops_keeping_events_for_it() -> None:
    world = World()
    queue = world.add_event(Pressed)
    reader = Reader(world, Phase.LATE, "late")
    world.step(1)
    world.remove_system(reader.run)
    world.send(Pressed("x"))
    world.step(2)
    assert len(queue) == 0


def test_a_queue_over_capacity_drops_the_oldest_and_counts_them() -> None:
    queue: EventQueue[Pressed] = EventQueue(Pressed, capacity=3)
    queue.read("slow")
    for name in "abcde":
        queue.send(Pressed(name))
    assert queue.dropped == 2
    assert [e.button for e in queue.read("slow")] == ["c", "d", "e"]


def test_sending_an_unregistered_event_names_the_fix() -> None:
    with pytest.raises(LookupError, match=r"world.add_event\(Pressed\)"):
        World().send(Pressed("a"))
