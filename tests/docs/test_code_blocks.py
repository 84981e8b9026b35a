"""Every code block of the README and docs/ runs as a user would paste it.

A fence says what it holds: ``python`` (or ``py``) and ``bash`` (or ``sh``) run; ``text``,
``toml``, ``json`` and ``tree`` are output and file contents, shown; a block of code that is not
meant to run says so with ``no-run`` and why (``bash no-run: opens a window``). A page's
Python blocks run in order in one fresh interpreter, sharing their names, as when pasted one
after another; a shell block runs in a folder of its own with the examples beside it, with
``playspace`` and ``.venv/bin/playspace`` the command of the environment under test.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
RUN = {"python": "python", "py": "python", "bash": "shell", "sh": "shell"}
SHOWN = {"text", "toml", "json", "tree"}
FENCE = re.compile(r"^```([^\n]*)\n(.*?)^```", re.S | re.M)


@dataclass(frozen=True, slots=True)
class Block:
    page: Path
    line: int  # of the block's first line of code
    info: str  # what the fence says after its backticks
    runs: bool
    code: str

    @property
    def language(self) -> str:
        return self.info.split()[0] if self.info else ""

    @property
    def where(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"


def blocks(page: Path) -> list[Block]:
    text = page.read_text()
    found = []
    for fence in FENCE.finditer(text):
        info = fence.group(1).strip()
        line = text.count("\n", 0, fence.start()) + 2
        runs = info.split()[0] in RUN and "no-run" not in info if info else False
        found.append(Block(page, line, info, runs, fence.group(2)))
    return found


ALL = [block for page in PAGES for block in blocks(page)]
PYTHON_PAGES = sorted({b.page for b in ALL if b.runs and RUN[b.language] == "python"})
SHELL = [b for b in ALL if b.runs and RUN[b.language] == "shell"]

# Runs each block of a page in one namespace, compiled under the page's name at the block's
# own line, so a failure's traceback names the page and line a reader would look at.
_RUNNER = """
import json, sys
namespace = {"__name__": "__main__"}
for page, line, code in json.loads(sys.stdin.read()):
    exec(compile("\\n" * (line - 1) + code, page, "exec"), namespace)
"""


def _environment() -> dict[str, str]:
    """Headless, with the environment's commands first on the PATH."""
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    return env


def test_every_fence_says_what_it_holds() -> None:
    unsaid = [b.where for b in ALL if b.language not in RUN and b.language not in SHOWN]
    assert unsaid == [], "fences without python, bash, text, toml, json or tree"
    unsaid = [b.where for b in ALL if b.language in RUN and not b.runs and "no-run:" not in b.info]
    assert unsaid == [], "a block that does not run says why (no-run: ...)"


@pytest.mark.slow
@pytest.mark.parametrize("page", PYTHON_PAGES, ids=lambda p: p.name)
def test_a_page_s_python_runs_as_pasted(page: Path) -> None:
    code = [
        (str(b.page.relative_to(ROOT)), b.line, b.code)
        for b in ALL
        if b.page == page and b.runs and RUN[b.language] == "python"
    ]
    done = subprocess.run(
        [sys.executable, "-c", _RUNNER],
        input=json.dumps(code),
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
        env=_environment(),
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]


@pytest.mark.slow
@pytest.mark.parametrize("block", SHELL, ids=lambda b: b.where)
def test_a_shell_block_runs_as_pasted(block: Block, tmp_path: Path) -> None:
    for name in ("examples", "docs"):
        (tmp_path / name).symlink_to(ROOT / name)
    (tmp_path / ".venv").symlink_to(Path(sys.executable).parent.parent)
    done = subprocess.run(
        ["bash", "-e", "-o", "pipefail", "-c", block.code],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,
        env=_environment(),
        check=False,
    )
    assert done.returncode == 0, f"{block.where}:\n{done.stdout[-1500:]}{done.stderr[-1500:]}"


def test_the_blocks_are_found_and_most_of_them_run() -> None:
    """A control on the fence reader: the README's blocks, counted by hand, and the share of
    code that runs."""
    assert len([b for b in ALL if b.page.name == "README.md"]) == 9
    code = [b for b in ALL if b.language in RUN]
    assert len([b for b in code if b.runs]) > len(code) / 2
