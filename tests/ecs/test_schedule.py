"""The schedule: phases, stable topological order, bad declarations, plugins."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

import pytest

from playspace.ecs import Phase, PluginError, ScheduleError, World, system


def recorder(world: World, name: str, phase: Phase = Phase.FIXED, **order: object) -> object:
    """A system that appends its name to the world's Log resource when it runs."""

    def run(w: World) -> None:
        w.resource(Log).names.append(name)

    world.add_system(run, phase=phase, name=name, **order)  # type: ignore[arg-type]
    return run


@dataclass
class Log:
    names: list[str]


@pytest.fixture
def world() -> World:
    w = World()
    w.insert_resource(Log([]))
    return w


def ran(world: World) -> list[str]:
    return world.resource(Log).names


def test_insertion_order_without_constraints(world: World) -> None:
    for name in "abcd":
        recorder(world, name)
    world.step(1)
    assert ran(world) == list("abcd")


def test_before_and_after_reorder_and_the_rest_stays_stable(world: World) -> None:
    a = recorder(world, "a")
    recorder(world, "b")
    recorder(world, "c", before=[a])
    recorder(world, "d", after=["a"], before=["b"])
    world.step(1)
    assert ran(world) == ["c", "a", "d", "b"]


def test_phases_run_in_frame_order_and_fixed_runs_per_step(world: World) -> None:
    recorder(world, "render", Phase.RENDER)
    recorder(world, "late", Phase.LATE)
    recorder(world, "fixed", Phase.FIXED)
    recorder(world, "input", Phase.INPUT)
    world.advance(2.5 / 90)  # two steps due, half a step left over
    assert ran(world) == ["input", "fixed", "fixed", "late", "render"]


def test_order_is_computed_when_systems_change_not_per_frame(world: World) -> None:
    recorder(world, "a")
    first = world.schedule.phase(Phase.FIXED)
    world.step(3)
    assert world.schedule.phase(Phase.FIXED) is first
    recorder(world, "b")
    assert world.schedule.phase(Phase.FIXED) is not first


def test_a_cycle_is_an_error_naming_the_systems_and_changes_nothing(world: World) -> None:
    recorder(world, "a")
    recorder(world, "b", after=["a"])

    @system(Phase.FIXED, after=("b",), before=("a",))
    def c(w: World) -> None: ...

    with pytest.raises(ScheduleError, match=r"cycle: a -> b -> c -> a"):
        world.add_system(c)
    assert "c" not in world.schedule
    world.step(1)
    assert ran(world) == ["a", "b"]


def test_a_batch_may_order_against_its_own_members() -> None:
    @system(Phase.FIXED, after=("second",))
    def first(w: World) -> None: ...

    @system(Phase.FIXED)
    def second(w: World) -> None: ...

    world = World()
    world.add_systems(first, second)
    assert [s.name for s in world.schedule.phase(Phase.FIXED)] == ["second", "first"]


def test_a_batch_may_reference_its_members_by_object() -> None:
    @system(Phase.FIXED)
    def tracking(w: World) -> None: ...

    @system(Phase.FIXED, before=(tracking,))
    def poll(w: World) -> None: ...

    world = World()
    world.add_systems(tracking, poll)
    assert [s.name for s in world.schedule.phase(Phase.FIXED)] == ["poll", "tracking"]


def test_unknown_phase_is_an_error_naming_the_system(world: World) -> None:
    def physics(w: World) -> None: ...

    with pytest.raises(ScheduleError, match=r"'physics' has unknown phase 'physics_step'"):
        world.add_system(physics, phase="physics_step")
    with pytest.raises(ScheduleError, match=r"'physics' declares no phase"):
        world.add_system(physics)


def test_phase_may_be_given_by_name(world: World) -> None:
    recorder(world, "late", "late")  # type: ignore[arg-type]
    assert world.schedule.get("late").phase is Phase.LATE


def test_reference_to_a_missing_system_is_an_error(world: World) -> None:
    def grab(w: World) -> None: ...

    with pytest.raises(ScheduleError, match=r"'held' is declared after 'throw'.*not in this"):
        world.add_system(grab, phase=Phase.FIXED, after=["throw"], name="held")
    with pytest.raises(ScheduleError, match=r"declared before 'grab'"):
        world.add_system(lambda w: None, phase=Phase.FIXED, before=[grab], name="x")


def test_order_across_phases_is_an_error(world: World) -> None:
    recorder(world, "poll", Phase.INPUT)
    with pytest.raises(ScheduleError, match=r"'step' \(FIXED\) is ordered against 'poll'"):
        recorder(world, "step", Phase.FIXED, after=["poll"])


def test_a_duplicate_name_is_an_error(world: World) -> None:
    recorder(world, "a")
    with pytest.raises(ScheduleError, match="already in this world"):
        recorder(world, "a")


