"""Hands with fingers: each hand's 26 joints posed once a frame in LATE, from how far its fingers
are curled (a controller's trigger, grip and thumb; what it holds) or from the tracked joints of
a bare hand, and the hand model's skin bent to them (:class:`~playspace.components.hands.
HandPose`, and the ``Visual`` and ``SkinPose`` the renderer draws).

The skeleton is built in the wrist's frame (x toward the little finger, y the back of the
hand, -z toward the fingers), each joint's -Z along its bone and +Y the back of the hand, as
OpenXR orients tracked joints, so a tracked hand and a posed one bend the same model alike.
Each finger bends at its three joints toward the palm, each joint turning about its own x
axis, so a finger's joints are closed-form in the cumulative bend: numpy over all fingers at
once. The thumb bends across the palm. The wrist sits behind the grip point, the palm toward
the controller's handle.
"""

from __future__ import annotations

import math
from functools import cache
from importlib import resources
from pathlib import Path

import numpy as np
import numpy.typing as npt

from playspace import spatial
from playspace.components.appearance import Appearance
from playspace.components.hands import (
    JOINTS,
    FingerCurls,
    HandDisplay,
    HandModel,
    HandPose,
    HandSkeleton,
    HoldPose,
)
from playspace.components.input import Button, HandJoints
from playspace.components.interaction import Hand, Holding
from playspace.components.tracking import DeviceRole, HandControls, TrackedDevice
from playspace.components.visual import F32Array, SkinPose, Visual, VisualPart
from playspace.ecs import Phase, PluginError, World, system
from playspace.formats.models import ModelError, read_model
from playspace.spatial import FloatArray, Pose
from playspace.systems.sets import LateSet, add_late_sets

BENDS = (math.radians(80), math.radians(100), math.radians(70))  # a finger's joints, closed
THUMB_BENDS = (math.radians(25), math.radians(45), math.radians(60))
RELAXED = 0.12  # a hand at rest is a little curled, never a flat board
THUMB_DOWN = 0.9  # a thumb on a button or the stick
KEPT = 256  # hand poses kept made
HAND_MODEL = "hands.glb"  # beside this module: made by assets/hands.py
HAND_NODES = {"left": "LeftHand", "right": "RightHand"}  # the skinned node of each side
RADII = np.array(
    [0.02, 0.016, 0.013, 0.011, 0.0095, 0.008]
    + [0.011, 0.0105, 0.0095, 0.0085, 0.0075] * 3
    + [r * 0.85 for r in (0.011, 0.0105, 0.0095, 0.0085, 0.0075)]
)  # palm, wrist, thumb (4), index, middle, ring, little (5 each)
RADII.setflags(write=False)
_POSED: dict[tuple[object, ...], FloatArray] = {}
_BENT: dict[tuple[int, int], tuple[FloatArray, FloatArray, F32Array]] = {}
_X = spatial.vec3(1.0, 0.0, 0.0)
_UP = spatial.vec3(0.0, 1.0, 0.0)
# each chain's joints' bend when closed, from its first: a finger's tip turns as its distal
_ANGLES = np.array([[*np.cumsum(BENDS), sum(BENDS)]] * 4 + [[0.0, *np.cumsum(THUMB_BENDS)]])
_BEFORE = np.tri(4, k=-1)  # a joint's position: the bones before it in its chain, summed
_CHAINS = np.array([[7 + 5 * f + k for k in range(4)] for f in range(4)] + [[2, 3, 4, 5]])


