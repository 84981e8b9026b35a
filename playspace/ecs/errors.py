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


class SystemFailed(RuntimeError):
    """A system raised: which one, where in its own file, and when in the run, so a game's bug
    reads as one line instead of a traceback through the loops. The system's own exception is
    the ``__cause__`` (a debugger, or ``--debug``, shows its whole traceback)."""

    def __init__(
        self, system: str, phase: str, step: int, where: str | None, error: BaseException
    ) -> None:
        self.system, self.phase, self.step, self.where = system, phase, step, where
        self.error = error
        super().__init__(str(self))

    def __str__(self) -> str:
        at = f" ({self.where})" if self.where else ""
        when = (
            f"at fixed step {self.step}"
            if self.phase == "fixed"
            else f"in the {self.phase} phase after {self.step} fixed steps"
        )
        said = str(self.error)
        cause = type(self.error).__name__ + (f": {said}" if said else "")
        return f"system {self.system!r}{at} failed {when}: {cause}"
