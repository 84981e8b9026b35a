"""The shadow map keeps the scenery's depth and draws only what moves over it each frame: the
same map, to the texel, as one drawn whole, with the scenery drawn again only when it changes."""

from __future__ import annotations

import os
import subprocess
import sys
from typing import TYPE_CHECKING

import numpy as np
import pytest

from playspace import spatial
from playspace.app.models import visual_of
from playspace.components import Prop, Scenery, Transform
from playspace.components.physics import Box, Collider, Colliders
from playspace.ecs import World
from playspace.formats.models import read_model
from playspace.formats.models.model import transformed
from playspace.formats.models.write import ModelSpec, write_glb
from playspace.render import Lighting, Offscreen, Renderer
from playspace.render import renderer as renderer_module
from playspace.render.blit import depth_blit
from playspace.render.instances import SceneInstances
from playspace.render.quality import HIGH
from tests.model_helpers import surface
from tests.render.test_lit import BLACK_SKY, SIZE, brightness, floor, pixel_of, view_down

if TYPE_CHECKING:
    from pathlib import Path

    from moderngl import Context

SLANTED = Lighting(direction=(-1.0, -1.0, 0.0))  # from +X, 45 degrees down


def wall(world: World, x: float, z: float = -4.0) -> int:
    """A wall 2 m high and 3 m long across Z: its shadow falls 2 m towards -X."""
    return world.spawn(
        Transform(spatial.vec3(x, 1.0, z)),
        Colliders(Collider(Box((0.2, 2.0, 3.0)))),
        Scenery("wall"),
    )


def moving_box(world: World) -> int:
    return world.spawn(
        Transform(spatial.vec3(0.0, 2.0, -4.0)),
        Colliders(Collider(Box((1.0, 1.0, 1.0)))),
        Prop("box"),
    )


def depth_map(renderer: Renderer) -> np.ndarray:
    shadow = renderer.shadow_map
    assert shadow is not None
    renderer.ctx.finish()  # llvmpipe may hand back a depth texture a frame old without it
    return np.frombuffer(shadow.texture.read(), dtype=np.float32)


def frames(gl: Context, renderer: Renderer, world: World, box: int, count: int) -> list[np.ndarray]:
    """`count` frames with the box a little further along each, and the map of each."""
    target = Offscreen(gl, SIZE)
    maps = []
    try:
        for i in range(count):
            world.get(box, Transform).position = spatial.vec3(0.3 * i, 2.0, -4.0)
            renderer.prepare(world)
            renderer.draw(view_down((0.0, 9.0, -4.0)), target.framebuffer)
            maps.append(depth_map(renderer))
    finally:
        target.release()
    return maps


