"""A saved scene applied to the running world as a difference; the watcher that finds saves."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from playspace.app import build_world
from playspace.app.reload import LiveReload, apply_scene
from playspace.app.spawn import SpawnedScene
from playspace.components import Transform
from playspace.components.debug import LiveStatus
from playspace.components.input import InputFrame
from playspace.ecs import World
from playspace.formats.scene import load_scene
from playspace.render.preview import live_line
from playspace.spatial import vec3
from playspace.systems.input import ScriptedSource
from playspace.systems.physics import Physics

ROOM = """
[scene]
name = "room"

[[box]]
name = "floor"
size = [6, 0.2, 6]
position = [0, -0.1, 0]

[[box]]
name = "wall"
size = [0.2, 2, 4]
position = [2, 1, 0]

[[box]]
name = "shelf"
size = [1, 0.1, 0.5]
position = [-2, 1, 0]

[[prop]]
name = "crate"
shape = "box"
size = [0.3, 0.3, 0.3]
mass = 2.0
position = [0.5, 0.5, -1]
grabbable = true
"""


def _room(tmp_path: Path) -> tuple[Path, World]:
    path = tmp_path / "room.toml"
    path.write_text(ROOM)
    source = ScriptedSource(lambda t: InputFrame(t))
    world, _ = build_world(load_scene(path), source)
    return path, world


def _asleep(world: World, crate: int) -> None:
    physics = world.resource(Physics)
    for _ in range(600):
        world.step(1)
        if physics.sleeping(crate):
            return
    raise AssertionError("the crate never came to rest")


def test_moving_a_wall_leaves_a_sleeping_crate_as_it_was(tmp_path: Path) -> None:
    path, world = _room(tmp_path)
    names = world.resource(SpawnedScene).entities
    crate, wall = names["crate"], names["wall"]
    _asleep(world, crate)
    rested = world.get(crate, Transform)
    pose = (tuple(rested.position), tuple(rested.rotation))
    old = load_scene(path)
    path.write_text(
        ROOM.replace("position = [2, 1, 0]", "position = [2.5, 1, 0]").replace(
            '[[box]]\nname = "shelf"\nsize = [1, 0.1, 0.5]\nposition = [-2, 1, 0]\n', ""
        )
        + '\n[[box]]\nname = "step"\nsize = [0.5, 0.2, 0.5]\nposition = [0, 0.1, 2]\n'
    )
    change = apply_scene(world, old, load_scene(path))
    assert (change.added, change.removed, change.remade) == (("step",), ("shelf",), ("wall",))
    assert change.line() == "reloaded room.toml: added step; removed shelf; remade wall"
    world.step(3)
    physics = world.resource(Physics)
    assert physics.sleeping(crate)
    now = world.get(crate, Transform)
    assert (tuple(now.position), tuple(now.rotation)) == pose  # to the bit
    names = world.resource(SpawnedScene).entities
    assert "shelf" not in names and not world.exists(wall)
    assert tuple(world.get(names["wall"], Transform).position) == pytest.approx((2.5, 1, 0))
    hit = physics.ray_cast(vec3(1.0, 1.0, 0.0), vec3(1.0, 0.0, 0.0), 5.0)
    assert hit is not None and hit.entity == names["wall"]
    assert hit.point.x == pytest.approx(2.4, abs=1e-4)  # the moved wall's near face


def test_a_prop_moved_in_the_file_is_teleported_there(tmp_path: Path) -> None:
    path, world = _room(tmp_path)
    crate = world.resource(SpawnedScene).entities["crate"]
    world.step(5)
    old = load_scene(path)
    path.write_text(ROOM.replace("position = [0.5, 0.5, -1]", "position = [-0.5, 0.5, 1]"))
    change = apply_scene(world, old, load_scene(path))
    assert change.moved == ("crate",) and world.resource(SpawnedScene).entities["crate"] == crate
    world.step(1)
    at = world.get(crate, Transform).position
    assert (at.x, at.z) == pytest.approx((-0.5, 1.0), abs=1e-3)


def _until_said(live: LiveReload, world: World) -> list[str]:
    deadline = time.monotonic() + 10.0
    while time.monotonic() < deadline:
        said = live.apply(world)
        if said:
            return said
        time.sleep(0.01)
    raise AssertionError("the save was never seen")


def test_a_saved_scene_is_seen_and_a_bad_one_keeps_the_last_good(tmp_path: Path) -> None:
    path, world = _room(tmp_path)
    heard: list[str] = []
    live = LiveReload(load_scene(path), say=heard.append)
    try:
        time.sleep(0.2)  # the watcher is up
        path.write_text(ROOM.replace("size = [1, 0.1, 0.5]", "size = [1, 0.1, 'wide']"))
        (said,) = _until_said(live, world)
        assert said.startswith("reload failed, still running the last good one: ")
        assert "room.toml" in said and "size" in said
        assert world.resource(LiveStatus).failed and live_line(world) == said
        shelf = world.resource(SpawnedScene).entities["shelf"]
        assert world.exists(shelf)
        path.write_text(ROOM.replace("position = [-2, 1, 0]", "position = [-2, 1.5, 0]"))
        assert _until_said(live, world) == ["reloaded room.toml: remade shelf"]
        assert heard == [said, "reloaded room.toml: remade shelf"]
        assert not world.resource(LiveStatus).failed
    finally:
        live.close()


def test_a_saved_model_remakes_what_the_scene_places_of_it(tmp_path: Path) -> None:
    from playspace.formats.models.write import ModelSpec, write_glb
    from tests.model_helpers import surface

    def crate(size: float) -> None:
        write_glb(tmp_path / "crate.glb", [ModelSpec("Crate-boxcol", surface("box", (size,) * 3))])

    crate(0.3)
    path = tmp_path / "room.toml"
    path.write_text(
        ROOM + '\n[[model]]\nname = "crate model"\nfile = "crate.glb"\nposition = [-1, 0.15, 1]\n'
    )
    world, _ = build_world(load_scene(path), ScriptedSource(lambda t: InputFrame(t)))
    before = dict(world.resource(SpawnedScene).entities)
    live = LiveReload(load_scene(path), say=lambda line: None)
    try:
        time.sleep(0.2)
        crate(0.6)
        assert _until_said(live, world) == ["reloaded room.toml: remade crate model"]
    finally:
        live.close()
    after = world.resource(SpawnedScene).entities
    nodes = [n for n in after if n.startswith("crate model")]
    assert nodes and all(after[n] != before[n] for n in nodes)  # spawned anew
    assert after["crate"] == before["crate"]  # the rest untouched
