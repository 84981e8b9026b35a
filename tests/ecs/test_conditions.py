"""Run conditions: an idle system is skipped, the schedule says which ran, and a skipped
system keeps no events waiting for it."""

from __future__ import annotations

import logging
from dataclasses import dataclass

import pytest

from playspace.ecs import (
    Phase,
    World,
    all_of,
    any_changed,
    any_of,
    any_with,
    not_,
    on_event,
    resource_exists,
    system,
)


@dataclass(frozen=True)
class Ping:
    n: int


@dataclass(slots=True)
class Door:
    open: bool = False


@dataclass(slots=True)
class Score:
    points: int = 0


def counting(world: World, condition: object, name: str, reads: tuple[type, ...] = ()) -> list[int]:
    """A FIXED system under `condition` that notes the step each time it runs and reads the
    pings sent since it last read."""
    ran: list[int] = []

    def run(w: World) -> None:
        w.read_events(Ping, reader=run)
        ran.append(w.fixed_time.step)

    world.add_system(run, phase=Phase.FIXED, name=name, run_if=condition, reads=reads)  # type: ignore[arg-type]
    return ran


def test_any_with_skips_a_system_until_an_entity_has_the_components() -> None:
    world = World()
    world.add_event(Ping)
    ran = counting(world, any_with(Door), "doors", reads=(Ping,))
    world.step(3)
    assert ran == []
    door = world.spawn(Door())
    world.step(2)
    assert ran == [3, 4]
    world.despawn(door)
    world.step(2)
    assert ran == [3, 4]
    stats = world.schedule.get("doors").stats
    assert (stats.calls, stats.skipped) == (2, 5)


def test_the_world_says_which_systems_ran_in_the_last_frame() -> None:
    world = World()

    @system(Phase.FIXED, run_if=resource_exists(Score))
    def scoring(w: World) -> None:
        w.resource(Score).points += 1

    @system(Phase.LATE)
    def always(w: World) -> None:
        pass

    world.add_systems(scoring, always)
    world.step(1)
    assert world.ran() == ["always"]
    world.insert_resource(Score())
    world.step(1)
    assert world.ran() == ["scoring", "always"]
    world.advance(0.001)  # a frame shorter than a step: FIXED does not run at all
    assert world.ran() == ["always"]
    assert world.resource(Score).points == 1


def test_on_event_runs_a_system_in_the_steps_after_a_send_and_per_world() -> None:
    sends = {1: [7], 4: [8, 9]}
    worlds, runs = [], []
    shared = on_event(Ping)  # one condition object, as a module's system has, in two worlds
    for offset in (0, 2):
        world = World()
        world.add_event(Ping)

        def sender(w: World, offset: int = offset) -> None:
            for n in sends.get(w.fixed_time.step - offset, []):
                w.send(Ping(n))

        world.add_system(sender, phase=Phase.FIXED, name="sender")
        runs.append(counting(world, shared, "pinged", reads=(Ping,)))
        worlds.append(world)
    for _ in range(8):
        for world in worlds:
            world.step(1)
    assert runs == [[1, 4], [3, 6]]


def test_a_skipped_system_keeps_no_events_waiting_and_sees_none_from_before_it_ran() -> None:
    world = World()
    world.add_event(Ping)
    seen: list[int] = []
    door_open = [False]

    @system(Phase.FIXED, run_if=lambda w: door_open[0], reads=(Ping,))
    def listener(w: World) -> None:
        seen.extend(p.n for p in w.read_events(Ping, reader=listener))

    world.add_system(listener)
    for n in range(200):
        world.send(Ping(n))
        world.step(1)
    assert len(world.events.queue(Ping)) <= 2  # passed over, not held for a reader that sleeps
    door_open[0] = True
    world.send(Ping(1000))
    world.step(1)
    assert seen == [1000]


def test_any_changed_runs_after_a_marked_change_only() -> None:
    world = World()
    world.add_event(Ping)
    door = world.spawn(Door())
    ran = counting(world, any_changed(Door), "changes")
    world.step(2)
    assert ran == []
    world.get_mut(door, Door).open = True
    world.step(2)
    assert ran == [2]


def test_combinators_ask_every_condition_and_combine_the_answers() -> None:
    world = World()
    world.add_event(Ping)
    pinged = on_event(Ping)
    world.send(Ping(1))
    both = all_of(any_with(Door), pinged)
    either = any_of(any_with(Door), pinged)
    assert not both(world)  # no door: all_of is false, but it asked (and used up) the ping
    assert not either(world)  # that ping was seen by the one condition object already
    world.spawn(Door())
    assert either(world) and not both(world)
    world.send(Ping(2))
    assert both(world)
    assert not_(any_with(Score))(world)
    with pytest.raises(ValueError, match="at least one component"):
        any_with()


def test_a_system_reading_its_declared_events_as_another_reader_is_mended_with_a_warning(
    caplog: pytest.LogCaptureFixture,
) -> None:
    world = World()
    world.add_event(Ping)

    @system(Phase.FIXED, reads=(Ping,))
    def sounds(w: World) -> None:
        w.read_events(Ping, reader="sounds")

    world.add_system(sounds)
    with caplog.at_level(logging.WARNING, logger="playspace.ecs.world"):
        for n in range(100):
            world.send(Ping(n))
            world.step(1)
    assert len(world.events.queue(Ping)) <= 2  # the declared cursor no longer holds them all
    warned = [r.getMessage() for r in caplog.records]
    assert len(warned) == 1
    assert "sounds declares it reads Ping but reads them as 'sounds'" in warned[0]
