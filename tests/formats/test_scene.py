"""Scene files: loading, checking, spawning on real Rapier, and `playspace validate`."""

from __future__ import annotations

import math
import os
import re
from dataclasses import replace
from pathlib import Path

import pytest

from playspace import spatial
from playspace.app import build_world
from playspace.app.spawn import (
    SpawnedScene,
    euler_rotation,
    physics_plugin_for,
    player_start_for,
    spawn_scene,
)
from playspace.components import Appearance, SceneCamera, Transform
from playspace.components.input import Button, InputFrame
from playspace.components.interactables import Dial, Lever, PushButton
from playspace.components.interaction import DistanceGrab, GrabSettings
from playspace.components.joints import Joint, JointKind, Spring
from playspace.components.locomotion import (
    Climbable,
    ClimbSettings,
    CrouchSettings,
    JumpSettings,
    Locomotion,
    SprintSettings,
)
from playspace.components.physics import (
    BodyKind,
    Box,
    Capsule,
    Colliders,
    RigidBody,
    Sphere,
    TriangleMesh,
)
from playspace.components.rig import RigSettings
from playspace.components.scene import Grabbable, Opponent, PlayerStart, Prop, Scenery
from playspace.components.sockets import Socket
from playspace.components.text import Label
from playspace.ecs import World
from playspace.formats.scene import (
    Scene,
    SceneButton,
    SceneDial,
    SceneError,
    SceneJoint,
    SceneLever,
    SceneSocket,
    SceneSpring,
    load_scene,
)
from playspace.spatial import Pose
from playspace.systems.input import ScriptedSource, TraceError, load_trace, standing_frame
from playspace.systems.physics import DEFAULT_LAYERS, FallPolicy, Layers, Physics, PhysicsPlugin
from tests.cli_helpers import playspace
from tests.mesh_helpers import write_gltf
from tests.rig_helpers import rig_of

ROOT = Path(__file__).resolve().parents[2]
PLAYGROUND = ROOT / "examples" / "scenes" / "playground.toml"
QUAD_OBJ = """# a 4 m square at y = 0, as two triangles
v -2 0 -2
v 2 0 -2
v 2 0 2
v -2 0 2
f 1 3 2
f 1 4 3
"""
FLOOR = """
[[box]]
name = "floor"
size = [20, 0.2, 20]
position = [0, -0.1, 0]
"""


def write(folder: Path, text: str, name: str = "scene.toml") -> Path:
    path = folder / name
    path.write_text(text)
    return path


def errors(folder: Path, text: str) -> list[str]:
    """The messages of the SceneError that loading `text` (as kitchen.toml) raises."""
    with pytest.raises(SceneError) as raised:
        load_scene(write(folder, text, "kitchen.toml"))
    assert str(raised.value) == "\n".join(raised.value.errors)
    return raised.value.errors


def spawned(scene: Scene) -> tuple[World, SpawnedScene]:
    """A world with the scene's physics and its entities, built into Rapier by one step."""
    world = World(fixed_hz=90)
    world.add_plugin(physics_plugin_for(scene))
    entities = spawn_scene(world, scene)
    world.step(1)
    return world, entities


EPS = 1e-5  # Rapier computes in single precision


def height_below(world: World, x: float, z: float) -> float | None:
    """The height of the first surface straight below (x, 10, z), if any."""
    hit = world.resource(Physics).ray_cast(
        spatial.vec3(x, 10.0, z), spatial.vec3(0.0, -1.0, 0.0), 20.0
    )
    return None if hit is None else hit.point.y


# --- a whole scene --------------------------------------------------------------------------


def test_the_playground_example_uses_every_table_and_spawns_what_it_says() -> None:
    scene = load_scene(PLAYGROUND)
    assert scene.name == "playground"
    assert scene.summary() == "3 boxes, 1 stairs, 1 ramp, 4 props, 1 opponent"
    world, entities = spawned(scene)
    assert len(entities.statics) == 5 and len(entities.props) == 4
    assert len(entities.opponents) == 1
    assert world.entity_count() == 10
    statics = {static.name for _, static in world.each(Scenery)}
    assert statics == {"floor", "wall", "platform", "stairs", "ramp"}
    grabbable = {world.get(e, Prop).name for e, _ in world.query(Grabbable)}
    assert grabbable == {"ball", "crate", "bat"}
    start = world.resource(PlayerStart)
    assert tuple(start.position) == (0.0, 0.0, 2.0) and start.yaw == 0.0
    assert start.slope_quantization == 0.2
    assert world.resource(Physics).fall_policy is FallPolicy.RESPAWN
    # the top step is level with the platform
    assert height_below(world, 0.0, -4.9) == pytest.approx(1.2, abs=EPS)
    assert height_below(world, 0.0, -3.35) == pytest.approx(1.2, abs=EPS)


def test_the_documented_example_loads(tmp_path: Path) -> None:
    docs = (ROOT / "docs" / "scene-format.md").read_text()
    [example] = re.findall(r"```toml\n(.*?)```", docs, re.S)
    (tmp_path / "meshes").mkdir()
    (tmp_path / "meshes" / "room.obj").write_text(QUAD_OBJ)
    scene = load_scene(write(tmp_path, example))
    assert scene.summary() == "1 box, 1 stairs, 1 ramp, 1 mesh, 1 prop, 1 opponent"


def test_a_scene_spawns_statics_props_and_opponents_with_their_bodies(tmp_path: Path) -> None:
    scene = load_scene(
        write(
            tmp_path,
            FLOOR
            + """
            [[prop]]
            name = "ball"
            shape = "sphere"
            radius = 0.1
            position = [0, 1, 0]
            grabbable = true

            [[prop]]
            name = "crate"
            shape = "box"
            size = [0.4, 0.2, 0.4]
            mass = 3
            position = [1, 0.5, 0]

            [[opponent]]
            name = "guard"
            position = [0, 0, -3]
            yaw = 90
            """,
        )
    )
    world, entities = spawned(scene)
    assert list(entities.entities) == ["floor", "ball", "crate", "guard"]
    assert entities.statics == (entities["floor"],) and entities.opponents == (entities["guard"],)
    assert entities.props == (entities["ball"], entities["crate"])
    assert world.has(entities["floor"], Scenery) and not world.has(entities["floor"], RigidBody)
    floor_part = world.get(entities["floor"], Colliders).parts[0]
    assert floor_part.layer == "environment" and floor_part.shape == Box((20, 0.2, 20))

    ball, crate = entities["ball"], entities["crate"]
    assert world.get(ball, Prop).name == "ball" and world.has(ball, Grabbable)
    assert not world.has(crate, Grabbable)
    assert world.get(ball, RigidBody).mass == 0.5  # the default
    assert world.get(crate, RigidBody).mass == 3
    assert world.get(crate, Colliders).parts[0].layer == "props"

    guard = entities["guard"]
    assert world.get(guard, Opponent).name == "guard"
    assert world.get(guard, RigidBody).kind is BodyKind.KINEMATIC
    part = world.get(guard, Colliders).parts[0]
    assert part.layer == "opponents" and part.shape == Capsule(0.25, 1.8)
    assert spatial.yaw(world.get(guard, Transform).rotation) == pytest.approx(math.pi / 2)

    world.step(120)
    assert world.get(ball, Transform).position.y == pytest.approx(0.1, abs=0.01)
    assert world.get(crate, Transform).position.y == pytest.approx(0.1, abs=0.01)
    # the opponent stands on the floor where it was put, as tall as its capsule
    assert tuple(world.get(guard, Transform).position) == (0.0, 0.0, -3.0)
    assert height_below(world, 0.0, -3.0) == pytest.approx(1.8, abs=EPS)


def test_player_and_physics_tables_have_defaults_and_take_values(tmp_path: Path) -> None:
    plain = load_scene(write(tmp_path, FLOOR))
    assert plain.name == "scene"  # the file's stem
    assert plain.player.position == (0.0, 0.0, 0.0) and plain.player.yaw == 0.0
    assert plain.player.slope_quantization == 0.2
    assert plain.physics.gravity == (0.0, -9.81, 0.0) and plain.physics.kill_height == -50.0
    assert plain.physics.fall_policy is FallPolicy.REMOVE

    scene = load_scene(
        write(
            tmp_path,
            """
            [player]
            position = [1, 0.5, 2]
            yaw = -90
            slope_quantization = 0

            [physics]
            gravity = [0, -1.62, 0]
            kill_height = -5
            fall_policy = "respawn"
            layers = ["bees"]

            [[prop]]
            shape = "sphere"
            radius = 0.05
            position = [0, 1, 0]
            layer = "bees"
            """,
        )
    )
    plugin = physics_plugin_for(scene)
    assert plugin.gravity == (0.0, -1.62, 0.0) and plugin.kill_height == -5.0
    assert plugin.fall_policy is FallPolicy.RESPAWN
    world, entities = spawned(scene)
    assert entities["prop 1"] == entities.props[0]  # an unnamed table is named by its place
    assert world.resource(Layers).collides("bees", "props")
    start = world.resource(PlayerStart)
    assert tuple(start.position) == (1.0, 0.5, 2.0)
    assert start.yaw == pytest.approx(-math.pi / 2) and start.slope_quantization == 0.0


