"""A cheap look, every step, for what a game edited in place on the components of its bodies.

Before each step the physics must notice a ``RigidBody`` whose kind was set, a ``Colliders``
whose parts were appended to or replaced, and a ``Collider`` put on another layer or told to
report contacts, with no change flag to go by: components are plain dataclasses, and editing
them is how anything changes a body. Looking body by body in Python cost ~1 µs a body a step,
the largest share of the step around Rapier's; gathered into flat lists, the same look is a few
passes in C (``map`` with ``attrgetter``, list equality), a tenth of that. Only a difference
sends the step body by body.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from operator import attrgetter
from typing import TYPE_CHECKING

from playspace.components.physics import BodyKind, Collider, Colliders, RigidBody

if TYPE_CHECKING:
    from playspace.systems.physics.engine import Body

_KIND = attrgetter("kind")
_PARTS = attrgetter("parts")
_LAYER = attrgetter("layer")
_REPORTS = attrgetter("report_contacts")


@dataclass(slots=True)
class EditWatch:
    """What the bodies were built from, as flat lists; ``stale`` once the engine changed them.

    Colliders compare by identity, so list equality here says "the same objects": a part
    replaced by an equal Collider is still seen, rebuilt, and watched from then on.
    """

    stale: bool = True
    components: list[RigidBody] = field(default_factory=list)
    kinds: list[BodyKind] = field(default_factory=list)
    colliders: list[Colliders] = field(default_factory=list)
    parts: list[list[Collider]] = field(default_factory=list)
    flat: list[Collider] = field(default_factory=list)
    layers: list[str] = field(default_factory=list)
    reports: list[bool] = field(default_factory=list)

    def watch(self, bodies: Iterable[Body]) -> None:
        """Remember the bodies as they are built now."""
        built = list(bodies)
        with_component = [b for b in built if b.component is not None]
        with_colliders = [b for b in built if b.colliders is not None]
        self.components = [b.component for b in with_component]  # type: ignore[misc]
        self.kinds = [b.kind for b in with_component]
        self.colliders = [b.colliders for b in with_colliders]  # type: ignore[misc]
        self.parts = [[part.collider for part in b.parts] for b in with_colliders]
        self.flat = [collider for parts in self.parts for collider in parts]
        self.layers = [part.layer for b in with_colliders for part in b.parts]
        self.reports = [part.reports for b in with_colliders for part in b.parts]
        self.stale = False

    def unchanged(self) -> bool:
        """True when no watched component was edited since :meth:`watch`."""
        return (
            not self.stale
            and list(map(_KIND, self.components)) == self.kinds
            and list(map(_PARTS, self.colliders)) == self.parts
            and list(map(_LAYER, self.flat)) == self.layers
            and list(map(_REPORTS, self.flat)) == self.reports
        )
