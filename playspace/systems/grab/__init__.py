"""Grab, hold, let go and held-object collision layers (DESIGN.md, "Grab, held-object layers,
throw").

Add :class:`GrabPlugin` after the rig: the rig's hands become kinematic bodies with a grab
sensor, and every entity with ``Grabbable`` can be picked up, passes through walls while held,
ghosts inside them and cannot hit opponents through them. Add the throw's plugin
(:class:`~playspace.systems.throw.ThrowPlugin`) after it, and what is let go flies from the
controller's centre of mass.
"""

from __future__ import annotations

from playspace.components import TrackedDevice
from playspace.components.interaction import GrabSettings, Hand
from playspace.components.physics import BodyKind, Collider, Colliders, RigidBody, Sphere
from playspace.components.rig import Rig
from playspace.ecs import PluginError, World
from playspace.systems.grab.events import GRAB_EVENTS, TELEMETRY_EVENTS
from playspace.systems.grab.gone import forget_despawned
from playspace.systems.grab.hold import grab, hold
from playspace.systems.grab.layers import Twins, held_layers, make_twins
from playspace.systems.sets import add_fixed_sets


class GrabPlugin:
    """Hands that grab, hold and let go; `settings` for reach, grip thresholds and the throw."""

    def __init__(self, settings: GrabSettings | None = None) -> None:
        self.settings = settings or GrabSettings()

    def build(self, world: World) -> None:
        rig = world.try_resource(Rig)
        if rig is None:
            raise PluginError("GrabPlugin needs the RigPlugin (for the hands): add it first")
        world.insert_resource(self.settings)
        world.insert_resource(Twins())
        for kind in GRAB_EVENTS:
            world.add_event(kind)
        for entity in (rig.left_hand, rig.right_hand):
            side = world.get(entity, TrackedDevice).role
            sensor = Collider(Sphere(self.settings.reach), layer="hands", sensor=True)
            world.add(entity, Hand(side), RigidBody(kind=BodyKind.KINEMATIC), Colliders(sensor))
        add_fixed_sets(world)
        world.add_systems(make_twins, forget_despawned, grab, hold, held_layers)


__all__ = ["TELEMETRY_EVENTS", "GrabPlugin"]
