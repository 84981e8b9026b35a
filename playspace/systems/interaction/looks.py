"""How the hands' interactions look, said once a frame in LATE for whatever draws the world
(DESIGN.md, "Looks, sound, animation"):

- what a free hand would take if it gripped now is highlighted (XRI's hover tint);
- a held object inside the environment is a ghost (BeeBeeQ's held-object layers), and a
  physics hand the table stops shows its controller again, as a ghost, inside the table;
- a socket that would take what a hand holds if it let go now shows its zone, see-through in
  the hover color (XRI's socket hover mesh), so the player sees where the object will snap.
"""

from __future__ import annotations

from playspace.components import Transform
from playspace.components.drawn import Ghosts, Highlights, Marker, Markers, Tint
from playspace.components.interaction import Grabbable, Hover, PhysicsHand
from playspace.components.sockets import Socket
from playspace.ecs import Phase, World, system
from playspace.systems.interaction.layers import HeldSensors
from playspace.systems.sets import LateSet


@system(
    Phase.LATE,
    in_set=LateSet.HANDS,
    reads=(Hover, PhysicsHand, HeldSensors, Grabbable, Socket, Transform),
    writes=(Highlights, Ghosts, Markers),
)
def show_hands(world: World) -> None:
    """Say what the hands highlight, what is seen through walls and where sockets take."""
    highlights = world.resource(Highlights)
    highlights.entities = {h.object for _, h in world.each(Hover) if h.object is not None}
    ghosts = world.resource(Ghosts)
    held = world.resource(HeldSensors).sensors  # every held object, ghost or not
    ghosts.entities = {
        e for e in held if (grabbable := world.try_get(e, Grabbable)) and grabbable.ghost
    }
    ghosts.copies = {
        e: hand.controller
        for e, hand in world.each(PhysicsHand)
        if hand.blocked and hand.controller is not None
    }
    for entity, (socket, transform) in world.query(Socket, Transform):
        markers = world.try_get(entity, Markers)
        if markers is None:  # the first frame the socket is seen: once, not each frame
            markers = Markers()
            world.add(entity, markers)
        if socket.hovering is not None:
            zone = Marker(socket.zone, (transform.pose(),), Tint.HOVER, see_through=True)
            markers.shown = [zone]
        elif markers.shown:
            markers.shown = []


__all__ = ["show_hands"]
