"""The last half minute of input, always kept: saved, it replays what was seen."""

from __future__ import annotations

import gc
import io
import json
import os
import warnings
from dataclasses import replace
from pathlib import Path

import pytest

from playspace.app import build_world, load_target, telemetry_events
from playspace.app.replay import replay_source
from playspace.components.input import Button, HandInput, InputFrame
from playspace.formats.telemetry import parse_telemetry
from playspace.loops.keep import where_player_stands
from playspace.loops.presses import Press, keep_chord
from playspace.loops.replay import run_headless
from playspace.systems.input import (
    KeepLast,
    Recorder,
    ScriptedSource,
    load_trace,
    save_kept,
    write_trace,
)
from playspace.systems.telemetry import TelemetryPlugin

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _played(target: Path, steps: int, seconds: float) -> tuple[KeepLast, list[str]]:
    """`target` played from its own trace for `steps`, keeping the last `seconds`; the
    telemetry lines it wrote."""
    scene, example = load_target(target)
    assert example is not None and example.trace is not None
    keeper = KeepLast(seconds)
    out = io.StringIO()
    plugins = [TelemetryPlugin(out, telemetry_events()), example.build]
    world, _ = build_world(scene, Recorder(replay_source(example.trace), keeper), 90.0, 0, plugins)
    keeper.where = where_player_stands(world)
    world.step(steps)
    return keeper, out.getvalue().splitlines()


def _replayed(target: Path, trace: Path) -> list[str]:
    out = io.StringIO()
    run_headless(target, trace, out)
    return out.getvalue().splitlines()


def test_a_span_kept_from_the_start_replays_to_the_same_telemetry(tmp_path: Path) -> None:
    kitchen = EXAMPLES / "kitchen.py"
    keeper, seen = _played(kitchen, 500, 30.0)
    assert keeper.whole
    kept = tmp_path / "kept.jsonl"
    line = save_kept(kept, keeper, 90.0)
    assert line == f"kept the last 5.6 s of input in {kept} (the whole session: it replays exactly)"
    assert load_trace(kept).start is None
    again = _replayed(kitchen, kept)
    assert again[1:] == seen[1:]  # every step, to the digit (the header names the run)
    assert any('"grabbed"' in s for s in again), "the span holds the grab"


def test_a_span_from_mid_session_replays_to_the_very_lines_it_wrote(tmp_path: Path) -> None:
    """The kitchen played 8 s, the last 2 s kept: the file has the session before them too,
    and its replay writes exactly the telemetry of those 2 s, every object where it was (a
    replay of the span's input alone, from the scene's start, would not)."""
    kitchen = EXAMPLES / "kitchen.py"
    keeper, seen = _played(kitchen, 720, 2.0)
    assert not keeper.whole and keeper.spooled is not None
    kept = tmp_path / "kept.jsonl"
    line = save_kept(kept, keeper, 90.0)
    kept_from = 720 - 181
    assert line.endswith(f"it replays exactly, telemetry from step {kept_from})")
    trace = load_trace(kept)
    assert trace.kept_from == kept_from and len(trace.samples) == 720
    again = _replayed(kitchen, kept)
    assert again[1:] == seen[1 + kept_from :]  # the span's lines, to the digit
    assert parse_telemetry("\n".join(again)).steps[0]["step"] == kept_from
    # the control: the span's input alone, from the scene's start, leaves things elsewhere
    span, shift = tmp_path / "span.jsonl", trace.samples[kept_from].time - 1 / 90
    write_trace(span, [replace(f, time=f.time - shift) for f in trace.samples[kept_from:]], 90.0)
    alone = json.loads(_replayed(kitchen, span)[-1])["objects"]
    assert alone != json.loads(again[-1])["objects"]
    spooled = keeper.spooled
    assert spooled is not None and Path(spooled).exists()
    keeper.close()
    assert not Path(spooled).exists()  # the session's file goes with the keeper


def test_a_session_too_long_to_spool_starts_the_player_where_they_stood(tmp_path: Path) -> None:
    stairs = EXAMPLES / "stairs.toml"
    trace = EXAMPLES / "traces" / "stairs.jsonl"
    scene, _ = load_target(stairs)
    keeper = KeepLast(2.0, spool=3.0)
    world, _ = build_world(scene, Recorder(replay_source(trace), keeper), 90.0)
    keeper.where = where_player_stands(world)
    world.step(400)
    assert not keeper.whole and len(keeper.kept()) == 181
    first = keeper._kept[0][1]
    assert first is not None and first.position != scene.player.position
    kept = tmp_path / "kept.jsonl"
    line = save_kept(kept, keeper, 90.0)
    assert keeper.spooled is None  # past 3 s: the session file is gone
    assert "from 2.4 s in, a session too long to keep whole: the player starts where" in line
    loaded = load_trace(kept)
    assert loaded.start == first and loaded.samples[0].time == pytest.approx(1 / 90)
    replayed = parse_telemetry("\n".join(_replayed(stairs, kept))).steps
    origin = replayed[0]["origin"]["p"]
    assert origin == pytest.approx(list(first.position), abs=0.02)


def test_a_keeper_let_go_closes_and_removes_its_session_file() -> None:
    keeper = KeepLast()
    keeper.write(InputFrame(time=0.011))
    name = keeper.spooled
    assert name is not None and os.path.exists(name)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        del keeper
        gc.collect()
    assert not os.path.exists(name)
    assert not [w for w in caught if issubclass(w.category, ResourceWarning)], caught


def _pressing(grip: float, stick: bool) -> InputFrame:
    buttons = frozenset({Button.STICK}) if stick else frozenset()
    return InputFrame(left=HandInput(grip=grip, buttons=buttons), right=HandInput(grip=grip))


def test_the_headset_chord_saves_once_per_press() -> None:
    scene, _ = load_target(EXAMPLES / "stairs.toml")
    script = {0: _pressing(1.0, False), 1: _pressing(1.0, True), 2: _pressing(1.0, True)}
    script |= {3: _pressing(0.0, True), 4: _pressing(1.0, True)}
    now = [0]
    world, _ = build_world(scene, ScriptedSource(lambda t: script[now[0]]))
    chord, pressed = Press(keep_chord), []
    for frame in range(5):
        now[0] = frame
        world.step(1)
        pressed.append(chord.pressed(world))
    assert pressed == [False, True, False, False, True]
