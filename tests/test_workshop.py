"""The workshop example (``examples/workshop.toml``), replayed headless from its trace: what a
player would notice of its sockets and of the movement providers its ``[player]`` turns on,
checked from telemetry as in ``test_examples.py``."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import pytest
from test_examples import EXAMPLES, events, replay

from playspace.scene import load_scene

SCENE = EXAMPLES / "workshop.toml"
TRACE = EXAMPLES / "traces" / "workshop.jsonl"
HOOK = (0.55, 1.2, -0.2)  # the wrench's hook: its socket's position, no snap offset
BENCH_EDGE = -0.9  # x of the bench's face toward the room


@cache
def _steps(scene: Path = SCENE) -> list[dict[str, Any]]:
    return replay(scene, TRACE)


def wrench(step: dict[str, Any]) -> list[float]:
    found: list[float] = next(o["p"] for o in step["objects"] if o["name"] == "wrench")
    return found


def test_the_scene_is_what_the_trace_was_made_for() -> None:
    scene = load_scene(SCENE)
    hooks = {s.name: s for s in scene.sockets}
    assert hooks["wrench hook"].position == HOOK and hooks["wrench hook"].holding == "wrench"
    assert hooks["holster"].carried_by == "body"
    assert scene.player.jump and scene.player.crouch and scene.player.sprint


def test_the_wrench_taken_from_the_rack_and_dropped_comes_back_to_its_hook() -> None:
    steps = _steps()
    (grab,) = events(steps, "grab")
    (release,) = events(steps, "release")
    assert grab["object"] == release["object"]
    on_floor = [s["t"] for s in steps if wrench(s)[1] < 0.1]
    assert on_floor, "the dropped wrench never reached the floor"
    back = next(s["t"] for s in steps if s["t"] > on_floor[0] and wrench(s)[1] > 1.0)
    released_at = next(s["t"] for s in steps if release in s["events"])
    assert back - released_at == pytest.approx(1.5, abs=0.05)  # the hook's return_after
    assert wrench(steps[-1]) == pytest.approx(list(HOOK), abs=1e-4)


def test_leaning_over_the_bench_never_fades_the_view() -> None:
    steps = _steps()
    leaning = [s for s in steps if s["head"]["p"][0] < BENCH_EDGE]
    assert min(s["head"]["p"][0] for s in leaning) <= BENCH_EDGE - 0.29  # 0.3 m over it
    assert max(s["body"]["p"][0] for s in leaning) > -0.62  # the body stayed at the bench
    assert max(s["fade"] for s in steps) == 0.0


def test_the_body_crouches_under_the_beam_and_ends_on_the_ledge() -> None:
    steps = _steps()
    under = [s for s in steps if -2.5 < s["body"]["p"][2] < -1.5]  # the beam's span
    assert under and all(s["head"]["p"][1] < 1.3 for s in under)  # below its underside
    assert all(abs(s["body"]["p"][1]) < 0.01 for s in under)  # on the floor, under it
    assert [e["dy"] for e in events(steps, "floor_snap")] == [
        pytest.approx(-0.6, abs=0.01),  # crouched
        pytest.approx(0.6, abs=0.01),  # stood up past the beam
    ]
    last = steps[-1]["body"]["p"]
    assert last[1] == pytest.approx(0.5, abs=0.01)  # on the 0.5 m ledge
    assert -5.25 < last[2] < -3.75
