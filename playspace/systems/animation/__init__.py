"""Animation: each :class:`~playspace.components.animation.Animator` advanced by the fixed step,
its clip sampled, cross-faded from the one before, and the model's node entities placed.

It runs in the fixed step (beside the movers, before physics), so a replay draws the same
frame at the same step, and an animated node that collides (a kinematic body) moves what it
pushes. A scale channel scales what is drawn (``Transform.scale``), not its colliders.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from playspace import spatial
from playspace.components import Transform
from playspace.components.animation import AnimatedNode, Animator, Clip, F32Array
from playspace.components.visual import SkinPose
from playspace.ecs import Phase, PluginError, World, system
from playspace.formats.models.model import Matrix, skin_matrices, taken_apart
from playspace.systems.animation.sample import sample, slerp
from playspace.systems.sets import FixedSet, add_fixed_sets

Local = list[list[F32Array]]  # per node: translation, rotation (x, y, z, w), scale


@dataclass(frozen=True, slots=True)
class AnimationMarked:
    """The clip playing on `entity`'s animator passed one of its marks (``Animator.marks``):
    a footstep, a door's latch, a hand closing."""

    kind: ClassVar[str] = "animation_marked"
    entity: int
    clip: str
    mark: str


def play(
    world: World,
    entity: int,
    clip: str,
    fade: float = 0.0,
    loop: bool = True,
    speed: float = 1.0,
) -> None:
    """Play `clip` on `entity`'s animator from its start, cross-fading from what plays now over
    `fade` seconds (0: at once)."""
    animator = world.get(entity, Animator)
    if clip not in animator.clips:
        known = ", ".join(sorted(animator.clips)) or "none"
        raise PluginError(f"entity {entity} has no animation clip {clip!r}; its clips: {known}")
    if fade > 0 and animator.playing is not None:
        animator.fading_from, animator.fading_time = animator.playing, animator.time
        animator.fading_loop = animator.loop
        animator.fade_total = animator.fade_left = fade
    else:
        animator.fading_from, animator.fade_left = None, 0.0
    animator.playing, animator.time, animator.loop, animator.speed = clip, 0.0, loop, speed


@system(
    Phase.FIXED,
    in_set=FixedSet.GAME_BEFORE_PHYSICS,
    reads=(Animator,),
    writes=(Animator, Transform, SkinPose, AnimationMarked),
)
def animate(world: World) -> None:
    """Advance every animator a step and put its model's nodes where the clips say."""
    dt = world.fixed_time.dt
    for entity, animator in world.each(Animator):
        if animator.playing is None:
            continue
        clip = animator.clips[animator.playing]
        step = dt * animator.speed
        _marks(world, entity, animator, clip, animator.time, step)
        animator.time = _advanced(clip, animator.time, step, animator.loop)
        local = _posed(animator.nodes, clip, animator.time)
        if animator.fading_from is not None and animator.fade_left > 0:
            before = animator.clips[animator.fading_from]
            animator.fading_time = _advanced(
                before, animator.fading_time, step, animator.fading_loop
            )
            left = animator.fade_left - dt
            animator.fade_left = left if left > 1e-9 else 0.0  # no sliver of a fade left over
            weight = 1.0 - animator.fade_left / animator.fade_total
            local = _blended(_posed(animator.nodes, before, animator.fading_time), local, weight)
        if animator.fade_left == 0.0:
            animator.fading_from = None
        world_of = _place(world, world.get(entity, Transform), animator.nodes, local)
        _bend(world, animator, world_of)


def _advanced(clip: Clip, time: float, step: float, loop: bool) -> float:
    length = clip.duration
    if length <= 0:
        return 0.0
    ahead = time + step
    return ahead % length if loop else min(max(ahead, 0.0), length)


def _marks(
    world: World, entity: int, animator: Animator, clip: Clip, time: float, step: float
) -> None:
    """Send each mark of `clip` passed in (time, time + step], round the loop too."""
    length = clip.duration
    for at, mark in animator.marks.get(clip.name, ()):
        if length <= 0 or step <= 0:
            continue
        first = at if at > time else at + length * np.ceil((time - at) / length + 1e-12)
        reach = time + step if animator.loop else min(time + step, length)
        while first <= reach and (animator.loop or first <= length):
            if first > time:
                world.send(AnimationMarked(entity, clip.name, mark))
            if not animator.loop:
                break
            first += length


def _posed(nodes: tuple[AnimatedNode, ...], clip: Clip, time: float) -> Local:
    local = [
        [
            np.array(n.translation, np.float32),
            np.array(n.rotation, np.float32),
            np.array(n.scale, np.float32),
        ]
        for n in nodes
    ]
    slot = {"translation": 0, "rotation": 1, "scale": 2}
    for channel in clip.channels:
        if channel.node < len(nodes):
            local[channel.node][slot[channel.path]] = sample(channel, time)
    return local


def _blended(before: Local, after: Local, weight: float) -> Local:
    return [
        [
            a[0] + (b[0] - a[0]) * weight,
            slerp(a[1], b[1], weight),
            a[2] + (b[2] - a[2]) * weight,
        ]
        for a, b in zip(before, after, strict=True)
    ]


def _place(
    world: World, root: Transform, nodes: tuple[AnimatedNode, ...], local: Local
) -> Callable[[int], Matrix]:
    """Each node entity's Transform from the model's root and the chain of its parents; what
    gives any node's place in the world (each worked out once)."""
    base = _matrix(root)
    placed: dict[int, Matrix] = {}

    def world_of(index: int) -> Matrix:
        found = placed.get(index)
        if found is None:
            parent = nodes[index].parent
            above = base if parent is None else world_of(parent)
            t, r, s = local[index]
            found = placed[index] = above @ spatial.trs_matrix(t, r, s)
        return found

    for index, node in enumerate(nodes):
        if node.entity is None:
            continue
        translation, rotation, scale = taken_apart(world_of(index))
        transform = world.get(node.entity, Transform)
        transform.position = spatial.vec3(*translation)
        transform.rotation = spatial.quat_from_xyzw(rotation)
        rest = node.rest_scale
        transform.scale = spatial.vec3(*(now / then for now, then in zip(scale, rest, strict=True)))
    return world_of


def _bend(world: World, animator: Animator, world_of: Callable[[int], Matrix]) -> None:
    """Each skinned node's SkinPose, to where its joints are now (in the frame it is drawn in,
    its Transform with its scale)."""
    for skin in animator.skins:
        pose = world.try_get(skin.entity, SkinPose)
        if pose is None:
            continue
        joints = [world_of(index) for index in skin.joints]
        drawn = _matrix(world.get(skin.entity, Transform))
        pose.matrices = skin_matrices(drawn, joints, skin.inverse_binds)


def _matrix(transform: Transform) -> Matrix:
    p, s = transform.position, transform.scale
    rotation = spatial.quat_to_xyzw(transform.rotation)
    return spatial.trs_matrix((p.x, p.y, p.z), rotation, (s.x, s.y, s.z))


class AnimationPlugin:
    """Animators advance in the fixed step."""

    def build(self, world: World) -> None:
        add_fixed_sets(world)
        world.add_event(AnimationMarked)
        world.add_systems(animate)


__all__ = ["AnimationMarked", "AnimationPlugin", "animate", "play", "sample"]
