"""Hands with fingers, pixel by pixel: a controller's trigger closes the index finger (its tip's
pixels change, the little finger's do not), and a tracked fist closes every finger."""

from __future__ import annotations

import math
from dataclasses import replace
from typing import TYPE_CHECKING

import numpy as np
import pytest

from playspace import spatial
from playspace.app import build_world
from playspace.components.appearance import Appearance
from playspace.components.hands import FIST, OPEN, FingerCurls, HandModel, HandSkeleton
from playspace.components.input import DevicePose, HandInput, HandJoints
from playspace.components.tracking import HandControls
from playspace.formats.scene import load_scene
from playspace.prelude import ScriptedSource, standing_frame
from playspace.render import (
    View,
    perspective,
)
from playspace.spatial import Pose, matrix_pose
from playspace.systems.animation.hands import from_controls, skeleton
from tests.picture_helpers import drawn_dark

if TYPE_CHECKING:
    from pathlib import Path

    from moderngl import Context

SIZE = (160, 120)
HAND = Pose(spatial.vec3(0.0, 1.2, -0.4), spatial.identity())  # the right grip, in the room
EYE = Pose(spatial.vec3(0.35, 1.25, -0.3), spatial.look_rotation(spatial.vec3(-0.35, -0.05, -0.1)))
RED = Appearance((1.0, 0.0, 0.0, 1.0), emissive=(1.0, 0.0, 0.0))


def _view() -> View:
    return View(EYE, perspective(math.radians(60), SIZE[0] / SIZE[1]))


def _pixel(point: spatial.Vec3) -> tuple[int, int]:
    clip = _view().view_projection() @ np.array([point.x, point.y, point.z, 1.0])
    x, y = clip[:2] / clip[3]
    return round((1 - (y + 1) / 2) * SIZE[1] - 0.5), round((x + 1) / 2 * SIZE[0] - 0.5)


def _scene(tmp_path: Path) -> Path:
    path = tmp_path / "empty.toml"
    path.write_text('[[box]]\nname = "floor"\nsize = [4, 0.2, 4]\nposition = [0, -2, 0]\n')
    return path


def _drawn(gl: Context, tmp_path: Path, right: HandInput) -> np.ndarray:
    frame = replace(standing_frame(), right=right)
    world, _ = build_world(load_scene(_scene(tmp_path)), ScriptedSource(lambda t: frame))
    world.insert_resource(replace(world.resource(HandModel), look=RED))  # a glove, glowing
    world.advance(0.5)
    return drawn_dark(gl, world, _view(), SIZE)


def _red(image: np.ndarray, point: spatial.Vec3) -> bool:
    """Whether the hand covers the pixels about `point` (any of the 3 x 3 around it)."""
    row, column = _pixel(point)
    patch = image[row - 1 : row + 2, column - 1 : column + 2]
    return bool(((patch[..., 0] > 0.8) & (patch[..., 2] < 0.2)).any())


def _tip(curls: FingerCurls, joint: int) -> spatial.Vec3:
    """Where a joint of the right hand curled so is, in the room (the grip at HAND)."""
    joints, _ = skeleton(curls, left=False, bones=HandSkeleton())
    return HAND.position + spatial.rotate(HAND.rotation, spatial.vec3_from(joints[joint][:3, 3]))


INDEX_TIP, LITTLE_TIP, MIDDLE_TIP = 10, 25, 15


def test_the_trigger_closes_the_index_finger_and_nothing_else(gl: Context, tmp_path: Path) -> None:
    open_hand = HandInput(DevicePose(HAND))
    pulled = HandInput(DevicePose(HAND), trigger=1.0)
    relaxed = from_controls(HandControls())
    before, after = _drawn(gl, tmp_path, open_hand), _drawn(gl, tmp_path, pulled)
    index, little = _tip(relaxed, INDEX_TIP), _tip(relaxed, LITTLE_TIP)
    assert _red(before, index) and not _red(after, index)  # the index tip left its place
    assert _red(before, little) and _red(after, little)  # the little finger stayed
    assert np.abs(before - after).max() > 0.5


def test_a_tracked_fist_closes_every_finger(gl: Context, tmp_path: Path) -> None:
    """A bare hand's joints drive the hand directly: open, every fingertip is drawn where the
    open skeleton has it; a fist, none is."""

    def tracked(curls: FingerCurls) -> HandInput:
        joints, radii = skeleton(curls, left=False, bones=HandSkeleton())
        placed = tuple(spatial.compose(HAND, matrix_pose(joint)) for joint in joints)
        return HandInput(DevicePose(HAND), joints=HandJoints(placed, tuple(radii)))

    opened, closed = _drawn(gl, tmp_path, tracked(OPEN)), _drawn(gl, tmp_path, tracked(FIST))
    for tip in (INDEX_TIP, MIDDLE_TIP, LITTLE_TIP):
        point = _tip(OPEN, tip)
        assert _red(opened, point) and not _red(closed, point), tip


def test_finger_curls_are_checked_where_they_are_made() -> None:
    with pytest.raises(ValueError, match="finger curl index must be a number in \\[0, 1\\], got 2"):
        FingerCurls(index=2)
