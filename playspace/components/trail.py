"""A trail: the recent world positions of an entity, drawn as a line of dots behind it.

A game puts a :class:`Trail` on what it wants followed (a thrown ball, a dart) and the trail
system (:class:`~playspace.systems.interaction.trails.TrailPlugin`) adds the entity's
position at the end of every fixed step, after physics has written back, keeping the newest
`length`. What is recorded is the simulation's own path, the same at any display rate and in
a replay, so a picture shows where the thing really went. A trail is for the eye only: physics
and telemetry never read it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from playspace.components.appearance import Appearance
from playspace.spatial import Vec3

TRAIL_LENGTH = 90  # fixed steps kept: a second at 90 Hz, a throw's whole flight
TRAIL_DOT = 0.02  # metres: the radius of each dot
TRAIL_LOOK = Appearance(color=(1.0, 1.0, 1.0, 1.0), roughness=0.9, emissive=(0.5, 0.5, 0.5))


@dataclass(slots=True)
class Trail:
    """The newest `length` positions of the entity, oldest first (filled by the trail system).

    `dot` is the radius of the dots drawn at each position, in metres; `look` their material
    (a bright, faintly glowing white unless given, so a trail reads against sky and floor).
    """

    length: int = TRAIL_LENGTH
    dot: float = TRAIL_DOT
    look: Appearance = TRAIL_LOOK
    points: list[Vec3] = field(default_factory=list)