# --- geometry ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "direction", [[0, -1], [1, 0, 0], [1, 0, 1], [0, 5, 1]], ids=["forward", "x", "diagonal", "z"]
)
def test_stairs_climb_along_their_direction_one_rise_a_step(
    tmp_path: Path, direction: list[float]
) -> None:
    rise, run = 0.17, 0.28
    scene = load_scene(
        write(
            tmp_path,
            f"""
            [[stairs]]
            position = [2, 0.5, -1]
            direction = {direction}
            steps = 5
            rise = {rise}
            run = {run}
            width = 1.2
            """,
        )
    )
    world, entities = spawned(scene)
    x, z = direction[0], direction[-1]
    length = math.hypot(x, z)
    x, z = x / length, z / length
    physics = world.resource(Physics)
    for i in range(5):
        along = (i + 0.5) * run
        hit = physics.ray_cast(
            spatial.vec3(2 + x * along, 10, -1 + z * along), spatial.vec3(0, -1, 0), 20
        )
        assert hit is not None and hit.entity == entities["stairs 1"] and hit.part == i
        assert hit.point.y == pytest.approx(0.5 + (i + 1) * rise, abs=EPS)
    # the first step's front edge is at `position`; the top step's back edge one run per step on
    assert height_below(world, 2 - x * 0.01, -1 - z * 0.01) is None
    assert height_below(world, 2 + x * 0.01, -1 + z * 0.01) == pytest.approx(0.5 + rise, abs=EPS)
    assert height_below(world, 2 + x * (5 * run + 0.01), -1 + z * (5 * run + 0.01)) is None
    # solid below: a ray along the floor under the top step hits the stairs' side
    side = physics.ray_cast(
        spatial.vec3(2 + x * 4.5 * run - z * 2, 0.51, -1 + z * 4.5 * run + x * 2),
        spatial.vec3(z, 0, -x),
        3,
    )
    assert side is not None and side.distance == pytest.approx(2 - 0.6, abs=EPS)


@pytest.mark.parametrize("angle", [10.0, 30.0, 60.0])
def test_a_ramp_rises_from_its_bottom_edge_at_its_angle(tmp_path: Path, angle: float) -> None:
    length = 3.0
    scene = load_scene(
        write(
            tmp_path,
            f"""
            [[ramp]]
            position = [1, 0, 0]
            direction = [-1, 0]
            length = {length}
            width = 1
            angle = {angle}
            """,
        )
    )
    world, _ = spawned(scene)
    a = math.radians(angle)
    middle = 1 - length / 2 * math.cos(a)
    assert height_below(world, middle, 0.3) == pytest.approx(length / 2 * math.sin(a), abs=EPS)
    assert height_below(world, 1 - 0.01, 0) == pytest.approx(0.01 * math.tan(a), abs=1e-6)
    assert height_below(world, 1 + 0.01, 0) is None
    top = 1 - length * math.cos(a)
    assert height_below(world, top + 0.01, 0) == pytest.approx(length * math.sin(a), abs=0.02)
    assert height_below(world, middle, 0.51) is None  # half the width to each side


def test_box_rotation_turns_about_z_then_x_then_y() -> None:
    def turned(degrees: tuple[float, float, float], axis: spatial.Vec3) -> tuple[float, ...]:
        v = spatial.rotate(euler_rotation(degrees), axis)
        return tuple(round(c, 9) + 0.0 for c in v)

    up = spatial.vec3(0, 1, 0)
    assert turned((0, 90, 0), spatial.vec3(0, 0, -1)) == (-1.0, 0.0, 0.0)  # a left turn
    assert turned((90, 0, 0), up) == (0.0, 0.0, 1.0)
    assert turned((90, 90, 0), up) == (1.0, 0.0, 0.0)  # x first, then y
    assert turned((0, 90, 90), up) == (0.0, 0.0, 1.0)  # z first, then y
    assert turned((90, 0, 90), spatial.vec3(1, 0, 0)) == (0.0, 0.0, 1.0)  # z first, then x


def test_a_rotated_box_is_where_its_rotation_puts_it(tmp_path: Path) -> None:
    scene = load_scene(
        write(
            tmp_path,
            """
            [[box]]
            size = [0.2, 2, 0.2]
            position = [0, 1, 0]
            rotation = [90, 90, 0]
            """,
        )
    )
    world, _ = spawned(scene)
    assert height_below(world, 0.9, 0) == pytest.approx(1.1, abs=EPS)  # lying along x
    assert height_below(world, 0, 0.9) is None


# --- meshes -----------------------------------------------------------------------------


def test_an_obj_mesh_is_static_ground_a_ball_comes_to_rest_on(tmp_path: Path) -> None:
    (tmp_path / "meshes").mkdir()
    (tmp_path / "meshes" / "ground.obj").write_text(QUAD_OBJ)
    scene = load_scene(
        write(
            tmp_path,
            """
            [[mesh]]
            name = "ground"
            file = "meshes/ground.obj"
            position = [0, 1, 0]
            scale = 2

            [[prop]]
            name = "ball"
            shape = "sphere"
            radius = 0.1
            position = [3, 2, 3]
            """,
        )
    )
    mesh = scene.meshes[0]
    assert mesh.file == tmp_path / "meshes" / "ground.obj"
    assert isinstance(mesh.shape, TriangleMesh) and len(mesh.shape.triangles) == 2
    assert {abs(c) for v in mesh.shape.vertices for c in (v[0], v[2])} == {4.0}  # scaled
    world, entities = spawned(scene)
    assert world.has(entities["ground"], Scenery)
    world.step(150)
    rest = world.get(entities["ball"], Transform).position
    assert rest.y == pytest.approx(1.1, abs=0.01)
    assert (rest.x, rest.z) == pytest.approx((3.0, 3.0), abs=0.01)


def test_a_gltf_mesh_loads_as_triangles(tmp_path: Path) -> None:
    import trimesh

    trimesh.creation.box((1.0, 2.0, 1.0)).export(tmp_path / "pillar.glb")
    scene = load_scene(write(tmp_path, '[[mesh]]\nfile = "pillar.glb"\n'))
    shape = scene.meshes[0].shape
    assert len(shape.triangles) == 12
    assert max(v[1] for v in shape.vertices) == pytest.approx(1.0)


# --- looks ------------------------------------------------------------------------------

PNG = b"\x89PNG\r\n\x1a\n"  # what a PNG file starts with: all a scene checks of it
GREY_50 = 0.21586050011389926  # "#808080": 128/255 in sRGB, as linear light (not 0.502)


def test_every_shape_table_takes_every_look_key(tmp_path: Path) -> None:
    (tmp_path / "textures").mkdir()
    (tmp_path / "textures" / "felt.png").write_bytes(PNG)
    (tmp_path / "quad.obj").write_text(QUAD_OBJ)
    scene = load_scene(
        write(
            tmp_path,
            BOX
            + "color = [0.1, 0.2, 0.3]\n"
            + STAIRS
            + "steps = 2\nroughness = 0.25\n"
            + RAMP
            + "angle = 20\nmetallic = 1\n"
            + '[[mesh]]\nfile = "quad.obj"\nemissive = [2, 0.5, 0]\n'
            + BALL
            + 'color = [0.9, 0.8, 0.7, 0.5]\ntexture = "textures/felt.png"\n'
            + '[[opponent]]\nposition = [0, 0, 0]\ncolor = "#ffffff"\n'
            + '[[prop]]\nname = "plain"\nshape = "sphere"\nradius = 0.1\nposition = [1, 1, 0]\n',
        )
    )
    default = Appearance()
    assert scene.boxes[0].look == replace(default, color=(0.1, 0.2, 0.3, 1.0))  # alpha 1
    assert scene.stairs[0].look == replace(default, roughness=0.25)
    assert scene.ramps[0].look == replace(default, metallic=1.0)
    assert scene.meshes[0].look == replace(default, emissive=(2.0, 0.5, 0.0))  # brighter than 1
    ball, plain = scene.props
    assert ball.look == replace(
        default, color=(0.9, 0.8, 0.7, 0.5), texture=tmp_path / "textures" / "felt.png"
    )
    assert scene.opponents[0].look == replace(default, color=(1.0, 1.0, 1.0, 1.0))
    assert plain.look is None  # it said nothing: the renderer's palette draws it


def test_hex_colors_are_srgb_and_read_as_linear(tmp_path: Path) -> None:
    scene = load_scene(
        write(
            tmp_path,
            BOX + 'color = "#FF8000"\nemissive = "#808080"\n' + BOX + 'color = "#00000080"\n',
        )
    )
    first, second = (box.look for box in scene.boxes)
    assert first is not None and second is not None
    assert first.color == pytest.approx((1.0, GREY_50, 0.0, 1.0))
    assert first.emissive == pytest.approx((GREY_50,) * 3)
    assert second.color == pytest.approx((0.0, 0.0, 0.0, 128 / 255))  # alpha is not encoded


def test_a_shape_takes_its_materials_keys_and_its_own_override_them(tmp_path: Path) -> None:
    (tmp_path / "wood.png").write_bytes(PNG)
    scene = load_scene(
        write(
            tmp_path,
            WOOD
            + 'roughness = 0.9\ntexture = "wood.png"\n'
            + '[materials."bright steel"]\nmetallic = 1\n'
            + BOX
            + 'material = "wood"\n'
            + BOX
            + 'material = "wood"\nroughness = 0.2\ncolor = "#000000"\n'
            + BALL
            + 'material = "bright steel"\n',
        )
    )
    wood = Appearance(color=(0.5, 0.3, 0.1, 1.0), roughness=0.9, texture=tmp_path / "wood.png")
    assert [box.look for box in scene.boxes] == [
        wood,
        replace(wood, roughness=0.2, color=(0.0, 0.0, 0.0, 1.0)),  # the texture stays
    ]
    assert scene.props[0].look == Appearance(metallic=1.0)


