"""Seated play: a seated player's view raised to a standing player's eyes, checked as the
player would see it: the height of the view seated, standing up, and after recentering."""

from __future__ import annotations

import pytest

from playspace.components.rig import RigSettings
from playspace.ecs import PluginError, World
from playspace.systems.player.events import HeightCalibrated, RecenterRequested
from playspace.systems.player.seated import SeatedPlugin, calibrate_seated
from tests.rig_helpers import head_at, rig_of, rig_world

HZ = 90


def sit_then_stand(t: float):  # type: ignore[no-untyped-def]
    """Seated (the head at 1.2 m) for a second, then standing (1.6 m)."""
    return head_at(0.0, 1.2 if t < 1.0 else 1.6, 0.0)


def test_a_seated_head_at_1_2_m_sees_from_1_7_m_and_standing_up_raises_the_view() -> None:
    run = rig_world(sit_then_stand, plugins=(SeatedPlugin(),), events=(HeightCalibrated,))
    run.world.step(2 * HZ)
    steps = run.steps()
    assert steps[0]["head"]["p"][1] == pytest.approx(1.7, abs=1e-3)  # from the first step
    assert steps[HZ // 2]["head"]["p"][1] == pytest.approx(1.7, abs=1e-3)
    assert steps[-1]["head"]["p"][1] == pytest.approx(2.1, abs=1e-3)  # stood up 0.4 m
    assert steps[-1]["body"]["p"][1] == pytest.approx(0.0, abs=0.01)  # the feet stay down
    assert [e["raised"] for e in run.events("height_calibrated")] == [pytest.approx(0.5)]


def test_recentering_calibrates_again() -> None:
    run = rig_world(sit_then_stand, plugins=(SeatedPlugin(),), events=(HeightCalibrated,))
    run.world.step(round(1.5 * HZ))
    run.world.send(RecenterRequested())
    run.world.step(HZ // 2)
    assert run.steps()[-1]["head"]["p"][1] == pytest.approx(1.7, abs=1e-3)
    raised = [e["raised"] for e in run.events("height_calibrated")]
    assert raised == [pytest.approx(0.5), pytest.approx(0.1)]


def test_a_game_calibrates_when_it_likes_and_the_eye_height_is_a_setting() -> None:
    settings = RigSettings(eye_height=1.8)
    run = rig_world(sit_then_stand, plugins=(SeatedPlugin(),), settings=settings)
    run.world.step(round(1.5 * HZ))
    assert run.steps()[-1]["head"]["p"][1] == pytest.approx(2.2, abs=1e-3)
    assert calibrate_seated(run.world) == pytest.approx(0.2)
    run.world.step(1)
    assert run.steps()[-1]["head"]["p"][1] == pytest.approx(1.8, abs=1e-3)


def test_without_seated_play_the_view_is_the_real_head() -> None:
    run = rig_world(sit_then_stand)
    run.world.step(2)
    assert run.steps()[-1]["head"]["p"][1] == pytest.approx(1.2, abs=1e-3)
    assert rig_of(run.world) is not None


def test_seated_play_needs_the_rig() -> None:
    with pytest.raises(PluginError, match="SeatedPlugin needs the player's plugin"):
        World().add_plugin(SeatedPlugin())
    with pytest.raises(PluginError, match="eye_height must be positive"):
        rig_world(sit_then_stand, plugins=(SeatedPlugin(),), settings=RigSettings(eye_height=0))
