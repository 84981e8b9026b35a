"""Skinned models: a glTF skin read with its joints, weights and inverse binds, spawned bent to
its joints, bent further by a clip in the fixed step (the same bend at the same step whatever
the frames), and drawn bent on the GPU (the pixels move where the joint moves them)."""

from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pytest

from playspace import spatial
from playspace.app.models import spawn_model
from playspace.components import Transform
from playspace.components.animation import Channel, Clip, Interpolation
from playspace.components.appearance import Appearance
from playspace.components.visual import SkinPose, Surface
from playspace.ecs import World
from playspace.formats.models import ModelError, read_model
from playspace.formats.models.write import ModelSpec, SkinSpec, write_glb
from playspace.render import View, perspective
from playspace.systems.animation import AnimationPlugin, play
from tests.model_helpers import glb_json, rewritten, surface
from tests.picture_helpers import drawn_dark

if TYPE_CHECKING:
    from moderngl import Context

RED = Appearance((1.0, 0.0, 0.0, 1.0), emissive=(1.0, 0.0, 0.0))
SIZE = (160, 120)
EYE = spatial.Pose(spatial.vec3(0.5, 0.25, 2.0), spatial.identity())


def _arm(tmp_path: Path) -> Path:
    """An arm 1 m long along +X: its upper half on the shoulder joint (at the origin), its
    lower half on the elbow (at x = 0.5), which the clip "bend" turns a quarter about Z over
    1 s; the mesh node sits elsewhere (a skin is drawn without its node's place)."""
    upper = surface("box", (0.5, 0.1, 0.1), (0.25, 0.0, 0.0))
    lower = surface("box", (0.5, 0.1, 0.1), (0.75, 0.0, 0.0))
    count = len(upper.positions)
    joints = np.zeros((2 * count, 4), np.uint16)
    joints[count:, 0] = 1
    weights = np.zeros((2 * count, 4), np.float32)
    weights[:, 0] = 1.0
    arm = Surface(
        np.vstack([upper.positions, lower.positions]),
        np.vstack([upper.normals, lower.normals]),
        np.vstack([upper.uvs, lower.uvs]),
        np.vstack([upper.triangles, lower.triangles + count]),
        joints,
        weights,
    )
    binds = np.array([np.eye(4), np.eye(4)])
    binds[1, 0, 3] = -0.5  # the elbow was bound at x = 0.5
    skin = SkinSpec(("Shoulder", "Elbow"), binds)
    nodes = [
        ModelSpec("Arm", arm, RED, translation=(5.0, 0.0, 0.0), skin=skin),
        ModelSpec("Shoulder", children=[ModelSpec("Elbow", translation=(0.5, 0.0, 0.0))]),
    ]
    quarter = [0.0, 0.0, math.sin(math.pi / 4), math.cos(math.pi / 4)]
    bend = Channel(
        2,
        "rotation",
        Interpolation.LINEAR,
        np.array([0.0, 1.0], np.float32),
        np.array([[0.0, 0.0, 0.0, 1.0], quarter], np.float32),
    )
    return write_glb(tmp_path / "arm.glb", nodes, [Clip("bend", (bend,))])


def _world(tmp_path: Path) -> tuple[World, int, int]:
    world = World(fixed_hz=90)
    world.add_plugin(AnimationPlugin())
    spawned = spawn_model(world, read_model(_arm(tmp_path)), name="arm")
    return world, spawned["arm"], spawned["arm/Arm"]


def _tip(world: World, arm: int) -> tuple[float, ...]:
    """Where the arm's tip (bound at x = 1) is drawn, in the world."""
    skin = world.get(arm, SkinPose).matrices[1]
    drawn = spatial.pose_matrix(world.get(arm, Transform).pose()) @ skin
    return tuple((drawn @ np.array([1.0, 0.0, 0.0, 1.0]))[:3])


