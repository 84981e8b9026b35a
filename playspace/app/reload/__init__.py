"""Live development: a running game's saved files applied between frames.

:class:`LiveReload` watches the game's module (and the Python files beside it), its scene and
the models the scene places. Between two frames it applies what was saved: a module is run
again in place (:mod:`playspace.app.reload.modules`), a scene or a model file is applied as a
difference (:mod:`playspace.app.reload.scenes`). A save that fails keeps what ran before and
says why in one line, on screen (the :class:`LiveStatus` resource) and in the terminal.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

from playspace.app.reload.modules import ModuleReload, ReloadError, modules_at, reload_module
from playspace.app.reload.scenes import SceneReload, apply_scene
from playspace.app.reload.watch import Watcher
from playspace.components.debug import LiveStatus
from playspace.ecs import World
from playspace.formats.scene.model import Scene, SceneError

__all__ = ["LiveReload", "ModuleReload", "ReloadError", "SceneReload", "apply_scene"]


def _say(line: str) -> None:
    print(f"playspace: {line}", file=sys.stderr, flush=True)


class LiveReload:
    """Applies the saves of a game's files to its running world (see the module docstring).

    `module` is the game's module file (None for a bare scene), `scene` the scene running now.
    `say` is given each reload's line (default: the terminal)."""

    def __init__(
        self, scene: Scene, module: Path | None = None, say: Callable[[str], None] = _say
    ) -> None:
        self.scene = scene
        self.say = say
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
            status.line, status.failed, status.at = line, failed, world.time.elapsed
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
                return "; ".join(reload_module(world, m).line() for m in modules), False
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
        return change

    def close(self) -> None:
        self.watcher.close()


def _model_files(scene: Scene) -> list[Path]:
    return sorted({m.file for m in scene.models} | {m.file for m in scene.meshes})
