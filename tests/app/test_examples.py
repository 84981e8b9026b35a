"""Every example, replayed headless from its trace for its full length, shows what it exists
to show (checked from telemetry, as a developer would check a recording)."""

from __future__ import annotations

import io
import json
import logging
from pathlib import Path

import pytest

from playspace.app import build_world, load_target, telemetry_events
from playspace.app.game import ExampleError, load_example
from playspace.app.replay import replay_source
from playspace.components.rig import RigSettings
from playspace.formats.scene import load_scene
from playspace.formats.telemetry import event_record
from playspace.systems import audio as audio_systems
from playspace.systems.audio import AudioPlugin
from playspace.systems.audio.openal import OpenALError
from playspace.systems.telemetry import TelemetryPlugin
from tests.game_helpers import EXAMPLES, events, replay


def _crosses(
    a: list[float], b: list[float], centre: tuple[float, ...], size: tuple[float, ...]
) -> bool:
    """Whether the segment from `a` to `b` passes through the axis-aligned box (slab test)."""
    enter, leave = 0.0, 1.0
    for axis in range(3):
        low, high = centre[axis] - size[axis] / 2, centre[axis] + size[axis] / 2
        span = b[axis] - a[axis]
        if abs(span) < 1e-12:
            if not low <= a[axis] <= high:
                return False
            continue
        t0, t1 = sorted(((low - a[axis]) / span, (high - a[axis]) / span))
        enter, leave = max(enter, t0), min(leave, t1)
    return enter <= leave


def test_stairs_snap_the_floor_while_walking_and_follow_it_while_smooth_moving() -> None:
    steps = replay(EXAMPLES / "stairs.toml", EXAMPLES / "traces" / "stairs.jsonl")
    snaps = events(steps, "floor_snapped")
    assert len(snaps) >= 3 and all(s["dy"] > 0 for s in snaps[:3])  # walking up
    top = max(s["body"]["p"][1] for s in steps)
    assert top == pytest.approx(8 * 0.17, abs=0.02)
    assert steps[-1]["body"]["p"][1] < top - 0.5  # and smooth-moved back down


def test_roomscale_push_back_keeps_the_head_out_of_the_north_wall() -> None:
    steps = replay(EXAMPLES / "roomscale.toml", EXAMPLES / "traces" / "roomscale.jsonl")
    walked_in = [s for s in steps if s["t"] < 5.0]
    assert min(s["head"]["p"][2] for s in walked_in) > -1.9  # the wall's face
    assert max(s["fade"] for s in walked_in) == 0.0
    assert len(events(steps, "turned")) == 3
    assert len(events(steps, "teleported")) == 1


def test_kitchen_hits_a_bee_in_the_open_and_ghosts_the_pan_in_the_wall() -> None:
    example = load_example(EXAMPLES / "kitchen.py")
    assert example.trace is not None
    steps = replay(example.scene, example.trace, example.build)
    scene = load_scene(example.scene)
    walls = [(b.position, b.size) for b in scene.boxes if b.name != "floor"]
    hits = [(s, e) for s in steps for e in s["events"] if e["type"] == "hit"]
    assert hits
    for step, hit in hits:  # a bee is hit only in the open: never one behind a wall
        bee = next(o["p"] for o in step["objects"] if o["id"] == hit["opponent"])
        assert not any(_crosses(step["head"]["p"], bee, *wall) for wall in walls), hit
    pan = [o for s in steps for o in s["objects"] if o["name"] == "pan"]
    assert any(o["ghost"] for o in pan)
    assert pan[-1]["p"][0] < 0.75  # let go inside the wall, put back outside it


def test_snowball_hits_the_5_m_target() -> None:
    example = load_example(EXAMPLES / "snowball.py")
    assert example.trace is not None
    steps = replay(example.scene, example.trace, example.build)
    (release,) = events(steps, "released")
    assert sum(v * v for v in release["linear"]) ** 0.5 > 6.0
    # the game's own event, recorded because the example asked telemetry for it
    assert [e["target"] for e in events(steps, "target_hit")] == ["target 5m"]


def test_a_dash_added_as_a_provider_is_stopped_by_a_wall_and_holds_off_turning() -> None:
    """The locomotion example: one file adds a way of moving; the wall ends the first dash as
    it stops walking, the second crosses the room, and the flick made mid-dash turns nothing
    (the dash is exclusive)."""
    example = load_example(EXAMPLES / "dash.py")
    assert example.trace is not None
    steps = replay(example.scene, example.trace, example.build)
    north_wall = -1.9  # its inner face; the body's radius keeps the feet 0.3 m off it
    zs = [s["body"]["p"][2] for s in steps]
    heads = [s["head"]["p"][2] for s in steps]
    assert min(zs) == pytest.approx(north_wall + 0.3, abs=0.02)  # stopped at the wall
    at_wall = zs.index(min(zs))
    # push_back leaves the head where it is short of the wall (0.2 m past the body there), so
    # the second dash carries the player 2 m and the body catches up with them on the way
    assert heads[-1] - heads[at_wall] == pytest.approx(2.0, abs=0.02)  # all the way
    assert min(heads) > north_wall + RigSettings().head_radius - 0.01  # never in the wall
    assert events(steps, "turned") == []
    assert all(-0.05 < s["head"]["p"][1] - 1.7 < 0.05 for s in steps)  # on the floor throughout


