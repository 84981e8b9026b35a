"""What a game uses, from one place: ``from playspace.prelude import *`` or by name.

Each package says what a game needs of it in its own small prelude (``playspace.ecs.prelude``,
``playspace.components.prelude``, ...); this one re-exports them, in the order of
:data:`PRELUDES`. The events the built-in systems send are one name here, ``events``
(``events.Grabbed``), not forty in a game's namespace. Nothing here loads GL or OpenXR: a
headless game imports only this.

A package's prelude is imported when a game first asks for one of its names (PEP 562):
``from playspace.prelude import World`` loads the world and nothing of the physics, the player
or the hands. Type checkers read the imports below ``TYPE_CHECKING``; a test holds them to
:data:`PRELUDES`.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from playspace.app.prelude import *  # noqa: F403
    from playspace.components.prelude import *  # noqa: F403
    from playspace.ecs.prelude import *  # noqa: F403
    from playspace.formats.prelude import *  # noqa: F403
    from playspace.systems.animation.prelude import *  # noqa: F403
    from playspace.systems.input.prelude import *  # noqa: F403
    from playspace.systems.interaction.prelude import *  # noqa: F403
    from playspace.systems.panels.prelude import *  # noqa: F403
    from playspace.systems.physics.prelude import *  # noqa: F403
    from playspace.systems.player.prelude import *  # noqa: F403
    from playspace.systems.prelude import *  # noqa: F403

PRELUDES = (  # cheapest first: a name is looked for in each, in this order
    "playspace.ecs.prelude",
    "playspace.components.prelude",
    "playspace.formats.prelude",
    "playspace.systems.prelude",
    "playspace.systems.input.prelude",
    "playspace.systems.physics.prelude",
    "playspace.systems.player.prelude",
    "playspace.systems.interaction.prelude",
    "playspace.systems.animation.prelude",
    "playspace.systems.panels.prelude",
    "playspace.app.prelude",
)


def _preludes() -> list[ModuleType]:
    return [importlib.import_module(name) for name in PRELUDES]


if not TYPE_CHECKING:  # the checkers see the imports above instead, each name with its type

    def __getattr__(name: str) -> object:
        """Find `name` in the packages' preludes (importing them in order until one has it)
        and keep it here, so the next use is a plain lookup. ``__all__`` is every prelude's."""
        if name == "__all__":
            found = [n for module in _preludes() for n in module.__all__]
            globals()["__all__"] = found
            return found
        if name.startswith("__"):  # the import system asks for __path__ and the like
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        for prelude in PRELUDES:
            module = importlib.import_module(prelude)
            if name in module.__all__:
                value = getattr(module, name)
                globals()[name] = value
                return value
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

    def __dir__() -> list[str]:
        return sorted({*globals(), *__getattr__("__all__")})
