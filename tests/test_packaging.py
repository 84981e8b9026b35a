"""What a built package holds: everything the main job needs, the examples included."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow
def test_the_wheel_carries_every_package_and_the_examples(tmp_path: Path) -> None:
    """`pip install .` (not editable) then `playspace demo` needs the examples: they go under
    the environment's share/playspace, where the demo looks when it is not in a clone."""
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps",
         "-w", str(tmp_path), str(ROOT)],
        check=True, capture_output=True, timeout=300,
    )  # fmt: skip
    (wheel,) = tmp_path.glob("playspace-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    packages = {p.parent.relative_to(ROOT).as_posix() for p in ROOT.glob("playspace/**/*.py")}
    assert {f"{p}/__init__.py" for p in packages} <= names  # every package, loops included
    templates = {p.relative_to(ROOT).as_posix() for p in ROOT.glob("playspace/cli/templates/*/*")}
    assert templates and templates <= names  # what `playspace new` makes a game of
    shared = {n.split("/data/share/", 1)[1] for n in names if ".data/data/share/" in n}
    for example in ("kitchen.py", "kitchen.toml", "traces/kitchen.jsonl", "scenes/playground.toml"):
        assert f"playspace/examples/{example}" in shared
