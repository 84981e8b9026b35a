"""Jump, sprint and crouch, added by a game as plugins, driven by scripted buttons and checked
as a player would notice them: how high the feet and the view went, how far a second of
walking got, whether the body fits under a low beam."""

from __future__ import annotations

import math

import pytest

from playspace import spatial
from playspace.components.input import Button, InputFrame
from playspace.components.locomotion import JumpSettings, Locomotion, SprintSettings
from playspace.components.physics import Box
from playspace.components.scene import PlayerStart
from playspace.components.tracking import DeviceRole
from playspace.ecs import PluginError, World
from playspace.systems.player.events import (
    Crouched,
    Jumped,
    Landed,
    SprintEnded,
    SprintStarted,
    StandRefused,
    StoodUp,
)
from playspace.systems.player.movement import CrouchPlugin, JumpPlugin, SprintPlugin
from tests.physics_helpers import static
from tests.rig_helpers import head_at, heard, pressing, rig_world, with_sticks

G = 9.81
HZ = 90


def jump_presses(*spans: tuple[float, float]):  # type: ignore[no-untyped-def]
    """A player standing still who holds A on the right controller during each span (s)."""

    def script(t: float) -> InputFrame:
        down = any(start <= t < end for start, end in spans)
        return pressing(head_at(0.0, 1.7, 0.0), "right", Button.A, down)

    return script


def test_a_jump_lifts_the_feet_and_the_view_by_v2_over_2g_and_lands() -> None:
    run = rig_world(jump_presses((0.5, 0.6)), plugins=(JumpPlugin(),))
    events = heard(run.world, Jumped, Landed)
    run.world.step(2 * HZ)
    steps = run.steps()
    feet = [s["body"]["p"][1] for s in steps]
    rise = 3.0**2 / (2 * G)  # 0.46 m; a fixed step of semi-implicit Euler loses v*dt/2
    assert max(feet) == pytest.approx(rise, abs=0.03)
    assert feet[-1] == pytest.approx(0.0, abs=0.01)
    view = [s["head"]["p"][1] - 1.7 for s in steps]  # the view's floor rides the arc
    assert max(view) == pytest.approx(max(feet), abs=1e-3)
    assert view[-1] == pytest.approx(0.0, abs=1e-3)
    assert run.events("floor_snapped") == []  # none in the air, none on landing
    assert [type(e) for _, e in events] == [Jumped, Landed]
    (took_off, jumped), (_, landed) = events
    assert took_off / HZ == pytest.approx(0.5, abs=1.5 / HZ)
    assert isinstance(landed, Landed) and isinstance(jumped, Jumped)
    assert landed.airtime == pytest.approx(2 * 3.0 / G, abs=0.05)
    assert landed.speed == pytest.approx(3.0, abs=0.4)


def test_pressing_in_the_air_or_holding_the_button_does_not_jump_again() -> None:
    """Pressed again at the top of the arc, and held through the landing: one jump only."""
    run = rig_world(jump_presses((0.5, 0.6), (0.75, 1.6)), plugins=(JumpPlugin(),))
    events = heard(run.world, Jumped)
    run.world.step(2 * HZ)
    assert len(events) == 1
    feet = [s["body"]["p"][1] for s in run.steps()]
    assert max(feet) < 0.5 and feet[-1] == pytest.approx(0.0, abs=0.01)


def test_pressing_while_falling_off_a_ledge_does_not_jump() -> None:
    def ledge(world: World) -> None:  # a 1 m high platform, its edge at x = 1
        static(world, Box((2.0, 1.0, 2.0)), spatial.vec3(0, 0.5, 0))

    def script(t: float) -> InputFrame:  # walk off the edge at 1 m/s, press A after it
        return pressing(head_at(min(t, 2.0), 1.7, 0.0), "right", Button.A, 1.45 <= t < 1.6)

    start = PlayerStart(spatial.vec3(0.0, 1.0, 0.0))
    run = rig_world(script, plugins=(JumpPlugin(),), build=ledge, start=start)
    events = heard(run.world, Jumped, Landed)
    run.world.step(3 * HZ)
    steps = run.steps()
    pressed = [s["body"] for s in steps[round(1.45 * HZ) : round(1.6 * HZ)]]
    assert all(not b["grounded"] and 0.05 < b["p"][1] < 0.99 for b in pressed)  # in the air
    assert [type(e) for _, e in events] == [Landed]  # a fall of a metre, no jump
    assert steps[-1]["body"]["p"][1] == pytest.approx(0.0, abs=0.01)


