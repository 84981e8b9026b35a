"""A run's timeline as a Chrome trace: every system, fixed step and frame, on its thread."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from playspace.ecs import Phase, World, system
from playspace.ecs.profile import Profile, marked, profiling
from tests.cli_helpers import playspace

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_a_profiled_world_records_each_system_step_and_frame(tmp_path: Path) -> None:
    @system(Phase.FIXED)
    def moves(world: World) -> None:
        with marked("inner work", "openxr"):
            pass

    world = World()
    world.add_system(moves)
    with profiling(tmp_path / "p.json") as profile:
        assert Profile.active is profile
        world.step(3)
    assert Profile.active is None
    events = json.loads((tmp_path / "p.json").read_text())
    kinds = Counter(e.get("cat") for e in events if e.get("ph") == "X")
    assert kinds == {"system": 3, "step": 3, "frame": 3, "openxr": 3}
    steps = [e for e in events if e.get("cat") == "step"]
    assert [e["args"]["step"] for e in steps] == [0, 1, 2]
    moved = [e for e in events if e.get("name") == "moves"]
    for ran, step in zip(moved, steps, strict=True):  # each system inside its step
        assert step["ts"] <= ran["ts"] and ran["ts"] + ran["dur"] <= step["ts"] + step["dur"]
    assert any(e.get("ph") == "M" and e["name"] == "thread_name" for e in events)
    world.step(1)  # no profile: nothing more written, nothing fails


def test_a_run_cut_short_leaves_a_timeline_the_viewers_open(tmp_path: Path) -> None:
    path = tmp_path / "cut.json"
    profile = Profile(path)
    profile.span("a", "system", 0, 1000)
    profile.flush()  # killed here: no closing bracket
    text = path.read_text()
    assert text.startswith("[\n") and not text.rstrip().endswith("]")
    assert all(json.loads(line.rstrip(",")) for line in text.splitlines()[1:])


def test_playspace_run_profile_writes_the_replay_s_timeline(tmp_path: Path) -> None:
    out = tmp_path / "kitchen.json"
    done = playspace("run", EXAMPLES / "kitchen.py", "--headless", "--seconds", "0.5",
                     "--profile", out, without_gl=True)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert f"spans in {out} (open it in ui.perfetto.dev)" in done.stderr
    events = json.loads(out.read_text())
    names = {e["name"] for e in events if e.get("cat") == "system"}
    assert {"physics_step", "grab", "throw_history", "slope_quantization", "bee_flight"} <= names
    assert "throw" not in names  # nothing is let go in the first half second: it never ran
    assert "skipped by their run conditions: " in done.stderr and "throw 45" in done.stderr
    assert sum(e.get("cat") == "step" for e in events) == 45
    again = playspace("run", EXAMPLES / "kitchen.py", "--headless", "--profile",
                      EXAMPLES / "kitchen.py")  # fmt: skip
    assert again.returncode == 2 and "--profile" in again.stderr and "input" in again.stderr
