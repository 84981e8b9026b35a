"""Live reload of a running game's module: new code at the next step, the world kept."""

from __future__ import annotations

import io
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from playspace.app.reload import ReloadError
from playspace.app.reload.modules import modules_at, reload_module
from playspace.ecs import Phase, World
from playspace.formats.telemetry import parse_telemetry
from playspace.loops.replay import run_headless

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

GAME = """
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from playspace.ecs import Phase, World, system
from playspace.systems.telemetry import record_events

SCENE = "{scene}"
TRACE = "{trace}"
POINTS = 1


@dataclass(frozen=True)
class Beat:
    points: int
    kind: ClassVar[str] = "beat"


@system(Phase.FIXED)
def beat(world: World) -> None:
    if world.fixed_time.step % 30 == 0:
        world.send(Beat(POINTS))


def build(world: World) -> None:
    world.add_event(Beat)
    record_events(world, Beat)
    world.add_systems(beat)
"""


def _game(folder: Path, name: str) -> Path:
    path = folder / f"{name}.py"
    scene, trace = EXAMPLES / "kitchen.toml", EXAMPLES / "traces" / "kitchen.jsonl"
    path.write_text(GAME.format(scene=scene, trace=trace))
    return path


@dataclass
class _Run:
    steps: list[dict[str, Any]]
    said: list[str]


def _play(game: Path, edits: dict[int, str]) -> _Run:
    """The kitchen's trace through `game`, its source replaced by `edits[n]` and reloaded
    after step n."""
    out = io.StringIO()
    said: list[str] = []

    def after(world: World, step: int, last: bool) -> None:
        if step in edits:
            game.write_text(edits[step])
            (module,) = modules_at(game)
            try:
                said.append(reload_module(world, module).line())
            except ReloadError as error:
                said.append(f"failed: {error}")

    run_headless(game, None, out, after_step=after)
    return _Run(parse_telemetry(out.getvalue()).steps, said)


def _beats(steps: list[dict[str, Any]]) -> list[tuple[int, int]]:
    return [(s["step"], e["points"]) for s in steps for e in s["events"] if e["type"] == "beat"]


def _held_steps(steps: list[dict[str, Any]]) -> list[int]:
    return [s["step"] for s in steps if any(o["held_by"] is not None for o in s["objects"])]


def _without_events(steps: list[dict[str, Any]]) -> list[str]:
    return [json.dumps({k: v for k, v in s.items() if k != "events"}) for s in steps]


