"""Opaque batches are drawn nearest first, and the order changes nothing in the picture."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest
from moderngl import Context

from playspace.app import build_world
from playspace.app.replay import replay_source
from playspace.formats.scene import load_scene
from playspace.render import Offscreen, Renderer, eye_view
from playspace.render import renderer as renderer_module
from playspace.render.instances import Batch
from playspace.render.materials import Material
from playspace.render.meshes import box
from playspace.render.order import nearest_first
from playspace.render.quality import HIGH, LOW, Quality

Place = tuple[float, float, float]
KITCHEN = Path(__file__).resolve().parents[2] / "examples" / "kitchen.toml"


def _rows(*places: Place) -> np.ndarray:
    """Column-major model matrices (N, 16) of unit instances at `places`."""
    rows = np.tile(np.eye(4, dtype=np.float32).reshape(16), (len(places), 1))
    rows[:, 12:15] = places
    return rows


def _batch(scenery: Sequence[Place] = (), moving: Sequence[Place] = ()) -> Batch:
    none = np.zeros((0, 16), dtype=np.float32)
    return Batch(
        box(),
        Material((0.5, 0.5, 0.5, 1.0)),
        0,
        _rows(*scenery) if scenery else none,
        _rows(*moving) if moving else none,
    )


def test_a_batch_goes_by_its_nearest_instance_and_ties_keep_their_order() -> None:
    wall = _batch(scenery=[(0.0, 1.0, -5.0)])
    crumbs = _batch(moving=[(0.0, 0.0, -9.0), (0.0, 1.0, -1.0)])  # one far, one near
    counter = _batch(scenery=[(0.0, 1.0, -2.0)], moving=[(0.0, 1.0, -12.0)])
    beside = _batch(scenery=[(5.0, 1.0, 0.0)])  # as far as the wall
    order = nearest_first([wall, crumbs, counter, beside], (0.0, 1.0, 0.0))
    assert order == [1, 2, 0, 3]
    # the control: by their first instance, the far crumb would put them last but one
    assert order != [2, 0, 3, 1]
    assert nearest_first([wall], (0.0, 0.0, 0.0)) == [0]


@pytest.mark.parametrize("quality", [HIGH, LOW], ids=["high", "low"])
def test_the_kitchen_drawn_farthest_first_is_the_same_picture(
    gl: Context, quality: Quality, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Only how much is shaded changes: the depth test keeps the nearest either way."""
    world, _ = build_world(load_scene(KITCHEN), replay_source(None))
    world.step(1)
    pictures, orders = [], []
    for reverse in (False, True):
        if reverse:
            monkeypatch.setattr(
                renderer_module, "nearest_first", lambda b, eye: nearest_first(b, eye)[::-1]
            )
        renderer = Renderer(gl, quality=quality)
        target = Offscreen(gl, (160, 120))
        view = eye_view(world, target.aspect)
        renderer.prepare(world)
        renderer.draw(view, target.framebuffer)
        pictures.append(target.read().copy())
        eye = np.array([view.pose.position.x, view.pose.position.y, view.pose.position.z])
        orders.append([_nearest(gpu.batch, eye) for gpu in renderer._nearest_first(view)])
        target.release()
        renderer.release()
    world.close()
    nearest, farthest = orders
    assert len(nearest) > 20 and nearest == sorted(nearest)  # the kitchen's many batches
    assert farthest == sorted(nearest, reverse=True) != nearest  # the control: another order
    np.testing.assert_array_equal(pictures[0], pictures[1])


def _nearest(batch: Batch | None, eye: np.ndarray) -> float:
    assert batch is not None
    places = np.concatenate([batch.scenery, batch.moving])[:, 12:15]
    return float(np.linalg.norm(places - eye, axis=1).min())
