"""Entities, components, resources and the isolation of worlds."""

from __future__ import annotations

import gc
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import esper
import pytest

from playspace.app import build_world
from playspace.app.replay import replay_source
from playspace.ecs import (
    ComponentError,
    Despawned,
    MissingComponent,
    MissingResource,
    Phase,
    World,
)
from playspace.formats.scene import load_scene

ROOT = Path(__file__).resolve().parents[2]


@dataclass(slots=True)
class Position:
    x: float


@dataclass(slots=True)
class Velocity:
    x: float


@dataclass(slots=True)
class Gravity:
    g: float = -9.81


def test_spawn_get_add_remove_and_query() -> None:
    world = World()
    a = world.spawn(Position(0.0), Velocity(1.0))
    b = world.spawn(Position(5.0))
    assert world.get(a, Position).x == 0.0
    assert world.try_get(b, Velocity) is None
    assert {e for e, _ in world.query(Position, Velocity)} == {a}
    world.add(b, Velocity(-1.0))
    assert {e for e, _ in world.query(Position, Velocity)} == {a, b}
    assert {e for e, _ in world.each(Position)} == {a, b}
    assert world.has(b, Position, Velocity)
    assert world.remove(b, Velocity) == Velocity(-1.0)
    assert not world.has(b, Velocity)
    assert world.entity_count() == 2


def test_missing_component_names_entity_and_type() -> None:
    world = World()
    e = world.spawn(Position(0.0))
    with pytest.raises(MissingComponent, match=rf"entity {e} has no Velocity"):
        world.get(e, Velocity)
    with pytest.raises(MissingComponent, match=r"entity 99 does not exist, so no Position"):
        world.get(99, Position)
    with pytest.raises(MissingComponent, match=r"no Velocity to remove"):
        world.remove(e, Velocity)


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        (Position, r"component Position given to spawn is a class, not an instance"),
        (3.0, r"component 3.0 given to spawn is not an instance of a component class"),
        (None, r"component None given to spawn"),
        ((1, 2), r"component \(1, 2\) given to spawn"),
    ],
)
def test_a_component_that_is_not_a_class_instance_is_refused(bad: object, message: str) -> None:
    world = World()
    with pytest.raises(ComponentError, match=message):
        world.spawn(Position(0.0), bad)
    assert world.entity_count() == 0


def test_adding_a_class_as_component_names_the_entity() -> None:
    world = World()
    e = world.spawn()
    with pytest.raises(ComponentError, match=rf"Velocity added to entity {e} is a class"):
        world.add(e, Velocity)
    with pytest.raises(MissingComponent, match="entity 42: it does not exist"):
        world.add(42, Velocity(0.0))


def test_despawn_is_deferred_to_the_end_of_the_system_and_announced() -> None:
    world = World()
    keep = world.spawn(Position(0.0))
    doomed = world.spawn(Position(1.0), Velocity(2.0))
    seen_inside: list[int] = []
    gone: list[Despawned] = []

    def reaper(w: World) -> None:
        w.despawn(doomed)
        seen_inside.extend(e for e, _ in w.each(Position))  # still listed until it returns

    def mourner(w: World) -> None:
        gone.extend(w.read_events(Despawned, reader=mourner))
        assert {e for e, _ in w.each(Position)} == {keep}

    world.add_system(reaper, phase=Phase.FIXED, run_if=lambda w: w.exists(doomed))
    world.add_system(mourner, phase=Phase.FIXED, after=[reaper])
    world.step(2)
    assert sorted(seen_inside) == [keep, doomed]
    assert [g.entity for g in gone] == [doomed]
    assert gone[0].components[Velocity] == Velocity(2.0)
    assert not world.exists(doomed)


