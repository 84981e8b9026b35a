"""Seated play with height calibration, as a plugin a game adds from code.

A seated player's eyes are half a metre lower than a standing player's: the world looms, the
table is at their chin. Godot XR Tools' player height offset and XRI's floor offset answer it
the same way, and so does this: the view is raised by a calibration offset (the origin's
:class:`~playspace.components.rig.Seated`), so the head's height when calibrated is seen at
``RigSettings.eye_height`` (1.7 m). The capsule grows with it, so the body is the height of the
player it shows.

The calibration is made the first time the head is tracked, and again at each recentering (a
player who sat down differently recenters, as in a headset's own menu); a game calls
:func:`calibrate_seated` at any other time (its own "calibrate height" button). The offset is kept
between calibrations: a seated player who stands up sees the view go up by as much as they
rose (a head at 1.2 m seen at 1.7 m stands to 1.6 m and sees from 2.1 m), as in XR Tools,
because the view that follows the head is what keeps a headset comfortable. The view moves to
the new height at once, as a floor snap.
"""

from __future__ import annotations

from playspace.components import TrackedDevice
from playspace.components.rig import Rig, RigSettings, Seated
from playspace.ecs import Phase, PluginError, World, system
from playspace.systems.player.events import FloorSnapRequested, HeightCalibrated, Recentered
from playspace.systems.player.follow import body_follow
from playspace.systems.player.locomotion import recenter
from playspace.systems.player.players import PlayerSetups, local_rig
from playspace.systems.sets import FixedSet


def calibrate_seated(world: World, rig: Rig | None = None) -> float | None:
    """Raise the view so the head of `rig`'s player (the player this process shows if None),
    where it is now, is seen at the rig's standing eye height; the offset (metres), or None
    while the head is not tracked (or there is no such player). Sends `HeightCalibrated`."""
    rig = rig or local_rig(world)
    if rig is None:
        return None
    head = world.get(rig.head, TrackedDevice)
    if not head.tracked:
        return None
    raised = world.resource(RigSettings).eye_height - head.pose.position.y
    seated = world.get(rig.origin, Seated)
    seated.raised, seated.calibrated = raised, True
    world.send(FloorSnapRequested(player=rig.player))
    world.send(HeightCalibrated(raised, rig.player))
    return raised


@system(
    Phase.FIXED,
    in_set=FixedSet.RIG,
    after=(recenter,),
    before=(body_follow,),
    reads=(Rig, RigSettings, TrackedDevice, Recentered),
    writes=(Seated, FloorSnapRequested, HeightCalibrated),
)
def seated_calibration(world: World) -> None:
    """Calibrate each player when their head is first tracked and whenever they recenter."""
    recentered = {e.player for e in world.read_events(Recentered, reader=seated_calibration)}
    for _, rig in world.each(Rig):
        if rig.player in recentered or not world.get(rig.origin, Seated).calibrated:
            calibrate_seated(world, rig)


class SeatedPlugin:
    """Seated play (after the rig): the view raised to a standing player's eye height."""

    def build(self, world: World) -> None:
        if world.try_resource(PlayerSetups) is None:
            raise PluginError("SeatedPlugin needs the player's plugin (RigPlugin): add it first")
        height = world.resource(RigSettings).eye_height
        if not 0.0 < height < float("inf"):
            raise PluginError(
                f"SeatedPlugin: RigSettings.eye_height must be positive, got {height!r}"
            )
        world.add_event(HeightCalibrated)
        world.add_systems(seated_calibration)


__all__ = ["SeatedPlugin", "calibrate_seated", "seated_calibration"]