def test_a_texture_must_be_a_png_or_jpeg_file_beside_the_scene(tmp_path: Path) -> None:
    (tmp_path / "notes.png").write_text("not an image")
    (tmp_path / "photo.jpg").write_bytes(b"\xff\xd8\xff\xe0")
    (tmp_path / "folder.png").mkdir()
    found = errors(
        tmp_path,
        "".join(
            BOX + f'texture = "{name}"\n'
            for name in ("photo.jpg", "missing.png", "notes.png", "folder.png")
        ),
    )
    expected = "key 'texture': expected a PNG or JPEG image file"
    file = tmp_path / "kitchen.toml"
    assert found == [
        f'{file}: [[box]] 2, {expected}, got "missing.png" ({tmp_path / "missing.png"}: '
        "cannot read the file: No such file or directory)",
        f'{file}: [[box]] 3, {expected}, got "notes.png" ({tmp_path / "notes.png"}: '
        "not a PNG or JPEG image)",
        f'{file}: [[box]] 4, {expected}, got "folder.png" ({tmp_path / "folder.png"}: '
        "is a folder, not a file)",
    ]


def test_every_look_problem_of_a_file_is_reported_at_once(tmp_path: Path) -> None:
    found = errors(
        tmp_path,
        WOOD.replace("0.1]", "7]")
        + 'shine = 1\n[materials.steel]\nmetallic = "yes"\n'
        + BOX
        + 'material = "oak"\ncolor = "red"\n'
        + BALL
        + 'material = "wood"\nroughness = -1\ntexture = "ball.png"\n',
    )
    assert [m.split(": ", 1)[1].split(":")[0] for m in found] == [
        "[materials.wood], key 'color'",
        "[materials.wood]",  # unknown key 'shine'
        "[materials.steel], key 'metallic'",
        "[[box]] 1, key 'material'",
        "[[box]] 1, key 'color'",
        "[[prop]] 1, key 'texture'",
        "[[prop]] 1, key 'roughness'",
    ]


def test_a_shape_that_says_how_it_looks_gets_a_look_and_nothing_else_changes(
    tmp_path: Path,
) -> None:
    plain = FLOOR + NAMED + '[[opponent]]\nname = "guard"\nposition = [2, 0, 0]\n'
    looking = FLOOR.replace("[0, -0.1, 0]\n", '[0, -0.1, 0]\ncolor = "#7fa36b"\n') + (
        NAMED + 'material = "rubber"\n[materials.rubber]\ncolor = [0.8, 0.1, 0.1]\n'
    )
    looking += '[[opponent]]\nname = "guard"\nposition = [2, 0, 0]\n'
    worlds = []
    for text in (plain, looking):
        world, entities = spawned(load_scene(write(tmp_path, text)))
        world.step(60)
        worlds.append((world, entities))
    (bare, before), (drawn, after) = worlds
    assert drawn.get(after["ball"], Appearance) == Appearance(color=(0.8, 0.1, 0.1, 1.0))
    assert drawn.get(after["floor"], Appearance).color[1] == pytest.approx(0.3663, abs=1e-4)
    assert not drawn.has(after["guard"], Appearance) and not bare.has(before["ball"], Appearance)
    for name in ("floor", "ball", "guard"):
        kinds = {type(c) for c in drawn.components_of(after[name])}
        assert kinds - {type(c) for c in bare.components_of(before[name])} <= {Appearance}
    # looks are not physics: the ball falls and lands exactly as without one
    assert drawn.get(after["ball"], Transform) == bare.get(before["ball"], Transform)


def test_a_gltf_mesh_brings_its_own_material_unless_the_scene_gives_a_look(
    tmp_path: Path,
) -> None:
    write_gltf(tmp_path, {"pbrMetallicRoughness": {"baseColorFactor": [0.2, 0.4, 0.6, 1]}})
    (tmp_path / "plain.obj").write_text(QUAD_OBJ)
    mesh = '[[mesh]]\nname = "{name}"\nfile = "{file}"\n'
    scene = load_scene(
        write(
            tmp_path,
            mesh.format(name="own", file="triangle.gltf")
            + mesh.format(name="painted", file="triangle.gltf")
            + "metallic = 0.5\n"
            + mesh.format(name="plain", file="plain.obj"),
        )
    )
    own, painted, plain = (m.look for m in scene.meshes)
    # glTF's metallicFactor and roughnessFactor are 1 when a material leaves them out
    assert own == Appearance(color=(0.2, 0.4, 0.6, 1.0), roughness=1.0, metallic=1.0)
    assert painted == Appearance(metallic=0.5)  # the scene's look replaces the file's whole
    assert plain is None
    world, entities = spawned(scene)
    assert world.get(entities["own"], Appearance) == own
    assert not world.has(entities["plain"], Appearance)


# --- errors -----------------------------------------------------------------------------

BOX = "[[box]]\nsize = [1, 1, 1]\nposition = [0, 0, 0]\n"
BALL = '[[prop]]\nshape = "sphere"\nradius = 0.1\nposition = [0, 1, 0]\n'
NAMED = BALL + 'name = "ball"\n'
STAIRS = "[[stairs]]\nposition = [0, 0, 0]\nrise = 0.2\nrun = 0.3\nwidth = 1\n"
RAMP = "[[ramp]]\nposition = [0, 0, 0]\nlength = 2\nwidth = 1\n"
CAPSULE = '[[prop]]\nshape = "capsule"\nradius = 0.2\nposition = [0, 1, 0]\n'
SIZE = "[[box]] 1, key 'size': expected three numbers > 0 and < 10000 (metres)"
POSITION = "[[box]] 1, key 'position': expected three numbers >= -10000 and <= 10000 (metres)"
MASS = "[[prop]] 1, key 'mass': expected a number > 0 and < 100000 (kilograms)"
SHAPES = 'one of "sphere", "box", "capsule", "cylinder"'
LAYERS = "one of " + ", ".join(f'"{name}"' for name in DEFAULT_LAYERS)
CAPS = "(the height includes both caps)"
HUGE = "9" * 400  # a TOML integer too large for a float
ANGLE = "[[ramp]] 1, key 'angle': expected a number > 0 and < 90 (degrees)"
BOX_KEYS = (
    "climbable, color, emissive, label, material, metallic, model, name, position, rotation, "
    "roughness, size, sound, sound_material, texture"
)
COLOR = (
    "expected three or four numbers >= 0 and <= 1 (linear RGB, then alpha) "
    'or a "#rrggbb" or "#rrggbbaa" string (sRGB)'
)
EMISSIVE = 'expected three numbers >= 0 (linear RGB) or a "#rrggbb" string (sRGB)'
UNIT = "expected a number >= 0 and <= 1"
MATERIAL = "key 'material': expected the name of a [materials] table"
WOOD = "[materials.wood]\ncolor = [0.5, 0.3, 0.1]\n"