def test_a_class_or_non_callable_is_not_a_system(world: World) -> None:
    class Mover:
        def run(self, w: World) -> None: ...

    with pytest.raises(ScheduleError, match=r"is a class, not an instance"):
        world.add_system(Mover, phase=Phase.FIXED)
    with pytest.raises(ScheduleError, match=r"neither a function nor an object"):
        world.add_system(42, phase=Phase.FIXED, name="answer")


def test_an_object_with_a_run_method_is_a_system(world: World) -> None:
    @system(Phase.FIXED)
    class Counter:
        def __init__(self) -> None:
            self.count = 0

        def run(self, w: World) -> None:
            self.count += 1

    counter = Counter()
    world.add_system(counter)
    world.step(4)
    assert counter.count == 4
    assert world.schedule.get(counter).name == "Counter"


def test_run_if_skips_a_system_while_false(world: World) -> None:
    gate = {"open": False}
    recorder(world, "gated", run_if=lambda w: gate["open"])
    world.step(2)
    gate["open"] = True
    world.step(1)
    assert ran(world) == ["gated"]


def test_remove_system_and_its_dependents_guard(world: World) -> None:
    recorder(world, "a")
    recorder(world, "b", after=["a"])
    with pytest.raises(ScheduleError, match=r"'b' is ordered against it"):
        world.remove_system("a")
    world.remove_system("b")
    world.remove_system("a")
    world.step(1)
    assert ran(world) == []


def test_system_stats_count_calls(world: World) -> None:
    recorder(world, "a")
    world.step(5)
    stats = world.schedule.get("a").stats
    assert stats.calls == 5
    assert stats.total_ns >= stats.max_ns >= stats.last_ns > 0


def test_unordered_writers_of_the_same_data_are_flagged() -> None:
    @dataclass
    class Transform:
        x: float

    @system(Phase.FIXED, writes=(Transform,))
    def rig(w: World) -> None: ...

    @system(Phase.FIXED, writes=(Transform,))
    def locomotion(w: World) -> None: ...

    @system(Phase.FIXED, reads=(Transform,), after=(locomotion,))
    def telemetry(w: World) -> None: ...

    world = World()
    world.add_systems(rig, locomotion, telemetry)
    found = {(a, b) for a, b, _ in world.schedule.ambiguities()}
    assert found == {("rig", "locomotion"), ("rig", "telemetry")}


def test_a_plugin_is_built_once() -> None:
    class GrabPlugin:
        def __init__(self, reach: float = 0.08) -> None:
            self.reach = reach

        def build(self, world: World) -> None:
            world.insert_resource(Log([f"reach {self.reach}"]))
            world.add_system(lambda w: None, phase=Phase.FIXED, name="grab")

    world = World()
    world.add_plugin(GrabPlugin())
    assert world.resource(Log).names == ["reach 0.08"]
    assert world.has_plugin(GrabPlugin())
    with pytest.raises(PluginError, match="GrabPlugin was already added"):
        world.add_plugin(GrabPlugin(reach=0.1))


def test_a_plain_function_is_a_plugin() -> None:
    def comfort(world: World) -> None:
        world.insert_resource(Log(["comfort"]))

    world = World()
    world.add_plugin(comfort)
    with pytest.raises(PluginError, match="comfort was already added"):
        world.add_plugin(comfort)
    with pytest.raises(PluginError, match="is not a plugin"):
        world.add_plugin(3)  # type: ignore[arg-type]


class Step(Enum):
    """Sets a test's plugins declare."""

    TRACKING = "tracking"
    RIG = "rig"
    PHYSICS = "physics"
    A = "a"
    B = "b"
    C = "c"
    D = "d"
    GRAB = "grab"
    EARLY = "early"
    LATE = "late"
    GAME = "game"
    TELEMETRY = "telemetry"
    NOWHERE = "nowhere"


def test_sets_order_systems_of_different_plugins_without_naming_them(world: World) -> None:
    world.schedule.add_sets(Phase.FIXED, Step.TRACKING, Step.RIG, Step.PHYSICS)
    recorder(world, "step", in_set=Step.PHYSICS)
    recorder(world, "free")
    recorder(world, "snap", in_set=Step.RIG)
    recorder(world, "poll", in_set=Step.TRACKING)
    recorder(world, "late_rig", in_set=Step.RIG, after=["snap"])
    world.step(1)
    assert ran(world) == ["free", "poll", "snap", "late_rig", "step"]


def test_sets_skip_empty_sets_and_keep_their_order_when_added_again(world: World) -> None:
    world.schedule.add_sets(Phase.FIXED, Step.A, Step.B, Step.C)
    world.schedule.add_sets(Phase.FIXED, Step.A, Step.C, Step.D)
    assert world.schedule.sets(Phase.FIXED) == (Step.A, Step.B, Step.C, Step.D)
    recorder(world, "in_d", in_set=Step.D)
    recorder(world, "in_a", in_set=Step.A)
    world.step(1)
    assert ran(world) == ["in_a", "in_d"]
    with pytest.raises(ScheduleError, match="contradict"):
        world.schedule.add_sets(Phase.FIXED, Step.C, Step.A)