def test_a_jump_is_on_the_button_the_settings_name() -> None:
    settings = JumpSettings(hand=DeviceRole.LEFT_HAND, button=Button.X, speed=2.0)
    run = rig_world(jump_presses((0.5, 0.6)), plugins=(JumpPlugin(settings),))
    run.world.step(HZ)
    assert max(s["body"]["p"][1] for s in run.steps()) == pytest.approx(0.0, abs=0.01)

    def left_x(t: float) -> InputFrame:
        return pressing(head_at(0.0, 1.7, 0.0), "left", Button.X, 0.5 <= t < 0.6)

    run = rig_world(left_x, plugins=(JumpPlugin(settings),))
    run.world.step(2 * HZ)
    assert max(s["body"]["p"][1] for s in run.steps()) == pytest.approx(2.0**2 / (2 * G), abs=0.03)


def test_a_low_ceiling_ends_the_rise() -> None:
    def ceiling(world: World) -> None:  # 2.0 m of room: the 1.8 m capsule rises 0.2 m at most
        static(world, Box((4.0, 0.2, 4.0)), spatial.vec3(0, 2.1, 0))

    run = rig_world(jump_presses((0.5, 0.6)), plugins=(JumpPlugin(),), build=ceiling)
    events = heard(run.world, Landed)
    run.world.step(2 * HZ)
    feet = [s["body"]["p"][1] for s in run.steps()]
    assert 0.1 < max(feet) < 0.22
    (_, landed) = events[0]
    assert isinstance(landed, Landed) and landed.airtime < 0.45  # it fell from the ceiling


def walked_in_a_second(sprint: bool, settings: SprintSettings | None = None) -> float:
    """How far a second of full stick forward takes the body, holding the left stick's click."""

    def script(t: float) -> InputFrame:
        frame = with_sticks(head_at(0.0, 1.7, 0.0), left=(0.0, 1.0))
        return pressing(frame, "left", Button.STICK, sprint)

    run = rig_world(script, plugins=(SprintPlugin(settings),))
    run.world.step(HZ)
    first, last = run.steps()[0]["body"]["p"], run.steps()[-1]["body"]["p"]
    return math.hypot(last[0] - first[0], last[2] - first[2])


def test_holding_the_stick_click_walks_twice_as_far() -> None:
    walking, sprinting = walked_in_a_second(False), walked_in_a_second(True)
    assert walking == pytest.approx(2.5, rel=0.05)  # the rig's 2.5 m/s
    assert sprinting == pytest.approx(2 * walking, rel=0.05)
    faster = walked_in_a_second(True, SprintSettings(multiplier=1.5))
    assert faster == pytest.approx(1.5 * walking, rel=0.05)


def test_sprint_says_when_it_starts_and_ends_and_can_toggle() -> None:
    def clicks(t: float) -> InputFrame:  # clicked at 0.2 s and at 0.6 s
        down = 0.2 <= t < 0.3 or 0.6 <= t < 0.7
        return pressing(head_at(0.0, 1.7, 0.0), "left", Button.STICK, down)

    held = rig_world(clicks, plugins=(SprintPlugin(),))
    events = heard(held.world, SprintStarted, SprintEnded)
    held.world.step(HZ)
    assert [(round(s / HZ, 1), type(e)) for s, e in events] == [
        (0.2, SprintStarted),
        (0.3, SprintEnded),
        (0.6, SprintStarted),
        (0.7, SprintEnded),
    ]
    toggled = rig_world(clicks, plugins=(SprintPlugin(SprintSettings(toggle=True)),))
    events = heard(toggled.world, SprintStarted, SprintEnded)
    toggled.world.step(HZ)
    assert [(round(s / HZ, 1), type(e)) for s, e in events] == [
        (0.2, SprintStarted),
        (0.6, SprintEnded),
    ]


