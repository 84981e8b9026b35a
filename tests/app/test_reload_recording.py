"""A session recorded across reloads replays with the code each span ran, kept beside the
trace; without it, the replay says so and runs the files as they are."""

from __future__ import annotations

import io
import logging
import shutil
from pathlib import Path

import pytest

from playspace.app import build_world, load_target, telemetry_events
from playspace.app.reload.modules import modules_at, reload_module
from playspace.app.reload.recorded import digest
from playspace.app.replay import replay_source
from playspace.formats.telemetry import parse_telemetry
from playspace.formats.trace import code_folder
from playspace.loops.live import code_record, keeping, trace_writer
from playspace.loops.replay import run_headless
from playspace.systems.input import KeepLast, Recorder, load_trace, save_kept
from playspace.systems.telemetry import TelemetryPlugin
from tests.app.test_reload import GAME, _beats

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _recorded(tmp_path: Path) -> tuple[Path, Path, list[str]]:
    """A session of the game recorded with a reload after step 150 (POINTS 1, then 5); the
    game's file left at POINTS 7 afterwards. The game, the trace, the session's telemetry."""
    game = tmp_path / "recorded_game.py"
    source = GAME.format(scene=EXAMPLES / "kitchen.toml", trace=EXAMPLES / "traces/kitchen.jsonl")
    game.write_text(source)
    trace = tmp_path / "session.jsonl"
    scene, example = load_target(game)
    assert example is not None
    code = code_record(trace, example)
    out = io.StringIO()
    with trace_writer(trace, 90.0, code) as writer:
        playing = Recorder(replay_source(EXAMPLES / "traces" / "kitchen.jsonl"), writer)
        plugins = [TelemetryPlugin(out, telemetry_events()), example.build]
        world, _ = build_world(scene, playing, 90.0, 0, plugins)
        world.step(150)
        game.write_text(source.replace("POINTS = 1", "POINTS = 5"))
        (module,) = modules_at(game)
        done = reload_module(world, module)
        assert code is not None
        code.reloaded(writer, game, done.source)
        world.step(150)
    game.write_text(source.replace("POINTS = 1", "POINTS = 7"))
    return game, trace, out.getvalue().splitlines()


def test_the_replay_runs_each_spans_code_of_the_time(tmp_path: Path) -> None:
    game, trace, seen = _recorded(tmp_path)
    recorded = load_trace(trace)
    assert list(recorded.code) == [game.name]
    ((at, files),) = recorded.reloads
    assert at == pytest.approx(151 / 90) and list(files) == [game.name]
    assert (code_folder(trace) / f"{files[game.name]}.py").read_text().count("POINTS = 5") == 1
    assert digest(game.read_bytes()) not in (recorded.code[game.name], files[game.name])
    out = io.StringIO()
    run_headless(game, trace, out, seconds=300 / 90)
    again = out.getvalue().splitlines()
    assert again[1:] == seen[1:]  # every step as the session ran it, the reload included
    beats = _beats(parse_telemetry("\n".join(again)).steps)
    assert {p for s, p in beats if s < 150} == {1} and {p for s, p in beats if s >= 150} == {5}


def test_without_the_kept_code_the_replay_says_so(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    game, trace, _ = _recorded(tmp_path)
    shutil.rmtree(code_folder(trace))
    out = io.StringIO()
    with caplog.at_level(logging.WARNING):
        run_headless(game, trace, out, seconds=300 / 90)
    said = [r.getMessage() for r in caplog.records if "not at hand" in r.getMessage()]
    assert len(said) == 2 and all(game.name in line for line in said)
    assert {p for _, p in _beats(parse_telemetry(out.getvalue()).steps)} == {7}


def test_the_last_half_minute_kept_after_a_reload_replays_with_each_spans_code(
    tmp_path: Path,
) -> None:
    """The session kept (always) marks the reload as a recording does: the 2 s kept after
    it replay to their very lines, the session before run with the code it ran."""
    game = tmp_path / "kept_game.py"
    source = GAME.format(scene=EXAMPLES / "kitchen.toml", trace=EXAMPLES / "traces/kitchen.jsonl")
    game.write_text(source)
    scene, example = load_target(game)
    keeper = KeepLast(2.0)
    kept = keeping(keeper, example)
    assert example is not None and kept is not None
    out = io.StringIO()
    playing = Recorder(replay_source(EXAMPLES / "traces" / "kitchen.jsonl"), keeper)
    world, _ = build_world(scene, playing, 90.0, 0, [TelemetryPlugin(out, telemetry_events()),
                                                      example.build])  # fmt: skip
    world.step(150)
    game.write_text(source.replace("POINTS = 1", "POINTS = 5"))
    (module,) = modules_at(game)
    kept.reloaded(game, reload_module(world, module).source)
    world.step(300)
    game.write_text(source.replace("POINTS = 1", "POINTS = 7"))  # as it is now: neither
    path = tmp_path / "kept.jsonl"
    save_kept(path, keeper, 90.0)
    keeper.close()
    assert load_trace(path).kept_from == 450 - 181 and load_trace(path).reloads
    replayed = io.StringIO()
    run_headless(game, path, replayed)
    seen = out.getvalue().splitlines()
    assert replayed.getvalue().splitlines()[1:] == seen[1 + 450 - 181 :]
    beats = _beats(parse_telemetry(replayed.getvalue()).steps)
    assert beats and {p for _, p in beats} == {5}
