"""What is drawn this frame, for every display to read: where each moving entity is shown, and
how the features look.

The LATE phase writes it once a frame. Late placement (:mod:`playspace.systems.drawn`) puts
bodies between their last two fixed-step poses, and every player's head, hands and what they
hold where tracking puts them at the display time (:class:`DrawnPoses`). Then the features say
how they look, each through this data, never by teaching the renderer about themselves: the
player's view to draw from, its fade and its vignette (:class:`DrawnView`), what a hand would
grab (:class:`Highlights`), what is seen through walls (:class:`Ghosts`), a teleport's arc and
target and a socket's zone (:class:`Markers`), and what a figure with no collider is drawn as
(:class:`Figure`: a head, a controller, another player's shapes). The renderer, the preview's
camera and captures read only this and the scene's drawable components, so a headset, a window
and a capture all show the world at one instant, and a new feature never edits the renderer.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

import numpy as np

from playspace.components.physics import Shape
from playspace.spatial import FloatArray, Pose, quat_from_xyzw, vec3_from


@dataclass(slots=True)
class DrawnPoses:
    """Where moving entities are drawn this frame; a resource.

    `rows` maps an entity to its row of `positions` ((N, 3), metres, world space) and
    `rotations` ((N, 4) ``xyzw``, unit length). `version` changes whenever `rows` does, so a
    reader can keep an index of its own between frames. An entity without a row is drawn at
    its ``Transform``: scenery, and anything that does not move between fixed steps.
    """

    rows: dict[int, int] = field(default_factory=dict)
    positions: FloatArray = field(default_factory=lambda: np.zeros((0, 3)))
    rotations: FloatArray = field(default_factory=lambda: np.zeros((0, 4)))
    version: int = 0

    def pose(self, entity: int) -> Pose | None:
        """The entity's drawn pose, or None when it has no row."""
        row = self.rows.get(entity)
        if row is None:
            return None
        return Pose(vec3_from(self.positions[row]), quat_from_xyzw(self.rotations[row]))


@dataclass(slots=True)
class DrawnView:
    """The view of the player this process shows, a resource written in LATE: where their head
    is drawn (None in a world without such a player: the world's origin is looked from), how
    dark the view is (`fade`, 0 clear to 1 black), whether a provider carries them continuously
    (`carried`: the comfort vignette's cue) and, while the view is dark because they walked
    into something, how far their head is from their body (`walled_in`, metres; else None)."""

    head: Pose | None = None
    fade: float = 0.0
    carried: bool = False
    walled_in: float | None = None


@dataclass(slots=True)
class Highlights:
    """Entities drawn highlighted this frame: again, a little larger, in the hover color (what
    a free hand would take if it gripped now); a resource written in LATE."""

    entities: set[int] = field(default_factory=set)


@dataclass(slots=True)
class Ghosts:
    """What is drawn see-through this frame, a resource written in LATE: `entities` drawn as
    ghosts instead of solid where they are (a held object inside a wall), and `copies`,
    entities drawn once more, as ghosts, at another pose (a physics hand stopped by the table,
    at its controller's pose)."""

    entities: set[int] = field(default_factory=set)
    copies: dict[int, Pose] = field(default_factory=dict)


class Tint(Enum):
    """The color a marker is drawn in, from the renderer's palette: where something would go
    (`HOVER`, as a highlight), an aim the player can follow (`VALID`) or one refused
    (`REFUSED`)."""

    HOVER = "hover"
    VALID = "valid"
    REFUSED = "refused"


@dataclass(frozen=True, slots=True)
class Marker:
    """One thing a feature shows: `shape` at each of `poses` (world space), in `tint`, solid or
    `see_through` (drawn with the ghost passes, so what lies inside it shows), with `label`
    written above its first pose (why an aim is refused)."""

    shape: Shape
    poses: tuple[Pose, ...]
    tint: Tint
    see_through: bool = False
    label: str | None = None


@dataclass(slots=True)
class Markers:
    """What a feature shows this frame on the entity that carries it (a teleport's arc and
    target on the player's origin, a socket's zone on the socket); rewritten in LATE, empty
    while nothing is shown."""

    shown: list[Marker] = field(default_factory=list)


class Model(Enum):
    """What the renderer makes for a figure itself: a head-sized block at the eyes (`HEAD`), a
    controller in a hand (`LEFT_CONTROLLER`, `RIGHT_CONTROLLER`: the bound interaction
    profile's model, a generic one without)."""

    HEAD = "head"
    LEFT_CONTROLLER = "left_controller"
    RIGHT_CONTROLLER = "right_controller"


@dataclass(slots=True)
class Figure:
    """How an entity with no collider is drawn: as one of the renderer's models, or as a shape
    placed at `offset` in its frame (another player's head, hands and body, drawn as opponents
    are). `shown` False hides it (a controller whose tracking is lost, as XRI and Godot hide
    one); written in LATE."""

    look: Model | Shape
    offset: Pose = field(default_factory=Pose.identity)
    shown: bool = True