BAD_VALUES = [
    (BOX + BOX.replace("1, 1, 1", "1, 0, 1"), SIZE.replace("1,", "2,") + ", got [1, 0, 1]"),
    (BOX.replace("1, 1, 1", "1, -1, 1"), f"{SIZE}, got [1, -1, 1]"),
    (BOX.replace("1, 1, 1", "1, nan, 1"), f"{SIZE}, got [1, nan, 1]"),
    (BOX.replace("1, 1, 1", "inf, 1, 1"), f"{SIZE}, got [inf, 1, 1]"),
    (BOX.replace("1, 1, 1", "1, 1"), f"{SIZE}, got [1, 1]"),
    (BOX.replace("1, 1, 1", f"1, 1, {HUGE}"), f"{SIZE}, got {f'[1, 1, {HUGE}'[:57]}..."),
    (BOX.replace("[1, 1, 1]", '"big"'), f'{SIZE}, got "big"'),
    (BOX.replace("size = [1, 1, 1]\n", ""), SIZE.replace("expected", "missing, expected")),
    (BOX.replace("0, 0, 0", "0, nan, 0"), f"{POSITION}, got [0, nan, 0]"),
    (BOX.replace("0, 0, 0", "0, true, 0"), f"{POSITION}, got [0, true, 0]"),
    (
        BOX + "rotation = [0, -inf, 0]\n",
        "[[box]] 1, key 'rotation': expected three finite numbers (degrees), got [0, -inf, 0]",
    ),
    (BALL + "mass = 0\n", f"{MASS}, got 0"),
    (BALL + "mass = -2.5\n", f"{MASS}, got -2.5"),
    (BALL + "mass = nan\n", f"{MASS}, got nan"),
    (BALL + "mass = inf\n", f"{MASS}, got inf"),
    (BALL + 'mass = "1 kg"\n', f'{MASS}, got "1 kg"'),
    (
        BALL.replace("0.1", "0"),
        "[[prop]] 1, key 'radius': expected a number > 0 and < 10000 (metres), got 0",
    ),
    (
        BALL + 'grabbable = "yes"\n',
        "[[prop]] 1, key 'grabbable': expected true or false, got \"yes\"",
    ),
    (BALL.replace("sphere", "cube"), f"[[prop]] 1, key 'shape': expected {SHAPES}, got \"cube\""),
    (
        CAPSULE + "height = 0.3\n",
        f"[[prop]] 1, key 'height': expected a number >= 2 * radius = 0.4 {CAPS}, got 0.3",
    ),
    (
        CAPSULE.replace("capsule", "cylinder"),
        "[[prop]] 1, key 'height': missing, expected a number > 0 and < 10000 (metres)",
    ),
    (BALL + 'layer = "bees"\n', f"[[prop]] 1, key 'layer': expected {LAYERS}, got \"bees\""),
    (
        NAMED + NAMED,
        "[[prop]] 2, key 'name': expected a name no other table uses, got \"ball\" (as [[prop]] 1)",
    ),
    (
        "[[opponent]]\nposition = [0, 0, 0]\nradius = 1\n",
        f"[[opponent]] 1, key 'height': expected a number >= 2 * radius = 2 {CAPS}, got 1.8",
    ),
    (
        "[[opponent]]\nposition = [0, 0, 0]\nyaw = nan\n",
        "[[opponent]] 1, key 'yaw': expected a finite number (degrees), got nan",
    ),
    (
        STAIRS + "steps = 2.5\n",
        "[[stairs]] 1, key 'steps': expected a whole number >= 1 and <= 1000, got 2.5",
    ),
    (
        STAIRS + "steps = 2\ndirection = [0, 1, 0]\n",
        "[[stairs]] 1, key 'direction': expected a direction with a horizontal part "
        "([x, z], not [0, 0]), got [0, 1, 0]",
    ),
    (
        RAMP + "angle = 20\ndirection = [1]\n",
        "[[ramp]] 1, key 'direction': "
        "expected two or three numbers >= -1e+06 and <= 1e+06, got [1]",
    ),
    (RAMP + "angle = 90\n", f"{ANGLE}, got 90"),
    (RAMP + "angle = 0\n", f"{ANGLE}, got 0"),
    (
        "[player]\nslope_quantization = -0.1\n",
        "[player], key 'slope_quantization': "
        "expected a number >= 0 and <= 10000 (metres), got -0.1",
    ),
    ("[player]\nyaw = inf\n", "[player], key 'yaw': expected a finite number (degrees), got inf"),
    (
        '[physics]\nfall_policy = "bounce"\n',
        '[physics], key \'fall_policy\': expected one of "remove", "respawn", got "bounce"',
    ),
    (
        "[physics]\ngravity = [0, -9.81]\n",
        "[physics], key 'gravity': "
        "expected three numbers >= -1000 and <= 1000 (m/s^2), got [0, -9.81]",
    ),
    ("[scene]\nname = 3\n", "[scene], key 'name': expected a non-empty string, got 3"),
    (BOX + "color = [1, 2, 1]\n", f"[[box]] 1, key 'color': {COLOR}, got [1, 2, 1]"),
    (BOX + "color = [0.5, 0.5]\n", f"[[box]] 1, key 'color': {COLOR}, got [0.5, 0.5]"),
    (BOX + "color = [0.5, nan, 1]\n", f"[[box]] 1, key 'color': {COLOR}, got [0.5, nan, 1]"),
    (BOX + 'color = "#ff88"\n', f"[[box]] 1, key 'color': {COLOR}, got \"#ff88\""),
    (BOX + 'color = "ff8800"\n', f"[[box]] 1, key 'color': {COLOR}, got \"ff8800\""),
    (BOX + 'color = "#gg8800"\n', f"[[box]] 1, key 'color': {COLOR}, got \"#gg8800\""),
    (BALL + "emissive = [-1, 0, 0]\n", f"[[prop]] 1, key 'emissive': {EMISSIVE}, got [-1, 0, 0]"),
    (
        BALL + 'emissive = "#ff8800cc"\n',
        f"[[prop]] 1, key 'emissive': {EMISSIVE}, got \"#ff8800cc\"",
    ),
    (BALL + "roughness = 1.5\n", f"[[prop]] 1, key 'roughness': {UNIT}, got 1.5"),
    (STAIRS + "steps = 2\nmetallic = -0.1\n", f"[[stairs]] 1, key 'metallic': {UNIT}, got -0.1"),
    (RAMP + "angle = 20\nmetallic = nan\n", f"[[ramp]] 1, key 'metallic': {UNIT}, got nan"),
    (
        "[[opponent]]\nposition = [0, 0, 0]\nmetallic = true\n",
        f"[[opponent]] 1, key 'metallic': {UNIT}, got true",
    ),
    (BOX + "texture = 3\n", "[[box]] 1, key 'texture': expected a non-empty string, got 3"),
    (BOX + 'material = "oak"\n', f'[[box]] 1, {MATERIAL} (the file has none), got "oak"'),
    (WOOD + BOX + 'material = "oak"\n', f'[[box]] 1, {MATERIAL} (the file has "wood"), got "oak"'),
    (BOX + "material = 3\n", "[[box]] 1, key 'material': expected a non-empty string, got 3"),
    (WOOD + "roughness = 2\n", f"[materials.wood], key 'roughness': {UNIT}, got 2"),
    (
        WOOD + "colour = [1, 1, 1]\n",
        "[materials.wood]: unknown key 'colour'; known keys: "
        "color, emissive, metallic, roughness, texture",
    ),
    (
        '[materials."dark wood"]\nmaterial = "wood"\n',
        '[materials."dark wood"]: unknown key '
        "'material'; known keys: color, emissive, metallic, roughness, texture",
    ),
    (
        "[materials]\nwood = 1\n",
        "[materials], key 'wood': expected a table of look keys "
        "(color, emissive, metallic, roughness, texture), got 1",
    ),
    ("materials = 1\n", "'materials' must be a single table [materials]"),
]


@pytest.mark.parametrize(("text", "message"), BAD_VALUES)
def test_each_bad_value_is_named_with_its_table_key_and_what_was_expected(
    tmp_path: Path, text: str, message: str
) -> None:
    assert errors(tmp_path, text) == [f"{tmp_path / 'kitchen.toml'}: {message}"]


LEVEL = "[[box]]\nname = 'floor'\nsize = [10, 0.2, 6]\nposition = [0, -0.1, 0]\n"
ON_THE_LEVEL = "expected a place on the level, within 2 m of its geometry across the floor"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            LEVEL + "[player]\nposition = [10000, 0, 0]\n",
            f"[player], key 'position': {ON_THE_LEVEL} (x -7 to 7, z -5 to 5), "
            "got x = 10000, z = 0",
        ),
        (
            LEVEL + "[[spawn]]\nposition = [1, 0, 1]\n[[spawn]]\nposition = [0, 0, -9]\n",
            f"[[spawn]] 2, key 'position': {ON_THE_LEVEL} (x -7 to 7, z -5 to "
            "5), got x = 0, z = -9",
        ),
        (
            LEVEL + "[physics]\nkill_height = 0.1\n",
            "[physics], key 'kill_height': expected a height below every player's start (the "
            "lowest: [player] position, y = 0), got 0.1",
        ),
        (
            LEVEL + "[physics]\nkill_height = -3\n[[spawn]]\nposition = [1, -5, 1]\n",
            "[physics], key 'kill_height': expected a height below every player's start (the "
            "lowest: [[spawn]] 1 position, y = -5), got -3",
        ),
    ],
)
def test_a_start_off_the_level_or_below_the_kill_height_is_refused_naming_the_key(
    tmp_path: Path, text: str, message: str
) -> None:
    """Where run would rescue the player at once, every step, the loader says so instead."""
    assert errors(tmp_path, text) == [f"{tmp_path / 'kitchen.toml'}: {message}"]


def test_a_start_on_the_level_or_in_a_scene_without_scenery_loads(tmp_path: Path) -> None:
    """The level's edge is loose (each piece as the ball around it): near the floor is fine."""
    near = LEVEL + "[player]\nposition = [6.5, 0, 4.5]\n[[spawn]]\nposition = [-6, 0, 0]\n"
    assert load_scene(write(tmp_path, near, "near.toml")).player.position == (6.5, 0.0, 4.5)
    bare = "[player]\nposition = [10000, 0, 0]\n"
    assert load_scene(write(tmp_path, bare, "bare.toml")).player.position[0] == 10000.0


def test_unknown_keys_and_tables_are_errors_that_list_the_known_ones(tmp_path: Path) -> None:
    file = tmp_path / "kitchen.toml"
    found = errors(
        tmp_path, "[[box]]\nsise = [1, 1, 1]\nposition = [0, 0, 0]\n[[boxes]]\n[lights]\n"
    )
    known = (
        "[[box]], [[stairs]], [[ramp]], [[mesh]], [[model]], [[prop]], [[opponent]], [[socket]], "
        "[[spawn]], [player], [physics], [scene], [materials], [camera], [grab], [climb], "
        "[sounds]"
    )
    assert found == [
        f"{file}: unknown table [[boxes]]; known tables: {known}",
        f"{file}: unknown table [lights]; known tables: {known}",
        f"{file}: [[box]] 1, key 'size': missing, expected three numbers > 0 and < 10000 (metres)",
        f"{file}: [[box]] 1: unknown key 'sise'; known keys: {BOX_KEYS}",
    ]


def test_keys_of_another_shape_are_unknown_and_a_bad_shape_hides_its_sizes(
    tmp_path: Path,
) -> None:
    file = tmp_path / "kitchen.toml"
    assert errors(tmp_path, BALL + "size = [1, 1, 1]\n") == [
        f"{file}: [[prop]] 1: unknown key 'size'; known keys: attach_ease, attach_left, "
        "attach_right, button, climbable, color, dial, distance_grab, emissive, grabbable, joint, "
        "kind, label, layer, lever, mass, material, metallic, model, name, path, position, "
        "radius, rotation, roughness, second_grip, shape, sound, sound_material, tags, texture"
    ]
    assert len(errors(tmp_path, BALL.replace("sphere", "ball"))) == 1


def test_tables_of_the_wrong_kind_are_errors(tmp_path: Path) -> None:
    file = tmp_path / "kitchen.toml"
    assert errors(tmp_path, "[[player]]\n[box]\n") == [
        f"{file}: 'player' must be a single table [player]",
        f"{file}: 'box' must be an array of tables [[box]]",
    ]


def test_every_problem_of_a_file_is_reported_at_once(tmp_path: Path) -> None:
    found = errors(
        tmp_path,
        "[[box]]\nsize = [0, 1, 1]\nposition = [nan, 0, 0]\n"
        + BALL.replace("0.1", "-1")
        + "mass = 0\n[player]\nyaw = nan\n",
    )
    assert [m.split(": ", 1)[1].split(":")[0] for m in found] == [
        "[[box]] 1, key 'size'",
        "[[box]] 1, key 'position'",
        "[[prop]] 1, key 'radius'",
        "[[prop]] 1, key 'mass'",
        "[player], key 'yaw'",
    ]


