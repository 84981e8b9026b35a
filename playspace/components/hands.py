"""How a player's hands are drawn: hands with fingers, posed from the controls or the tracked
joints, closing on what they hold, in place of (or beside) the controllers.

A hand's pose is its 26 joints in OpenXR's order (``XR_EXT_hand_tracking``: palm, wrist, then
each finger from its base to its tip), each a pose in the hand entity's frame (a 4 x 4 matrix:
numpy over all 26 at once) with a radius. The hand is drawn as a rigged model whose skin has a
bone on each of those joints (:class:`HandModel`), bent on the GPU.
On a controller it is made from how far each finger is curled (:class:`FingerCurls`: the
trigger curls the index, the grip the other three, a thumb on a button or the stick lies
down), as Godot XR Tools' hand poses blend and XRI's hand visualizer shows; on a tracked bare
hand the joints are the runtime's. A held object may say how the fingers close on it
(:class:`HoldPose`, Hurricane VR's hand poser), eased in on grab.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from playspace.components.appearance import Appearance
from playspace.components.visual import Visual
from playspace.spatial import FloatArray

JOINTS = 26  # XR_HAND_JOINT_COUNT_EXT


@dataclass(frozen=True, slots=True)
class FingerCurls:
    """How far each finger is curled, 0 straight to 1 closed."""

    thumb: float = 0.0
    index: float = 0.0
    middle: float = 0.0
    ring: float = 0.0
    little: float = 0.0

    def __post_init__(self) -> None:
        values = (self.thumb, self.index, self.middle, self.ring, self.little)
        if all(isinstance(value, int | float) and 0.0 <= value <= 1.0 for value in values):
            return  # made every frame a hand moves: the check is the quick one (NaN fails it)
        for name, value in zip(("thumb", "index", "middle", "ring", "little"), values, strict=True):
            if not (isinstance(value, int | float) and 0 <= value <= 1):
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
    """On a hand, written each frame in LATE: its 26 `joints` ((26, 4, 4) matrices placing each
    joint in the hand's frame; none while its tracking is lost), their `radii` in metres, and
    the curls they were made from (None: a tracked hand's own joints). Read only: a new pose
    is a new array."""

    joints: FloatArray = field(default_factory=lambda: np.zeros((0, 4, 4)))
    radii: FloatArray = field(default_factory=lambda: np.zeros(0))
    curls: FingerCurls | None = None


@dataclass(slots=True)
class HandDisplay:
    """What is drawn at a player's hands, a resource: `hands` with fingers, `controllers` the
    bound interaction profile's models (either, both or none)."""

    hands: bool = True
    controllers: bool = False


@dataclass(frozen=True, slots=True, eq=False)
class HandModel:
    """What a hand is drawn as, a resource: for each side, a Visual of skinned surfaces whose
    skin has the 26 hand joints in OpenXR's order, and the inverse of each joint's place at bind
    ((26, 4, 4), in the hand's frame). `look` None draws the model's own material; a look
    (a glove's, a team's) replaces it. ``playspace.systems.animation.hands.hand_model`` reads
    one from a glTF file; the default is the project's own, made by ``assets/hands.py``."""

    left: Visual
    right: Visual
    left_binds: FloatArray
    right_binds: FloatArray
    look: Appearance | None = None

    def __post_init__(self) -> None:
        for name in ("left_binds", "right_binds"):
            if getattr(self, name).shape != (JOINTS, 4, 4):
                raise ValueError(f"hand model {name} must be ({JOINTS}, 4, 4) matrices")


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
