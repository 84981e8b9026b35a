"""Climbing: Godot XR Tools' ``movement_climb`` with its ``climbable`` bodies, as a plugin a
game adds from code.

A hand that grips (past ``ClimbSettings.grip_on``) within ``reach`` of a body marked
:class:`~playspace.components.locomotion.Climbable` holds on where it is. While a hand holds on,
the body is pulled opposite to that hand's motion since it gripped, so the hand stays where it
took hold: pulling the hand down lifts the player. With two hands on, the newest grip leads, so
a climber goes hand over hand. The body is held up (the body's
:class:`~playspace.components.locomotion.Suspended`): no gravity while any hand holds on; when
the last lets go, it falls.

The pull is a move the character controller makes with collision, up and down included, so a
climber pulled into an overhang stops at it. The view follows it across the floor at once (as
any carried move) and upward in slope quantization's snaps, not continuously: the view's floor
keeps its height while the body climbs, and joins the body's feet each time they are a threshold
(0.20 m) away, as on a staircase. With quantization off, the view follows the climb
continuously, and the gripping hand is then seen exactly where it took hold.

The provider is exclusive while a hand holds on: walking, teleport and turning wait.
"""

from __future__ import annotations

from playspace import spatial
from playspace.components import DeviceRole, TrackedDevice, Transform
from playspace.components.locomotion import (
    Climbable,
    ClimbHold,
    ClimbSettings,
    ClimbState,
    Suspended,
)
from playspace.components.physics import CharacterMotion, Sphere
from playspace.components.rig import OriginMotion, Rig
from playspace.components.tracking import HandControls
from playspace.ecs import PluginError, World
from playspace.systems.input.placement import tracked_world_pose
from playspace.systems.physics import Physics
from playspace.systems.player.events import ClimbEnded, ClimbStarted
from playspace.systems.player.players import set_up_players
from playspace.systems.player.poses import hand_entity
from playspace.systems.player.providers import add_provider, locomotion_provider

CLIMB_ORDER = 1  # first: a climber holding on takes the step from every other way of moving


def _on_climbable(world: World, rig: Rig, at: spatial.Vec3, reach: float) -> bool:
    """Whether something climbable is within `reach` of the world point `at`."""
    near = world.resource(Physics).overlap(Sphere(reach), at, spatial.identity(), exclude=rig.body)
    return any(world.has(entity, Climbable) for entity, _ in near)


@locomotion_provider(
    CLIMB_ORDER,
    exclusive=True,
    reads=(Rig, ClimbSettings, TrackedDevice, HandControls, Transform, Physics, Climbable),
    writes=(ClimbState, Suspended, CharacterMotion, OriginMotion, ClimbStarted, ClimbEnded),
)
def climb(world: World, rig: Rig, disabled: bool) -> bool:
    """Hold on with the hands that grip at something climbable; pull the body by the newest."""
    settings, state = world.resource(ClimbSettings), world.get(rig.origin, ClimbState)
    origin = world.get(rig.origin, Transform)
    feet = world.get(rig.body, Transform).position
    climbing = bool(state.holds)
    for role in (DeviceRole.LEFT_HAND, DeviceRole.RIGHT_HAND):
        device = world.get(hand_entity(rig, role), TrackedDevice)
        grip = world.get(hand_entity(rig, role), HandControls).grip
        was = state.gripping.get(role, False)
        grips = grip >= settings.grip_on or (was and grip > settings.grip_off)
        state.gripping[role] = grips
        if not grips or not device.tracked or disabled:
            state.holds.pop(role, None)
        elif not was:
            at = tracked_world_pose(origin.pose(), device.pose).position
            if _on_climbable(world, rig, at, settings.reach):
                state.grips += 1
                where = spatial.Vec3(device.pose.position)
                state.holds[role] = ClimbHold(where, spatial.Vec3(feet), state.grips)
                if not climbing and len(state.holds) == 1:
                    world.send(ClimbStarted(role.value, rig.player))
    suspended = world.get(rig.body, Suspended)
    suspended.held = bool(state.holds)
    if not state.holds:
        if climbing:
            world.send(ClimbEnded(rig.player))
        return False
    role, lead = max(state.holds.items(), key=lambda item: item[1].rank)
    hand_now = world.get(hand_entity(rig, role), TrackedDevice)
    pulled = spatial.rotate(origin.rotation, hand_now.pose.position - lead.hand_at)
    motion = world.get(rig.body, CharacterMotion)
    motion.carried = motion.carried + (lead.feet_at - pulled - feet)
    world.get(rig.origin, OriginMotion).continuous = True
    return True


def _climber(world: World, rig: Rig) -> None:
    """What a player climbs with: the climb's state on the origin, the body's suspension."""
    world.add(rig.origin, ClimbState())
    world.add(rig.body, Suspended())


class ClimbPlugin:
    """Climbing (after the rig): hands hold on to :class:`Climbable` bodies and pull the
    player along them."""

    def __init__(self, settings: ClimbSettings | None = None) -> None:
        self.settings = settings or ClimbSettings()

    def build(self, world: World) -> None:
        s = self.settings
        if not (0.0 < s.reach < float("inf")):
            raise PluginError(f"ClimbPlugin: reach must be a positive number, got {s.reach!r}")
        if not (0.0 <= s.grip_off < s.grip_on <= 1.0):
            raise PluginError(
                "ClimbPlugin: grip_off and grip_on must satisfy 0 <= grip_off < grip_on <= 1, "
                f"got {s.grip_off!r} and {s.grip_on!r}"
            )
        add_provider(world, climb)
        world.insert_resource(s)
        set_up_players(world, _climber)
        for kind in (ClimbStarted, ClimbEnded):
            world.add_event(kind)


__all__ = ["ClimbPlugin", "climb"]