def test_a_toml_syntax_error_names_the_file_and_line(tmp_path: Path) -> None:
    file = tmp_path / "kitchen.toml"
    assert errors(tmp_path, '[scene]\nname = "x"\n\n[[box]]\nsize = [1, 1,, 1]\n') == [
        f"{file}: line 5, column 14: invalid TOML: Invalid value"
    ]
    assert errors(tmp_path, "[[box]]\nsize = [1, 1") == [
        f"{file}: at the end of the file: invalid TOML: Unclosed array"
    ]


def test_unreadable_scene_files_are_scene_errors(tmp_path: Path) -> None:
    with pytest.raises(SceneError, match="cannot read the file"):
        load_scene(tmp_path / "missing.toml")
    (tmp_path / "binary.toml").write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(SceneError, match="not a text file"):
        load_scene(tmp_path / "binary.toml")
    (tmp_path / "huge.toml").write_text("[physics]\ngravity = [0, -" + "9" * 5000 + ", 0]\n")
    with pytest.raises(SceneError, match="a number with thousands of digits"):
        load_scene(tmp_path / "huge.toml")


@pytest.mark.parametrize(
    ("special", "what"),
    [("/dev/zero", "a device or special file"), ("{tmp}", "a folder"), ("{fifo}", "a pipe")],
)
def test_a_scene_or_trace_that_is_no_file_is_refused_before_it_is_read(
    tmp_path: Path, special: str, what: str
) -> None:
    """/dev/zero would read forever, a FIFO wait for ever: both are said, not read."""
    fifo = tmp_path / "pipe.toml"
    os.mkfifo(fifo)
    path = special.format(tmp=tmp_path, fifo=fifo)
    with pytest.raises(SceneError, match=what):
        load_scene(path)
    with pytest.raises(TraceError, match=what):
        load_trace(path)


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        (None, None, "no such file: {path}"),
        ("room.obj", QUAD_OBJ + "f 1 2 9\n", "cannot read {path}: "),
        ("room.obj", "this is not a mesh\n", "{path} has no triangles"),
        ("room.glb", "garbage", "cannot read {path}: "),
        ("room.fbx", "", "{path}: expected an OBJ (.obj) or glTF (.gltf, .glb) file, got .fbx"),
        ("room.obj", QUAD_OBJ + "# caf\xe9\n", "cannot read {path}: not UTF-8 text"),
        ("room.gltf", '{"asset": ', "cannot read {path}: not glTF: Expecting value at line 1"),
        ("room.gltf", "[1, 2]", "cannot read {path}: not glTF (expected a JSON object)"),
        ("far.obj", QUAD_OBJ.replace("v 2 0 2", "v 1e20 0 2"),
         "{path}: a vertex is 1e+20 m out (after scale 1); meshes must stay within 10000 m"),
    ],
    ids=[
        "missing", "bad-index", "no-triangles", "bad-glb", "wrong-format", "not-utf8",
        "broken-gltf", "gltf-not-an-object", "too-far",
    ],
)  # fmt: skip
def test_a_missing_or_malformed_mesh_file_is_named(
    tmp_path: Path, name: str | None, content: str | None, message: str
) -> None:
    path = tmp_path / (name or "nothing.obj")
    if content is not None:
        path.write_bytes(content.encode("latin-1"))  # the not-UTF-8 case keeps its byte
    [found] = errors(tmp_path, f'[[mesh]]\nfile = "{path.name}"\n')
    expected = message.format(path=path)
    assert found.startswith(f"{tmp_path / 'kitchen.toml'}: [[mesh]] 1, key 'file': {expected}")


def test_a_scene_the_world_cannot_take_spawns_nothing(tmp_path: Path) -> None:
    scene = load_scene(write(tmp_path, FLOOR + BALL + "[[opponent]]\nposition = [0, 0, 0]\n"))
    world = World()
    world.add_plugin(PhysicsPlugin(layers=Layers(["environment", "props"], apart=())))
    with pytest.raises(SceneError, match="has no layer 'opponents'"):
        spawn_scene(world, scene)
    world.step(1)
    assert world.entity_count() == 0 and not world.resource(Physics).bodies
    assert world.try_resource(PlayerStart) is None


# --- the command ------------------------------------------------------------------------


def test_validate_says_ok_and_what_a_good_file_holds(tmp_path: Path) -> None:
    path = write(tmp_path, FLOOR + BALL)
    done = playspace("validate", str(path), str(PLAYGROUND))
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        f"{path}: ok (1 box, 1 prop)",
        f"{PLAYGROUND}: ok (3 boxes, 1 stairs, 1 ramp, 4 props, 1 opponent)",
    ]
    assert done.stderr == ""


def test_validate_lists_the_problems_of_a_bad_file_and_exits_2(tmp_path: Path) -> None:
    good = write(tmp_path, FLOOR, "good.toml")
    bad = write(tmp_path, BALL + "mass = 0\n[[box]]\nsise = 1\n", "bad.toml")
    done = playspace("validate", str(good), str(bad))
    assert done.returncode == 2
    assert done.stdout == f"{good}: ok (1 box)\n"
    assert "Traceback" not in done.stderr
    assert done.stderr.splitlines() == [
        f"{bad}: [[box]] 1, key 'size': missing, expected three numbers > 0 and < 10000 (metres)",
        f"{bad}: [[box]] 1, key 'position': missing, "
        "expected three numbers >= -10000 and <= 10000 (metres)",
        f"{bad}: [[box]] 1: unknown key 'sise'; known keys: {BOX_KEYS}",
        f"{bad}: {MASS}, got 0",
    ]


def test_validate_warns_of_a_scene_with_nothing_to_stand_on_and_props_inside_each_other(
    tmp_path: Path,
) -> None:
    crate = '[[prop]]\nname = "{name}"\nshape = "box"\nsize = [0.4, 0.4, 0.4]\nposition = {at}\n'
    inside = crate.format(name="a", at="[0, 1, 0]") + crate.format(name="b", at="[0.1, 1, 0]")
    beside = crate.format(name="c", at="[3, 1, 0]") + crate.format(name="d", at="[3.41, 1, 0]")
    path = write(tmp_path, inside + beside)
    done = playspace("validate", str(path))
    assert done.returncode == 0 and done.stdout.startswith(f"{path}: ok (4 props)")
    assert done.stderr.splitlines() == [
        f"{path}: warning: nothing to stand on: the player and every prop fall out of the world",
        f"{path}: warning: props 'a' and 'b' start inside each other (0.10 m apart): they are "
        "pushed apart as the scene starts",
    ]
    assert load_scene(write(tmp_path, FLOOR + beside)).warnings() == []  # side by side: fine


def test_a_camera_table_becomes_the_scene_camera_resource(tmp_path: Path) -> None:
    scene = load_scene(
        write(tmp_path, FLOOR + "[camera]\nposition = [3, 2, 1]\nlook_at = [0, 1, -4]\nfov = 30\n")
    )
    world = World()
    world.add_plugin(physics_plugin_for(scene))
    spawn_scene(world, scene)
    camera = world.resource(SceneCamera)
    assert tuple(camera.position) == (3.0, 2.0, 1.0) and tuple(camera.look_at) == (0, 1, -4)
    assert camera.fov == pytest.approx(math.radians(30))
    bare = load_scene(write(tmp_path, FLOOR, "bare.toml"))
    assert bare.camera is None
    world = World()
    spawn_scene(world, bare)
    assert world.try_resource(SceneCamera) is None


def test_every_problem_of_a_camera_table_is_reported_at_once(tmp_path: Path) -> None:
    path = write(
        tmp_path, FLOOR + "[camera]\nposition = [1, nan, 2]\nlook_at = [1, 2]\nfov = 0\nzoom = 2\n"
    )
    with pytest.raises(SceneError) as raised:
        load_scene(path)
    assert raised.value.errors == [
        f"{path}: [camera], key 'position': expected three numbers >= -10000 and <= 10000 "
        "(metres), got [1, nan, 2]",
        f"{path}: [camera], key 'look_at': expected three numbers >= -10000 and <= 10000 "
        "(metres), got [1, 2]",
        f"{path}: [camera], key 'fov': expected a number > 0 and < 180 (degrees), got 0",
        f"{path}: [camera]: unknown key 'zoom'; known keys: fov, look_at, position",
    ]
    same = write(
        tmp_path, FLOOR + "[camera]\nposition = [1, 2, 3]\nlook_at = [1, 2, 3]\n", "s.toml"
    )
    with pytest.raises(SceneError, match=r"\[camera\], key 'look_at': expected a point other"):
        load_scene(same)
    missing = write(tmp_path, FLOOR + "[camera]\n", "m.toml")
    with pytest.raises(SceneError) as raised:
        load_scene(missing)
    assert [e.split(": ", 1)[1] for e in raised.value.errors] == [
        "[camera], key 'position': missing, expected three numbers >= -10000 and <= 10000 (metres)",
        "[camera], key 'look_at': missing, expected three numbers >= -10000 and <= 10000 (metres)",
    ]


# --- sockets, tags and the movement providers -----------------------------------------------

WRENCH = """
[[prop]]
name = "wrench"
shape = "box"
size = [0.25, 0.03, 0.06]
position = [0.5, 0.5, -1]
grabbable = true
tags = ["tool", "steel"]
"""
RACK = """
[[socket]]
name = "rack"
position = [0.3, 1.2, -0.6]
yaw = 90
size = [0.2, 0.1, 0.2]
snap_position = [0, 0.05, 0]
snap_yaw = 90
accepts = ["tool"]
return_after = 2.5
holding = "wrench"
"""
HOLSTER = """
[[socket]]
name = "holster"
carried_by = "body"
offset = [0.25, 0.9, 0]
radius = 0.15
"""


def _apart(a: spatial.Quat, b: spatial.Quat) -> float:
    """The angle between two rotations, radians."""
    angle = spatial.to_axis_angle(spatial.multiply(spatial.inverse(a), b))[1]
    return min(angle, 2 * math.pi - angle)


