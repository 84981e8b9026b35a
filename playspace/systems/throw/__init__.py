"""Throwing: the velocity a released object leaves the hand with.

:func:`release_velocity` is a plain function of timestamped controller poses (no world, no
components), so it can be used and tested on its own; ``estimate.py`` explains the technique
and ``python benchmarks/throw_accuracy.py`` measures it against the source's 5-step average
and against a least-squares oracle that knows each motion's model, the floor for any estimator.
:class:`ThrowPlugin` (:mod:`playspace.systems.throw.plugin`) calls it in the fixed step: it
keeps the hands' history and, when the grab system has let an object go (``LetGo``), sets the
velocity it leaves with and says so (``Released``). Taking and giving back are the grab
system's; the throw only computes.
"""

from playspace.systems.throw.estimate import (
    AVERAGE_STEPS,
    DEFAULT_MAX_ANGULAR_SPEED,
    DEFAULT_MAX_SPEED,
    DEFAULT_WINDOW,
    GATE_MIN_SPEED,
    GATE_RATIO,
    GATE_STEPS,
    Estimator,
    release_velocity,
)
from playspace.systems.throw.plugin import ThrowHistory, ThrowPlugin

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
