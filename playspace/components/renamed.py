"""Old names of renamed dataclass fields, kept working for one release.

A game written against the old name (``Thing(old=...)``, ``thing.old = ...``) keeps running,
and each use says, as a DeprecationWarning pointing at the game's own line, which name to
write instead. The class keeps only the new field, so equality, ``repr`` and
``dataclasses.replace`` know one name.
"""

from __future__ import annotations

import functools
import warnings
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


def _warn(cls: type, old: str, new: str) -> None:
    warnings.warn(
        f"{cls.__name__}.{old} is renamed {new}; the old name goes in the next release",
        DeprecationWarning,
        stacklevel=3,
    )


def _old_name(cls: type, old: str, new: str) -> property:
    def get(self: object) -> Any:
        _warn(cls, old, new)
        return getattr(self, new)

    def put(self: object, value: Any) -> None:
        _warn(cls, old, new)
        setattr(self, new, value)

    return property(get, put, doc=f"Deprecated: {new}.")


def renamed_fields(**renames: str) -> Callable[[type[T]], type[T]]:
    """Decorate a dataclass so each old field name (a keyword) still works as the new one it
    maps to, as a keyword argument and as an attribute, with a DeprecationWarning."""

    def decorate(cls: type[T]) -> type[T]:
        init = cls.__init__

        @functools.wraps(init)
        def __init__(self: T, *args: Any, **kwargs: Any) -> None:
            for old, new in renames.items():
                if old in kwargs:
                    if new in kwargs:
                        raise TypeError(f"{cls.__name__}() got both {old!r} and {new!r}")
                    _warn(cls, old, new)
                    kwargs[new] = kwargs.pop(old)
            init(self, *args, **kwargs)

        setattr(cls, "__init__", __init__)  # noqa: B010 (mypy refuses assigning a method)
        for old, new in renames.items():
            setattr(cls, old, _old_name(cls, old, new))
        return cls

    return decorate