def skeleton(curls: FingerCurls, left: bool, bones: HandSkeleton) -> tuple[FloatArray, FloatArray]:
    """The 26 joints of a hand curled so, as (26, 4, 4) matrices in the hand's (grip point's)
    frame, and their radii.

    Each of the five chains (the four fingers' proximal to tip, the thumb's metacarpal to tip)
    turns about its joints' shared x axis by the curl times each joint's cumulative bend. Its
    joints' y and z axes are the chain's own turned in their plane: a complex multiplication,
    ``(y + iz) * e^(i angle)``, one numpy operation for all 20 joints. Each bone runs along
    its joint's -z, so the positions are the chain's start plus a running sum of those axes
    times the bones' lengths."""
    rest, chains, starts, axes, lengths = _rest(
        left, bones.knuckles, bones.bones, bones.thumb_base, bones.thumb_bones
    )
    curled = np.array([curls.index, curls.middle, curls.ring, curls.little, curls.thumb])
    turned = axes * np.exp(1j * (curled[:, None] * _ANGLES))[..., None]  # (5, 4, 3): y + iz
    block = chains.copy()  # each chain's joints' columns: x as it is, the rest made here
    block[..., 1], block[..., 2] = turned.real, turned.imag
    block[..., 3] = starts + _BEFORE @ (turned.imag * lengths)
    joints = rest.copy()
    joints[_CHAINS, :3] = block
    return joints, RADII


@cache
def _rest(
    left: bool,
    knuckles: tuple[tuple[float, float, float], ...],
    lengths: tuple[tuple[float, float, float], ...],
    thumb_base: tuple[float, float, float],
    thumb_lengths: tuple[float, float, float, float],
) -> tuple[FloatArray, FloatArray, FloatArray, npt.NDArray[np.complex128], FloatArray]:
    """What does not move with the curls, for one size and side, in the grip's frame: the
    joints that never bend (palm, wrist, the fingers' metacarpals, the chains' x axes, also
    as the chains' rows of columns), and
    each chain's start, unbent y and z axes (as ``y + iz``) and bones' lengths, negated (the
    bones run along -z), in :func:`skeleton`'s order: index to little, then the thumb."""
    side = -1.0 if left else 1.0
    grip = _wrist_in_grip(left)
    rest = np.zeros((JOINTS, 4, 4))
    rest[:] = np.eye(4)
    knuckle = np.array([(x * side, y, z) for x, y, z in knuckles])
    rest[0, :3, 3] = knuckle[1] * 0.5  # the palm: halfway to the middle knuckle
    for finger, (x, _, _) in enumerate(knuckles):
        base = spatial.vec3(x * side * 0.7, -0.004, -0.022)
        toward = spatial.vec3_from(knuckle[finger]) - base
        rest[6 + 5 * finger] = spatial.pose_matrix(Pose(base, spatial.look_rotation(toward, _UP)))
    toward = spatial.vec3(-0.35 * side, -0.2, -0.9)
    nail = spatial.vec3(-0.7 * side, 0.7, 0.0)
    frames = np.zeros((5, 3, 3))
    frames[:4] = np.eye(3)  # a finger's unbent joints point straight ahead
    thumb = spatial.look_rotation(toward, nail)
    frames[4] = spatial.pose_matrix(Pose(spatial.vec3(0.0, 0.0, 0.0), thumb))[:3, :3]
    x, y, z = thumb_base
    starts = np.vstack([knuckle, [(x * side, y, z)]])
    chain_lengths = np.zeros((5, 4))
    chain_lengths[:4, :3] = lengths
    chain_lengths[4, :3] = thumb_lengths[:3]  # the last bone only reaches the tip
    turn, at = grip[:3, :3], grip[:3, 3]
    frames = turn @ frames  # the chains' unbent axes in the grip's frame
    axes = (frames[:, :, 1] + 1j * frames[:, :, 2])[:, None, :]  # (5, 1, 3): y + iz
    placed = grip @ rest
    placed[_CHAINS, :3, 0] = frames[:, None, :, 0]  # a chain's x axes never turn
    starts = (starts @ turn.T + at)[:, None, :]
    return placed, placed[_CHAINS, :3], starts, axes, -chain_lengths[..., None]


def _posed(curls: FingerCurls, left: bool, bones: HandSkeleton) -> FloatArray:
    """:func:`skeleton`'s joints, made once for each pose a hand comes back to (at rest, a
    fist, a held object's), kept for the newest :data:`KEPT` poses; read only, as shared."""
    key = (curls, left, bones.knuckles, bones.bones, bones.thumb_base, bones.thumb_bones)
    found = _POSED.pop(key, None)
    if found is None:
        found, _ = skeleton(curls, left, bones)
        found.setflags(write=False)
    _POSED[key] = found
    while len(_POSED) > KEPT:
        del _POSED[next(iter(_POSED))]
    return found


