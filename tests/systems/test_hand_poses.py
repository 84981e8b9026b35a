"""Hands posed from what they do: a controller's controls, and an object held the way it says
(eased in over its time), before anything is drawn."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from playspace.app import build_world
from playspace.components.hands import FIST, FingerCurls, HandPose, HoldPose
from playspace.components.input import Button, DevicePose, HandInput, InputFrame
from playspace.components.tracking import HandControls
from playspace.formats.scene import load_scene
from playspace.prelude import ScriptedSource, local_rig, standing_frame
from playspace.spatial import Pose, identity, vec3
from playspace.systems.animation.hands import RELAXED, THUMB_DOWN, from_controls

MUG = FingerCurls(0.7, 0.9, 0.9, 0.8, 0.6)


def test_controls_curl_the_fingers_they_belong_to() -> None:
    assert from_controls(HandControls()) == FingerCurls(RELAXED, RELAXED, RELAXED, RELAXED, RELAXED)
    pulled = from_controls(HandControls(trigger=1.0))
    assert pulled.index == 1.0 and pulled.middle == RELAXED
    gripped = from_controls(HandControls(grip=1.0))
    assert (gripped.middle, gripped.ring, gripped.little, gripped.index) == (1, 1, 1, RELAXED)
    assert from_controls(HandControls(buttons=frozenset({Button.A}))).thumb == THUMB_DOWN
    assert from_controls(HandControls(stick=(0.0, 0.5))).thumb == THUMB_DOWN


def test_a_held_object_s_pose_is_eased_in_on_grab(tmp_path: Path) -> None:
    """Gripping a mug that says how it is held, the fingers go from the grip's fist to the
    mug's pose over its ease (0.2 s), not at once."""
    scene = tmp_path / "mug.toml"
    scene.write_text(
        '[[box]]\nname = "floor"\nsize = [4, 0.2, 4]\nposition = [0, -0.1, 0]\n'
        '[[prop]]\nname = "mug"\nshape = "sphere"\nradius = 0.05\nposition = [0, 1.2, -0.4]\n'
        'grabbable = true\nkind = "kinematic"\n'
    )
    at = DevicePose(Pose(vec3(0.0, 1.2, -0.4), identity()))

    def frame(t: float) -> InputFrame:  # an open hand at the mug, gripping from 0.2 s
        return replace(standing_frame(), right=HandInput(at, grip=1.0 if t >= 0.2 else 0.0))

    world, spawned = build_world(load_scene(scene), ScriptedSource(frame))
    world.add(spawned["mug"], HoldPose(MUG, ease=0.2))
    rig = local_rig(world)
    assert rig is not None
    for _ in range(round(0.25 * 90)):  # open, then the grab
        world.advance(1 / 90)
    curls = world.get(rig.right_hand, HandPose).curls
    assert curls is not None and curls.index < 0.5  # on its way from the open hand
    for _ in range(27):  # 0.3 s of frames
        world.advance(1 / 90)
    curls = world.get(rig.right_hand, HandPose).curls
    assert curls is not None
    assert (curls.thumb, curls.index, curls.ring, curls.little) == pytest.approx(
        (0.7, 0.9, 0.8, 0.6)
    )
    assert len(world.get(rig.right_hand, HandPose).joints) == 26
    assert world.get(rig.left_hand, HandPose).curls != FIST  # the other hand is its own
