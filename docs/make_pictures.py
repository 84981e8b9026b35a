"""Make the README's pictures again: ``python docs/make_pictures.py``.

Each picture is what a command prints for an example, from the example's own trace: telemetry
plots of the stairs and the room over their scenes' walls, and offscreen screenshots from the
kitchen's and the snowball range's own cameras (their scene files' ``[camera]`` tables), at a
moment the telemetry picks: the pan ghosting inside the pantry wall with a bee behind it, and
a snowball's trail from the hand to the target it is about to strike. Everything runs
headless, as CI does; ``tests/test_pictures.py`` runs the same commands and checks what each
picture shows.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "pictures"
PLOTS = ("stairs", "roomscale")
# picture -> (example, seconds to run it): the telemetry's moment for each picture
SCREENSHOTS = {
    # the pan is ghosted from 5.17 to 5.99 s; at 5.25 s it is half inside the pantry wall and
    # the hand holding it is still outside
    "kitchen-ghost.png": ("examples/kitchen.py", 5.25),
    # the snowball leaves the hand at 1.31 s and strikes the 5 m target at 1.91 s
    "snowball-throw.png": ("examples/snowball.py", 1.9),
}


def playspace(*args: str | Path) -> None:
    """Run the ``playspace`` command from the project's root; a failure stops everything."""
    subprocess.run([sys.executable, "-m", "playspace.cli", *map(str, args)], cwd=ROOT, check=True)


def screenshot_args(name: str, out: Path, quality: str = "high") -> list[str]:
    """The command that draws the screenshot `name` into `out`, from the scene's camera."""
    example, seconds = SCREENSHOTS[name]
    return [
        "run", example, "--headless", "--seconds", str(seconds), "--camera", "scene",
        "--quality", quality, "--screenshot", str(out / name),
    ]  # fmt: skip


def make_screenshots(out: Path, quality: str = "high") -> None:
    for name in SCREENSHOTS:
        playspace(*screenshot_args(name, out, quality))


def make_plots(out: Path, scratch: Path) -> None:
    """Each plot example replayed from its trace, its telemetry drawn over its scene."""
    for name in PLOTS:
        scene = f"examples/{name}.toml"
        telemetry = scratch / f"{name}.jsonl"
        trace = ROOT / "examples" / "traces" / f"{name}.jsonl"
        playspace("run", scene, "--headless", "--trace", trace, "--telemetry", telemetry)
        playspace("plot", telemetry, "--scene", scene, "--out", out / f"{name}-plot.png")


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as scratch:
        make_plots(OUT, Path(scratch))
    make_screenshots(OUT)


if __name__ == "__main__":
    main()