def _wrist_in_grip(left: bool) -> FloatArray:
    """Where the wrist sits in the grip point's frame: behind it, the back of the hand outward,
    the thumb up, the fingers wrapping the handle."""
    roll = spatial.from_axis_angle(
        spatial.vec3(0.0, 0.0, 1.0), math.pi / 2 if left else -math.pi / 2
    )
    return spatial.pose_matrix(Pose(spatial.vec3(-0.025 if left else 0.025, -0.015, 0.075), roll))


def tracked_joints(device: Pose, joints: HandJoints) -> FloatArray:
    """A bare hand's tracked joints (in the room) in its hand entity's frame, (26, 4, 4)."""
    placed = spatial.pose_matrices(
        spatial.vec3_rows([j.position for j in joints.poses]),
        spatial.quat_rows([j.rotation for j in joints.poses]),
    )
    return np.linalg.inv(spatial.pose_matrix(device)) @ placed


def from_controls(controls: HandControls) -> FingerCurls:
    """How a hand on a controller is curled: the trigger's finger, the grip's three, and the
    thumb down on a button or the stick (else following the grip)."""
    thumb_down = bool(controls.buttons & {Button.A, Button.B, Button.X, Button.Y, Button.STICK})
    thumb_down = thumb_down or math.hypot(*controls.stick) > 0.1
    grip = max(controls.grip, RELAXED)
    return FingerCurls(
        THUMB_DOWN if thumb_down else max(0.9 * controls.grip, RELAXED),
        max(controls.trigger, RELAXED),
        grip,
        grip,
        grip,
    )


def _eased(now: FingerCurls | None, target: FingerCurls, step: float) -> FingerCurls:
    """`now` moved toward `target` by at most `step` a finger."""
    if now is None or step >= 1.0 or now == target:
        return target
    names = ("thumb", "index", "middle", "ring", "little")
    moved = []
    for name in names:
        a, b = getattr(now, name), getattr(target, name)
        moved.append(a + max(-step, min(step, b - a)))
    return FingerCurls(*moved)


@system(
    Phase.LATE,
    in_set=LateSet.HANDS,
    reads=(
        Hand,
        Holding,
        HoldPose,
        HandControls,
        TrackedDevice,
        HandSkeleton,
        HandDisplay,
        HandModel,
    ),
    writes=(HandPose, Visual, SkinPose),
)
def pose_hands(world: World) -> None:
    """Pose every hand: a bare hand from its joints, a controller's from its controls, and a
    hand holding an object that says how it is held, that way (eased in); then bend the hand
    model to the pose."""
    bones = world.resource(HandSkeleton)
    shown = world.resource(HandDisplay).hands
    model = world.try_resource(HandModel)
    dt = world.time.delta
    for entity, (hand, device) in world.query(Hand, TrackedDevice):
        if not shown:
            _hide(world, entity)
            continue
        left = hand.side is DeviceRole.LEFT_HAND
        pose = world.try_get(entity, HandPose)
        if pose is None:  # the first frame the hand is seen
            pose = HandPose()
            world.add(entity, pose)
        if not device.tracked:  # lost: drawn nowhere, as a lost controller is hidden
            pose.joints, pose.curls = HandPose().joints, None
        elif device.joints is not None:
            pose.joints = tracked_joints(device.pose, device.joints)
            pose.radii, pose.curls = np.asarray(device.joints.radii), None
        else:
            target, ease = _target(world, entity)
            curls = _eased(pose.curls, target, dt / ease if ease > 0 else 1.0)
            if curls != pose.curls or not len(pose.joints):
                pose.curls = curls
                pose.joints, pose.radii = _posed(curls, left, bones), RADII
        if model is not None:
            _bend(world, entity, pose, model, left)