def test_the_world_says_which_components_changed_since_each_reader_last_asked() -> None:
    """A component handed over by ``get_mut`` (or announced by ``set_changed``) is changed;
    one only read is not. Each reader has its own cursor: it sees each change once, in the
    order of the last changes, and never takes changes from another reader."""
    world = World()
    a, b, c = (world.spawn(Position(float(i)), Velocity(0.0)) for i in range(3))
    assert world.changed(Position, "physics") == []
    world.get_mut(b, Position).x = 5.0
    world.get_mut(a, Position).x = 6.0
    world.get(c, Position)  # read, not changed
    world.get_mut(c, Velocity)  # another type
    assert world.changed(Position, "physics") == [b, a]
    assert world.changed(Position, "physics") == []
    world.set_changed(b, Position)  # one from a query, changed in place
    world.get_mut(a, Position)
    world.get_mut(b, Position)  # again: once, at its last change
    assert world.changed(Position, "physics") == [a, b]
    assert world.changed(Position, "renderer") == [a, b]  # everything recorded, the first time
    assert world.changed(Velocity, "physics") == [c]


def test_a_despawned_entity_is_no_longer_among_the_changed() -> None:
    world = World()
    kept, gone = world.spawn(Position(0.0)), world.spawn(Position(1.0))
    world.get_mut(gone, Position)
    world.get_mut(kept, Position)
    world.despawn(gone)
    world.step(1)
    assert world.changed(Position, "reader") == [kept]


def test_changes_are_kept_per_world() -> None:
    first, second = World(), World()
    entity = first.spawn(Position(0.0))
    assert second.spawn(Position(0.0)) == entity  # the same id in each world
    first.get_mut(entity, Position)
    assert second.changed(Position, "reader") == []
    assert first.changed(Position, "reader") == [entity]


def test_despawning_a_missing_entity_is_a_clear_error() -> None:
    with pytest.raises(MissingComponent, match="cannot despawn entity 7"):
        World().despawn(7)


def test_resources_one_per_type() -> None:
    world = World()
    world.insert_resource(Gravity())
    assert world.resource(Gravity).g == -9.81
    world.insert_resource(Gravity(-1.62))
    assert world.resource(Gravity).g == -1.62
    assert world.remove_resource(Gravity).g == -1.62
    assert world.try_resource(Gravity) is None
    with pytest.raises(MissingResource, match=r"no Gravity resource.*insert_resource"):
        world.resource(Gravity)
    with pytest.raises(ComponentError, match="resource Gravity given to insert_resource"):
        world.insert_resource(Gravity)


def test_worlds_do_not_share_entities_components_or_resources() -> None:
    first, second = World(), World()
    a1 = first.spawn(Position(1.0))
    b1 = second.spawn(Position(10.0), Velocity(1.0))
    a2 = first.spawn(Position(2.0))
    assert a1 == b1 == 1  # ids restart in every world
    assert [p.x for _, p in first.each(Position)] == [1.0, 2.0]
    assert [p.x for _, p in second.each(Position)] == [10.0]
    assert first.query(Position, Velocity) == []
    first.insert_resource(Gravity(-1.0))
    assert second.try_resource(Gravity) is None
    first.despawn(a2)
    first.step(1)
    assert second.exists(1) and not second.exists(a2)


def test_one_entity_is_read_from_its_own_world_whichever_esper_context_is_current() -> None:
    """``get``, ``try_get``, ``has`` and ``exists`` read the world's own context without
    switching to it: right while another world's or plain esper's is current, and a despawn
    ends the entity's existence at once though its components stay until the frame ends."""
    first, second = World(), World()
    a = first.spawn(Position(1.0), Velocity(2.0))
    b = second.spawn(Position(10.0))
    assert a == b  # the same id in both worlds
    esper.switch_world("default")
    esper.create_entity(Position(-1.0), Velocity(-1.0))
    assert first.get(a, Position).x == 1.0 and second.get(b, Position).x == 10.0
    assert first.has(a, Position, Velocity) and not second.has(b, Position, Velocity)
    assert second.try_get(b, Velocity) is None and first.try_get(a, Velocity) == Velocity(2.0)
    first.despawn(a)
    assert not first.exists(a) and not first.has(a, Position)
    assert second.exists(b) and second.has(b, Position)
    first.step(1)
    assert first.try_get(a, Position) is None
    with pytest.raises(MissingComponent, match=f"entity {a} does not exist, so no Position"):
        first.get(a, Position)
    with pytest.raises(MissingComponent, match=f"entity {b} has no Velocity"):
        second.get(b, Velocity)
    first.close()  # used again, a closed world starts a context of its own
    again = first.spawn(Position(3.0))
    assert first.get(again, Position).x == 3.0 and second.get(b, Position).x == 10.0
    first.close()


