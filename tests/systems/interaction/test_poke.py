"""Poke: a tracked bare hand presses a button with its index finger's tip, not its palm."""

from __future__ import annotations

import math

import pytest

from playspace import spatial
from playspace.components.input import HandInput, HandJoints, InputFrame
from playspace.components.interactables import PushButton
from playspace.spatial import Pose
from playspace.systems.interaction import ButtonPressed, InteractablesPlugin
from tests.grab_helpers import grab_world
from tests.hand_helpers import hand
from tests.interactable_helpers import HAND, button
from tests.rig_helpers import head_at, heard

FACE_Z = HAND[2] - 0.05  # the button's face (test_interactables.button), facing +Z
POINTING = (1.0, 0.0, 1.0, 1.0, 1.0)  # every finger curled but the index


def turned(joints: HandJoints, rotation: spatial.Quat, about: spatial.Vec3) -> HandJoints:
    """`joints` turned by `rotation` about the point `about`."""
    poses = tuple(
        Pose(about + spatial.rotate(rotation, p.position - about), rotation) for p in joints.poses
    )
    return HandJoints(poses, joints.radii)


def pointing(depth: float) -> HandJoints:
    """A pointing right hand, fingers forward (-Z), its index tip `depth` past the face; the
    palm (the grip point) 12 cm back, nowhere near the button."""
    at = (HAND[0] + 0.02, HAND[1], FACE_Z + 0.12 - depth)
    return hand(at, POINTING)


def palm_on(depth: float) -> HandJoints:
    """An open right hand pressed flat against the button, fingers up: its palm (the grip
    point) `depth` past the face, its index tip 12 cm above the button."""
    at = spatial.vec3(HAND[0], HAND[1], FACE_Z - depth)
    return turned(
        hand((at.x, at.y, at.z)), spatial.from_axis_angle(spatial.vec3(1, 0, 0), math.pi / 2), at
    )


@pytest.mark.parametrize(
    ("make", "presses"), [(pointing, True), (palm_on, False)], ids=["index tip", "palm"]
)
def test_the_index_tip_presses_a_button_and_a_palm_does_not(make, presses: bool) -> None:  # type: ignore[no-untyped-def]
    """Pushed 3 cm in over 0.4 s: a pointing finger presses the button; a palm laid on it,
    whose grip point goes as deep, does not (a controller's grip point would)."""

    def script(t: float) -> InputFrame:
        depth = -0.05 + 0.08 * min(t / 0.4, 1.0)  # from 5 cm out to 3 cm in
        return head_at(0.0, 1.7, 0.0, right=HandInput(joints=make(depth)))

    made: list[int] = []
    run = grab_world(script, lambda w: made.append(button(w)))
    run.world.add_plugin(InteractablesPlugin())
    events = heard(run.world, ButtonPressed)
    run.world.step(60)
    assert run.world.get(made[0], PushButton).pressed is presses
    assert len(events) == int(presses)
