"""How a player's hands are drawn: hands with fingers, posed from the controls or the tracked
joints, closing on what they hold, in place of (or beside) the controllers.

A hand's pose is its 26 joints in OpenXR's order (``XR_EXT_hand_tracking``: palm, wrist, then
each finger from its base to its tip), each a pose in the hand entity's frame with a radius.
On a controller it is made from how far each finger is curled (:class:`FingerCurls`: the
trigger curls the index, the grip the other three, a thumb on a button or the stick lies
down), as Godot XR Tools' hand poses blend and XRI's hand visualizer shows; on a tracked bare
hand the joints are the runtime's. A held object may say how the fingers close on it
(:class:`HoldPose`, Hurricane VR's hand poser), eased in on grab.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from playspace.spatial import Pose


@dataclass(frozen=True, slots=True)
class FingerCurls:
    """How far each finger is curled, 0 straight to 1 closed."""

    thumb: float = 0.0
    index: float = 0.0
    middle: float = 0.0
    ring: float = 0.0
    little: float = 0.0

    def __post_init__(self) -> None:
        for name in ("thumb", "index", "middle", "ring", "little"):
            value = getattr(self, name)
            if not (isinstance(value, int | float) and math.isfinite(value) and 0 <= value <= 1):
                raise ValueError(f"finger curl {name} must be a number in [0, 1], got {value!r}")


OPEN = FingerCurls()
FIST = FingerCurls(1.0, 1.0, 1.0, 1.0, 1.0)
POINT = FingerCurls(0.8, 0.0, 1.0, 1.0, 1.0)
PINCH = FingerCurls(0.55, 0.6, 0.25, 0.25, 0.25)


@dataclass(frozen=True, slots=True)
class HoldPose:
    """On a grabbable: how the fingers of a hand holding it close (the pistol's grip, the
    mug's handle), reached `ease` seconds after the grab."""

    curls: FingerCurls
    ease: float = 0.1


@dataclass(slots=True)
class HandPose:
    """On a hand, written each frame in LATE: its 26 joints (poses in the hand's frame, and
    radii in metres), and the curls they were made from (None: a tracked hand's own joints)."""

    joints: tuple[Pose, ...] = ()
    radii: tuple[float, ...] = ()
    curls: FingerCurls | None = None


@dataclass(slots=True)
class HandDisplay:
    """What is drawn at a player's hands, a resource: `hands` with fingers, `controllers` the
    bound interaction profile's models (either, both or none)."""

    hands: bool = True
    controllers: bool = False


@dataclass(slots=True)
class HandSkeleton:
    """The bones the hands are made of (metres), a resource: each finger's knuckle in the
    right wrist's frame (x toward the little finger, y the back of the hand, -z toward the
    fingers) and its bones' lengths from the knuckle to the tip; the thumb's base and bones
    (metacarpal to tip). The left hand is its mirror. The default is a mid-sized adult hand."""

    knuckles: tuple[tuple[float, float, float], ...] = (
        (-0.030, 0.0, -0.085),
        (-0.010, 0.0, -0.090),
        (0.010, 0.0, -0.085),
        (0.028, -0.003, -0.076),
    )
    bones: tuple[tuple[float, float, float], ...] = (
        (0.040, 0.025, 0.022),
        (0.045, 0.028, 0.023),
        (0.042, 0.027, 0.022),
        (0.033, 0.020, 0.020),
    )
    thumb_base: tuple[float, float, float] = (-0.022, -0.008, -0.020)
    thumb_bones: tuple[float, float, float, float] = (0.040, 0.032, 0.025, 0.022)
