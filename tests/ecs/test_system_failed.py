"""A system that raises: the world says which one, where in its file, and when in the run."""

from __future__ import annotations

from pathlib import Path

import pytest

from playspace.ecs import Phase, SystemFailed, World, system

HERE = Path(__file__).resolve()


def _divide_by(step: int) -> float:
    return 1 / step


@system(Phase.FIXED)
def fails_at_step_3(world: World) -> None:
    if world.fixed_time.step == 3:
        _divide_by(0)


def test_a_failing_fixed_system_is_named_with_its_line_and_step() -> None:
    world = World()
    world.add_system(fails_at_step_3)
    world.step(3)
    with pytest.raises(SystemFailed) as failed:
        world.step(1)
    error = failed.value
    assert (error.system, error.phase, error.step) == ("fails_at_step_3", "fixed", 3)
    assert isinstance(error.__cause__, ZeroDivisionError) and error.error is error.__cause__
    line = _divide_by.__code__.co_firstlineno + 1  # the deepest line of this file: the division
    assert error.where is not None and error.where.endswith(f"test_system_failed.py:{line}")
    assert str(error) == (
        f"system 'fails_at_step_3' ({error.where}) failed at fixed step 3: "
        "ZeroDivisionError: division by zero"
    )


class Broken:
    """A system that is an object with a run method: its class's file is its file."""

    def run(self, world: World) -> None:
        raise KeyError("nothing here")


def test_a_system_outside_the_fixed_step_says_its_phase() -> None:
    world = World()
    world.add_system(Broken(), phase=Phase.LATE, name="broken")
    with pytest.raises(
        SystemFailed, match=r"in the late phase after 2 fixed steps: KeyError"
    ) as failed:
        world.advance(2 / 90)
    line = Broken.run.__code__.co_firstlineno + 1
    where = failed.value.where
    assert where is not None and Path(where.rsplit(":", 1)[0]).resolve() == HERE
    assert where.endswith(f":{line}")


def test_a_world_stepped_inside_a_system_keeps_the_inner_failure() -> None:
    inner = World()
    inner.add_system(fails_at_step_3)
    inner.step(3)

    @system(Phase.FIXED)
    def steps_another_world(world: World) -> None:
        inner.step(1)

    outer = World()
    outer.add_system(steps_another_world)
    with pytest.raises(SystemFailed) as failed:
        outer.step(1)
    assert failed.value.system == "fails_at_step_3"