def _bend(world: World, entity: int, pose: HandPose, model: HandModel, left: bool) -> None:
    """The hand model's skin on `entity`, bent to its pose (hidden while it has none)."""
    visual = model.left if left else model.right
    if model.look is not None:
        visual = _relooked(visual, model.look)
    if world.try_get(entity, Visual) is not visual:
        world.add(entity, visual)
    skin = world.try_get(entity, SkinPose)
    if not len(pose.joints):
        if skin is not None:
            skin.shown = False
        return
    binds = model.left_binds if left else model.right_binds
    if pose.curls is None:  # a tracked hand: new joints every frame
        matrices = (pose.joints @ binds).astype(np.float32)
    else:
        matrices = _bent(pose.joints, binds)
    if skin is None:
        world.add(entity, SkinPose(matrices))
    elif skin.matrices is not matrices or not skin.shown:
        skin.matrices, skin.shown = matrices, True


def _bent(joints: FloatArray, binds: FloatArray) -> F32Array:
    """The skin matrices of a posed hand's joints, made once per pose kept (:func:`_posed`)."""
    key = (id(joints), id(binds))
    found = _BENT.pop(key, None)
    if found is None or found[0] is not joints or found[1] is not binds:
        made = (joints @ binds).astype(np.float32)
        made.setflags(write=False)
        found = (joints, binds, made)
    _BENT[key] = found
    while len(_BENT) > KEPT:
        del _BENT[next(iter(_BENT))]
    return found[2]


@cache
def _relooked(visual: Visual, look: Appearance) -> Visual:
    """A hand's visual in another look (a glove's), made once per look."""
    return Visual(tuple(VisualPart(part.surface, look, part.offset) for part in visual.parts))


def _hide(world: World, entity: int) -> None:
    if world.has(entity, Visual) and world.has(entity, SkinPose):
        world.remove(entity, Visual)
        world.remove(entity, SkinPose)


def _target(world: World, hand: int) -> tuple[FingerCurls, float]:
    holding = world.try_get(hand, Holding)
    held = None if holding is None or holding.object is None else holding.object
    hold = None if held is None else world.try_get(held, HoldPose)
    if hold is not None:
        return hold.curls, hold.ease
    controls = world.try_get(hand, HandControls)
    return from_controls(controls or HandControls()), 0.05


def hand_model(path: Path) -> HandModel:
    """The rigged hands in the glTF file at `path`: a node named ``LeftHand`` and one named
    ``RightHand``, each skinned to 26 joints in OpenXR's order (palm, wrist, thumb metacarpal
    to tip, then each finger's metacarpal to tip)."""
    model = read_model(path)
    found = {node.name: node for node in model.walk()}
    made: dict[str, tuple[Visual, FloatArray]] = {}
    for side, name in HAND_NODES.items():
        node = found.get(name)
        if node is None or node.skin is None or len(node.skin.joints) != JOINTS:
            raise ModelError(
                f"{path}: expected a node {name!r} skinned to {JOINTS} joints in OpenXR's "
                "order (a rigged hand)"
            )
        parts = tuple(VisualPart(part.surface, part.look) for part in node.parts)
        # the joints' binds in the hand node's frame: the node sits at the model's origin
        made[side] = (Visual(parts), node.skin.inverse_binds)
    (left, left_binds), (right, right_binds) = made["left"], made["right"]
    return HandModel(left, right, left_binds, right_binds)


@cache
def default_hand_model() -> HandModel:
    """The project's own rigged hands, read once."""
    with resources.as_file(resources.files(__package__) / HAND_MODEL) as path:
        return hand_model(path)


class HandPosePlugin:
    """Hands with fingers at every player's hands (``HandDisplay`` chooses hands, controllers
    or both; ``HandSkeleton`` their size; ``HandModel`` what they are drawn as)."""

    def build(self, world: World) -> None:
        add_late_sets(world)
        if world.try_resource(HandSkeleton) is None:
            world.insert_resource(HandSkeleton())
        if world.try_resource(HandDisplay) is None:
            world.insert_resource(HandDisplay())
        if world.try_resource(HandModel) is None:
            try:
                world.insert_resource(default_hand_model())
            except ModelError as error:  # a broken install: say so, draw no hands
                raise PluginError(f"the hand model could not be read: {error}") from None
        world.add_systems(pose_hands)


__all__ = ["HandPosePlugin", "from_controls", "hand_model", "pose_hands", "skeleton"]
