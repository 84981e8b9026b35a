"""Live development: a running game's saved files applied between frames.

:class:`LiveReload` watches the game's module (and the Python files beside it), its scene and
the models the scene places. Between two frames it applies what was saved: a module is run
again in place (:mod:`playspace.app.reload.modules`), a scene or a model file is applied as a
difference (:mod:`playspace.app.reload.scenes`). A save that fails keeps what ran before and
says why in one line, on screen (the :class:`LiveStatus` resource) and in the terminal.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable
from pathlib import Path

from playspace.app.reload.modules import ModuleReload, ReloadError, modules_at, reload_module
from playspace.app.reload.scenes import SceneReload, apply_scene
from playspace.app.reload.watch import Watcher
from playspace.components.debug import LiveStatus
from playspace.ecs import World
from playspace.formats.scene.model import Scene, SceneError

SHOWN = 4.0  # seconds a reload's line stays on screen (a failed one: until the next good save)

__all__ = ["LiveReload", "ModuleReload", "ReloadError", "SceneReload", "apply_scene"]


def _say(line: str) -> None:
    print(f"playspace: {line}", file=sys.stderr, flush=True)


class LiveReload:
    """Applies the saves of a game's files to its running world (see the module docstring).

    `module` is the game's module file (None for a bare scene), `scene` the scene running now.
    `say` is given each reload's line (default: the terminal); `reloaded` each module file
    reloaded and the source it ran (a recording keeps it)."""

    def __init__(
        self,
        scene: Scene,
        module: Path | None = None,
        say: Callable[[str], None] = _say,
        reloaded: Callable[[Path, bytes], None] | None = None,
    ) -> None:
        self.scene = scene
        self.say = say
        self.reloaded = reloaded
        files = [scene.path, *_model_files(scene)]
        self.watcher = Watcher(files, [] if module is None else [module.parent])

    def apply(self, world: World) -> list[str]:
        """Apply what was saved since the last call: call it between frames. Returns the lines
        said (none when nothing was saved)."""
        said = []
        for path in self.watcher.saved():
            line, failed = self._reload(world, path)
            if line is None:
                continue
            status = world.try_resource(LiveStatus) or world.insert_resource(LiveStatus())
            status.line, status.failed = line, failed
            status.until = math.inf if failed else world.time.elapsed + SHOWN
            status.reloads += 1
            self.say(line)
            said.append(line)
        return said

    def _reload(self, world: World, path: Path) -> tuple[str | None, bool]:
        try:
            if path.suffix == ".py":
                modules = modules_at(path)
                if not modules:
                    return None, False  # a file beside the game that the game does not use
                done = [reload_module(world, m) for m in modules]
                if self.reloaded is not None:
                    self.reloaded(path, done[0].source)
                return "; ".join(r.line() for r in done), False
            return self._rescene(world).line(), False
        except (ReloadError, SceneError) as error:
            first, *more = str(error).splitlines() or ["(no reason given)"]
            also = f" (and {len(more)} more)" if more else ""
            return f"reload failed, still running the last good one: {first}{also}", True

    def _rescene(self, world: World) -> SceneReload:
        from playspace.formats.scene.load import load_scene

        fresh = load_scene(self.scene.path)
        change = apply_scene(world, self.scene, fresh)
        self.scene = fresh
        self.watcher.watch(_model_files(fresh))
        return change

    def close(self) -> None:
        self.watcher.close()


def _model_files(scene: Scene) -> list[Path]:
    return sorted({m.file for m in scene.models} | {m.file for m in scene.meshes})
