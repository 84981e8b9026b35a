"""Make the README's pictures again: ``python docs/make_pictures.py``.

Each picture is what a command prints for an example: telemetry plots for the stairs and the
room, offscreen screenshots of the kitchen (a pan ghosting inside the pantry wall) and of the
snowball range (a snowball in flight). Everything runs headless, as CI does.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "pictures"


def playspace(*args: str | Path) -> None:
    subprocess.run([sys.executable, "-m", "playspace.cli", *map(str, args)], cwd=ROOT, check=True)


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as scratch:
        for name in ("stairs", "roomscale"):
            scene = f"examples/{name}.toml"
            telemetry = Path(scratch) / f"{name}.jsonl"
            trace = ROOT / "examples" / "traces" / f"{name}.jsonl"
            playspace(
                "run",
                scene,
                "--headless",
                "--trace",
                trace,
                "--telemetry",
                telemetry,
            )
            playspace("plot", telemetry, "--scene", scene, "--out", OUT / f"{name}-plot.png")
    playspace(
        "run",
        "examples/kitchen.py",
        "--headless",
        "--seconds",
        "5.6",
        "--screenshot",
        OUT / "kitchen-ghost.png",
    )
    playspace(
        "run",
        "examples/snowball.py",
        "--headless",
        "--seconds",
        "1.6",
        "--screenshot",
        OUT / "snowball-throw.png",
    )


if __name__ == "__main__":
    main()
