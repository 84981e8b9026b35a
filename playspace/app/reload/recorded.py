"""Reloads in a recording: where each happened, and the code of each span kept to replay it.

A session recorded (``--record``) while its game's files are reloaded is only a replayable
recording if the replay runs the code each span ran. So the trace's header names the game's
Python files and the SHA-256 of each as the session began (``code``), the first line after a
reload names the files it reloaded and theirs (``reloaded``), and each version's source is
kept beside the trace, in ``TRACE.code/SHA256.py``. A replay runs a file's code of the time:
the file itself when it still has that digest, else the kept copy; when neither is at hand it
says so, once, and runs the file as it is now.
"""

from __future__ import annotations

import hashlib
import logging
from dataclasses import dataclass, field
from pathlib import Path

from playspace.app.reload.modules import last_ran, modules_at, reload_module
from playspace.ecs import World
from playspace.formats.trace import Trace, TraceWriter, code_folder

log = logging.getLogger(__name__)


def digest(source: bytes) -> str:
    return hashlib.sha256(source).hexdigest()


def game_files(folder: Path) -> dict[str, Path]:
    """The game's Python files this process runs: loaded modules whose file is in `folder`,
    by name within it."""
    home = folder.resolve()
    found = {}
    for path in sorted(home.glob("*.py")):
        if modules_at(path):
            found[path.name] = path
    return found


class CodeRecord:
    """Keeps the code of a recording's spans as it is written (see the module docstring):
    made before the writer, whose header takes :attr:`code`; :meth:`reloaded` after each
    reload of one of the game's files."""

    def __init__(self, trace: Path, folder: Path) -> None:
        self.folder = code_folder(trace)
        self.game = folder.resolve()
        self.code = {
            name: self._keep(path.read_bytes()) for name, path in game_files(folder).items()
        }

    def _keep(self, source: bytes) -> str:
        found = digest(source)
        self.folder.mkdir(exist_ok=True)
        kept = self.folder / f"{found}.py"
        if not kept.exists():
            kept.write_bytes(source)
        return found

    def reloaded(self, writer: TraceWriter, path: Path, source: bytes) -> None:
        """`path` was reloaded with `source`: keep it and mark the next line."""
        if path.resolve().parent == self.game:
            writer.reloaded(path.name, self._keep(source))


@dataclass(slots=True)
class RecordedReloads:
    """A replay's code: each game file's as the recording began, and before each step (by
    number) the files to run again with their code of the time (None: not at hand)."""

    start: list[tuple[Path, bytes | None]] = field(default_factory=list)
    due: dict[int, list[tuple[Path, bytes | None]]] = field(default_factory=dict)

    def begin(self, world: World) -> None:
        """Put the game's modules back to the code the recording began with (a replay built
        again, as the viewer does to seek back, starts there too)."""
        for path, source in self.start:
            _run(world, path, source)

    def apply(self, world: World, step: int) -> None:
        """Run the reloads due before `step`."""
        for path, source in self.due.get(step, []):
            _run(world, path, source)


def _run(world: World, path: Path, source: bytes | None) -> None:
    """Make the modules of `path` run `source` (None: the file as it is now), reloading only
    those that run something else."""
    now = digest(path.read_bytes())  # what a module never reloaded runs
    wanted = digest(source) if source is not None else now
    for module in modules_at(path):
        if (last_ran(module) or now) != wanted:
            reload_module(world, module, source)


def replay_code(trace: Trace, folder: Path, hz: float) -> RecordedReloads:
    """The code `trace` ran, by span: the game's files (in `folder`) as it began, and what to
    reload before which step. A file's code not at hand is said once; the file as it is now
    runs in its place."""
    kept = code_folder(trace.path)
    reloads = RecordedReloads()
    for name, wanted in trace.code.items():
        reloads.start.append((folder / name, _code_of(folder / name, wanted, kept, trace.path)))
    for time, files in trace.reloads:
        step = max(0, round(time * hz) - 1)  # the first step after the reload sampled at `time`
        for name, wanted in files.items():
            source = _code_of(folder / name, wanted, kept, trace.path)
            reloads.due.setdefault(step, []).append((folder / name, source))
    return reloads


def _code_of(path: Path, wanted: str, kept: Path, trace: str) -> bytes | None:
    try:
        now = path.read_bytes()
    except OSError:
        now = None
    if now is not None and digest(now) == wanted:
        return now
    copy = kept / f"{wanted}.py"
    if copy.is_file() and digest(copy.read_bytes()) == wanted:
        return copy.read_bytes()
    log.warning(
        "%s: recorded with %s as SHA-256 %s..., which is not at hand (neither the file now nor "
        "%s): the replay runs %s as it is now",
        trace, path.name, wanted[:12], copy, path.name,
    )  # fmt: skip
    return None
