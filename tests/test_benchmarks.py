"""Every benchmark still runs and ends with its one JSON line (small sizes: no timing here)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"

SMALL = {
    "ecs_overhead.py": ["--entities", "300", "--steps", "3", "--rounds", "1"],
    "physics.py": ["--counts", "50", "--steps", "6", "--block", "3"],
    "frame.py": ["--awake", "20", "--asleep", "20", "--rounds", "1", "--block", "3"],
    "render.py": ["--counts", "100", "--frames", "3", "--lit-frames", "2"],
    "vr_frame.py": ["--seconds", "1"],
    "soak.py": ["--minutes", "0.05", "--example", "kitchen", "workshop"],
    "startup.py": ["--rounds", "1"],
    "assets.py": ["--rounds", "1"],
    "audio.py": ["--frames", "30", "--seconds", "2"],
    "reload.py": ["--rounds", "2", "--objects", "40"],
    "inspector.py": ["--frames", "5", "--entities", "20"],
    "network.py": ["--seconds", "1", "--walk", "2"],
    "throw_accuracy.py": ["--trials", "20"],
    "overlap.py": ["--props", "20", "--rounds", "1", "--size", "64", "48"],
}


@pytest.mark.slow
@pytest.mark.parametrize("script", sorted(p.name for p in BENCHMARKS.glob("*.py")))
def test_benchmark_runs_and_prints_json_last(script: str) -> None:
    done = subprocess.run(
        [sys.executable, str(BENCHMARKS / script), *SMALL.get(script, [])],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    assert isinstance(figures, dict) and figures
