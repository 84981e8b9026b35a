"""Errors raised when a world is built or used wrongly, each naming what was wrong."""


class ScheduleError(ValueError):
    """A system cannot be added: no or unknown phase, an order cycle, a missing reference."""


class ComponentError(TypeError):
    """Something given as a component or resource is not an instance of a component class."""


class MissingComponent(LookupError):
    """An entity does not have the component asked for (or does not exist)."""


class MissingResource(LookupError):
    """The world holds no resource of the type asked for."""


class PluginError(ValueError):
    """A plugin was added twice or is not a plugin."""
