"""Animation clips played on a model's nodes: sampled as glTF interpolates them, advanced by
the fixed step (the same pose at the same step whatever the frames), cross-faded, marked."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from playspace import spatial
from playspace.app.models import spawn_model
from playspace.components import Transform
from playspace.components.animation import Animator, Channel, Clip, Interpolation
from playspace.ecs import Phase, World
from playspace.formats.models import read_model
from playspace.formats.models.write import ModelSpec, write_glb
from playspace.systems.animation import AnimationMarked, AnimationPlugin, animate, play, sample
from tests.model_helpers import surface


def _channel(
    path: str, mode: Interpolation, times: list[float], values: list[list[float]]
) -> Channel:
    return Channel(0, path, mode, np.array(times, np.float32), np.array(values, np.float32))


def _about_y(angle: float) -> list[float]:
    return [0.0, math.sin(angle / 2), 0.0, math.cos(angle / 2)]


def test_keyframes_are_sampled_as_gltf_interpolates_them() -> None:
    moves = [[0.0, 0.0, 0.0], [2.0, 0.0, 0.0], [2.0, 4.0, 0.0]]
    times = [0.0, 1.0, 3.0]
    step = _channel("translation", Interpolation.STEP, times, moves)
    line = _channel("translation", Interpolation.LINEAR, times, moves)
    assert sample(step, 0.99).tolist() == [0.0, 0.0, 0.0]  # the last keyframe's, until the next
    assert sample(line, 0.5).tolist() == pytest.approx([1.0, 0.0, 0.0])
    assert sample(line, 2.0).tolist() == pytest.approx([2.0, 2.0, 0.0])
    assert sample(line, -1.0).tolist() == [0.0, 0.0, 0.0] and sample(line, 9.0).tolist() == [
        2,
        4,
        0,
    ]
    turn = _channel("rotation", Interpolation.LINEAR, [0.0, 1.0], [_about_y(0.0), _about_y(2.0)])
    assert sample(turn, 0.5).tolist() == pytest.approx(_about_y(1.0), abs=1e-6)  # along the sphere
    # a cubic spline from 0 to 1 with no tangents is smoothstep: 0.5 at the middle, 0.15625 at 1/4
    flat = [[0.0, 0, 0], [0.0, 0, 0], [0.0, 0, 0], [0.0, 0, 0], [1.0, 0, 0], [0.0, 0, 0]]
    cubic = _channel("translation", Interpolation.CUBICSPLINE, [0.0, 1.0], flat)
    assert sample(cubic, 0.5)[0] == pytest.approx(0.5)
    assert sample(cubic, 0.25)[0] == pytest.approx(3 * 0.25**2 - 2 * 0.25**3)


def _door(tmp_path: Path) -> Path:
    """A door (node 0) with its handle (node 1) turning a quarter about Y over 2 s ("open"), and
    standing shut ("shut")."""
    door = ModelSpec(
        "Door",
        surface("box", (1.0, 2.0, 0.05), (0.5, 1.0, 0.0)),
        children=[
            ModelSpec("Handle", surface("box", (0.1, 0.1, 0.1)), translation=(0.9, 1.0, 0.1))
        ],
    )
    opening = _channel(
        "rotation", Interpolation.LINEAR, [0.0, 2.0], [_about_y(0), _about_y(math.pi / 2)]
    )
    shut = _channel("rotation", Interpolation.STEP, [0.0, 1.0], [_about_y(0), _about_y(0)])
    return write_glb(
        tmp_path / "door.glb", [door], [Clip("open", (opening,)), Clip("shut", (shut,))]
    )


def _world(tmp_path: Path) -> tuple[World, int, int, int]:
    world = World(fixed_hz=90)
    world.add_plugin(AnimationPlugin())
    spawned = spawn_model(world, read_model(_door(tmp_path)), name="door")
    return world, spawned["door"], spawned["door/Door"], spawned["door/Handle"]


def _yaw(world: World, entity: int) -> float:
    return spatial.yaw(world.get(entity, Transform).rotation)


def test_a_clip_turns_a_node_and_what_hangs_from_it(tmp_path: Path) -> None:
    world, root, door, handle = _world(tmp_path)
    assert sorted(world.get(root, Animator).clips) == ["open", "shut"]
    play(world, root, "open", loop=False)
    world.step(90)  # 1 s of the 2 s clip
    assert _yaw(world, door) == pytest.approx(math.pi / 4, abs=1e-3)
    handle_at = world.get(handle, Transform).position  # (0.9, 1, 0.1) in the door, turned 45 deg
    turned = spatial.rotate(
        spatial.from_axis_angle(spatial.vec3(0, 1, 0), math.pi / 4), spatial.vec3(0.9, 1.0, 0.1)
    )
    assert tuple(handle_at) == pytest.approx(tuple(turned), abs=1e-3)
    world.step(180)  # past the end, not looping: it holds the last frame
    assert _yaw(world, door) == pytest.approx(math.pi / 2, abs=1e-3)


def test_a_clip_plays_the_same_pose_at_the_same_step_whatever_the_frames(tmp_path: Path) -> None:
    """Advanced in the fixed step: one world stepped, another fed uneven display frames, record
    the door's pose at every fixed step, and the two records are the same to the bit."""
    records = []
    for frames in ([1 / 90] * 180, [0.004, 0.031, 0.017, 0.0005, 0.025] * 45):
        world, root, door, _ = _world(tmp_path)
        seen: list[tuple[float, ...]] = []
        world.add_system(
            lambda w, d=door, s=seen: s.append((w.fixed_time.step, *w.get(d, Transform).rotation)),
            phase=Phase.FIXED, after=(animate,), reads=(Transform,),
        )  # fmt: skip
        play(world, root, "open")
        for seconds in frames:
            world.advance(seconds)
        records.append(seen)
    shorter = min(len(records[0]), len(records[1]))
    assert shorter > 100 and records[0][:shorter] == records[1][:shorter]


