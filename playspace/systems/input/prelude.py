"""Input a game drives its world with without a headset, and where tracked devices are in the
world."""

from playspace.systems.input import (
    ReplaySource,
    ScriptedSource,
    device_pose,
    hand_input,
    standing_frame,
)
from playspace.systems.input.placement import tracked_world_pose

__all__ = [
    "ReplaySource",
    "ScriptedSource",
    "device_pose",
    "hand_input",
    "standing_frame",
    "tracked_world_pose",
]