def _world(tmp_path: Path, text: str) -> tuple[World, SpawnedScene]:
    """A whole world (the default plugins) built from `text`, the player standing still."""
    source = ScriptedSource(lambda t: standing_frame())
    return build_world(load_scene(write(tmp_path, text)), source)


def test_socket_keys_and_tags_spawn_a_socket_holding_its_prop(tmp_path: Path) -> None:
    scene = load_scene(write(tmp_path, FLOOR + WRENCH + RACK + HOLSTER))
    assert scene.summary() == "1 box, 1 prop, 2 sockets"
    assert scene.props[0].tags == ("tool", "steel")
    rack, holster = scene.sockets
    assert rack == SceneSocket(
        "rack",
        Box((0.2, 0.1, 0.2)),
        (0.3, 1.2, -0.6),
        (0.0, 90.0, 0.0),
        (0.0, 0.05, 0.0),
        90.0,
        ("tool",),
        2.5,
        "wrench",
        None,
    )
    assert holster.carried_by == "body" and holster.position == (0.25, 0.9, 0.0)
    assert holster.zone == Sphere(0.15) and holster.return_after is None
    world, entities = spawned(scene)
    assert entities.sockets == (entities["rack"], entities["holster"])
    socket = world.get(entities["rack"], Socket)
    assert socket.holding == entities["wrench"]
    assert socket.accepts == frozenset({"tool"}) and socket.return_after == 2.5
    assert socket.zone == Box((0.2, 0.1, 0.2))
    assert tuple(socket.snap.position) == pytest.approx((0.0, 0.05, 0.0))
    turned = spatial.yaw_rotation(math.radians(90))
    assert _apart(socket.snap.rotation, turned) < 1e-6
    transform = world.get(entities["rack"], Transform)
    assert tuple(transform.position) == pytest.approx((0.3, 1.2, -0.6))
    assert _apart(transform.rotation, turned) < 1e-6
    assert world.get(entities["wrench"], Grabbable).tags == frozenset({"tool", "steel"})
    assert world.get(entities["holster"], Socket).carried_by is None  # no rig in this world


def test_a_rack_socket_snaps_its_wrench_in_and_a_holster_rides_on_the_body(
    tmp_path: Path,
) -> None:
    world, entities = _world(tmp_path, FLOOR + WRENCH + RACK + HOLSTER)
    world.step(5)
    wrench = world.get(entities["wrench"], Transform)
    snap = spatial.compose(
        world.get(entities["rack"], Transform).pose(),
        Pose(spatial.vec3(0.0, 0.05, 0.0), spatial.yaw_rotation(math.radians(90))),
    )
    assert tuple(wrench.position) == pytest.approx(tuple(snap.position), abs=1e-4)
    assert tuple(wrench.position) == pytest.approx((0.3, 1.25, -0.6), abs=1e-4)
    assert _apart(wrench.rotation, snap.rotation) < 1e-3
    assert world.get(entities["wrench"], RigidBody).kind is BodyKind.KINEMATIC  # held there
    body = rig_of(world).body
    assert world.get(entities["holster"], Socket).carried_by == body
    feet = world.get(body, Transform).position
    holster = world.get(entities["holster"], Transform).position
    assert tuple(holster - feet) == pytest.approx((0.25, 0.9, 0.0), abs=1e-4)


def test_player_keys_turn_the_movement_providers_on_with_their_settings(tmp_path: Path) -> None:
    plain, _ = _world(tmp_path, FLOOR)
    assert set(plain.resource(Locomotion).providers) == {"smooth_move", "teleport", "turning"}
    assert plain.try_resource(JumpSettings) is None
    assert "jump_flight" not in {spec.name for spec in plain.schedule.all()}
    assert plain.resource(RigSettings).head_radius == RigSettings().head_radius
    assert load_scene(write(tmp_path, "[player]\njump = true\n")).player.jump_speed == 3.0
    world, _ = _world(
        tmp_path,
        FLOOR + "[player]\njump = true\njump_speed = 4\nsprint = true\nsprint_multiplier = 1.5\n"
        "sprint_toggle = true\ncrouch = true\ncrouch_lowered = 0.5\nhead_radius = 0.15\n",
    )
    providers = world.resource(Locomotion).providers
    assert {"jump", "sprint", "crouch"} <= set(providers)
    assert "jump_flight" in {spec.name for spec in world.schedule.all()}
    assert world.resource(JumpSettings).speed == 4.0
    sprint = world.resource(SprintSettings)
    assert (sprint.multiplier, sprint.toggle) == (1.5, True)
    assert world.resource(CrouchSettings).lowered == 0.5
    assert world.resource(RigSettings).head_radius == 0.15


def test_a_scene_that_turns_jump_on_jumps(tmp_path: Path) -> None:
    def press(t: float) -> InputFrame:
        frame = standing_frame()
        buttons = frozenset({Button.A}) if 0.2 <= t < 0.3 else frozenset()
        return replace(frame, right=replace(frame.right, buttons=buttons))

    for jump, rise in (("false", 0.0), ("true", 2.0**2 / (2 * 9.81))):
        text = FLOOR + f"[player]\njump = {jump}\n" + ("jump_speed = 2\n" if jump == "true" else "")
        world, _ = build_world(load_scene(write(tmp_path, text)), ScriptedSource(press))
        body = world.get(rig_of(world).body, Transform)
        highest = 0.0
        for _ in range(90):
            world.step(1)
            highest = max(highest, body.position.y)
        assert highest == pytest.approx(rise, abs=0.03)


SOCKET = "[[socket]]\nposition = [0, 1, 0]\n"
SOCKETS_1 = "[[socket]] 1, key "
BAD_SOCKETS_AND_PLAYERS = [
    (
        BALL + 'tags = ["tool"]\n',
        "[[prop]] 1, key 'tags': expected tags only on a grabbable "
        'prop (grabbable = true): sockets take those, got ["tool"]',
    ),
    (
        BALL + "grabbable = true\ntags = [1]\n",
        "[[prop]] 1, key 'tags': expected a list of non-empty strings, got [1]",
    ),
    (
        "[[socket]]\n",
        f"{SOCKETS_1}'position': missing, expected three numbers >= -10000 and <= 10000 (metres)",
    ),
    (
        SOCKET + "yaw = 90\nrotation = [0, 90, 0]\n",
        f"{SOCKETS_1}'yaw': expected yaw or rotation, not both",
    ),
    (
        SOCKET + "radius = 0.1\nsize = [1, 1, 1]\n",
        f"{SOCKETS_1}'size': expected radius (a sphere) or size (a box), not both",
    ),
    (
        SOCKET + "radius = 0\n",
        f"{SOCKETS_1}'radius': expected a number > 0 and < 10000 (metres), got 0",
    ),
    (
        SOCKET + "return_after = -1\n",
        f"{SOCKETS_1}'return_after': expected a number >= 0 and <= 100000 (seconds), got -1",
    ),
    (
        SOCKET + 'accepts = "tool"\n',
        f"{SOCKETS_1}'accepts': expected a list of non-empty strings, got \"tool\"",
    ),
    (
        SOCKET + "snap_yaw = nan\n",
        f"{SOCKETS_1}'snap_yaw': expected a finite number (degrees), got nan",
    ),
    (
        SOCKET + 'holding = "spanner"\n',
        f"{SOCKETS_1}'holding': expected the name of a [[prop]] of this scene, got \"spanner\"",
    ),
    (
        NAMED + SOCKET + 'holding = "ball"\n',
        f"{SOCKETS_1}'holding': expected a grabbable "
        'prop (grabbable = true; [[prop]] 1 is not), got "ball"',
    ),
    (
        WRENCH + SOCKET + 'holding = "wrench"\naccepts = ["gun"]\n',
        f"{SOCKETS_1}'holding': "
        'expected a prop with a tag the socket accepts ([[prop]] 1 has none), got "wrench"',
    ),
    (
        WRENCH + SOCKET + 'holding = "wrench"\n' + SOCKET + 'holding = "wrench"\n',
        "[[socket]] 2, key 'holding': expected a prop no other socket holds, got \"wrench\" "
        "([[socket]] 1 holds it)",
    ),
    (
        '[[socket]]\ncarried_by = "hand"\n',
        f'{SOCKETS_1}\'carried_by\': expected one of "body", got "hand"',
    ),
    (
        '[[socket]]\ncarried_by = "body"\nposition = [0, 1, 0]\n',
        f"{SOCKETS_1}'position': "
        "expected no position on a carried socket: its offset places it, got [0, 1, 0]",
    ),
    (
        SOCKET + "offset = [0, 1, 0]\n",
        f"{SOCKETS_1}'offset': expected only on a carried socket "
        '(carried_by = "body"), got [0, 1, 0]',
    ),
    (
        WRENCH + '[[socket]]\nname = "wrench"\nposition = [0, 1, 0]\n',
        f"{SOCKETS_1}'name': expected a name no other table uses, got \"wrench\" (as [[prop]] 1)",
    ),
    ('[player]\njump = "yes"\n', "[player], key 'jump': expected true or false, got \"yes\""),
    (
        "[player]\njump_speed = 4\n",
        "[player], key 'jump_speed': expected jump = true with it "
        "(the jump is off: it changes nothing)",
    ),
    (
        "[player]\njump = true\njump_speed = 0\n",
        "[player], key 'jump_speed': expected a number > 0 and < 100 (m/s), got 0",
    ),
    (
        "[player]\nsprint_toggle = true\n",
        "[player], key 'sprint_toggle': expected sprint = true "
        "with it (the sprint is off: it changes nothing)",
    ),
    (
        "[player]\nsprint = true\nsprint_multiplier = inf\n",
        "[player], key 'sprint_multiplier': expected a number > 0 and < 100, got inf",
    ),
    (
        "[player]\ncrouch_lowered = 0.5\n",
        "[player], key 'crouch_lowered': expected crouch = "
        "true with it (the crouch is off: it changes nothing)",
    ),
    (
        "[player]\ncrouch = true\ncrouch_lowered = 2\n",
        "[player], key 'crouch_lowered': expected a number > 0 and < 2 (metres), got 2",
    ),
    (
        "[player]\nhead_radius = -0.1\n",
        "[player], key 'head_radius': expected a number > 0 and < 1 (metres), got -0.1",
    ),
]