def test_the_map_from_the_kept_scenery_is_the_map_drawn_whole(
    gl: Context, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Frame after frame, with a box moving over a floor and a wall: the map made of the kept
    scenery's depth and the box drawn on it is the map drawn whole, every texel (a context
    without the depth copy draws it whole: what this renderer does with it made None)."""
    world = World()
    floor(world)
    wall(world, 2.0)
    box = moving_box(world)
    kept = Renderer(gl, lighting=SLANTED, sky=BLACK_SKY, quality=HIGH)
    monkeypatch.setattr(renderer_module, "depth_blit", lambda ctx: None)
    whole = Renderer(gl, lighting=SLANTED, sky=BLACK_SKY, quality=HIGH)
    try:
        assert kept.shadow_map is None and whole.shadow_map is None  # nothing drawn yet
        ours, theirs = frames(gl, kept, world, box, 4), frames(gl, whole, world, box, 4)
        for mine, reference in zip(ours, theirs, strict=True):
            np.testing.assert_array_equal(mine, reference)
        assert not np.array_equal(ours[0], ours[-1])  # control: the box's shadow moved
    finally:
        kept.release()
        whole.release()


def test_the_scenery_is_drawn_again_only_when_it_changes(gl: Context) -> None:
    """While only the box moves, the scenery's depth is the one drawn at the first frame; a
    wall added later is drawn into it at once, and its shadow falls on the floor."""
    world = World()
    floor(world)
    box = moving_box(world)
    renderer = Renderer(gl, lighting=SLANTED, sky=BLACK_SKY, quality=HIGH)
    view = view_down((0.0, 9.0, -4.0))
    behind_wall = pixel_of(view, (1.875, 0.0, -8.125))  # a metre west of the wall's foot
    target = Offscreen(gl, SIZE)
    try:
        frames(gl, renderer, world, box, 1)
        shadow = renderer.shadow_map
        assert shadow is not None
        first = shadow.scenery_key
        frames(gl, renderer, world, box, 3)
        assert shadow.scenery_key is first  # the box moved, the scenery was not drawn again
        renderer.prepare(world)
        renderer.draw(view, target.framebuffer)
        open_floor = brightness(target.read() / 255.0, behind_wall)
        wall(world, 3.0, z=-8.0)
        renderer.prepare(world)
        renderer.draw(view, target.framebuffer)
        assert shadow.scenery_key != first
        assert brightness(target.read() / 255.0, behind_wall) < 0.6 * open_floor
    finally:
        target.release()
        renderer.release()


def test_a_depth_copy_copies_every_texel(gl: Context) -> None:
    blit = depth_blit(gl)
    assert blit is not None  # ModernGL's own loader gives the GL functions
    source, destination = gl.depth_texture((64, 32)), gl.depth_texture((64, 32))
    sources = gl.framebuffer(depth_attachment=source)
    destinations = gl.framebuffer(depth_attachment=destination)
    small = gl.framebuffer(depth_attachment=gl.depth_texture((32, 32)))
    try:
        sources.clear(depth=0.25)
        destinations.clear(depth=1.0)
        gl.copy_framebuffer(destinations, sources)  # control: ModernGL's copy takes color only
        assert np.frombuffer(destination.read(), dtype=np.float32).max() == 1.0
        blit(sources, destinations)
        copied = np.frombuffer(destination.read(), dtype=np.float32)
        np.testing.assert_allclose(copied, 0.25, atol=1e-6)
        with pytest.raises(ValueError, match="equal sizes"):
            blit(sources, small)
    finally:
        for owned in (sources, destinations, small, source, destination):
            owned.release()


def test_copies_of_a_model_share_their_surfaces_and_are_drawn_as_instances(tmp_path: Path) -> None:
    """Four bees from one file are each part's mesh drawn four times, not four meshes: ten
    draws a frame for four bees of ten parts, not forty."""
    parts = [
        ModelSpec(f"Part{i}", surface("sphere", (0.1, 0.05, 0.1), (0.1 * i, 0, 0)))
        for i in range(3)
    ]
    model = read_model(write_glb(tmp_path / "bee.glb", parts))
    world = World()
    for i in range(4):
        world.spawn(Transform(spatial.vec3(float(i), 1.0, 0.0)), visual_of(model, scale=0.5))
    batches = SceneInstances().collect(world)
    assert sorted(len(batch.moving) for batch in batches) == [4, 4, 4]
    here = np.diag([0.5, 0.5, 0.5, 1.0])
    one = model.nodes[0].parts[0].surface
    assert transformed(one, here) is transformed(one, here.copy())
    assert transformed(one, np.diag([0.25, 0.25, 0.25, 1.0])) is not transformed(one, here)


WINDOW_COPY = """
import numpy as np
from playspace.loops.gl import BindingKind, headset_gl
from playspace.render.blit import depth_blit
with headset_gl(BindingKind.GLX) as gl:
    blit = depth_blit(gl.ctx)
    print("no copy" if blit is None else "copy")
    source, destination = gl.ctx.depth_texture((8, 8)), gl.ctx.depth_texture((8, 8))
    sources = gl.ctx.framebuffer(depth_attachment=source)
    destinations = gl.ctx.framebuffer(depth_attachment=destination)
    sources.clear(depth=0.25)
    destinations.clear(depth=1.0)
    if blit is not None:
        blit(sources, destinations)
    print(round(float(np.frombuffer(destination.read(), dtype=np.float32).max()), 4))
"""


def test_a_window_s_context_copies_depth_too(xvfb: str) -> None:
    """The preview's and a GLX headset's context, which ModernGL finds current in a glfw
    window (its own loader, not glcontext's), has the copy as well: in a process of its own,
    as one X client may not make a GLX context current beside the tests' EGL one."""
    done = subprocess.run(
        [sys.executable, "-c", WINDOW_COPY],
        env={**os.environ, "DISPLAY": xvfb},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["copy", "0.25"]
