"""Hands and what they hold, as plain data (the grab, layers and throw systems act on it)."""

from __future__ import annotations

from dataclasses import dataclass, field

from playspace import spatial
from playspace.components.tracking import DeviceRole
from playspace.spatial import Pose, Vec3


@dataclass(slots=True)
class Hand:
    """A hand that grabs: its grip state and what it holds.

    `offset` is the held object's pose in the hand's frame at the moment of the grab, kept so
    the object does not jump into the palm. `second` is True when this hand holds an object's
    second grab point (the object is aimed from the first hand toward this one).
    """

    side: DeviceRole
    gripping: bool = False
    holding: int | None = None
    offset: Pose | None = None
    second: bool = False


@dataclass(slots=True)
class GrabSettings:
    """Grab and throw settings, a resource (Godot XR Tools' and XRI's numbers where they agree).

    `com_offset` is where the controller's centre of mass is in the grip pose's frame: it
    depends on the controller (OpenXR's interaction profile chooses it) and is where the throw
    measures v and w, so that v + w x r uses one tracked point throughout.
    """

    reach: float = 0.08  # radius of the grab sensor at the grip point, metres
    grip_on: float = 0.7
    grip_off: float = 0.3
    com_offset: Vec3 = field(default_factory=lambda: spatial.vec3(0.0, -0.01, 0.03))
    history: int = 12  # fixed steps of controller poses kept for the throw