def test_a_module_without_what_an_example_needs_is_refused(tmp_path: Path) -> None:
    empty = tmp_path / "nothing.py"
    empty.write_text("x = 1\n")
    with pytest.raises(ExampleError, match=r"must define SCENE .* and build\(world\)"):
        load_example(empty)
    with pytest.raises(ExampleError, match=r"an example is a Python module"):
        load_example(tmp_path / "scene.txt")


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("def build(\n", r"bad.py:1: not valid Python"),
        ("import sys\nsys.exit(0)\n", r"bad.py:2: importing it failed: SystemExit\(0\)"),
        ("SCENE = 5\ndef build(world): pass\n", r"SCENE must name a .toml file .* got 5"),
        ("SCENE = ''\ndef build(world): pass\n", r"SCENE must name a .toml file"),
        ("SCENE = 'a.toml'\nTRACE = 5\ndef build(world): pass\n", r"TRACE must name a .jsonl"),
    ],
)
def test_a_broken_module_is_named_with_its_line(tmp_path: Path, body: str, message: str) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text(body)
    with pytest.raises(ExampleError, match=message):
        load_example(bad)


def test_a_failing_build_or_summary_is_one_line_naming_the_module(tmp_path: Path) -> None:
    from tests.cli_helpers import playspace

    (tmp_path / "s.toml").write_text("[[box]]\nsize = [4, 0.2, 4]\nposition = [0, -0.1, 0]\n")
    for body, said in (
        ("def build():\n    pass\n", "game.py: build(world) failed: TypeError("),
        (
            "def build(world):\n    pass\ndef summary(world):\n    return 1 / 0\n",
            "game.py:5: summary(world) failed: ZeroDivisionError(",
        ),
    ):
        (tmp_path / "game.py").write_text("SCENE = 's.toml'\n" + body)
        done = playspace("run", tmp_path / "game.py", "--headless")
        assert done.returncode == 2 and "Traceback" not in done.stderr
        assert said in done.stderr, done.stderr


def test_every_example_scene_validates() -> None:
    for scene in sorted(EXAMPLES.glob("*.toml")):
        load_scene(scene)


def test_telemetry_writes_a_number_that_is_not_finite_as_null() -> None:
    from playspace import spatial
    from playspace.systems.interaction.events import Released

    broken = Released(1, 2, spatial.vec3(float("nan"), 0.0, 1.0), spatial.vec3(0, 0, 0))
    record = event_record(broken)
    assert record["linear"] == [None, 0.0, 1.0]
    assert json.loads(json.dumps(record, allow_nan=False)) == record


def _targets() -> list[Path]:
    """Every example module, and every scene with a trace of the same name."""
    modules = sorted(EXAMPLES.glob("*.py"))
    scenes = [
        s
        for s in sorted(EXAMPLES.glob("*.toml"))
        if (EXAMPLES / "traces" / f"{s.stem}.jsonl").exists()
    ]
    return modules + scenes


@pytest.mark.slow
@pytest.mark.parametrize("target", _targets(), ids=lambda p: p.name)
def test_every_world_declares_what_its_systems_touch_and_has_no_ambiguity(target: Path) -> None:
    """What each system reads and writes is declared (an audit of a whole replay finds
    nothing undeclared) and no two unordered systems write the same data: so the order of
    the steps is set by the schedule, not by the order plugins happened to be added in."""
    scene, example = load_target(target)
    trace = example.trace if example is not None else EXAMPLES / "traces" / f"{target.stem}.jsonl"
    assert trace is not None
    source = replay_source(trace)
    plugins: list[object] = [TelemetryPlugin(io.StringIO(), telemetry_events())]
    if example is not None:
        plugins.append(example.build)
    world, _ = build_world(scene, source, plugins=plugins)
    audit = world.audit_access()
    assert source.duration is not None
    world.step(round(source.duration * 90))
    assert world.schedule.ambiguities() == []
    assert {name: sorted(k.__name__ for k in kinds) for name, kinds in audit.items()} == {}


@pytest.mark.slow
@pytest.mark.parametrize("target", _targets(), ids=lambda p: p.name)
def test_every_example_plays_the_same_on_a_machine_with_no_sound_device(
    target: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Sound asked of a device that cannot be opened (as the preview and the headset ask):
    the run says so in one line and plays on, its telemetry the same as a run without sound."""

    def no_device(*args: object, **kwargs: object) -> None:
        raise OpenALError("no audio device could be opened")

    monkeypatch.setattr(audio_systems, "AudioEngine", no_device)
    written = []
    for heard in (False, True):
        scene, example = load_target(target)
        trace = example.trace if example else EXAMPLES / "traces" / f"{target.stem}.jsonl"
        assert trace is not None
        source, out = replay_source(trace), io.StringIO()
        plugins: list[object] = [TelemetryPlugin(out, telemetry_events())]
        if heard:
            plugins.append(AudioPlugin(output="device"))
        if example is not None:
            plugins.append(example.build)
        with caplog.at_level(logging.WARNING):
            world, _ = build_world(scene, source, plugins=plugins)
            assert source.duration is not None
            world.step(round(source.duration * 90))
        world.close()
        written.append(out.getvalue())
    said = [r.getMessage() for r in caplog.records if r.getMessage().startswith("no sound")]
    assert len(said) == 1 and "no audio device" in said[0]
    assert written[0].count("\n") > 100 and written[1] == written[0]
