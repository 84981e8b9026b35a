"""Locomotion providers: in their order, switched off by ``enabled``, and an exclusive one that
takes the step from those after it, as Godot XR Tools' player body runs them."""

from __future__ import annotations

import math

import pytest

from playspace import spatial
from playspace.components import Transform
from playspace.components.input import HandInput, InputFrame
from playspace.components.locomotion import Locomotion
from playspace.components.rig import OriginMotion, Rig, RigSettings, TurnMode
from playspace.ecs import Phase, PluginError, World
from playspace.systems.player.providers import add_provider, locomotion_provider
from playspace.systems.sets import FixedSet
from tests.rig_helpers import Run, aiming_hand, head_at, rig_of, rig_world, with_sticks


def walking_and_turning(t: float) -> InputFrame:
    """Left stick forward and the right stick pushed right: walk and turn at once."""
    return with_sticks(head_at(0.0, 1.7, 0.0), left=(0.0, 1.0), right=(1.0, 0.0))


def heading(run: Run) -> float:
    world = run.world
    return spatial.yaw(world.get(rig_of(world).origin, Transform).rotation)


def walked(run: Run) -> float:
    """How far the head went across the floor from where it started: turning pivots on it,
    so only movement moves it."""
    first, last = run.steps()[0]["head"]["p"], run.steps()[-1]["head"]["p"]
    return math.hypot(last[0] - first[0], last[2] - first[2])


def test_the_built_in_providers_run_in_their_order() -> None:
    run = rig_world(walking_and_turning)
    assert [p.name for p in sorted(
        run.world.resource(Locomotion).providers.values(), key=lambda p: p.order
    )] == ["smooth_move", "teleport", "turning"]  # fmt: skip
    fixed = run.world.schedule.phase(Phase.FIXED)
    names = [spec.name for spec in fixed if spec.in_set is FixedSet.LOCOMOTION]
    assert names == ["locomotion_start", "smooth_move", "teleport", "turning"]


def test_a_provider_switched_off_does_not_move_the_player() -> None:
    run = rig_world(walking_and_turning, settings=RigSettings(turn_mode=TurnMode.SMOOTH))
    run.world.resource(Locomotion).providers["smooth_move"].enabled = False
    run.world.step(90)
    assert walked(run) == pytest.approx(0.0, abs=0.01)
    assert abs(heading(run)) > 1.0  # turning still did


def test_an_exclusive_provider_that_is_active_takes_the_step_from_those_after_it() -> None:
    frozen: list[bool] = []

    @locomotion_provider(order=1, exclusive=True)
    def hover(world: World, rig: Rig, disabled: bool) -> bool:
        frozen.append(disabled)
        return world.fixed_time.step < 45  # active for the first half second

    run = rig_world(walking_and_turning, settings=RigSettings(turn_mode=TurnMode.SMOOTH))
    add_provider(run.world, hover)
    run.world.step(45)
    assert walked(run) == pytest.approx(0.0, abs=0.01) and heading(run) == pytest.approx(0.0)
    run.world.step(45)
    assert walked(run) > 0.5 and abs(heading(run)) > 0.3  # free again once it let go
    assert not any(frozen)  # the first runs with nothing before it to take the step


def test_a_provider_later_in_the_order_cannot_take_the_step_from_earlier_ones() -> None:
    @locomotion_provider(order=100, exclusive=True)
    def last(world: World, rig: Rig, disabled: bool) -> bool:
        return True

    run = rig_world(walking_and_turning, settings=RigSettings(turn_mode=TurnMode.SMOOTH))
    add_provider(run.world, last)
    run.world.step(45)
    assert walked(run) > 0.5 and abs(heading(run)) > 0.3


def test_aiming_a_teleport_stops_turning_but_not_walking() -> None:
    def script(t: float) -> InputFrame:
        right = HandInput(aiming_hand((0.2, 1.2, -0.2), math.radians(20)), stick=(0.8, 0.8))
        return with_sticks(head_at(0.0, 1.7, 0.0, right=right), left=(0.0, 1.0), right=(0.8, 0.8))

    run = rig_world(script)
    run.world.step(60)
    assert run.events("turned") == []  # the flick to the right is the teleport's, not a turn
    assert walked(run) > 0.5


def test_a_provider_that_carries_the_player_says_so_for_the_vignette_and_throws() -> None:
    run = rig_world(lambda t: with_sticks(head_at(0.0, 1.7, 0.0), left=(0.0, 1.0)))
    run.world.step(10)
    assert run.world.get(rig_of(run.world).origin, OriginMotion).continuous
    standing = rig_world(lambda t: head_at(0.0, 1.7, 0.0))
    standing.world.step(10)
    assert not standing.world.get(rig_of(standing.world).origin, OriginMotion).continuous


def test_two_providers_of_one_name_or_none_without_the_player_are_refused() -> None:
    @locomotion_provider(order=3)
    def smooth_move(world: World, rig: Rig, disabled: bool) -> bool:
        return False

    run = rig_world(lambda t: head_at(0.0, 1.7, 0.0))
    with pytest.raises(PluginError, match="named 'smooth_move' is already"):
        add_provider(run.world, smooth_move)
    with pytest.raises(PluginError, match="needs the player's plugin"):
        add_provider(World(), smooth_move)


def test_a_provider_of_one_player_still_works_and_says_it_is_deprecated() -> None:
    """A ``move(world, disabled)`` written before worlds had several players moves the first
    player, with a warning that names it and says what to take instead."""
    with pytest.warns(DeprecationWarning, match="'hover' takes \\(world, disabled\\)"):

        @locomotion_provider(order=1, exclusive=True)
        def hover(world: World, disabled: bool) -> bool:
            return True

    run = rig_world(walking_and_turning, settings=RigSettings(turn_mode=TurnMode.SMOOTH))
    add_provider(run.world, hover)
    run.world.step(45)
    assert walked(run) == pytest.approx(0.0, abs=0.01)  # it took the first player's step
