"""``playspace new``: the game project it makes, what it refuses, and (slow) that the project
passes its own tests in a fresh virtual environment, and fails them when its game is broken."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import sysconfig
import tomllib
from importlib.metadata import PackageNotFoundError, version
from importlib.util import find_spec
from pathlib import Path

import pytest

from playspace.cli import main
from playspace.cli.new import FILES, requirement
from playspace.formats.scene import load_scene
from playspace.systems.input import load_trace
from tests.cli_helpers import ROOT

MADE = sorted(
    [
        ".github/workflows/test.yml",
        ".gitignore",
        "README.md",
        "demo_game.py",
        "demo_game.toml",
        "pyproject.toml",
        "tests/test_game.py",
        "traces/demo-game.jsonl",
        "traces/make_trace.py",
    ]
)
SABOTAGE = ("score.lifts += 1", "score.lifts += 2")  # the game's own system, miscounting


def made(folder: Path) -> list[str]:
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())


def test_new_makes_the_project_with_its_names_filled(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "demo-game"
    assert main(["new", str(folder)]) == 0
    said = capsys.readouterr().out
    assert made(folder) == MADE
    assert f"run it:  cd {folder} && playspace run demo_game.py" in said
    assert "pip install -e '.[test]'" in said and "pytest" in said
    for name in MADE:
        if not name.endswith(".jsonl"):
            assert not re.search(r"\{\{\w+\}\}", (folder / name).read_text()), name
    project = tomllib.loads((folder / "pyproject.toml").read_text())
    assert project["project"]["name"] == "demo-game"
    (dependency,) = project["project"]["dependencies"]
    assert dependency.startswith("playspace")
    assert project["tool"]["setuptools"]["py-modules"] == ["demo_game"]
    game = (folder / "demo_game.py").read_text()
    assert 'SCENE = "demo_game.toml"' in game and 'TRACE = "traces/demo-game.jsonl"' in game
    assert "@system(" in game and SABOTAGE[0] in game
    assert [p.name for p in load_scene(folder / "demo_game.toml").props] == ["ball"]
    assert load_trace(folder / "traces" / "demo-game.jsonl").duration > 4.0
    workflow = (folder / ".github" / "workflows" / "test.yml").read_text()
    assert "actions/checkout" in workflow and "pytest" in workflow


def test_the_project_is_clean_by_ruff(tmp_path: Path) -> None:
    """The game's files are where its author starts from: they pass the checks playspace's
    own code does (ruff's defaults, 88 columns, with its rules)."""
    pytest.importorskip("ruff")
    assert main(["new", str(tmp_path / "demo-game")]) == 0
    rules = ["--select", "E,F,W,I,B,UP,SIM,RUF", "--target-version", "py311"]
    for command in (["check", *rules], ["format", "--check"]):
        checked = _run(sys.executable, "-m", "ruff", *command, "--isolated", ".", cwd=tmp_path)
        assert checked.returncode == 0, checked.stdout + checked.stderr


def test_new_takes_an_empty_folder(tmp_path: Path) -> None:
    (tmp_path / "demo-game").mkdir()
    assert main(["new", str(tmp_path / "demo-game")]) == 0
    assert made(tmp_path / "demo-game") == MADE


@pytest.mark.parametrize("what", ["a folder with a file", "a file"])
def test_new_refuses_what_is_there_in_one_line(
    what: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    there = tmp_path / "demo-game"
    if what == "a file":
        there.write_text("mine\n")
    else:
        there.mkdir()
        (there / "notes.txt").write_text("mine\n")
    before = made(tmp_path)
    assert main(["new", str(there)]) == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert line.startswith(f"playspace new: {there}: ") and "expected a new or empty folder" in line
    assert made(tmp_path) == before


@pytest.mark.parametrize(
    ("name", "said"),
    [
        ("demo game", "cannot name a Python package: expected letters, digits"),
        ("3d-game", "cannot name a Python package"),
        ("game-", "cannot name a Python package"),
        ("class", "class is a Python keyword"),
        ("json", "would hide the installed module json"),
        ("numpy", "would hide the installed module numpy"),
        ("tests", "would clash with the project's tests/ folder"),
    ],
)
def test_new_refuses_a_name_that_cannot_be_the_game_s_module(
    name: str, said: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["new", str(tmp_path / name)]) == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert line.startswith(f"playspace new: {name!r}") and said in line
    assert list(tmp_path.iterdir()) == []


FOLDER = "file:///src/playspace"
GIT = {"vcs": "git", "commit_id": "ab12"}


@pytest.mark.parametrize(
    ("direct_url", "wanted"),
    [
        ({"url": FOLDER, "dir_info": {"editable": True}}, f"playspace @ {FOLDER}"),
        ({"url": FOLDER, "dir_info": {}}, f"playspace @ {FOLDER}"),
        (
            {"url": "https://h.org/p.git", "vcs_info": GIT},
            "playspace @ git+https://h.org/p.git@ab12",
        ),
        ({"url": "file:///w/playspace-0.3-py3-none-any.whl", "archive_info": {}}, "playspace>=0.3"),
        (None, "playspace>=0.3"),
    ],
)
def test_the_project_depends_on_the_playspace_it_was_made_with(
    direct_url: dict[str, object] | None, wanted: str
) -> None:
    """Not on PyPI: the folder or commit pip installed it from, or else its version."""
    given = None if direct_url is None else json.dumps(direct_url)
    assert requirement(given, "0.3") == wanted


def test_every_template_is_used() -> None:
    templates = ROOT / "playspace" / "cli" / "templates" / "game"
    assert sorted(p.name for p in templates.iterdir()) == sorted(f"{t}.tmpl" for t in FILES)


def _build_flags() -> list[str]:
    """How pip builds the project: with this environment's setuptools, offline, when it can
    build an editable wheel alone (70.1 on, or with wheel installed); else (the 65.5 that
    Python 3.11's venv brings) in a build environment of pip's own, fetching setuptools as
    tests/test_packaging.py's wheel build does."""
    try:
        have = tuple(int(part) for part in version("setuptools").split(".")[:2])
    except PackageNotFoundError:
        return []
    alone = have >= (70, 1) or find_spec("wheel") is not None
    return ["--no-index", "--no-build-isolation"] if alone else []


def _run(*command: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(c) for c in command], cwd=cwd, capture_output=True, text=True, timeout=600, check=False
    )


@pytest.mark.slow
def test_a_new_game_passes_its_own_tests_in_a_fresh_environment(tmp_path: Path) -> None:
    """`playspace new demo-game`, installed (editable) in a new virtual environment that sees
    this one's packages (CI may have no index to fetch playspace from), passes its own pytest;
    with its game's system broken, the same test fails."""
    done = _run(sys.executable, "-m", "playspace.cli", "new", "demo-game", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    project, venv = tmp_path / "demo-game", tmp_path / "venv"
    assert _run(sys.executable, "-m", "venv", venv, cwd=tmp_path).returncode == 0
    python = venv / "bin" / "python"
    purelib = "import sysconfig; print(sysconfig.get_paths()['purelib'])"
    inner = _run(python, "-c", purelib, cwd=tmp_path)
    outer = sorted({sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]})
    lines = "".join(f"import site; site.addsitedir({path!r})\n" for path in outer)
    (Path(inner.stdout.strip()) / "outer_environment.pth").write_text(lines)
    install: list[str | Path] = [python, "-m", "pip", "install", "-q", "--no-deps"]
    done = _run(*install, *_build_flags(), "-e", project, cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert _run(python, "-c", "import demo_game", cwd=tmp_path).returncode == 0  # installed
    tested = _run(python, "-m", "pytest", "-q", "-p", "no:cacheprovider", cwd=project)
    assert tested.returncode == 0, tested.stdout + tested.stderr
    assert "1 passed" in tested.stdout
    game = project / "demo_game.py"
    game.write_text(game.read_text().replace(*SABOTAGE))
    broken = _run(python, "-m", "pytest", "-q", "-p", "no:cacheprovider", cwd=project)
    assert broken.returncode == 1 and "1 failed" in broken.stdout, broken.stdout
    assert "assert [2] == [1]" in broken.stdout
