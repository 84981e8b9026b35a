"""What a despawned entity leaves behind in grab, hold, throw and the held-object layers.

A game despawns things whenever its rules say: a snowball that hit, a pan dropped into a bin,
a bee swatted while the player holds it. Hands, the holds and the layers keep entity ids
(what a hand holds, each held object's record, each grabbable's sensor twins and what they
overlap, each hand's pose history, what each socket holds), and an id that outlives its entity
breaks the next system that looks it up, or stays for good (three entries a grabbable, a leak
over a long session).
This system forgets them, from the ``Despawned`` events, before anything of the step reads
them; the systems after it skip an entity despawned later in the same step.
"""

from __future__ import annotations

from playspace.components import Transform
from playspace.components.interaction import Grabbable, Holding, Hover
from playspace.components.joints import Joint
from playspace.components.physics import Colliders, RigidBody
from playspace.components.sockets import Socket
from playspace.ecs import Despawned, Phase, World, on_event, system
from playspace.systems.interaction.events import HoverExited, LetGo
from playspace.systems.interaction.hold import empty, open_hand
from playspace.systems.interaction.layers import HeldSensors
from playspace.systems.interaction.sockets import give_back
from playspace.systems.physics import Physics
from playspace.systems.sets import FixedSet


def forget(world: World, entity: int, components: dict[type, object]) -> None:
    """Drop every reference to `entity` (which had `components`) the grab systems keep: a
    hand holding it holds nothing (a hand hovering it says it stopped), a socket holding it is
    empty, what a socket held is given back as it was, what a hand held is let go where it is
    (a player who left), and its sensor twins and what they overlapped are forgotten."""
    gone_hand = components.get(Holding)
    if isinstance(gone_hand, Holding) and gone_hand.object is not None:
        open_hand(world, entity, gone_hand, tracked=False)
    for _, holding in world.each(Holding):
        if holding.object == entity:
            empty(holding)
    for hand, hover in world.each(Hover):
        if hover.object == entity:
            hover.object = None
            world.send(HoverExited(hand, entity))
    for _, socket in world.each(Socket):
        if socket.holding == entity:
            socket.holding, socket.before = None, None
        if socket.hovering == entity:
            socket.hovering = None
        if socket.home == entity:
            socket.home, socket.away = None, 0
        if socket.carried_by == entity:
            socket.carried_by = None  # stays where its carrier last left it
    gone_socket = components.get(Socket)
    if isinstance(gone_socket, Socket) and gone_socket.holding is not None:
        give_back(world, gone_socket.holding, gone_socket.before)  # a rack taken away: it falls
    held = world.resource(HeldSensors)
    for table in (held.sensors, held.inside):
        table.pop(entity, None)
    held.dropped.discard(entity)
    for overlaps in held.inside.values():  # an environment collider that went away
        overlaps.difference_update({seen for seen in overlaps if seen[0] == entity})


@system(
    Phase.FIXED,
    in_set=FixedSet.DESPAWNED,
    run_if=on_event(Despawned),
    reads=(Despawned, Transform, Joint),
    writes=(
        Holding,
        Hover,
        Socket,
        Grabbable,
        RigidBody,
        Colliders,
        HeldSensors,
        Physics,
        HoverExited,
        LetGo,
    ),
)
def forget_despawned(world: World) -> None:
    """Forget entities despawned since the last step."""
    for gone in world.read_events(Despawned, reader=forget_despawned):
        forget(world, gone.entity, gone.components)
