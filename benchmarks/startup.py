"""What a start costs before anything runs: importing the runtime, and the command's answer.

Each figure is a fresh interpreter, less a bare one (``python -c pass``) measured in the same
rounds, alternating, so what the machine is doing at the time falls on both sides alike:

- ``import playspace.prelude``: everything a headless game imports (no GL, no OpenXR);
- ``import playspace.app``: the composition root the command's runs load;
- ``playspace --version``: the command's quickest answer, through its entry point.

Goal (issue 15): the runtime imports in under 150 ms. Run: ``python benchmarks/startup.py
[--rounds 7]``. The last line printed is one JSON object of the figures (ms, median and spread).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CASES = {
    "import playspace.prelude": [sys.executable, "-c", "import playspace.prelude"],
    "import playspace.app": [sys.executable, "-c", "import playspace.app"],
    "playspace --version": [sys.executable, "-m", "playspace.cli", "--version"],
}
BARE = [sys.executable, "-c", "pass"]
GOAL_MS = 150.0


def _seconds(command: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, cwd=ROOT, check=True, capture_output=True)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    times: dict[str, list[float]] = {name: [] for name in CASES}
    for _ in range(args.rounds):
        for name, command in CASES.items():  # each case against a bare start of its round
            bare = _seconds(BARE)
            times[name].append((_seconds(command) - bare) * 1e3)
    print(f"start-up over a bare interpreter, {args.rounds} rounds (ms)")
    print(f"{'what':<28}{'median':>8}{'min':>8}{'max':>8}")
    figures = {}
    for name, values in times.items():
        median = statistics.median(values)
        figures[name] = {
            "median_ms": round(median, 1),
            "min_ms": round(min(values), 1),
            "max_ms": round(max(values), 1),
        }
        print(f"{name:<28}{median:>8.1f}{min(values):>8.1f}{max(values):>8.1f}")
    prelude = figures["import playspace.prelude"]["median_ms"]
    met = "yes" if prelude < GOAL_MS else "no"
    print(f"goal: the runtime imports in under {GOAL_MS:.0f} ms: {met}")
    print(json.dumps({"rounds": args.rounds, "goal_ms": GOAL_MS, "startup": figures}))


if __name__ == "__main__":
    main()
