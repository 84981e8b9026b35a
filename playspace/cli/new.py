"""``playspace new NAME``: a game project that passes its own tests from the start, so a game
begins with the loop it grows by (play, keep a trace, test it): a game module with one system,
its scene, a recorded trace and the script that made it, a test that replays the trace
headless, a CI workflow and a README. The files are the templates in ``templates/game`` with
the names filled in; the trace is made by running the project's own script, so the two agree.
"""

from __future__ import annotations

import argparse
import json
import keyword
import re
import shlex
import sys
from importlib import resources
from pathlib import Path
from typing import Any

from playspace.cli.common import Refused, os_error

# each template, and where it goes in the project ({name} and {module} filled in)
FILES = {
    "pyproject.toml": "pyproject.toml",
    "README.md": "README.md",
    "gitignore": ".gitignore",
    "game.py": "{module}.py",
    "scene.toml": "{module}.toml",
    "make_trace.py": "traces/make_trace.py",
    "test_game.py": "tests/test_game.py",
    "test.yml": ".github/workflows/test.yml",
}
_NAME = re.compile(r"[A-Za-z]([A-Za-z0-9._-]*[A-Za-z0-9])?")
_FOLDERS = {"tests", "traces"}  # the project's own, which a module of that name would hide


def add(commands: Any) -> None:
    new = commands.add_parser(
        "new",
        help="make a game project that passes its own tests: a game module with one system, "
        "a scene, a recorded trace, a test replaying it headless, a CI workflow",
    )
    new.add_argument(
        "name",
        metavar="NAME",
        help="the game's name (demo-game), also its folder's; a path makes the folder there",
    )
    new.set_defaults(handler=handle, usage=new)


def handle(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    folder = Path(args.name)
    try:
        module = module_name(folder.name or args.name)
        vacant(folder)
    except Refused as refused:
        print(f"playspace new: {refused}", file=sys.stderr)
        return 2
    dependency = installed()
    try:
        make(folder, {"name": folder.name, "module": module, "dependency": dependency})
    except OSError as error:
        return os_error("playspace new", error)
    there = shlex.quote(args.name)
    print(f"playspace new: made {args.name}: the game {module}.py, its scene, a trace, its test")
    print(f"run it:  cd {there} && playspace run {module}.py")
    print(
        f"test it: cd {there} && python3 -m venv .venv && .venv/bin/pip install -e '.[test]' "
        "&& .venv/bin/python -m pytest -q"
    )
    if dependency.startswith("playspace @ file:"):
        print("note: it depends on playspace in a folder of this machine, which CI cannot fetch")
    return 0


def module_name(name: str) -> str:
    """The game module's name for the project `name`: a Python package name, lower case, with
    '_' for '-' and '.'. Refused when it cannot be one, or when it would hide a module already
    installed (the game's folder comes first on the import path when it runs)."""
    if not _NAME.fullmatch(name):
        raise Refused(
            f"{name!r} cannot name a Python package: expected letters, digits, '-', '_' and "
            "'.', starting with a letter and ending with a letter or digit (demo-game)"
        )
    module = re.sub(r"[-.]", "_", name).lower()
    if keyword.iskeyword(module):
        raise Refused(f"{name!r}: {module} is a Python keyword; expected another name")
    if module in _FOLDERS:
        raise Refused(f"{name!r}: {module}.py would clash with the project's {module}/ folder")
    if _importable(module):
        raise Refused(
            f"{name!r}: its module {module}.py would hide the installed module {module}; "
            "expected another name"
        )
    return module


def _importable(module: str) -> bool:
    from importlib.util import find_spec

    return module in sys.stdlib_module_names or find_spec(module) is not None


def vacant(folder: Path) -> None:
    """Refuse a `folder` that holds anything: a project is never written over another."""
    if folder.is_dir() and any(folder.iterdir()):
        raise Refused(f"{folder}: the folder is not empty; expected a new or empty folder")
    if folder.exists() and not folder.is_dir():
        raise Refused(f"{folder}: not a folder; expected a new or empty folder")


def installed() -> str:
    """The project's requirement on this playspace. A folder may hold an ``.egg-info`` of
    playspace's beside the installed one (a clone's), so the first that says where it was
    installed from is taken."""
    from importlib import metadata

    from playspace import __version__

    for found in metadata.distributions(name="playspace"):
        direct = found.read_text("direct_url.json")
        if direct:
            return requirement(direct, found.version)
    return requirement(None, __version__)


def requirement(direct_url: str | None, version: str) -> str:
    """How a project depends on the playspace whose ``direct_url.json`` (PEP 610) is
    `direct_url`: playspace is not on PyPI, so the folder or git commit it was installed from,
    which pip can install again; else (a wheel, an index) the `version` or later."""
    found = json.loads(direct_url) if direct_url else {}
    url, vcs = found.get("url", ""), found.get("vcs_info", {})
    if "dir_info" in found and url.startswith("file:"):
        return f"playspace @ {url}"
    if vcs.get("vcs") == "git":
        return f"playspace @ git+{url}@{vcs['commit_id']}"
    return f"playspace>={version}"


def make(folder: Path, names: dict[str, str]) -> None:
    """Write the project into `folder`, then its trace with its own script."""
    import runpy

    templates = resources.files("playspace.cli").joinpath("templates", "game")
    for template, target in FILES.items():
        text = templates.joinpath(f"{template}.tmpl").read_text(encoding="utf-8")
        for key, value in names.items():
            text = text.replace("{{" + key + "}}", value)
        path = folder / target.format(**names)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    runpy.run_path(str(folder / "traces" / "make_trace.py"), run_name="__main__")