def test_a_system_of_one_world_may_touch_another_and_its_own_world_stays_right() -> None:
    game, other = World(), World()
    other.spawn(Position(100.0))
    mine = game.spawn(Position(0.0), Velocity(1.0))
    seen: list[list[float]] = []

    def meddler(w: World) -> None:
        other.spawn(Position(200.0))  # switches esper to the other world's context
        seen.append([p.x for _, (p, _v) in w.query(Position, Velocity)])
        w.get(mine, Position).x += 1.0

    game.add_system(meddler, phase=Phase.FIXED)
    game.step(3)
    assert seen == [[0.0], [1.0], [2.0]]
    assert sorted(p.x for _, p in other.each(Position)) == [100.0, 200.0, 200.0, 200.0]
    assert game.entity_count() == 1


def test_plain_esper_use_elsewhere_does_not_leak_into_a_world() -> None:
    world = World()
    world.spawn(Position(1.0))
    esper.switch_world("default")
    esper.create_entity(Position(-1.0))
    assert [p.x for _, p in world.each(Position)] == [1.0]


def test_a_closed_or_collected_world_frees_its_esper_context() -> None:
    world = World()
    name = world.name
    world.spawn(Position(0.0))
    assert name in esper.list_worlds()
    world.close()
    assert name not in esper.list_worlds()

    with World() as scoped:
        scoped_name = scoped.name
    assert scoped_name not in esper.list_worlds()

    dropped = World()
    dropped_name = dropped.name
    del dropped
    gc.collect()
    assert dropped_name not in esper.list_worlds()


def _blocked_frame() -> tuple[World, threading.Event, threading.Event, list[int]]:
    """A world whose one system, once running, says so and waits to be let go, then reads its
    own component: a frame held open for as long as a test needs."""
    world = World()
    entity = world.spawn(Position(1.0))
    inside, release, seen = threading.Event(), threading.Event(), []

    def held(w: World) -> None:
        inside.set()
        release.wait(5.0)
        seen.append(int(w.get(entity, Position).x))

    world.add_system(held, phase=Phase.FIXED)
    return world, inside, release, seen


def _waits_for_the_frame(work: Callable[[], object]) -> bool:
    """Whether `work`, run in a thread while another world's frame is open, waits for it."""
    world, inside, release, seen = _blocked_frame()
    stepping = threading.Thread(target=lambda: world.step(1))
    stepping.start()
    assert inside.wait(5.0)
    other = threading.Thread(target=work)
    other.start()
    other.join(0.3)
    waited = other.is_alive()
    release.set()
    stepping.join(5.0)
    other.join(5.0)
    assert seen == [1]  # the held frame read its own world, not the other
    return waited


def test_worlds_in_two_threads_take_turns_a_frame_at_a_time() -> None:
    """esper has one current world a process: a frame of one world and a frame of another,
    in two threads, would read each other's components. The second waits for the first."""
    other = World()
    other.spawn(Position(2.0))
    assert _waits_for_the_frame(lambda: other.step(1))


def test_a_world_is_built_while_no_other_world_runs_a_frame() -> None:
    """A player's world built beside a host stepping in another thread (build_world spawns
    the whole scene) waits for the host's frame, and a world built outside any frame does not
    wait at all (the control: the test sees a wait only where there is one)."""
    scene = load_scene(ROOT / "examples" / "stairs.toml")
    assert _waits_for_the_frame(lambda: build_world(scene, replay_source(None)))
    built = threading.Thread(target=lambda: build_world(scene, replay_source(None)))
    built.start()
    built.join(5.0)
    assert not built.is_alive()