def test_a_constant_changed_while_a_pan_is_held_counts_from_the_next_step(tmp_path: Path) -> None:
    alone = _play(_game(tmp_path, "kept"), {})
    held = _held_steps(alone.steps)
    assert len(held) > 60, "the kitchen's trace holds the pan for a while"
    at = held[len(held) // 2]  # reloaded halfway through the hold
    game = _game(tmp_path, "edited")
    source = game.read_text()
    edited = _play(game, {at: source.replace("POINTS = 1", "POINTS = 5")})

    assert edited.said == [f"reloaded {game}"]
    beats = _beats(edited.steps)
    assert beats and all(p == (1 if s <= at else 5) for s, p in beats)
    assert any(s > at for s, _ in beats) and any(s <= at for s, _ in beats)
    assert _held_steps(edited.steps) == held  # still held, let go when it was let go
    # every body, the player and the pan where they were without the reload, to the digit
    assert _without_events(edited.steps) == _without_events(alone.steps)
    assert _beats(alone.steps) == [(s, 1) for s, _ in beats]


def test_a_syntax_error_keeps_the_old_code_and_the_next_good_save_takes_over(
    tmp_path: Path,
) -> None:
    game = _game(tmp_path, "broken")
    source = game.read_text()
    broken = source.replace("POINTS = 1", "POINTS = (1").replace("POINTS)", "POINTS")
    fixed = source.replace("POINTS = 1", "POINTS = 7")
    run = _play(game, {100: broken, 200: fixed})
    line = next(n for n, text in enumerate(broken.splitlines(), 1) if "POINTS = (1" in text)
    assert run.said[0].startswith(f"failed: {game}:")
    assert "not valid Python" in run.said[0] and "\n" not in run.said[0]
    assert int(run.said[0].split(":")[2]) >= line
    assert run.said[1] == f"reloaded {game}"
    assert {p for s, p in _beats(run.steps) if s <= 200} == {1}
    assert {p for s, p in _beats(run.steps) if s > 200} == {7}


def _module(tmp_path: Path, name: str, source: str) -> Any:
    import importlib.util
    import sys

    path = tmp_path / f"{name}.py"
    path.write_text(source)
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


SCORING = """
from __future__ import annotations
from dataclasses import dataclass, field
from enum import Enum
from playspace.ecs import Phase, World, system

STEP = 1.0

class Speed(Enum):
    SLOW = 1

@dataclass
class Score:
    value: float = 0.0
    seen: list[float] = field(default_factory=list)

@dataclass
class Tag:
    n: int = 0

@system(Phase.FIXED, writes=(Score,))
def add(world: World) -> None:
    score = world.resource(Score)
    score.value += STEP
    score.seen.append(STEP)
"""


@pytest.fixture
def scoring(tmp_path: Path) -> tuple[Any, World, Path]:
    module = _module(tmp_path, "scoring_game", SCORING)
    world = World()
    world.insert_resource(module.Score())
    world.add_systems(module.add)
    return module, world, Path(module.__file__)


def test_an_exception_while_the_source_runs_keeps_every_name(
    scoring: tuple[Any, World, Path],
) -> None:
    module, world, path = scoring
    world.step(2)
    kept = dict(vars(module))
    path.write_text(SCORING.replace("STEP = 1.0", "STEP = 1 / 0"))
    with pytest.raises(ReloadError, match=r"scoring_game.py:7: ZeroDivisionError"):
        reload_module(world, module)
    assert vars(module) == kept
    world.step(1)
    assert world.resource(module.Score).seen == [1.0, 1.0, 1.0]


def test_a_class_whose_fields_changed_moves_the_worlds_instances_over(
    scoring: tuple[Any, World, Path],
) -> None:
    module, world, path = scoring
    old_tag, old_score = module.Tag, module.Score
    entity = world.spawn(module.Tag(3))
    world.step(1)
    path.write_text(SCORING.replace("    n: int = 0", "    n: int = 0\n    m: int = 7"))
    assert reload_module(world, module).migrated == ("Tag",)
    assert module.Tag is not old_tag and module.Score is old_score  # unchanged: kept
    moved = world.get(entity, module.Tag)
    assert (moved.n, moved.m) == (3, 7)
    assert not world.has(entity, old_tag)
    path.write_text(SCORING.replace("    n: int = 0", "    k: int\n    n: int = 0"))
    with pytest.raises(ReloadError, match="new field 'k' without a default"):
        reload_module(world, module)
    assert world.get(entity, module.Tag).m == 7


def test_a_system_declared_anew_moves_in_the_schedule(scoring: tuple[Any, World, Path]) -> None:
    module, world, path = scoring
    path.write_text(SCORING.replace("@system(Phase.FIXED,", "@system(Phase.LATE,"))
    assert reload_module(world, module).redeclared == ("add",)
    assert [s.name for s in world.schedule.phase(Phase.LATE)] == ["add"]
    assert world.schedule.phase(Phase.FIXED) == ()
    world.step(1)
    assert world.resource(module.Score).value == 1.0


def test_a_slotted_class_kept_keeps_its_instances_readable(tmp_path: Path) -> None:
    source = """
from dataclasses import dataclass, field

@dataclass(slots=True)
class Board:
    hits: dict[str, int] = field(default_factory=dict)

    def total(self) -> int:
        return sum(self.hits.values())
"""
    module = _module(tmp_path, "slotted_game", source)
    world = World()
    board = world.insert_resource(module.Board({"a": 2}))
    path = Path(module.__file__)
    path.write_text(source.replace("sum(self.hits.values())", "10 * sum(self.hits.values())"))
    assert reload_module(world, module).migrated == ()
    assert world.resource(module.Board) is board and board.hits == {"a": 2}
    assert board.total() == 20 and module.Board().hits == {}


BUILT = (
    SCORING
    + """

def build(world: World) -> None:
    world.insert_resource(Score())
    world.add_systems(add)
"""
)


def test_a_changed_build_adds_and_removes_systems_and_keeps_resources(tmp_path: Path) -> None:
    module = _module(tmp_path, "built_game", BUILT)
    world = World()
    module.build(world)
    world.step(2)
    path = Path(module.__file__)
    bonus = """

@system(Phase.FIXED, after=(add,), writes=(Score,))
def bonus(world: World) -> None:
    world.resource(Score).value += 100
"""
    grown = BUILT.replace("def build(", bonus.strip() + "\n\n\ndef build(")
    path.write_text(grown.replace("world.add_systems(add)", "world.add_systems(add, bonus)"))
    done = reload_module(world, module)
    assert (done.added, done.removed, done.build_refused) == (("bonus",), (), None)
    assert "systems added: bonus" in done.line()
    world.step(1)
    assert world.resource(module.Score).value == 103.0  # kept: 2 before, then 1 + 100
    path.write_text(BUILT)  # as it was: bonus gone from the file and from the build
    done = reload_module(world, module)
    assert done.removed == ("bonus",) and "bonus" not in world.schedule
    world.step(1)
    assert world.resource(module.Score).value == 104.0


def test_a_build_that_spawns_is_not_run_again_and_says_so(tmp_path: Path) -> None:
    module = _module(tmp_path, "spawning_game", BUILT)
    world = World()
    module.build(world)
    path = Path(module.__file__)
    path.write_text(
        BUILT.replace(
            "    world.add_systems(add)", "    world.spawn(Tag())\n    world.add_systems()"
        )
    )
    done = reload_module(world, module)
    assert done.build_refused is not None and "spawns entities" in done.build_refused
    assert "restart to run it" in done.line() and "add" in world.schedule
    assert world.entity_count() == 0
