"""The value checks components make when they are built, so a bad setting is refused where a
game writes it, with the field's name, rather than deep inside a system later."""

from __future__ import annotations

import math


def check_finite(value: float, what: str, minimum: float = -math.inf) -> None:
    """A real number (not a bool), finite and at least `minimum`; else a TypeError or
    ValueError naming `what`."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TypeError(f"{what} must be a number, got {value!r}")
    if not math.isfinite(value) or value < minimum:
        bound = "" if minimum == -math.inf else f" >= {minimum}"
        raise ValueError(f"{what} must be a finite number{bound}, got {value!r}")
