"""The sounds the world makes by itself: what its bodies do, heard without a game asking.

An impact (physics' :class:`~playspace.systems.physics.events.Impact`: a contact's force rose
past three times the moving body's weight) plays the struck body's material from where it is
drawn, louder for a harder knock: the knock's change of speed (its impulse over the body's
mass), full at 4 m/s, and a little lower in pitch the harder it is, as a bigger blow rings
lower. A held object ghosting inside a wall touches nothing (the held layer collides with no
scenery), so it makes no sound there.
"""

from __future__ import annotations

from playspace.components.audio import PlaySound, SurfaceSound
from playspace.components.physics import BodyKind, RigidBody
from playspace.ecs import Phase, World, system
from playspace.spatial import vec3
from playspace.systems.audio.placing import drawn_at
from playspace.systems.physics.events import Impact
from playspace.systems.sets import LateSet

FULL_SPEED = 4.0  # m/s of a knock's change of speed that sounds at full volume
QUIETEST = 0.02  # a knock softer than this (of full) is not heard at all
MASS_UNKNOWN = 1.0  # kg: a body whose mass comes from its density


def material_of(world: World, entity: int) -> str:
    """What `entity` sounds like: its SurfaceSound, else wood when it moves, stone when not."""
    given = world.try_get(entity, SurfaceSound)
    if given is not None:
        return given.material
    body = world.try_get(entity, RigidBody)
    return "wood" if body is not None and body.kind is BodyKind.DYNAMIC else "stone"


@system(
    Phase.LATE,
    in_set=LateSet.SOUND,
    reads=(Impact, SurfaceSound, RigidBody),
    writes=(PlaySound,),
)
def impact_sounds(world: World) -> None:
    """A knock for every impact this frame, from the moving body."""
    for impact in world.read_events(Impact, reader="impact sounds"):
        body = world.try_get(impact.a, RigidBody)
        mass = body.mass if body is not None and body.mass else MASS_UNKNOWN
        strength = min(1.0, impact.impulse / mass / FULL_SPEED)
        at = drawn_at(world, impact.a)
        if strength < QUIETEST or at is None:
            continue
        world.send(
            PlaySound(
                f"impact_{material_of(world, impact.a)}",
                at=vec3(*at),
                volume=strength,
                pitch=1.1 - 0.2 * strength,
            )
        )
