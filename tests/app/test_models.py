"""A glTF model in a world: each node becomes what its import hint and extras say, and physics
collides with what the hints ask for (a convex hull where the hull is, not the box around it)."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from playspace import spatial
from playspace.app.models import ModelKind, spawn_model
from playspace.components import Transform
from playspace.components.interaction import Grabbable
from playspace.components.physics import (
    BodyKind,
    Box,
    Capsule,
    Colliders,
    ConvexHull,
    RigidBody,
    Sphere,
    TriangleMesh,
)
from playspace.components.scene import Prop, Scenery
from playspace.components.sockets import Socket
from playspace.components.visual import Visual
from playspace.formats.models import BodyExtras, ModelError, read_model
from playspace.formats.models.write import ModelSpec, write_glb
from playspace.spatial import Pose
from tests.model_helpers import glb_json, rewritten, surface, wedge
from tests.physics_helpers import ball, physics_world


def _every_hint(tmp_path: Path) -> Path:
    crate = surface("box", (0.4, 0.2, 0.6), (0.0, 0.1, 0.0))
    return write_glb(
        tmp_path / "every.glb",
        [
            ModelSpec("Floor-col", surface("box", (10.0, 0.2, 10.0), (0.0, -0.1, 0.0))),
            ModelSpec("Rock-convcol", wedge(), translation=(3.0, 0.0, 0.0)),
            ModelSpec(
                "Wall-colonly", surface("box", (0.2, 2.0, 4.0)), translation=(-4.0, 1.0, 0.0)
            ),
            ModelSpec("Crate-boxcol", crate, translation=(0.0, 0.0, 3.0), scale=(2.0, 1.0, 1.0)),
            ModelSpec("Ball-spherecol", surface("sphere", (0.5, 0.5, 0.5)), translation=(1, 2, 1)),
            ModelSpec(
                "Pole-capsulecol", surface("cylinder", (0.2, 2.0, 0.2)), translation=(2, 1, 2)
            ),
            ModelSpec("Lamp", surface("sphere", (0.1, 0.1, 0.1)), translation=(0.0, 2.5, 0.0)),
            ModelSpec("Helper-noimp", surface(), children=[ModelSpec("Hidden-col", surface())]),
            ModelSpec(
                "Mug-rigid",
                surface("cylinder", (0.08, 0.1, 0.08)),
                translation=(0.0, 1.0, 0.0),
                extras={"grabbable": True, "mass": 0.3, "tags": ["cup"]},
                children=[
                    ModelSpec("Body-convcolonly", surface("cylinder", (0.08, 0.1, 0.08))),
                    ModelSpec(
                        "Handle-boxcol",
                        surface("box", (0.02, 0.06, 0.02)),
                        translation=(0.06, 0, 0),
                    ),
                ],
            ),
        ],
    )


def test_every_hint_makes_what_godot_s_importer_makes(tmp_path: Path) -> None:
    world = physics_world()
    spawned = spawn_model(world, read_model(_every_hint(tmp_path)), name="room")
    entity = spawned.entities
    assert sorted(entity) == sorted(
        f"room/{n}" for n in ("Floor", "Rock", "Wall", "Crate", "Ball", "Pole", "Lamp", "Mug")
    )  # the helper and what is under it: left out
    shapes = {n.split("/")[1]: world.try_get(e, Colliders) for n, e in entity.items()}
    floor = shapes["Floor"]
    assert floor is not None and isinstance(floor.parts[0].shape, TriangleMesh)
    assert isinstance(shapes["Rock"].parts[0].shape, ConvexHull)  # type: ignore[union-attr]
    crate = shapes["Crate"].parts[0]  # type: ignore[union-attr]
    assert isinstance(crate.shape, Box)
    assert crate.shape.size == pytest.approx((0.8, 0.2, 0.6))  # the node's scale baked in
    assert tuple(crate.offset.position) == pytest.approx((0.0, 0.1, 0.0))  # fitted: its centre
    sphere = shapes["Ball"].parts[0].shape  # type: ignore[union-attr]
    assert isinstance(sphere, Sphere) and sphere.radius == pytest.approx(0.5)
    pole = shapes["Pole"].parts[0].shape  # type: ignore[union-attr]
    assert isinstance(pole, Capsule)
    assert (pole.radius, pole.height) == pytest.approx((0.2, 2.0))
    assert shapes["Lamp"] is None  # drawn, colliding with nothing
    assert world.try_get(entity["room/Wall"], Visual) is None  # a collider only
    assert world.has(entity["room/Floor"], Scenery) and world.has(entity["room/Lamp"], Visual)
    mug = entity["room/Mug"]
    assert spawned.bodies == [mug] and world.has(mug, Prop)
    assert world.get(mug, RigidBody) == RigidBody(mass=0.3)
    assert world.get(mug, Grabbable).tags == frozenset({"cup"})
    body, handle = world.get(mug, Colliders).parts  # the compound of its hinted children
    assert isinstance(body.shape, ConvexHull) and isinstance(handle.shape, Box)
    assert handle.shape.size == pytest.approx((0.02, 0.06, 0.02))
    assert tuple(handle.offset.position) == pytest.approx((0.06, 0.0, 0.0))
    assert len(world.get(mug, Visual).parts) == 2  # its own surface and the handle's
    assert tuple(world.get(mug, Transform).position) == pytest.approx((0.0, 1.0, 0.0))


def _drop_on(tmp_path: Path, hint: str) -> float:
    """Where a ball dropped on the low end of a wedge named with `hint` comes to rest."""
    path = write_glb(
        tmp_path / f"{hint}.glb",
        [
            ModelSpec("Floor-boxcol", surface("box", (20.0, 0.2, 20.0), (0.0, -0.1, 0.0))),
            ModelSpec(f"Wedge-{hint}", wedge(length=2.0, height=1.0)),
        ],
    )
    world = physics_world()
    spawn_model(world, read_model(path))
    dropped = ball(world, spatial.vec3(-0.8, 2.0, 0.0), radius=0.1)
    world.step(round(1.5 * 90))
    return world.get(dropped, Transform).position.y


def test_a_convex_hull_collides_where_the_hull_is_not_the_box_around_it(tmp_path: Path) -> None:
    """Dropped over the wedge's low end (0.1 m high there), the ball meets the slope and rolls
    down it; the box around the wedge would hold it a metre up."""
    assert _drop_on(tmp_path, "convcol") < 0.25
    assert _drop_on(tmp_path, "boxcol") == pytest.approx(1.1, abs=0.02)  # the control


def test_a_rigid_node_falls_as_one_body_and_rests_on_its_compound(tmp_path: Path) -> None:
    """A table (-rigid) of a top and four legs (-boxcol children) falls onto the floor and
    stands on its legs: its top rests 0.75 m up, where only the legs can hold it."""
    legs = [
        ModelSpec(f"Leg{i}-boxcol", surface("box", (0.05, 0.7, 0.05)), translation=(x, 0.35, z))
        for i, (x, z) in enumerate([(-0.4, -0.2), (0.4, -0.2), (-0.4, 0.2), (0.4, 0.2)])
    ]
    top = ModelSpec("Top-boxcol", surface("box", (1.0, 0.05, 0.6)), translation=(0, 0.725, 0))
    path = write_glb(
        tmp_path / "table.glb",
        [
            ModelSpec("Floor-col", surface("box", (20.0, 0.2, 20.0), (0.0, -0.1, 0.0))),
            ModelSpec("Table-rigid", None, translation=(0.0, 0.5, 0.0), children=[top, *legs]),
        ],
    )
    world = physics_world()
    table = spawn_model(world, read_model(path)).entities["Table"]
    world.step(round(2.0 * 90))
    assert world.get(table, Transform).position.y == pytest.approx(0.0, abs=0.01)
    assert len(world.get(table, Colliders).parts) == 5


def test_a_dynamic_model_is_one_body_and_the_scene_s_overrides_win(tmp_path: Path) -> None:
    """Spawned dynamic, a model with no hints falls as one body, its collider the hull of
    what it draws; overrides replace its extras."""
    path = write_glb(
        tmp_path / "pan.glb",
        [ModelSpec("Pan", surface("cylinder", (0.3, 0.05, 0.3)), extras={"mass": 2.0})],
    )
    world = physics_world()
    at = Pose(spatial.vec3(0.0, 3.0, 0.0), spatial.from_axis_angle(spatial.vec3(0, 1, 0), 1.0))
    spawned = spawn_model(
        world, read_model(path), at, ModelKind.DYNAMIC, overrides=BodyExtras(grabbable=True)
    )
    (pan,) = spawned.bodies
    assert world.get(pan, RigidBody).kind is BodyKind.DYNAMIC
    assert world.get(pan, RigidBody).mass == 2.0 and world.has(pan, Grabbable)
    assert isinstance(world.get(pan, Colliders).parts[0].shape, ConvexHull)
    world.step(10)
    assert world.get(pan, Transform).position.y < 3.0  # it falls


def test_a_mirrored_node_is_drawn_front_side_out(tmp_path: Path) -> None:
    """A scale of -1 turns the triangles inside out; their winding is turned back."""
    plain = write_glb(tmp_path / "a.glb", [ModelSpec("Thing", wedge())])
    mirrored = write_glb(tmp_path / "b.glb", [ModelSpec("Thing", wedge(), scale=(-1, 1, 1))])
    world = physics_world()
    a = world.get(spawn_model(world, read_model(plain)).entities["Thing"], Visual)
    b = world.get(spawn_model(world, read_model(mirrored)).entities["Thing"], Visual)
    first, second = a.parts[0].surface, b.parts[0].surface
    assert second.triangles.tolist() == first.triangles[:, ::-1].tolist()
    assert second.positions[:, 0].tolist() == pytest.approx((-first.positions[:, 0]).tolist())
    assert math.isclose(float(second.normals[2, 0]), -float(first.normals[2, 0]), abs_tol=1e-6)


def test_a_model_spawned_again_shares_its_colliders_shapes(tmp_path: Path) -> None:
    """Spawned twice (a prop dropped many times, a level reloaded), a node's collider is the
    same shape: made once, and built by physics once."""
    path = write_glb(tmp_path / "rock.glb", [ModelSpec("Rock-convcol", wedge())])
    world = physics_world()
    first = spawn_model(world, read_model(path), name="a").entities["a/Rock"]
    second = spawn_model(world, read_model(path), name="b").entities["b/Rock"]
    shapes = [world.get(e, Colliders).parts[0].shape for e in (first, second)]
    assert shapes[0] is shapes[1]


def test_the_khronos_and_omi_physics_extensions_make_the_bodies_and_colliders_they_state(
    tmp_path: Path,
) -> None:
    """A floor with an implicit box, a ball with a motion, a mass and a bouncy material, a
    trigger, a rock colliding as the hull of its own mesh (KHR_physics_rigid_bodies with
    KHR_implicit_shapes), and a kinematic capsule (OMI_physics_body): what each says it is,
    and the ball falls onto the floor."""
    path = write_glb(
        tmp_path / "stated.glb",
        [
            ModelSpec("Floor", scale=(10.0, 1.0, 10.0)),
            ModelSpec("Ball", translation=(0.0, 1.0, 0.0)),
            ModelSpec("Zone", translation=(3.0, 0.5, 0.0)),
            ModelSpec("Rock", wedge(), translation=(-3.0, 0.0, 0.0)),
            ModelSpec("Pillar", translation=(0.0, 1.0, -3.0)),
        ],
    )
    document = glb_json(path)
    document["extensions"] = {
        "KHR_implicit_shapes": {
            "shapes": [
                {"type": "box", "box": {"size": [1.0, 0.2, 1.0]}},
                {"type": "sphere", "sphere": {"radius": 0.1}},
            ]
        },
        "KHR_physics_rigid_bodies": {
            "physicsMaterials": [{"dynamicFriction": 0.9, "restitution": 0.3}]
        },
        "OMI_physics_shape": {
            "shapes": [{"type": "capsule", "capsule": {"radius": 0.2, "height": 1.0}}]
        },
    }
    khr = "KHR_physics_rigid_bodies"
    nodes = document["nodes"]
    nodes[0]["extensions"] = {khr: {"collider": {"geometry": {"shape": 0}}}}
    nodes[1]["extensions"] = {
        khr: {"motion": {"mass": 2.0}, "collider": {"geometry": {"shape": 1}, "physicsMaterial": 0}}
    }
    nodes[2]["extensions"] = {khr: {"trigger": {"geometry": {"shape": 0}}}}
    nodes[3]["extensions"] = {khr: {"collider": {"geometry": {"node": 3, "convexHull": True}}}}
    nodes[4]["extensions"] = {
        "OMI_physics_body": {"motion": {"type": "kinematic"}, "collider": {"shape": 0}}
    }
    world = physics_world()
    model = read_model(rewritten(path, document))
    assert "5 colliders (stated 5), 2 bodies (grabbable 0)" in model.summary()
    spawned = spawn_model(world, model)
    (floor,) = world.get(spawned["Floor"], Colliders).parts
    assert isinstance(floor.shape, Box) and floor.shape.size == pytest.approx((10.0, 0.2, 10.0))
    ball = spawned["Ball"]
    assert world.get(ball, RigidBody) == RigidBody(mass=2.0)
    (sphere,) = world.get(ball, Colliders).parts
    assert sphere.shape == Sphere(0.1) and (sphere.friction, sphere.restitution) == (0.9, 0.3)
    assert world.get(spawned["Zone"], Colliders).parts[0].sensor
    assert isinstance(world.get(spawned["Rock"], Colliders).parts[0].shape, ConvexHull)
    pillar = spawned["Pillar"]
    assert world.get(pillar, RigidBody).kind is BodyKind.KINEMATIC
    assert world.get(pillar, Colliders).parts[0].shape == Capsule(0.2, 1.0)  # OMI's whole height
    world.step(round(1.5 * 90))
    assert world.get(ball, Transform).position.y == pytest.approx(0.1 + 0.1, abs=0.02)  # on it


def test_extras_mark_where_hands_hold_a_body_and_where_sockets_are(tmp_path: Path) -> None:
    """An empty node under a body marked ``attach: right`` is the right hand's attach point (its
    pose in the body), ``second`` a second grip; a node with ``socket`` extras is a snap zone,
    fixed, or carried by the body it is under."""
    quarter = (0.0, math.sin(math.pi / 8), 0.0, math.cos(math.pi / 8))  # 45 degrees about Y
    pistol = ModelSpec(
        "Pistol-rigid",
        surface("box", (0.04, 0.14, 0.2)),
        translation=(0.0, 1.0, 0.0),
        extras={"grabbable": True, "tags": ["gun"]},
        children=[
            ModelSpec(
                "Grip", translation=(0.0, -0.05, 0.06), rotation=quarter, extras={"attach": "right"}
            ),
            ModelSpec("Front", translation=(0.0, 0.0, -0.1), extras={"attach": "second"}),
        ],
    )
    rack = ModelSpec(
        "Rack",
        translation=(1.0, 1.2, 0.0),
        extras={"socket": {"radius": 0.15, "accepts": ["gun"], "return_after": 2}},
    )
    belt = ModelSpec(
        "Belt-rigid",
        surface("box", (0.3, 0.05, 0.3)),
        translation=(0.0, 0.5, 2.0),
        children=[ModelSpec("Holster", translation=(0.2, 0.0, 0.0), extras={"socket": {}})],
    )
    world = physics_world()
    spawned = spawn_model(world, read_model(write_glb(tmp_path / "g.glb", [pistol, rack, belt])))
    grabbable = world.get(spawned["Pistol"], Grabbable)
    assert grabbable.attach_right is not None and grabbable.attach_left is None
    assert tuple(grabbable.attach_right.position) == pytest.approx((0.0, -0.05, 0.06))
    assert spatial.yaw(grabbable.attach_right.rotation) == pytest.approx(math.pi / 4)
    assert grabbable.second_grip is not None
    assert tuple(grabbable.second_grip) == pytest.approx((0.0, 0.0, -0.1))
    fixed = world.get(spawned["Rack socket"], Socket)
    assert fixed.zone == Sphere(0.15) and fixed.accepts == {"gun"} and fixed.return_after == 2
    assert fixed.carried_by is None
    assert tuple(world.get(spawned["Rack socket"], Transform).position) == pytest.approx(
        (1, 1.2, 0)
    )
    carried = world.get(spawned["Holster socket"], Socket)
    assert carried.carried_by == spawned["Belt"]
    assert tuple(carried.offset.position) == pytest.approx((0.2, 0.0, 0.0))


def test_wrong_attach_or_socket_extras_name_the_node_and_key(tmp_path: Path) -> None:
    bad = ModelSpec("Mug-rigid", surface(), children=[ModelSpec("Grip", extras={"attach": "up"})])
    with pytest.raises(
        ModelError, match=r"\(Grip\): extras.attach: expected left, right or second"
    ):
        read_model(write_glb(tmp_path / "a.glb", [bad]))
    zone = ModelSpec("Rack", extras={"socket": {"radius": -1}})
    with pytest.raises(ModelError, match=r"\(Rack\): extras.socket.radius: expected metres > 0"):
        read_model(write_glb(tmp_path / "b.glb", [zone]))