def test_a_skin_is_read_with_its_joints_weights_and_inverse_binds(tmp_path: Path) -> None:
    model = read_model(_arm(tmp_path))
    arm = next(node for node in model.nodes if node.name == "Arm")
    assert arm.skin is not None and arm.skin.joints == (1, 2)
    assert arm.skin.inverse_binds[1, :3, 3].tolist() == pytest.approx([-0.5, 0.0, 0.0])
    bent = arm.parts[0].surface
    assert bent.joints is not None and bent.weights is not None
    assert sorted(set(bent.joints[:, 0].tolist())) == [0, 1]
    assert bent.weights.sum(axis=1) == pytest.approx(1.0)


def test_a_broken_skin_is_named(tmp_path: Path) -> None:
    document = glb_json(_arm(tmp_path))
    document["skins"][0]["joints"] = [1]  # a skin of one joint, with two binds
    with pytest.raises(ModelError, match=r"inverseBindMatrices: expected 1 matrices, one a joint"):
        read_model(rewritten(_arm(tmp_path), document))
    del document["skins"][0]["inverseBindMatrices"]  # ...and the mesh names joint 1 of it
    with pytest.raises(ModelError, match=r"nodes\[0\]\.skin: the mesh names joint 1, but skins"):
        read_model(rewritten(_arm(tmp_path), document))
    document = glb_json(_arm(tmp_path))
    del document["meshes"][0]["primitives"][0]["attributes"]["WEIGHTS_0"]
    with pytest.raises(ModelError, match="JOINTS_0 and WEIGHTS_0 go together"):
        read_model(rewritten(_arm(tmp_path), document))


def test_a_clip_bends_the_skin_where_its_joints_go(tmp_path: Path) -> None:
    world, root, arm = _world(tmp_path)
    assert _tip(world, arm) == pytest.approx((1.0, 0.0, 0.0), abs=1e-6)  # bound as modelled
    play(world, root, "bend", loop=False)
    world.step(90)  # the whole clip: the elbow a quarter turn up
    assert _tip(world, arm) == pytest.approx((0.5, 0.5, 0.0), abs=1e-5)


def test_a_clip_bends_the_same_at_the_same_step_whatever_the_frames(tmp_path: Path) -> None:
    seen = []
    for frames in ([1 / 90] * 60, [0.004, 0.031, 0.017, 0.0005, 0.025] * 12):
        world, root, arm = _world(tmp_path)
        play(world, root, "bend")
        for seconds in frames:
            world.advance(seconds)
        world.step(90 - world.fixed_time.step)  # both at step 90
        seen.append(world.get(arm, SkinPose).matrices.tobytes())
    assert seen[0] == seen[1]


def _drawn(gl: Context, world: World) -> np.ndarray:
    return drawn_dark(gl, world, _view(), SIZE)


def _view() -> View:
    return View(EYE, perspective(math.radians(60), SIZE[0] / SIZE[1]))


def _red(image: np.ndarray, point: tuple[float, float, float]) -> bool:
    clip = _view().view_projection() @ np.array([*point, 1.0])
    x, y = clip[:2] / clip[3]
    row, column = round((1 - (y + 1) / 2) * SIZE[1] - 0.5), round((x + 1) / 2 * SIZE[0] - 0.5)
    return bool((image[row, column, 0] > 0.8) & (image[row, column, 2] < 0.2))


@pytest.mark.gl
def test_the_gpu_draws_the_skin_bent(gl: Context, tmp_path: Path) -> None:
    """At rest the arm lies along +X; bent, its lower half stands up from the elbow: the pixels
    where the tip was turn to sky, and those above the elbow to the arm."""
    world, root, _ = _world(tmp_path)
    straight = _drawn(gl, world)
    play(world, root, "bend", loop=False)
    world.step(90)
    bent = _drawn(gl, world)
    assert _red(straight, (0.9, 0.0, 0.0)) and not _red(bent, (0.9, 0.0, 0.0))
    assert not _red(straight, (0.5, 0.4, 0.0)) and _red(bent, (0.5, 0.4, 0.0))
    assert _red(straight, (0.2, 0.0, 0.0)) and _red(bent, (0.2, 0.0, 0.0))  # the upper arm
