"""Dynamic slope quantization (Karl Johnson's technique).

On stairs and slopes the body's floor rises and falls with every step. Carrying the view up and
down with it is a roller coaster; instead the origin (the view's floor) keeps its height while
the body's floor changes, the vertical travel accumulates, and once it reaches the threshold
(0.20 m by default, either way) the origin snaps to the body's floor in one step. The floor
syncs at once when smooth movement starts and follows continuously while it lasts (the player
chose to move, and expects the view to); teleport, snap turn and recentering snap it. Each of
those asks with a :class:`~playspace.systems.player.events.FloorSnapRequested` event: no
system reaches into another's state to ask. A
threshold of 0 turns the technique off: the view then follows the floor continuously.

The view's floor is the body's feet less a virtual crouch (:class:`~playspace.components.rig.
Crouch`), which lowers the view by asking for a snap like the others, and plus seated play's
raise (:class:`~playspace.components.rig.Seated`), which does the same. A jump carries the view
along its arc by the body's own rise and fall (``playspace.systems.player.movement``): no
snap is made in the air, where the body is not grounded; a climber's body, held up by the
hands, is snapped to as on stairs (``playspace.systems.player.climb``).
"""

from __future__ import annotations

from playspace.components import Transform
from playspace.components.locomotion import Suspended
from playspace.components.physics import CharacterMotion
from playspace.components.rig import Crouch, Rig, RigSettings, Seated
from playspace.ecs import Phase, World, system
from playspace.systems.player.events import FloorSnapped, FloorSnapRequested
from playspace.systems.sets import FixedSet

SETTLED = 1e-4  # metres: closer than this, the floors already agree


@system(
    Phase.FIXED,
    in_set=FixedSet.SLOPE,
    reads=(CharacterMotion, Suspended, Rig, RigSettings, Crouch, Seated, FloorSnapRequested),
    writes=(Transform, FloorSnapped),
)
def slope_quantization(world: World) -> None:
    """Keep each origin's height until its body's floor is a threshold away, then snap; snap
    (or follow) at once when asked."""
    settings = world.resource(RigSettings)
    asked = world.read_events(FloorSnapRequested, reader=slope_quantization)
    for _, rig in world.each(Rig):
        _quantize(world, rig, settings, [r for r in asked if r.player == rig.player])


def _quantize(
    world: World, rig: Rig, settings: RigSettings, asked: list[FloorSnapRequested]
) -> None:
    """Slope quantization for one player, with the requests made for them this step."""
    origin = world.get(rig.origin, Transform)
    feet = world.get(rig.body, Transform).position.y
    floor = feet - world.get(rig.origin, Crouch).lowered + world.get(rig.origin, Seated).raised
    grounded = world.get(rig.body, CharacterMotion).grounded
    held = world.try_get(rig.body, Suspended)
    standing = grounded or (held is not None and held.held)  # on the floor, or on a climb
    dy = floor - origin.position.y
    if any(request.announced for request in asked):  # teleport, snap turn, recentering, ...
        if abs(dy) > SETTLED:
            origin.position.y = floor
            world.send(FloorSnapped(dy, rig.player))
    elif settings.slope_quantization <= 0 or asked:  # off, or following smooth movement
        origin.position.y = floor
    elif standing and abs(dy) >= settings.slope_quantization:
        origin.position.y = floor
        world.send(FloorSnapped(dy, rig.player))
