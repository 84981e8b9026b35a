"""What counts as a number in the files users write, judged one way for every format.

Scenes (TOML), traces and telemetry (JSON) all hold numbers, and their parsers hand back more
than numbers under that name: both give ``true`` as a Python ``bool``, which is an ``int``;
both give integers of any length, which no float can hold (``float(10**400)`` overflows), and
TOML gives ``nan`` and ``inf``. A value here is a number only by its exact type (``int`` or
``float``) and only when it fits in a float; :class:`Number` then says which of those a field
accepts. Each format says in its own words what it expected (the messages are part of its
documentation), so this module judges and never describes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

_NUMBER_TYPES = (int, float)  # by exact type: a parser's true is an int, but not a number


@dataclass(frozen=True, slots=True)
class Number:
    """What a numeric field accepts: a finite number within optional bounds, perhaps whole."""

    low: float | None = None
    high: float | None = None
    exclusive: bool = False  # whether the bounds themselves are refused
    whole: bool = False
    unit: str = ""  # for messages: "metres", "degrees"

    def accepts(self, value: float) -> bool:
        if not math.isfinite(value) or (self.whole and value != int(value)):
            return False
        if self.exclusive:
            return (self.low is None or value > self.low) and (
                self.high is None or value < self.high
            )
        return (self.low is None or value >= self.low) and (self.high is None or value <= self.high)


def as_floats(value: object, counts: tuple[int, ...] | None) -> tuple[float, ...] | None:
    """`value` as floats when it is one number (`counts` None) or a list of as many numbers as
    one of `counts`; else None. NaN and infinity are floats here: a caller that tells a lost
    measurement from a mistake looks at them itself; :func:`parse_numbers` refuses them."""
    items = [value] if counts is None else value
    if not isinstance(items, list) or (counts is not None and len(items) not in counts):
        return None
    if not all(type(item) in _NUMBER_TYPES for item in items):
        return None
    try:
        return tuple(map(float, items))
    except OverflowError:  # an integer too big for a float
        return None


def parse_numbers(
    value: object, counts: tuple[int, ...] | None, number: Number
) -> tuple[float, ...] | None:
    """`value` as floats (see :func:`as_floats`), each accepted by `number`; else None."""
    parsed = as_floats(value, counts)
    if parsed is None or not all(map(number.accepts, parsed)):
        return None
    return parsed
