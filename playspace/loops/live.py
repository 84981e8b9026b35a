"""Live reload as the preview and the headset run it: watching the game's files and, for a
session being recorded, keeping the code of each span with the recording
(:mod:`playspace.app.reload.recorded`)."""

from __future__ import annotations

from pathlib import Path

from playspace.app.game import Example
from playspace.app.reload import LiveReload
from playspace.app.reload.recorded import CodeRecord
from playspace.formats.scene.model import Scene
from playspace.formats.trace import TraceWriter


def code_record(record: Path | None, example: Example | None) -> CodeRecord | None:
    """What a recording of a game keeps of its code: its files' digests for the trace's header
    and each version's source beside it. None when nothing is recorded or there is no game."""
    if record is None or example is None or example.module is None:
        return None
    return CodeRecord(record, example.module.parent)


def trace_writer(record: Path, fixed_hz: float | None, code: CodeRecord | None) -> TraceWriter:
    """The recording's writer, its header naming the game's code when it is kept."""
    return TraceWriter(record, fixed_hz, code=None if code is None else code.code)


def watching(
    scene: Scene, example: Example | None, writer: TraceWriter | None, code: CodeRecord | None
) -> LiveReload:
    """The game's files watched; each module reload marked in the recording, when one is."""

    def reloaded(path: Path, source: bytes) -> None:
        if code is not None and writer is not None:
            code.reloaded(writer, path, source)

    module = example.module if example is not None else None
    return LiveReload(scene, module, reloaded=reloaded)
