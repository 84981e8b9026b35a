"""Which of a running game's files were saved, from the operating system's own notices.

watchdog turns inotify (Linux), FSEvents (macOS) and ReadDirectoryChangesW (Windows) into
events on a thread of its own; this keeps the last time each watched file was touched, and
hands a file over once it has been quiet for a moment: an editor's save is several events
(write, close, or a new file renamed over the old), and the file is whole only after the last.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterable
from pathlib import Path

from watchdog.events import FileSystemEvent, FileSystemEventHandler
from watchdog.observers import Observer

SETTLE = 0.05  # seconds a file stays untouched before it counts as saved


class Watcher(FileSystemEventHandler):
    """Watches `files`, and every Python file in the `folders` (a game's own modules)."""

    def __init__(self, files: Iterable[Path], folders: Iterable[Path] = ()) -> None:
        self._files: set[Path] = set()
        self._folders = {p.resolve() for p in folders}
        self._watched: set[Path] = set()
        self._touched: dict[Path, float] = {}
        self._lock = threading.Lock()
        self._observer = Observer()
        self._observer.daemon = True
        self._observer.start()
        for folder in self._folders:
            self._watch_folder(folder)
        self.watch(files)

    def watch(self, files: Iterable[Path]) -> None:
        """Watch `files` too (a model the saved scene places now)."""
        for path in files:
            found = path.resolve()
            self._files.add(found)
            self._watch_folder(found.parent)

    def _watch_folder(self, folder: Path) -> None:
        if folder not in self._watched and folder.is_dir():
            self._watched.add(folder)
            self._observer.schedule(self, str(folder), recursive=False)

    def wants(self, path: Path) -> bool:
        return path in self._files or (path.suffix == ".py" and path.parent in self._folders)

    def on_any_event(self, event: FileSystemEvent) -> None:
        if event.is_directory or event.event_type in ("opened", "closed_no_write", "deleted"):
            return
        now = time.monotonic()
        for raw in (event.src_path, event.dest_path):
            if not raw:
                continue
            path = Path(raw if isinstance(raw, str) else raw.decode()).resolve()
            if self.wants(path):
                with self._lock:
                    self._touched[path] = now

    def saved(self, settle: float = SETTLE) -> list[Path]:
        """The watched files saved since the last call and quiet for `settle` seconds."""
        if not self._touched:
            return []
        now = time.monotonic()
        with self._lock:
            done = [p for p, t in self._touched.items() if now - t >= settle]
            for path in done:
                del self._touched[path]
        return sorted(done)

    def close(self) -> None:
        self._observer.stop()
        self._observer.join(timeout=2.0)