@pytest.mark.parametrize(("text", "message"), BAD_SOCKETS_AND_PLAYERS)
def test_each_bad_socket_or_player_key_is_named_with_what_was_expected(
    tmp_path: Path, text: str, message: str
) -> None:
    assert errors(tmp_path, text) == [f"{tmp_path / 'kitchen.toml'}: {message}"]


def test_every_socket_problem_is_reported_at_once(tmp_path: Path) -> None:
    found = errors(
        tmp_path,
        "[[socket]]\nradius = -1\nholding = 3\nzz = 1\n[player]\njump_speed = 0\n",
    )
    assert [m.split(": ", 1)[1].split(":")[0] for m in found] == [
        "[[socket]] 1, key 'position'",
        "[[socket]] 1, key 'radius'",
        "[[socket]] 1, key 'holding'",
        "[[socket]] 1",
        "[player], key 'jump_speed'",  # once: its value is wrong, and it needs jump = true
    ]


DOOR = """
[[prop]]
name = "door"
shape = "box"
size = [0.8, 2, 0.04]
position = [0.4, 1.02, -1]
grabbable = true
joint = { kind = "hinge", to = "frame", anchor = [-0.4, 0, 0], limits = [0, 90], friction = 0.3 }

[[box]]
name = "frame"
size = [0.1, 2.1, 0.1]
position = [-0.1, 1.05, -1]
"""
KNOBS = """
[[prop]]
name = "lever"
shape = "box"
size = [0.03, 0.3, 0.03]
position = [1, 1, -1]
grabbable = true
joint.kind = "hinge"
joint.anchor = [0, -0.15, 0]
joint.axis = [1, 0, 0]
joint.limits = [-30, 30]
joint.spring = { target = 10, stiffness = 50, damping = 5 }
lever = { detents = [-20, 20], stiffness = 5000 }

[[prop]]
name = "button"
shape = "box"
size = [0.05, 0.05, 0.02]
position = [1.5, 1, -1]
joint = { kind = "slider", axis = [0, 0, -1], limits = [0, 0.015], spring = { stiffness = 400 } }
button = { press_depth = 0.01, release_depth = 0.005, radius = 0.03 }

[[prop]]
name = "dial"
shape = "box"
size = [0.05, 0.05, 0.03]
position = [2, 1, -1]
grabbable = true
joint = { kind = "hinge", axis = [0, 0, 1] }
dial = { step = 30 }
"""


def test_joint_and_interactable_keys_spawn_joints_levers_buttons_and_dials(
    tmp_path: Path,
) -> None:
    scene = load_scene(write(tmp_path, FLOOR + DOOR + KNOBS))
    door, lever, button, dial = scene.props
    assert door.joint == SceneJoint(
        "hinge", "frame", (-0.4, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 90.0), 0.3
    )
    assert lever.joint is not None and lever.joint.spring == SceneSpring(10.0, 50.0, 5.0)
    assert lever.lever == SceneLever((-20.0, 20.0), 5000.0, Lever((0.0,)).damping)
    assert button.button == SceneButton(0.01, 0.005, 0.03)
    assert dial.dial == SceneDial(30.0) and dial.joint is not None and dial.joint.limits is None
    world, entities = _world(tmp_path, FLOOR + DOOR + KNOBS)
    world.step(1)
    hinge = world.get(entities["door"], Joint)
    assert hinge.kind is JointKind.HINGE and hinge.to == entities["frame"]
    assert hinge.limits == pytest.approx((0.0, math.pi / 2)) and hinge.friction == 0.3
    assert tuple(hinge.anchor) == (-0.4, 0.0, 0.0)
    spring = world.get(entities["lever"], Joint).spring  # the lever's detent spring by now
    assert spring is not None and spring.stiffness == 5000.0
    assert world.get(entities["lever"], Lever).detents == pytest.approx(
        (math.radians(-20), math.radians(20))
    )
    slider = world.get(entities["button"], Joint)
    assert slider.kind is JointKind.SLIDER and slider.to is None
    assert slider.spring == Spring(0.0, 400.0, Spring().damping)
    assert world.get(entities["button"], PushButton) == PushButton(0.01, 0.005, 0.03)
    assert world.get(entities["dial"], Dial).step == pytest.approx(math.radians(30))
    systems = {spec.name for spec in world.schedule.all()}
    assert "report_interactables" in systems  # the scene's levers brought their plugin
    plain, _ = _world(tmp_path, FLOOR + DOOR)  # a door alone needs none
    assert "report_interactables" not in {spec.name for spec in plain.schedule.all()}


PROP_1 = "[[prop]] 1, key "
HINGE = '{ kind = "hinge", ... }'
SLIDER = '{ kind = "slider", ... }'
BAD_JOINTS = [
    (
        BALL + 'joint = "hinge"\n',
        f"{PROP_1}'joint': expected a table of keys ({{ name = value, ... }}), got \"hinge\"",
    ),
    (
        BALL + "joint = { axis = [0, 1, 0] }\n",
        f'{PROP_1}\'joint.kind\': missing, expected one of "hinge", "slider"',
    ),
    (
        BALL + 'joint = { kind = "ball" }\n',
        f'{PROP_1}\'joint.kind\': expected one of "hinge", "slider", got "ball"',
    ),
    (
        BALL + 'joint = { kind = "hinge", axis = [0, 0, 0] }\n',
        f"{PROP_1}'joint.axis': expected a direction at least 1e-06 long, not [0, 0, 0], "
        "got [0, 0, 0]",
    ),
    (  # numbers a file may write that the maths cannot use: refused, not run to a crash
        BALL + 'joint = { kind = "hinge", axis = [1e-200, 1e-200, 0] }\n',
        f"{PROP_1}'joint.axis': expected a direction at least 1e-06 long, not [0, 0, 0], "
        "got [1e-200, 1e-200, 0]",
    ),
    (
        BALL + 'joint = { kind = "hinge", axis = [1e308, 0, 0] }\n',
        f"{PROP_1}'joint.axis': expected three numbers >= -1e+06 and <= 1e+06, got [1e+308, 0, 0]",
    ),
    (
        BALL + 'joint = { kind = "hinge", limits = [0, 200] }\n',
        f"{PROP_1}'joint.limits': expected two numbers > -180 and < 180 (degrees), got [0, 200]",
    ),
    (
        BALL + 'joint = { kind = "slider", limits = [0.3, 0] }\n',
        f"{PROP_1}'joint.limits': expected [min, max] with min <= max, got [0.3, 0]",
    ),
    (
        BALL + 'joint = { kind = "slider", friction = -1 }\n',
        f"{PROP_1}'joint.friction': expected a number >= 0 and <= 10000 (1/s), got -1",
    ),
    (
        BALL + 'joint = { kind = "hinge", spring = { stiffness = -5 } }\n',
        f"{PROP_1}'joint.spring.stiffness': expected a number >= 0 and <= 1e+06 (1/s^2), got -5",
    ),
    (
        BALL + 'joint = { kind = "hinge", sping = 1 }\n',
        "[[prop]] 1: unknown key 'joint.sping'; known keys: anchor, axis, friction, kind, "
        "limits, spring, to",
    ),
    (
        BALL + 'joint = { kind = "hinge", to = "nothing" }\n',
        f"{PROP_1}'joint.to': expected the name of a prop, box, stairs, ramp, mesh or opponent "
        'of this scene, got "nothing"',
    ),
    (
        NAMED + 'joint = { kind = "hinge", to = "ball" }\n',
        f"{PROP_1}'joint.to': expected another entity than the prop itself (or no `to`: the "
        'world), got "ball"',
    ),
    (
        BALL + 'joint = { kind = "hinge", to = "hook" }\n[[socket]]\nname = "hook"\n'
        "position = [0, 1, 0]\n",
        f"{PROP_1}'joint.to': expected an entity with a body ([[socket]] 1 is a socket: it has "
        'none), got "hook"',
    ),
    (
        BALL + "lever = { detents = [0] }\n",
        f"{PROP_1}'lever': expected a prop with a hinge joint (joint = {HINGE}) with it, got none",
    ),
    (
        BALL + 'joint = { kind = "hinge" }\nbutton = {}\n',
        f"{PROP_1}'button': expected a prop with a slider joint (joint = {SLIDER}) with it, "
        "got a hinge",
    ),
    (
        BALL + 'joint = { kind = "slider" }\ndial = {}\n',
        f"{PROP_1}'dial': expected a prop with a hinge joint (joint = {HINGE}) with it, "
        "got a slider",
    ),
    (
        BALL + 'joint = { kind = "hinge", limits = [0, 45] }\nlever = { detents = [0, 60] }\n',
        f"{PROP_1}'lever.detents': expected angles within the joint's limits, 0 to 45 degrees, "
        "got [0, 60]",
    ),
    (
        BALL + 'joint = { kind = "hinge" }\nlever = { detents = [] }\n',
        f"{PROP_1}'lever.detents': expected a list of one or more numbers, each a finite number "
        "(degrees), got []",
    ),
    (
        BALL + 'joint = { kind = "slider" }\nbutton = { press_depth = 0.004 }\n',
        f"{PROP_1}'button.release_depth': expected a depth less than press_depth (0.004), "
        "got 0.004",
    ),
    (
        BALL + 'joint = { kind = "slider", limits = [0, 0.01] }\nbutton = { press_depth = 0.02 }\n',
        f"{PROP_1}'button.press_depth': expected a depth the joint's limits let it reach (at "
        "most 0.01 metres), got 0.02",
    ),
    (
        BALL + 'joint = { kind = "hinge" }\ndial = { step = 0 }\n',
        f"{PROP_1}'dial.step': expected a number > 0 and < 360 (degrees), got 0",
    ),
]


