"""The physics debug view's data: Rapier's own outlines of every collider, and its contacts.

Rapier's debug-render pipeline walks the engine's bodies, colliders and contact pairs and
emits colored line segments: each collider's shape (fixed orange, dynamic purple, kinematic
blue, darker while asleep; sensors too, and the player's capsule, which the scene's surfaces
do not show), and, with contacts on, each contact point's normal (white) and depth (green).
That is what a player debugging "why did I not fit through there" or "why does this crate
float" needs to see, drawn from the engine itself rather than from the components that asked
for it.

The lines go into the :class:`~playspace.components.debug.PhysicsDebug` resource once a frame
(RENDER, after every fixed step of the frame and LATE's placement), and only while ``shown``:
hidden, the system reads one flag and returns, and the pipeline is not even built until the
view is first shown.
The outlines are where the last fixed step left the bodies, not where LATE interpolated them
for drawing, so a fast body's outline may lead its surface by up to one step.
"""

from __future__ import annotations

import numpy as np
import rapier3d as rp

from playspace.components.debug import PhysicsDebug
from playspace.ecs import Phase, World
from playspace.systems.physics.engine import Physics

_SHAPES = rp.DebugRenderMode.COLLIDER_SHAPES
_CONTACTS = rp.DebugRenderMode.CONTACTS


class PhysicsDebugView:
    """The system that fills ``PhysicsDebug`` while it is shown; it keeps Rapier's pipeline
    (made on first use) between frames."""

    def __init__(self) -> None:
        self._pipeline: rp.DebugRenderPipeline | None = None

    def build(self, world: World) -> None:
        """Add the resource (unless a game added its own first) and this system."""
        if world.try_resource(PhysicsDebug) is None:
            world.insert_resource(PhysicsDebug())
        world.add_system(
            self,
            phase=Phase.RENDER,  # after LATE, whose placement touches the physics resource
            reads=(Physics,),
            writes=(PhysicsDebug,),
            name="physics_debug",
        )

    def run(self, world: World) -> None:
        debug = world.resource(PhysicsDebug)
        if not debug.shown:
            if len(debug.lines):  # just hidden: nothing stale is kept for the next showing
                debug.lines = np.zeros((0, 2, 3), dtype=np.float32)
                debug.colors = np.zeros((0, 4), dtype=np.float32)
            return
        mode = _SHAPES | _CONTACTS if debug.contacts else _SHAPES
        if self._pipeline is None:
            self._pipeline = rp.DebugRenderPipeline(mode)
        elif self._pipeline.mode.bits != mode.bits:
            self._pipeline.mode = mode
        debug.lines, debug.colors = world.resource(Physics).debug_lines(self._pipeline)
