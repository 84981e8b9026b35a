"""The throw's old place: it is in :mod:`playspace.systems.interaction` now (the throw plugin
in ``throw.py``, :func:`release_velocity` in ``estimate.py``); importing from here still works,
with a deprecation warning, so a game written against the first release keeps running."""

import warnings

from playspace.systems.interaction import (
    AVERAGE_STEPS,
    DEFAULT_MAX_ANGULAR_SPEED,
    DEFAULT_MAX_SPEED,
    DEFAULT_WINDOW,
    GATE_MIN_SPEED,
    GATE_RATIO,
    GATE_STEPS,
    Estimator,
    ThrowHistory,
    ThrowPlugin,
    release_velocity,
)

warnings.warn(
    "playspace.systems.throw moved to playspace.systems.interaction (release_velocity, "
    "ThrowPlugin); or import them from playspace.prelude",
    DeprecationWarning,
    stacklevel=2,
)

__all__ = [
    "AVERAGE_STEPS",
    "DEFAULT_MAX_ANGULAR_SPEED",
    "DEFAULT_MAX_SPEED",
    "DEFAULT_WINDOW",
    "GATE_MIN_SPEED",
    "GATE_RATIO",
    "GATE_STEPS",
    "Estimator",
    "ThrowHistory",
    "ThrowPlugin",
    "release_velocity",
]