@pytest.mark.parametrize(("text", "message"), BAD_JOINTS)
def test_each_bad_joint_or_interactable_key_is_named_with_what_was_expected(
    tmp_path: Path, text: str, message: str
) -> None:
    assert errors(tmp_path, text) == [f"{tmp_path / 'kitchen.toml'}: {message}"]


def test_every_joint_problem_is_reported_at_once(tmp_path: Path) -> None:
    found = errors(
        tmp_path,
        BALL + 'joint = { kind = "hinge", axis = 1, to = "x", zz = 1 }\n'
        "lever = { detents = [0] }\ndial = { step = -1 }\n",
    )
    assert [m.split(": ", 1)[1].split(":")[0] for m in found] == [
        "[[prop]] 1, key 'joint.axis'",
        "[[prop]] 1",  # the unknown joint.zz
        "[[prop]] 1, key 'dial.step'",  # read though the joint it needs is wrong
        "[[prop]] 1, key 'joint.to'",  # checked once every name is known
    ]


MOVING = """
[grab]
grip_toggle = true
hand_collision = true
distance_grab = true
distance_range = 4
distance_angle = 8
pull_time = 0.3

[climb]
reach = 0.1
grip_on = 0.8
grip_off = 0.2

[player]
seated = true
eye_height = 1.6

[[box]]
name = "wall"
size = [1, 3, 0.2]
position = [0, 1.5, -2]
climbable = true

[[prop]]
name = "pistol"
shape = "box"
size = [0.05, 0.15, 0.2]
position = [0.5, 1, 0]
grabbable = true
attach_right = { position = [0, -0.05, 0.02], rotation = [0, 90, 0] }
attach_ease = 0.2
second_grip = [0, 0, -0.1]
distance_grab = true

[[prop]]
name = "lift"
shape = "box"
size = [1, 0.1, 1]
kind = "kinematic"
position = [2, 0.05, 0]
path = { to = [2, 2.05, 0], period = 4 }
"""


def test_grab_climb_seated_and_moving_props_from_a_scene(tmp_path: Path) -> None:
    world, entities = _world(tmp_path, FLOOR + MOVING)
    settings = world.resource(GrabSettings)
    assert settings.grip_toggle and settings.distance_range == 4.0
    assert settings.hand_collision
    assert settings.distance_angle == pytest.approx(math.radians(8.0))
    assert settings.pull_time == 0.3
    rig = rig_of(world)
    assert world.has(rig.left_hand, DistanceGrab) and world.has(rig.right_hand, DistanceGrab)
    assert world.resource(ClimbSettings) == ClimbSettings(0.1, 0.8, 0.2)
    assert world.resource(RigSettings).eye_height == 1.6
    assert world.has(entities["wall"], Climbable)
    pistol = world.get(entities["pistol"], Grabbable)
    assert pistol.attach_left is None and pistol.attach_right is not None
    assert pistol.attach_right.position == spatial.vec3(0.0, -0.05, 0.02)
    assert spatial.yaw(pistol.attach_right.rotation) == pytest.approx(math.radians(90.0))
    assert pistol.attach_ease == 0.2 and pistol.distance_grab
    assert pistol.second_grip == spatial.vec3(0.0, 0.0, -0.1)
    lift = entities["lift"]
    assert world.get(lift, RigidBody).kind is BodyKind.KINEMATIC
    world.step(180)  # half its period: at the top
    assert world.get(lift, Transform).position.y == pytest.approx(2.05, abs=1e-6)
    world.step(180)
    assert world.get(lift, Transform).position.y == pytest.approx(0.05, abs=1e-6)


def test_hands_pass_through_the_world_unless_the_grab_table_says_hand_collision(
    tmp_path: Path,
) -> None:
    world, _ = _world(tmp_path, FLOOR)
    assert not world.resource(GrabSettings).hand_collision
    assert errors(tmp_path, FLOOR + "[grab]\nhand_collision = 1\n") == [
        f"{tmp_path / 'kitchen.toml'}: [grab], key 'hand_collision': expected true or false, got 1"
    ]


def test_the_new_keys_are_checked_all_at_once(tmp_path: Path) -> None:
    text = FLOOR + (
        "[grab]\ndistance_angle = 90\npull_time = -1\n"
        "[climb]\ngrip_on = 0.2\ngrip_off = 0.5\n"
        "[player]\neye_height = 1.6\n"
        + BALL
        + "distance_grab = true\nattach_left = { position = [0, 0] }\n"
        + BALL.replace("sphere", "box").replace("radius = 0.1", "size = [1, 0.1, 1]")
        + 'mass = 2\npath = { to = [0, 1, 0], period = 0 }\nkind = "kinematic"\n'
        + BALL
        + "path = { to = [0, 2, 0], period = 1 }\n"
    )
    file = tmp_path / "kitchen.toml"
    assert errors(tmp_path, text) == [
        f"{file}: [[prop]] 1, key 'attach_left.position': expected three numbers >= -10000 "
        "and <= 10000 (metres), got [0, 0]",
        f"{file}: [[prop]] 1, key 'distance_grab': expected distance_grab only on a grabbable "
        "prop (grabbable = true), got true",
        f"{file}: [[prop]] 2, key 'mass': expected no mass on a kinematic prop "
        '(kind = "kinematic"): nothing pushes it, got 2',
        f"{file}: [[prop]] 2, key 'path.period': expected a number >= 0.1 and <= 100000 "
        "(seconds), got 0",
        f"{file}: [[prop]] 2, key 'path.to': expected a point other than the prop's position "
        "(it moves between the two), got [0, 1, 0]",
        f"{file}: [[prop]] 3, key 'path': expected kind = \"kinematic\" with it (a path moves a "
        "kinematic prop)",
        f"{file}: [player], key 'eye_height': expected seated = true with it (the seated is "
        "off: it changes nothing)",
        f"{file}: [grab], key 'distance_angle': expected a number > 0 and < 90 (degrees), got 90",
        f"{file}: [grab], key 'pull_time': expected a number >= 0 and <= 60 (seconds), got -1",
        f"{file}: [climb], key 'grip_off': expected a grip less than grip_on (0.2), got 0.5",
        f"{file}: [climb]: expected climbable = true on a [[box]] or a [[prop]] with it "
        "(nothing of the scene is climbable: it changes nothing)",
    ]


def test_spawn_tables_place_the_players_after_the_first_in_file_order(tmp_path: Path) -> None:
    spawns = "[[spawn]]\nposition = [3, 0, -1]\nyaw = 90\n\n[[spawn]]\nposition = [-2, 0.5, 4]\n"
    player = '[player]\nposition = [1, 0, 2]\nyaw = 90\npolicy = "push_back"\n'
    scene = load_scene(write(tmp_path, FLOOR + player + spawns))
    world = World()
    world.add_plugin(physics_plugin_for(scene))
    spawn_scene(world, scene)
    first = world.resource(PlayerStart)
    starts = [player_start_for(scene, first, seat) for seat in range(4)]
    assert starts[0] is first
    assert tuple(starts[1].position) == (3.0, 0.0, -1.0)
    assert starts[1].yaw == pytest.approx(math.pi / 2)
    assert tuple(starts[2].position) == (-2.0, 0.5, 4.0) and starts[2].yaw == 0.0
    assert starts[2].policy == "push_back"  # the rest is the first player's
    # past the last [[spawn]]: 2 m a seat to the first player's right (facing -X: right is -Z)
    assert tuple(starts[3].position) == pytest.approx((1.0, 0.0, 2.0 - 6.0))
    bare = load_scene(write(tmp_path, FLOOR, "bare.toml"))
    assert bare.spawns == ()
    beside = player_start_for(bare, PlayerStart(), 1)
    assert tuple(beside.position) == (2.0, 0.0, 0.0) and beside.yaw == 0.0


def test_every_problem_of_a_spawn_table_is_reported_naming_it(tmp_path: Path) -> None:
    spawns = (
        "[[spawn]]\nposition = [0, 0, 1]\n\n"
        '[[spawn]]\nposition = [1, nan, 2]\nyaw = "left"\nfacing = 2\n\n[[spawn]]\n'
    )
    path = write(tmp_path, FLOOR + spawns)
    with pytest.raises(SceneError) as raised:
        load_scene(path)
    assert raised.value.errors == [
        f"{path}: [[spawn]] 2, key 'position': expected three numbers >= -10000 and <= 10000 "
        "(metres), got [1, nan, 2]",
        f"{path}: [[spawn]] 2, key 'yaw': expected a finite number (degrees), got \"left\"",
        f"{path}: [[spawn]] 2: unknown key 'facing'; known keys: position, yaw",
        f"{path}: [[spawn]] 3, key 'position': missing, expected three numbers >= -10000 and "
        "<= 10000 (metres)",
    ]


def test_a_label_floats_just_over_its_shape(tmp_path: Path) -> None:
    scene = load_scene(
        write(
            tmp_path,
            """
            [[box]]
            name = "panel"
            size = [0.4, 0.3, 0.05]
            position = [0, 1, -1]
            label = "VOLUME  0-7"

            [[prop]]
            name = "knob"
            shape = "sphere"
            radius = 0.02
            position = [0, 1.2, -1]
            """,
        )
    )
    world, entities = spawned(scene)
    label = world.get(entities["panel"], Label)
    assert label.text == "VOLUME  0-7" and label.offset == pytest.approx(0.15 + 0.03)
    assert not world.has(entities["knob"], Label)
