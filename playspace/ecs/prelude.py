"""What a game uses of the world: the world itself, its phases and sets, systems and plugins,
and the run conditions that let an idle system cost nothing."""

from playspace.ecs import (
    Phase,
    Plugin,
    SystemSet,
    World,
    all_of,
    any_of,
    any_with,
    not_,
    on_event,
    resource_exists,
    system,
)

__all__ = [
    "Phase",
    "Plugin",
    "SystemSet",
    "World",
    "all_of",
    "any_of",
    "any_with",
    "not_",
    "on_event",
    "resource_exists",
    "system",
]
