"""Joints a model states become playspace's hinges and sliders: a door by its node's extras, a
door and a drawer by the Khronos physics extension (limits on the joint node's axes), held
within their limits when pushed; a joint that is neither is said, not made."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from playspace import spatial
from playspace.app.models import spawn_model
from playspace.components import Transform
from playspace.components.joints import Joint, JointKind, Spring
from playspace.components.physics import BodyCommands, RigidBody, SetVelocity
from playspace.ecs import World
from playspace.formats.models import ModelError, read_model
from playspace.formats.models.write import ModelSpec, write_glb
from tests.model_helpers import glb_json, rewritten, surface
from tests.physics_helpers import physics_world

KHR = "KHR_physics_rigid_bodies"
HINGE_ABOUT_Y = [
    {"linearAxes": [0, 1, 2], "min": 0, "max": 0},
    {"angularAxes": [0, 2], "min": 0, "max": 0},
    {"angularAxes": [1], "min": -1.2, "max": 0.0},
]


def _door(tmp_path: Path, extras: dict[str, Any] | None = None) -> Path:
    """A frame (static) and a door 1 m wide hung on its left edge, at x = 0 (a -rigid body),
    the door's own hinge node at that edge."""
    return write_glb(
        tmp_path / "door.glb",
        [
            ModelSpec("Frame-boxcol", surface("box", (0.1, 2.0, 0.1)), translation=(-0.1, 1, 0)),
            ModelSpec(
                "Door-rigid",
                surface("box", (1.0, 2.0, 0.05), (0.5, 0.0, 0.0)),
                translation=(0.0, 1.0, 0.0),
                extras=extras,
                children=[ModelSpec("Hinge", translation=(0.0, 0.0, 0.0))],
            ),
        ],
    )


def _swing(world: World, door: int, speed: float) -> float:
    """Turn the door hard about its hinge one way for a second: how far its joint went."""
    for _ in range(90):
        middle = spatial.rotate(world.get(door, Transform).rotation, spatial.vec3(0.5, 0.0, 0.0))
        spin = spatial.vec3(0.0, speed, 0.0)
        turning = SetVelocity(door, spatial.cross(spin, middle), spin)  # about the hinge
        world.resource(BodyCommands).send(turning)
        world.step(1)
    return world.get(door, Joint).position


def test_a_door_s_extras_hang_it_on_a_hinge_within_its_limits(tmp_path: Path) -> None:
    hinge = {"kind": "hinge", "axis": [0, 1, 0], "limits": [0.0, 1.6], "friction": 2.0}
    model = read_model(_door(tmp_path, {"joint": hinge}))
    assert "1 joints (hinge 1)" in model.summary()
    world = physics_world()
    door = spawn_model(world, model)["Door"]
    joint = world.get(door, Joint)
    assert (joint.kind, joint.to, joint.limits, joint.friction) == (
        JointKind.HINGE, None, (0.0, 1.6), 2.0)  # fmt: skip
    assert tuple(joint.axis) == pytest.approx((0.0, 1.0, 0.0))
    assert _swing(world, door, 3.0) == pytest.approx(1.6, abs=0.05)  # open to its limit
    assert _swing(world, door, -3.0) == pytest.approx(0.0, abs=0.05)  # and shut, no further
    assert world.get(door, RigidBody).kind.value == "dynamic"


def test_the_physics_extension_s_joint_is_a_hinge_or_a_slider(tmp_path: Path) -> None:
    """The frame's joint node connects to the door: the door turns about the node's Y between
    -1.2 and 0 as the extension measures it (the connected node from the joint node)."""
    path = _door(tmp_path)
    document = glb_json(path)
    nodes = document["nodes"]
    door_index = next(i for i, n in enumerate(nodes) if n["name"] == "Door-rigid")
    nodes[0]["extensions"] = {KHR: {"joint": {"connectedNode": door_index, "joint": 0}}}
    document["extensions"] = {KHR: {"physicsJoints": [{"limits": HINGE_ABOUT_Y}]}}
    model = read_model(rewritten(path, document))
    world = physics_world()
    door = spawn_model(world, model)["Door"]
    joint = world.get(door, Joint)
    assert (joint.kind, joint.to, joint.limits) == (JointKind.HINGE, None, (-1.2, 0.0))
    assert tuple(joint.anchor) == pytest.approx((-0.1, 0.0, 0.0))  # the frame's node, in the door
    assert _swing(world, door, -3.0) == pytest.approx(-1.2, abs=0.05)
    assert _swing(world, door, 3.0) == pytest.approx(0.0, abs=0.05)