def test_a_cross_fade_blends_the_two_clips_over_its_time(tmp_path: Path) -> None:
    world, root, door, _ = _world(tmp_path)
    play(world, root, "open", loop=False)
    world.step(180)  # open: a quarter turn
    play(world, root, "shut", fade=1.0)
    world.step(45)  # half the fade: half way between open and shut
    assert _yaw(world, door) == pytest.approx(math.pi / 4, abs=0.02)
    world.step(45)
    assert _yaw(world, door) == pytest.approx(0.0, abs=1e-3)
    assert world.get(root, Animator).fading_from is None


def test_marks_are_sent_each_time_the_clip_passes_them_round_the_loop(tmp_path: Path) -> None:
    world, root, _, _ = _world(tmp_path)
    world.get(root, Animator).marks["open"] = ((0.5, "creak"),)
    play(world, root, "open")  # 2 s, looping
    marks = []
    for _ in range(round(4.6 * 90)):  # past 0.5, 2.5 and 4.5 s
        world.step(1)
        marks += world.read_events(AnimationMarked, reader="test")
    assert [(m.clip, m.mark) for m in marks] == [("open", "creak")] * 3
    with pytest.raises(Exception, match="no animation clip 'wave'; its clips: open, shut"):
        play(world, root, "wave")


def test_a_model_s_clips_read_back_as_written(tmp_path: Path) -> None:
    model = read_model(_door(tmp_path))
    opening, shut = model.clips
    assert (opening.name, opening.duration, shut.name) == ("open", 2.0, "shut")
    (channel,) = opening.channels
    assert (channel.node, channel.path, channel.interpolation) == (
        0,
        "rotation",
        Interpolation.LINEAR,
    )
    np.testing.assert_allclose(channel.values[1], _about_y(math.pi / 2), atol=1e-6)
    assert "clips open, shut" in model.summary()
