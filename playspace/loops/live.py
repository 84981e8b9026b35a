"""Live reload as the preview and the headset run it: watching the game's files and, for a
session being recorded, keeping the code of each span with the recording
(:mod:`playspace.app.reload.recorded`)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from playspace.app.game import Example
from playspace.app.reload import LiveReload
from playspace.app.reload.recorded import CodeRecord
from playspace.formats.scene.model import Scene
from playspace.formats.trace import TraceWriter
from playspace.systems.input import KeepLast


def code_record(record: Path | None, example: Example | None) -> CodeRecord | None:
    """What a recording of a game keeps of its code: its files' digests for the trace's header
    and each version's source beside it. None when nothing is recorded or there is no game."""
    if record is None or example is None or example.module is None:
        return None
    return CodeRecord(record, example.module.parent)


def trace_writer(record: Path, fixed_hz: float | None, code: CodeRecord | None) -> TraceWriter:
    """The recording's writer, its header naming the game's code when it is kept."""
    return TraceWriter(record, fixed_hz, code=None if code is None else code.code)


@dataclass(frozen=True, slots=True)
class Marked:
    """A recording that keeps its spans' code: each reload marked on its writer."""

    writer: TraceWriter
    code: CodeRecord

    def reloaded(self, path: Path, source: bytes) -> None:
        if not self.writer.closed:  # a session too long to keep whole is no longer kept
            self.code.reloaded(self.writer, path, source)


def marked(writer: TraceWriter | None, code: CodeRecord | None) -> list[Marked]:
    """The recording to mark reloads on, when there is one that keeps its code."""
    return [Marked(writer, code)] if writer is not None and code is not None else []


def keeping(keeper: KeepLast, example: Example | None) -> Marked | None:
    """The session kept for the last half minute, as a recording that keeps its spans' code
    (so a span kept after a reload replays with the code each part of the session ran); None
    without a game module, or once the session is no longer kept whole."""
    spool = keeper.spool
    if example is None or example.module is None or spool is None:
        return None
    code = CodeRecord(Path(spool.path), example.module.parent)
    keeper.name_code(code.code)
    return Marked(spool, code)


def watching(scene: Scene, example: Example | None, recordings: list[Marked]) -> LiveReload:
    """The game's files watched; each module reload marked in every one of `recordings` (a
    list the caller may add to later: the headset keeps its session once the world exists)."""

    def reloaded(path: Path, source: bytes) -> None:
        for recording in recordings:
            recording.reloaded(path, source)

    module = example.module if example is not None else None
    return LiveReload(scene, module, reloaded=reloaded)
