"""What a test expects of a world one of whose systems raised."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from playspace.ecs import SystemFailed


@contextmanager
def raised_in_a_system(kind: type[BaseException], match: str) -> Iterator[None]:
    """Expect a step of the world to fail in a system, for a `kind` whose message `match`es
    (the world wraps it in :class:`SystemFailed`, naming the system)."""
    with pytest.raises(SystemFailed) as failed:
        yield
    cause = failed.value.__cause__
    assert isinstance(cause, kind), failed.value
    assert re.search(match, str(cause)), str(cause)
