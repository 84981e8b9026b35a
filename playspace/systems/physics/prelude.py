"""Physics as a game uses it: the plugin, the engine's resource (queries), layers, movers."""

from playspace.systems.physics import Layers, Physics, PhysicsPlugin, RayHit, ShapeHit
from playspace.systems.physics.movers import MoverPlugin

__all__ = ["Layers", "MoverPlugin", "Physics", "PhysicsPlugin", "RayHit", "ShapeHit"]
