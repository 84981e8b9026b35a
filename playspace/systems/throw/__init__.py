"""Throwing: the velocity a released object leaves the hand with.

:func:`release_velocity` is a plain function of timestamped controller poses (no world, no
components), so it can be used and tested on its own; ``estimate.py`` explains the technique
and ``python benchmarks/throw_accuracy.py`` measures it against the source's 5-step average
and against a least-squares oracle that knows each motion's model, the floor for any estimator.
The fixed-step system that calls it on release is the grab package's
(:mod:`playspace.systems.grab.throw`): it keeps the hands' history and gives back what the
hold took, so it belongs with them; this package knows nothing of hands.
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

__all__ = [
    "AVERAGE_STEPS",
    "DEFAULT_MAX_ANGULAR_SPEED",
    "DEFAULT_MAX_SPEED",
    "DEFAULT_WINDOW",
    "GATE_MIN_SPEED",
    "GATE_RATIO",
    "GATE_STEPS",
    "Estimator",
    "release_velocity",
]
