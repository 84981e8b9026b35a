"""Named collision layers and the matrix of which pairs collide.

Like Unity's layer collision matrix: every collider is on one named layer, and a symmetric
matrix says which pairs of layers collide. The physics system turns a layer into Rapier's
interaction groups: membership is the layer's own bit, filter the bits of every layer it
collides with; Rapier's AND test (both sides must accept) then agrees with the matrix.

    >>> layers = Layers()
    >>> layers.add("bees")
    9
    >>> layers.set_collides("bees", "environment", False)
    >>> layers.collides("bees", "environment"), layers.collides("bees", "props")
    (False, True)

Defaults: every pair collides, except what the held-object layers need (BeeBeeQ's technique):
``held`` (a held object) passes through the environment and never pushes the player's body;
``ghost`` (a held object inside the environment) also passes through opponents; ``dropped``
(an object just let go of) ignores the body until they no longer overlap; ``probe`` (the sensor
twins that watch for the environment) sees the environment only. The hands never push the body.
"""

from __future__ import annotations

from collections.abc import Iterable

from playspace.components.physics import DEFAULT_LAYERS, MAX_LAYERS

_PROBE_APART = tuple(("probe", n) for n in DEFAULT_LAYERS if n != "environment")
DEFAULT_APART = (
    ("held", "environment"),
    ("held", "player"),
    ("hands", "player"),
    ("ghost", "environment"),
    ("ghost", "player"),
    ("ghost", "opponents"),
    ("dropped", "player"),
    *_PROBE_APART,
)


class Layers:
    """The layer names of a world and which pairs collide; a resource.

    `version` grows with every change, so the physics system re-applies groups only then.
    """

    def __init__(
        self,
        names: Iterable[str] = DEFAULT_LAYERS,
        apart: Iterable[tuple[str, str]] = DEFAULT_APART,
    ) -> None:
        self._index: dict[str, int] = {}
        self._filters: list[int] = []
        self.version = 0
        for name in names:
            self.add(name)
        for a, b in apart:
            self.set_collides(a, b, False)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self._index)

    def __contains__(self, name: object) -> bool:
        return name in self._index

    def add(self, name: str) -> int:
        """Add a layer that collides with every layer; return its index (again: the same)."""
        if name in self._index:
            return self._index[name]
        if not isinstance(name, str) or not name:
            raise ValueError(f"a layer name must be a non-empty string, got {name!r}")
        if len(self._index) == MAX_LAYERS:
            raise ValueError(f"cannot add layer {name!r}: Rapier has {MAX_LAYERS} layers at most")
        index = len(self._index)
        self._index[name] = index
        self._filters = [f | (1 << index) for f in self._filters]
        self._filters.append((1 << (index + 1)) - 1)
        self.version += 1
        return index

    def index(self, name: str) -> int:
        try:
            return self._index[name]
        except KeyError:
            known = ", ".join(self._index)
            raise ValueError(
                f"unknown layer {name!r}; known layers: {known} (add it with Layers.add)"
            ) from None

    def set_collides(self, a: str, b: str, collides: bool) -> None:
        """Make layers `a` and `b` collide or pass through each other (both ways)."""
        i, j = self.index(a), self.index(b)
        for first, second in ((i, j), (j, i)):
            if collides:
                self._filters[first] |= 1 << second
            else:
                self._filters[first] &= ~(1 << second)
        self.version += 1

    def collides(self, a: str, b: str) -> bool:
        return bool(self._filters[self.index(a)] & (1 << self.index(b)))

    def membership(self, name: str) -> int:
        """The bit of layer `name`."""
        return 1 << self.index(name)

    def filter(self, name: str) -> int:
        """The bits of every layer that `name` collides with."""
        return self._filters[self.index(name)]

    def mask(self, names: Iterable[str]) -> int:
        """The bits of several layers: what a query should hit."""
        bits = 0
        for name in names:
            bits |= self.membership(name)
        return bits
