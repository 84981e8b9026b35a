"""A way of moving in one file: a dash, added as a locomotion provider.

Press A on the right controller and the player dashes 2 m where the head faces, in a quarter
of a second, with collision: the dash carries the body through its ``CharacterMotion``, as
walking does, and a wall ends it. While it dashes it
takes the step (it is exclusive), so turning waits; walking and teleport aiming come before it
in the order and go on. It carries the player continuously, so the comfort vignette darkens the
view's edges, and a snowball thrown mid-dash keeps the dash's speed. Nothing else in the
runtime knows it exists: this is how a game adds climbing or flying too.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from playspace.prelude import (
    Button,
    CharacterMotion,
    HandControls,
    OriginMotion,
    Rig,
    TrackedDevice,
    Transform,
    World,
    add_provider,
    local_rig,
    locomotion_provider,
    on_origin,
    set_up_players,
    spatial,
    tracked_world_pose,
)

SCENE = "roomscale.toml"
TRACE = "traces/dash.jsonl"

DISTANCE = 2.0  # metres a dash covers when nothing is in the way
DURATION = 0.25  # seconds it takes
ORDER = 12  # after walking (5) and teleport (10), before turning (15)


@dataclass(slots=True)
class Dash:
    """The dash under way: metres left, its heading, and how far it pushed last step; whether A
    was let go since the last one; how far each dash went. On each player's origin: every
    player dashes on their own."""

    left: float = 0.0
    heading: float = 0.0
    asked: float = 0.0  # metres pushed last step
    armed: bool = True
    dashes: list[float] = field(default_factory=list)


@locomotion_provider(
    ORDER,
    exclusive=True,
    reads=(Rig, HandControls, TrackedDevice, Transform),
    writes=(Dash, CharacterMotion, OriginMotion),
)
def dash(world: World, rig: Rig, disabled: bool) -> bool:
    """Start a dash on A; carry the body (the origin follows it) until it is done or stopped."""
    state = world.get(rig.origin, Dash)
    pressed = Button.A in world.get(rig.right_hand, HandControls).buttons
    if disabled:
        state.left = 0.0
        return False
    if not pressed:
        state.armed = True
    elif state.armed and state.left <= 0.0:
        origin = world.get(rig.origin, Transform)
        head = tracked_world_pose(origin.pose(), world.get(rig.head, TrackedDevice).pose)
        state.left, state.heading, state.armed = DISTANCE, spatial.yaw(head.rotation), False
        state.dashes.append(0.0)
    motion = world.get(rig.body, CharacterMotion)
    if state.dashes and state.asked:  # what the controller made of last step's push
        went = spatial.length(motion.carried_made)
        state.dashes[-1] += went
        if went < 0.5 * state.asked:
            state.left = 0.0  # a wall ends it
    state.asked = 0.0
    if state.left <= 0.0:
        return False
    step = min(state.left, DISTANCE / DURATION * world.fixed_time.dt)
    push = spatial.rotate(spatial.yaw_rotation(state.heading), spatial.vec3(0.0, 0.0, -step))
    motion.carried = motion.carried + push
    state.left, state.asked = state.left - step, step
    world.get(rig.origin, OriginMotion).continuous = True
    return True


def build(world: World) -> None:
    """The dash: its state on every player, and the provider."""
    set_up_players(world, on_origin(Dash))
    add_provider(world, dash)


def summary(world: World) -> str:
    rig = local_rig(world)
    went = [] if rig is None else world.get(rig.origin, Dash).dashes
    return f"dashes: {len(went)} ({', '.join(f'{d:.2f} m' for d in went) or 'none'})"
