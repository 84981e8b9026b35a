"""What a game uses of the world: the world itself, its phases and sets, systems and plugins."""

from playspace.ecs import Phase, Plugin, SystemSet, World, system

__all__ = ["Phase", "Plugin", "SystemSet", "World", "system"]
