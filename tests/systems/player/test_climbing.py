"""Climbing, added by a game as a plugin, driven by scripted hands and checked as a climber
would notice it: how high the feet went hand over hand, the view's floor following in snaps,
hanging still without gravity, and the fall when both hands let go."""

from __future__ import annotations

import pytest

from playspace import spatial
from playspace.components.input import InputFrame
from playspace.components.locomotion import Climbable, ClimbSettings
from playspace.components.physics import Box
from playspace.ecs import PluginError, World
from playspace.systems.input import device_pose, hand_input
from playspace.systems.player.climb import ClimbPlugin
from playspace.systems.player.events import ClimbEnded, ClimbStarted
from tests.physics_helpers import static
from tests.rig_helpers import heard, rig_world

HZ = 90
FACE = -0.4  # the wall's face, in front of the player standing at the room's centre
HIGH, LOW = 1.9, 1.3  # where a hand takes hold, and where it has pulled down to (m)


def wall(world: World, climbable: bool = True) -> None:
    """A 6 m high wall before the player, climbable (or not)."""
    entity = static(world, Box((3.0, 6.0, 0.4)), spatial.vec3(0.0, 3.0, FACE - 0.2))
    if climbable:
        world.add(entity, Climbable())


def hand_over_hand(pulls: int, release: float | None = None):  # type: ignore[no-untyped-def]
    """Climb hand over hand: each half second one hand grips high on the wall and pulls down
    0.6 m in 0.4 s while the other lets go and reaches up; the right hand first. From
    `release` (s) on, neither grips."""

    def hand(x: float, lead: bool, phase: float, t: float) -> object:
        if lead:  # holding on: down from HIGH to LOW
            y = HIGH - (HIGH - LOW) * min(phase / 0.4, 1.0)
        else:  # reaching up for the next hold
            y = LOW + (HIGH - LOW) * min(phase / 0.4, 1.0)
        grip = 1.0 if lead and t < pulls * 0.5 and (release is None or t < release) else 0.0
        return hand_input((x, y, FACE + 0.05), grip=grip)

    def script(t: float) -> InputFrame:
        turn, phase = divmod(max(t - 0.2, 0.0), 0.5)
        right_leads = int(turn) % 2 == 0 and t >= 0.2
        left_leads = int(turn) % 2 == 1
        return InputFrame(
            0.0,
            device_pose((0.0, 1.7, 0.0), 0.0),
            hand(-0.2, left_leads, phase, t - 0.2),  # type: ignore[arg-type]
            hand(0.2, right_leads, phase, t - 0.2),  # type: ignore[arg-type]
        )

    return script


def test_the_climber_rises_2_m_hand_over_hand_and_falls_when_both_let_go() -> None:
    run = rig_world(hand_over_hand(4), plugins=(ClimbPlugin(),), build=wall)
    events = heard(run.world, ClimbStarted, ClimbEnded)
    run.world.step(round(2.3 * HZ))
    steps = run.steps()
    feet = [s["body"]["p"][1] for s in steps]
    top = max(feet)
    assert top == pytest.approx(4 * (HIGH - LOW), abs=0.05)  # 2.4 m: four pulls of 0.6 m
    assert top > 2.0
    # the view's floor followed in snaps, never more than the threshold behind the feet
    snaps = [e["dy"] for e in run.events("floor_snapped")]
    assert len(snaps) >= 10 and all(0.19 < dy < 0.25 for dy in snaps)
    views = [s["head"]["p"][1] - 1.7 for s in steps]
    assert all(f - v < 0.21 for f, v in zip(feet, views, strict=True))
    # hands swapped without a gap: one climb from the first grip to the last release
    assert [type(e) for _, e in events] == [ClimbStarted, ClimbEnded]
    (started, first), (ended, _) = events
    assert isinstance(first, ClimbStarted) and first.hand == "right_hand"
    assert started / HZ == pytest.approx(0.2, abs=1.5 / HZ)
    assert ended / HZ == pytest.approx(2.2, abs=1.5 / HZ)
    run.world.step(2 * HZ)  # let go: the body falls back to the floor
    fallen = run.steps()
    assert fallen[-1]["body"]["p"][1] == pytest.approx(0.0, abs=0.01)
    assert abs(fallen[-1]["head"]["p"][1] - 1.7) < 0.2  # the view came down with it


def test_a_climber_hanging_still_does_not_fall() -> None:
    """Grip, pull up once, then hang on without moving for a second: no gravity."""
    run = rig_world(hand_over_hand(1), plugins=(ClimbPlugin(),), build=wall)
    run.world.step(round(0.65 * HZ))  # the pull is done at 0.6 s; the grip holds till 0.7
    hanging = run.steps()[-1]["body"]["p"][1]
    assert hanging == pytest.approx(HIGH - LOW, abs=0.02)
    assert not run.steps()[-1]["body"]["grounded"]


def test_a_hand_that_holds_on_stays_where_it_took_hold_without_quantization() -> None:
    """With slope quantization off the view follows the body: the gripping hand is seen where
    it took hold, while the player pulls."""
    from playspace.components.rig import RigSettings

    settings = RigSettings(slope_quantization=0.0)
    run = rig_world(hand_over_hand(1), plugins=(ClimbPlugin(),), build=wall, settings=settings)
    run.world.step(round(0.6 * HZ))
    hands = [s["right_hand"]["p"][1] for s in run.steps()[round(0.2 * HZ) + 1 :]]
    assert max(hands) - min(hands) < 0.01


def test_gripping_away_from_a_climbable_body_does_nothing() -> None:
    run = rig_world(hand_over_hand(4), plugins=(ClimbPlugin(),), build=lambda w: wall(w, False))
    events = heard(run.world, ClimbStarted)
    run.world.step(2 * HZ)
    assert max(s["body"]["p"][1] for s in run.steps()) == pytest.approx(0.0, abs=0.01)
    assert events == []


def test_climb_settings_that_cannot_work_are_refused() -> None:
    with pytest.raises(PluginError, match="ClimbPlugin: reach must be a positive number"):
        rig_world(hand_over_hand(1), plugins=(ClimbPlugin(ClimbSettings(reach=0.0)),))
    with pytest.raises(PluginError, match="ClimbPlugin: grip_off and grip_on"):
        rig_world(hand_over_hand(1), plugins=(ClimbPlugin(ClimbSettings(grip_on=0.2)),))


def test_with_both_hands_on_the_newest_grip_leads() -> None:
    """The right hand holds still on the wall; the left takes hold after it and pulls down
    0.5 m: the body follows the left."""

    def script(t: float) -> InputFrame:
        pull = 0.5 * min(max(t - 0.5, 0.0) / 0.4, 1.0)
        return InputFrame(
            0.0,
            device_pose((0.0, 1.7, 0.0), 0.0),
            hand_input((-0.2, HIGH - pull, FACE + 0.05), grip=1.0 if t > 0.4 else 0.0),
            hand_input((0.2, HIGH, FACE + 0.05), grip=1.0 if t > 0.2 else 0.0),
        )

    run = rig_world(script, plugins=(ClimbPlugin(),), build=wall)
    run.world.step(HZ)
    assert run.steps()[-1]["body"]["p"][1] == pytest.approx(0.5, abs=0.02)
