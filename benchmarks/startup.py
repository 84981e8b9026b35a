"""What a start costs before anything runs: importing the runtime, and the command's answer.

Each figure is a fresh interpreter, less a bare one (``python -c pass``) measured in the same
rounds, alternating, so what the machine is doing at the time falls on both sides alike:

- ``import playspace.prelude``: what a headless game imports (no GL, no OpenXR); each name
  loads when first used, so this is the price of the names, not of the runtime;
- ``from playspace.prelude import *``: every name of it, which loads nearly all the runtime;
- ``import playspace.app``: the composition root the command's runs load; the systems load
  when a world is made, so this row alone hides them;
- ``kitchen: build and step once``: a headless replay of ``examples/kitchen.py`` prepared, its
  world built and stepped once: what a run pays before its first step, whatever was deferred
  out of the imports above lands here;
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

COLD_KITCHEN = """
from pathlib import Path
from playspace.app.replay import prepare_replay
prepare_replay(Path("examples/kitchen.py"), None).world().step()
"""
CASES = {
    "import playspace.prelude": [sys.executable, "-c", "import playspace.prelude"],
    "from playspace.prelude import *": [sys.executable, "-c", "from playspace.prelude import *"],
    "import playspace.app": [sys.executable, "-c", "import playspace.app"],
    "kitchen: build and step once": [sys.executable, "-c", COLD_KITCHEN],
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
    print(f"{'what':<34}{'median':>8}{'min':>8}{'max':>8}")
    figures = {}
    for name, values in times.items():
        median = statistics.median(values)
        figures[name] = {
            "median_ms": round(median, 1),
            "min_ms": round(min(values), 1),
            "max_ms": round(max(values), 1),
        }
        print(f"{name:<34}{median:>8.1f}{min(values):>8.1f}{max(values):>8.1f}")
    imports = ("import playspace.prelude", "import playspace.app")
    met = "yes" if all(figures[name]["median_ms"] < GOAL_MS for name in imports) else "no"
    print(f"goal: the prelude and the app import in under {GOAL_MS:.0f} ms: {met}")
    print(json.dumps({"rounds": args.rounds, "goal_ms": GOAL_MS, "startup": figures}))


if __name__ == "__main__":
    main()