def test_an_unknown_set_is_an_error_naming_it(world: World) -> None:
    world.schedule.add_sets(Phase.FIXED, Step.RIG)
    with pytest.raises(
        ScheduleError, match=r"in set Step.GRAB, which FIXED does not have.*Step.RIG"
    ):
        recorder(world, "grabber", in_set=Step.GRAB)
    with pytest.raises(ScheduleError, match=r"which LATE does not have \(its sets: none yet\)"):
        recorder(world, "camera", Phase.LATE, in_set=Step.RIG)


def test_an_order_against_a_set_that_contradicts_it_is_a_cycle(world: World) -> None:
    world.schedule.add_sets(Phase.FIXED, Step.EARLY, Step.LATE)
    recorder(world, "e", in_set=Step.EARLY)
    with pytest.raises(ScheduleError, match="cycle"):
        recorder(world, "l", in_set=Step.LATE, before=["e"])


@dataclass
class Score:
    points: int


def test_writers_in_ordered_sets_are_not_ambiguous_and_writers_in_one_set_are() -> None:
    @system(Phase.FIXED, in_set=Step.EARLY, writes=(Score,))
    def first(w: World) -> None: ...

    @system(Phase.FIXED, in_set=Step.LATE, writes=(Score,))
    def second(w: World) -> None: ...

    @system(Phase.FIXED, in_set=Step.LATE, reads=(Score,))
    def third(w: World) -> None: ...

    world = World()
    world.schedule.add_sets(Phase.FIXED, Step.EARLY, Step.LATE)
    world.add_systems(first, second, third)
    assert {(a, b) for a, b, _ in world.schedule.ambiguities()} == {("second", "third")}


def test_a_system_with_neither_set_nor_order_lands_in_the_default_set(world: World) -> None:
    world.schedule.add_sets(Phase.FIXED, Step.TRACKING, Step.GAME, Step.TELEMETRY)
    world.schedule.set_default_set(Phase.FIXED, Step.GAME)
    recorder(world, "write", in_set=Step.TELEMETRY)
    recorder(world, "unplaced")
    recorder(world, "poll", in_set=Step.TRACKING)
    recorder(world, "ordered", before=["poll"])  # its own order stands: no set is forced on it
    world.step(1)
    assert ran(world) == ["ordered", "poll", "unplaced", "write"]
    assert world.schedule.get("unplaced").in_set == Step.GAME
    with pytest.raises(ScheduleError, match=r"set Step\.NOWHERE"):
        world.schedule.set_default_set(Phase.FIXED, Step.NOWHERE)


def test_sets_are_enum_members_and_a_string_is_found_with_a_deprecation_warning(
    world: World,
) -> None:
    with pytest.raises(ScheduleError, match=r"set 'rig' of FIXED is not a member of an Enum"):
        world.schedule.add_sets(Phase.FIXED, "rig")  # type: ignore[arg-type]
    world.schedule.add_sets(Phase.FIXED, Step.TRACKING, Step.RIG)
    with pytest.warns(
        DeprecationWarning, match=r"in_set='rig' names a set.*use the set itself, Step\.RIG"
    ) as said:
        recorder(world, "old", in_set="rig")
    assert said[0].filename == __file__  # pointed at the line that wrote it
    assert world.schedule.get("old").in_set is Step.RIG
    with pytest.raises(ScheduleError, match="in set elsewhere, which FIXED does not have"):
        recorder(world, "lost", in_set="elsewhere")


def test_add_system_takes_writes_and_declare_widens_a_system() -> None:
    world = World()
    world.add_system(lambda w: None, phase=Phase.FIXED, name="a", writes=(Score,))
    world.add_system(lambda w: None, phase=Phase.FIXED, name="b")
    assert world.schedule.ambiguities() == []
    world.declare("b", reads=(Score,))
    assert world.schedule.ambiguities() == [("a", "b", Score)]


def test_a_plugin_that_says_it_is_not_unique_may_be_added_again() -> None:
    class Spawner:
        unique = False

        def __init__(self, kind: str) -> None:
            self.kind = kind

        def build(self, world: World) -> None:
            log = world.try_resource(Log) or world.insert_resource(Log([]))
            log.names.append(self.kind)

    world = World()
    world.add_plugin(Spawner("snowball"))
    world.add_plugin(Spawner("crate"))
    assert world.resource(Log).names == ["snowball", "crate"]


def test_the_audit_names_what_a_system_touched_without_declaring_it() -> None:
    @system(Phase.FIXED, reads=(Log,))
    def honest(w: World) -> None:
        w.resource(Log)

    @system(Phase.FIXED, reads=(Log,))
    def sneaky(w: World) -> None:
        w.resource(Score).points += 1
        for _ in w.each(Log):
            pass

    world = World()
    world.insert_resource(Log([]))
    world.insert_resource(Score(0))
    world.add_systems(honest, sneaky)
    audit = world.audit_access()
    world.step(2)
    assert audit == {"sneaky": {Score}}
