"""Reading one TOML table key by key, collecting every problem instead of stopping at one.

A :class:`Table` hands back a value for each key it is asked for, the given one or, when that
is missing or wrong, a placeholder, and writes a message for each problem. The caller reads a
whole table, then looks at :attr:`Table.bad` (the keys that had a problem) before building
anything from their values, so one pass over a file reports all its mistakes and nothing is
built from a placeholder.

Every numeric key goes through :func:`~playspace.formats.numbers.parse_numbers` with a
:class:`~playspace.formats.numbers.Number` saying what the key accepts, so all numbers are
judged as traces and telemetry judge theirs, and :func:`describe` says in messages what a key
expected.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from playspace.formats.numbers import Number, parse_numbers
from playspace.formats.quoting import clipped

_COUNT_WORDS = {1: "one", 2: "two", 3: "three", 4: "four"}


def describe(number: Number, counts: tuple[int, ...] | None) -> str:
    """What a key of `number`s expects, in a scene file's words: ``three numbers > 0
    (metres)``, ``a whole number >= 1 and <= 1000``."""
    amount = "a" if counts is None else " or ".join(_COUNT_WORDS[n] for n in counts)
    noun = ("whole number" if number.whole else "number") + ("" if counts is None else "s")
    low, high = (">", "<") if number.exclusive else (">=", "<=")
    bounds = [
        f"{sign} {bound:g}"
        for sign, bound in ((low, number.low), (high, number.high))
        if bound is not None
    ]
    text = f"{amount} {noun} {' and '.join(bounds)}" if bounds else f"{amount} finite {noun}"
    return f"{text} ({number.unit})" if number.unit else text


def _show(value: object) -> str:
    """A value as the scene file writes it (``[1, 0, 1]``, ``nan``, ``"box"``, ``true``), cut
    short and with control characters escaped (:func:`clipped`)."""
    return clipped(_written(value))


def _written(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, list):
        return "[" + ", ".join(map(_written, value)) + "]"
    if isinstance(value, dict):
        return "a table"
    return str(value)


class Table:
    """One table of a scene file being read; `where` names it in messages (``[[box]] 2``).

    An inline table under a key (a prop's ``joint = { ... }``) is read as a Table of its own
    with that key as `prefix`, so its messages name the key as the file spells it
    (``joint.axis``)."""

    def __init__(
        self, raw: dict[str, Any], where: str, file: str, errors: list[str], prefix: str = ""
    ) -> None:
        self.raw = raw
        self.where = where
        self.file = file
        self.errors = errors
        self.prefix = prefix
        self.known: list[str] = []
        self.bad: set[str] = set()  # keys with a problem: their values are placeholders

    def problem(self, key: str, message: str) -> None:
        shown = clipped(self.prefix + key)
        self.errors.append(f"{self.file}: {self.where}, key '{shown}': {message}")
        self.bad.add(key)

    def skip(self, *keys: str) -> None:
        """Accept `keys` unread: they depend on a key that was wrong, and would only add noise."""
        self.known.extend(keys)

    def _take(self, key: str, expected: str, required: bool) -> object:
        """The raw value of `key`, or None when absent (a problem if it was `required`)."""
        self.known.append(key)
        if key not in self.raw:
            if required:
                self.problem(key, f"missing, expected {expected}")
            return None
        return self.raw[key]

    def reject(self, key: str, expected: str) -> None:
        """Report the value of `key` as not what was `expected`."""
        self.problem(key, f"expected {expected}, got {_show(self.raw[key])}")

    def number(self, key: str, number: Number, default: float | None = None) -> float:
        """A number; required when `default` is None."""
        expected = describe(number, None)
        value = self._take(key, expected, default is None)
        if value is None:
            return 1.0 if default is None else default
        parsed = parse_numbers(value, None, number)
        if parsed is None:
            self.reject(key, expected)
            return 1.0
        return parsed[0]

    def vector(
        self,
        key: str,
        number: Number,
        default: tuple[float, ...] | None = None,
        counts: tuple[int, ...] = (3,),
    ) -> tuple[float, ...]:
        """A list of numbers, as long as one of `counts`; required when `default` is None."""
        expected = describe(number, counts)
        value = self._take(key, expected, default is None)
        if value is None:
            return (1.0,) * counts[-1] if default is None else default
        parsed = parse_numbers(value, counts, number)
        if parsed is None:
            self.reject(key, expected)
            return (1.0,) * counts[-1]
        return parsed

    def numbers(self, key: str, number: Number) -> tuple[float, ...]:
        """A required list of one number or more, as long as the file makes it."""
        expected = "a list of one or more numbers, each " + describe(number, None)
        value = self._take(key, expected, True)
        if value is None:
            return ()
        parsed = parse_numbers(value, (len(value),), number) if isinstance(value, list) else None
        if not parsed:
            self.reject(key, expected)
            return ()
        return parsed

    def string(self, key: str, default: str | None = None, choices: Iterable[str] = ()) -> str:
        """A non-empty string, one of `choices` when given; required when `default` is None."""
        options = tuple(choices)
        expected = "one of " + ", ".join(map(_show, options)) if options else "a non-empty string"
        value = self._take(key, expected, default is None)
        if value is None:
            return default or ""
        if not isinstance(value, str) or not value or (options and value not in options):
            self.reject(key, expected)
            return default or ""
        return value

    def strings(self, key: str) -> tuple[str, ...]:
        """An optional list of non-empty strings."""
        expected = "a list of non-empty strings"
        value = self._take(key, expected, False)
        if value is None:
            return ()
        if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
            self.reject(key, expected)
            return ()
        return tuple(value)

    def boolean(self, key: str, default: bool) -> bool:
        value = self._take(key, "true or false", False)
        if value is None:
            return default
        if not isinstance(value, bool):
            self.reject(key, "true or false")
            return default
        return value

    def finish(self) -> None:
        """Report the keys no reader asked for: typos such as ``sise`` for ``size``."""
        for key in self.raw:
            if key not in self.known:
                known = ", ".join(sorted(set(self.known)))
                self.errors.append(
                    f"{self.file}: {self.where}: unknown key '{clipped(self.prefix + key)}'; "
                    f"known keys: {known}"
                )
