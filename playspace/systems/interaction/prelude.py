"""Interaction as a game uses it: grab and throw, haptics, levers, buttons and dials, trails."""

from playspace.systems.interaction import GrabPlugin, ThrowPlugin, release_velocity
from playspace.systems.interaction.haptics import HapticsPlugin
from playspace.systems.interaction.interactables import InteractablesPlugin
from playspace.systems.interaction.trails import TrailPlugin

__all__ = [
    "GrabPlugin",
    "HapticsPlugin",
    "InteractablesPlugin",
    "ThrowPlugin",
    "TrailPlugin",
    "release_velocity",
]