def low_beam(world: World) -> None:
    """A beam across the room, 1.3 m above the floor, from z = -1 to z = -3."""
    static(world, Box((3.0, 0.4, 2.0)), spatial.vec3(0, 1.5, -2.0))


def walk_under_the_beam(click_at: tuple[float, ...]):  # type: ignore[no-untyped-def]
    """Stand still for half a second, then walk forward with the stick, clicking the right
    stick at each of `click_at` (s)."""

    def script(t: float) -> InputFrame:
        frame = with_sticks(head_at(0.0, 1.7, 0.0), left=(0.0, 1.0 if t > 0.5 else 0.0))
        return pressing(frame, "right", Button.STICK, any(c <= t < c + 0.1 for c in click_at))

    return script


def test_crouched_the_view_is_lower_and_the_body_fits_under_a_beam() -> None:
    standing = rig_world(walk_under_the_beam(()), plugins=(CrouchPlugin(),), build=low_beam)
    standing.world.step(3 * HZ)
    assert standing.steps()[-1]["body"]["p"][2] > -1.0 + 0.3 - 0.02  # stopped by the beam

    run = rig_world(walk_under_the_beam((0.2,)), plugins=(CrouchPlugin(),), build=low_beam)
    events = heard(run.world, Crouched)
    run.world.step(3 * HZ)
    steps = run.steps()
    crouched = next(i for i, s in enumerate(steps) if s["head"]["p"][1] < 1.4)
    assert crouched / HZ == pytest.approx(0.2, abs=1.5 / HZ)
    assert steps[crouched - 1]["head"]["p"][1] == pytest.approx(1.7, abs=0.01)
    assert steps[crouched]["head"]["p"][1] == pytest.approx(1.7 - 0.6, abs=0.01)  # in one step
    assert [e["dy"] for e in run.events("floor_snapped")] == [pytest.approx(-0.6, abs=0.01)]
    assert steps[-1]["body"]["p"][2] < -3.0  # walked right under it
    assert max(s["fade"] for s in steps) == 0.0
    assert [type(e) for _, e in events] == [Crouched]


def test_standing_up_under_the_beam_is_refused_and_allowed_past_it() -> None:
    # crouch, walk under the beam, try to stand there (1.1 s), then past it (3.5 s)
    script = walk_under_the_beam((0.2, 1.5, 3.5))
    run = rig_world(script, plugins=(CrouchPlugin(),), build=low_beam)
    events = heard(run.world, Crouched, StoodUp, StandRefused)
    run.world.step(4 * HZ)
    assert [(round(s / HZ, 1), type(e)) for s, e in events] == [
        (0.2, Crouched),
        (1.5, StandRefused),
        (3.5, StoodUp),
    ]
    assert run.steps()[-1]["head"]["p"][1] == pytest.approx(1.7, abs=0.01)


def test_the_movement_providers_take_their_places_in_the_order() -> None:
    run = rig_world(jump_presses(), plugins=(JumpPlugin(), SprintPlugin(), CrouchPlugin()))
    providers = run.world.resource(Locomotion).providers.values()
    assert [(p.name, p.order) for p in sorted(providers, key=lambda p: p.order)] == [
        ("crouch", 2),
        ("sprint", 4),
        ("smooth_move", 5),
        ("teleport", 10),
        ("turning", 15),
        ("jump", 20),
    ]


def test_settings_that_cannot_work_are_refused_by_name() -> None:
    with pytest.raises(PluginError, match="JumpPlugin: hand must be left_hand or right_hand"):
        rig_world(jump_presses(), plugins=(JumpPlugin(JumpSettings(hand=DeviceRole.HEAD)),))
    with pytest.raises(PluginError, match="SprintPlugin: multiplier must be a positive"):
        rig_world(jump_presses(), plugins=(SprintPlugin(SprintSettings(multiplier=0.0)),))
    with pytest.raises(PluginError, match="needs the player's plugin"):
        World().add_plugin(JumpPlugin())
