"""The inspector: what it lists, what it edits (through the one way in), what it picks, that
pausing holds the world, and that hidden it costs nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from playspace.app import build_world
from playspace.app.spawn import SpawnedScene
from playspace.components import Transform
from playspace.components.input import InputFrame
from playspace.components.panels import PanelDrawing
from playspace.components.physics import RigidBody
from playspace.ecs import Phase, World
from playspace.formats.scene import load_scene
from playspace.loops.paced import advance
from playspace.spatial import vec3
from playspace.systems.input import ScriptedSource, device_pose, hand_input
from playspace.systems.inspector import READER, toggle_inspector
from playspace.systems.inspector.model import edit, entity_names, fields_of, tree
from playspace.systems.physics import Physics

KITCHEN = Path(__file__).resolve().parents[2] / "examples" / "kitchen.toml"


def _kitchen(trigger_from: float = 1e9) -> World:
    """The kitchen, the player looking down -Z with the right hand at the height of bee 2,
    straight behind it, pulling the trigger from `trigger_from` seconds."""

    def frame(t: float) -> InputFrame:
        right = hand_input((1.1, 1.1, 0.6), trigger=1.0 if t >= trigger_from else 0.0)
        return InputFrame(t, device_pose((0.0, 1.7, 0.0)), hand_input((-0.2, 0.9, 0.0)), right)

    world, _ = build_world(load_scene(KITCHEN), ScriptedSource(frame))
    world.step(2)
    return world


def test_it_lists_the_scene_by_name_and_the_player_by_part() -> None:
    world = _kitchen()
    names = entity_names(world)
    spawned = world.resource(SpawnedScene).entities
    assert names[spawned["pan"]] == "pan" and names[spawned["floor"]] == "floor"
    groups = dict(tree(names))
    assert [n for _, n in groups["player 0"]] == [
        "body",
        "head",
        "left_hand",
        "origin",
        "right_hand",
    ]
    assert ("pan" in [n for _, n in groups[""]]) and len(names) == world.entity_count()


def test_an_edited_mass_is_the_mass_physics_uses() -> None:
    world = _kitchen()
    pan = world.resource(SpawnedScene).entities["pan"]
    physics = world.resource(Physics)
    assert physics.mass(pan) == pytest.approx(1.0)
    edit(world, pan, RigidBody, "mass", 10.0)
    world.step(1)
    assert physics.mass(pan) == pytest.approx(10.0)
    assert {f.name: f.kind for f in fields_of(world.get(pan, RigidBody))}["mass"] == "float"
    with pytest.raises(ValueError, match="mass"):
        edit(world, pan, RigidBody, "mass", -1.0)  # the component's own check
    world.step(1)
    assert physics.mass(pan) == pytest.approx(10.0)


def test_an_edited_pose_moves_the_body_through_physics() -> None:
    world = _kitchen()
    pan = world.resource(SpawnedScene).entities["pan"]
    edit(world, pan, Transform, "position", vec3(0.0, 1.5, 1.0))
    world.step(1)
    at = world.get(pan, Transform).position
    assert (at.x, at.z) == pytest.approx((0.0, 1.0), abs=1e-3) and at.y < 1.5


def test_the_trigger_off_the_panel_picks_what_the_aim_ray_meets() -> None:
    world = _kitchen(trigger_from=0.1)
    inspector = toggle_inspector(world)
    for _ in range(12):
        advance(world, 1 / 90)
    assert inspector.selected == world.resource(SpawnedScene).entities["bee 2"]
    drawing = world.get(inspector.panel, PanelDrawing)  # type: ignore[arg-type]
    assert drawing.vertices and drawing.commands


def test_paused_it_steps_only_when_asked() -> None:
    world = _kitchen()
    inspector = toggle_inspector(world)
    inspector.paused = True
    step = world.fixed_time.step
    assert [advance(world, 1 / 45) for _ in range(5)] == [0] * 5
    assert world.fixed_time.step == step
    inspector.steps = 2
    assert [advance(world, 1 / 45) for _ in range(4)] == [1, 1, 0, 0]
    inspector.paused = False
    assert advance(world, 1 / 45) == 2


def test_hidden_it_runs_nothing_and_keeps_no_events() -> None:
    world = _kitchen()
    inspector = toggle_inspector(world)
    advance(world, 1 / 90)
    spec = world.schedule.get("inspect")
    ran = spec.stats.calls
    assert ran == 1 and inspector.timings
    toggle_inspector(world)
    for _ in range(5):
        advance(world, 1 / 90)
    assert spec.stats.calls == ran and not inspector.timings
    assert all(READER not in q._cursors for q in world.events._queues.values())


def test_its_timings_are_the_schedule_s_and_a_skipped_system_took_no_time() -> None:
    world = _kitchen()
    awake = [True]
    world.add_system(lambda w: None, phase=Phase.FIXED, name="sometimes", run_if=lambda w: awake[0])
    inspector = toggle_inspector(world)
    advance(world, 1 / 90)
    awake[0] = False
    advance(world, 1 / 90)
    stats = world.schedule.get("sometimes").stats
    assert list(inspector.timings["sometimes"]) == [stats.last_ns / 1e6, 0.0]
    physics = world.schedule.get("physics_step").stats
    assert inspector.timings["physics_step"][-1] == physics.last_ns / 1e6 > 0


def test_a_failed_reload_is_a_line_before_the_headsets_eyes_until_fixed() -> None:
    import math

    from playspace.components.debug import LiveNotice, LiveStatus
    from playspace.components.drawn import DrawnView
    from playspace.components.text import Label
    from playspace.systems.inspector.notice import LiveNoticePlugin

    world = _kitchen()
    world.add_plugin(LiveNoticePlugin())
    advance(world, 1 / 90)
    assert not world.query(Label, LiveNotice)  # nothing said yet: nothing there
    status = world.resource(LiveStatus)
    status.line, status.failed, status.until = "reload failed: game.py:6: x", True, math.inf
    advance(world, 1 / 90)
    ((entity, (label, _)),) = world.query(Label, LiveNotice)
    head = world.resource(DrawnView).head
    assert head is not None and label.text == "reload failed: game.py:6: x"
    at = world.get(entity, Transform).position
    assert at.z == pytest.approx(head.position.z - 1.0, abs=1e-6)  # a metre before the eyes
    status.line, status.failed, status.until = "reloaded game.py", False, world.time.elapsed
    advance(world, 1 / 90)
    assert label.text == ""


def test_the_aim_ray_and_the_trigger_press_its_pause_button() -> None:
    """The right hand aimed at the panel's Pause button (its top left) and the trigger
    pulled and let go: a click, through the pointer, into Dear ImGui, pausing the world."""
    from playspace import spatial
    from playspace.components.input import DevicePose, HandInput
    from playspace.spatial import Pose
    from playspace.systems.inspector import BEFORE_EYES, VIEW_PANEL

    head = Pose(vec3(0.0, 1.7, 0.0), spatial.identity())
    panel = Pose(spatial.transform_point(head, BEFORE_EYES), head.rotation)
    width, height = VIEW_PANEL.size
    pixel = (20.0, 16.0)  # inside Pause, the first widget, at the window's padding
    u, v = pixel[0] / VIEW_PANEL.resolution[0], pixel[1] / VIEW_PANEL.resolution[1]
    target = spatial.transform_point(panel, vec3((u - 0.5) * width, (0.5 - v) * height, 0.0))
    hand = vec3(0.2, 1.2, -0.2)
    aim = Pose(hand, spatial.look_rotation(target - hand))
    pulled = (0.3, 0.4)  # seconds the trigger is held

    def frame(t: float) -> InputFrame:
        trigger = 1.0 if pulled[0] <= t < pulled[1] else 0.0
        right = HandInput(DevicePose(aim), trigger=trigger)
        rest = HandInput(DevicePose(Pose(vec3(-0.2, 0.9, 0.0), spatial.identity())))
        return InputFrame(t, DevicePose(head), rest, right)

    world, _ = build_world(load_scene(KITCHEN), ScriptedSource(frame))
    inspector = toggle_inspector(world)
    for _ in range(60):
        advance(world, 1 / 90)
    assert inspector.paused and inspector.selected is None  # clicked, not picked
    step = world.fixed_time.step
    advance(world, 1 / 90)
    assert world.fixed_time.step == step