def test_a_slider_from_the_extension_keeps_its_drive_as_a_spring(tmp_path: Path) -> None:
    """A joint every angle of which is locked, Z free within 0.4 m, is a slider; its drive
    pulls it to its target."""
    path = _door(tmp_path)
    document = glb_json(path)
    nodes = document["nodes"]
    hinge = next(i for i, n in enumerate(nodes) if n["name"] == "Hinge")
    nodes[hinge]["extensions"] = {KHR: {"joint": {"connectedNode": 0, "joint": 0}}}
    slide = [
        {"angularAxes": [0, 1, 2], "min": 0, "max": 0},
        {"linearAxes": [0, 1], "min": 0, "max": 0},
        {"linearAxes": [2], "min": 0.0, "max": 0.4},
    ]
    drive = {"type": "linear", "axis": 2, "positionTarget": 0.1, "stiffness": 300, "damping": 30}
    document["extensions"] = {KHR: {"physicsJoints": [{"limits": slide, "drives": [drive]}]}}
    world = physics_world()
    door = spawn_model(world, read_model(rewritten(path, document)))["Door"]
    joint = world.get(door, Joint)
    # the joint node is in the door: the door's travel is the frame's, seen from it, turned round
    assert (joint.kind, joint.limits) == (JointKind.SLIDER, (-0.4, 0.0))
    assert joint.spring == Spring(-0.1, 300.0, 30.0)
    assert tuple(joint.axis) == pytest.approx((0.0, 0.0, 1.0))
    world.step(180)  # the drive pulls the drawer to its target
    assert joint.position == pytest.approx(-0.1, abs=0.02)


def test_a_joint_that_is_neither_hinge_nor_slider_is_said_and_left(tmp_path: Path) -> None:
    path = _door(tmp_path)
    document = glb_json(path)
    document["nodes"][0]["extensions"] = {KHR: {"joint": {"connectedNode": 1, "joint": 0}}}
    ball = [{"linearAxes": [0, 1, 2], "min": 0, "max": 0}]  # a ball joint: every angle free
    document["extensions"] = {KHR: {"physicsJoints": [{"limits": ball}]}}
    model = read_model(rewritten(path, document))
    assert any("leaves angular x, angular y, angular z free" in said for said in model.unused)
    world = physics_world()
    assert not world.has(spawn_model(world, model)["Door"], Joint)


@pytest.mark.parametrize(
    ("joint", "message"),
    [
        ({"kind": "ball"}, r"extras\.joint\.kind: expected one of \['hinge', 'slider'\]"),
        ({"kind": "hinge", "to": "Nowhere"}, r"extras\.joint\.to: expected the name of a node"),
        ({"kind": "hinge", "limits": [1, 0]}, r"extras\.joint\.limits: expected \[min, max\]"),
        ({"kind": "hinge", "axis": [0, 0, 0]}, r"extras\.joint\.axis: expected a direction"),
        ({"kind": "slider", "spring": {"stiffness": -1}}, r"extras\.joint\.spring: expected"),
        ({"kind": "hinge", "friction": -1}, r"extras\.joint\.friction: expected a number"),
    ],
)
def test_wrong_joint_extras_name_the_node_and_key(
    tmp_path: Path, joint: dict[str, Any], message: str
) -> None:
    with pytest.raises(ModelError, match=r"nodes\[1\]" + r".*" + message):
        read_model(_door(tmp_path, {"joint": joint}))
