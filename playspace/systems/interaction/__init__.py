"""Interaction: grab, hold, let go, held-object collision layers and the throw (DESIGN.md,
"Grab, held-object layers, throw").

Add :class:`GrabPlugin` after the rig: the rig's hands become kinematic bodies with a grab
sensor, and every entity with ``Grabbable`` can be picked up, passes through walls while held,
ghosts inside them and cannot hit opponents through them. A free hand says what it hovers
(``HoverEntered``, ``HoverExited``), and an entity with a ``Socket`` (``sockets.py``) snaps in
the accepted grabbables let go inside its zone. Add :class:`ThrowPlugin` after it,
and what is let go flies from the controller's centre of mass. A grabbable on a ``Joint`` is
moved through its joint instead (``hold.py``); :class:`InteractablesPlugin`
(``interactables.py``) adds levers, buttons and dials, pressed by a tracked hand's index tip
(a poke) or a controller's grip point. A hand that collides (``PhysicsHand.collide``,
``GrabSettings.hand_collision``) stops at the environment while the tracked hand goes on
(``hand_collision.py``).

:func:`release_velocity` (``estimate.py``) is a plain function of timestamped controller poses
(no world, no components), so it can be used and tested on its own; ``python
benchmarks/throw_accuracy.py`` measures it against the velocity the player meant, beside
SteamVR's, XRI's and Godot XR Tools' estimators and the source's 5-step average, each as a
multiple of what a least-squares fit of the same samples reaches with hindsight. The throw
plugin calls it when the grab system has let an object go (``LetGo``): taking and giving back
are the grab system's, the throw only computes the velocity it leaves with.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from playspace.components import TrackedDevice
from playspace.components.drawn import Ghosts, Highlights
from playspace.components.interaction import (
    GrabSettings,
    Grip,
    Hand,
    Holding,
    Hover,
    PhysicsHand,
)
from playspace.components.physics import BodyKind, Collider, Colliders, RigidBody, Sphere
from playspace.components.rig import Rig
from playspace.ecs import PluginError, World
from playspace.systems.interaction.despawned import forget_despawned
from playspace.systems.interaction.estimate import (
    AVERAGE_STEPS,
    DEFAULT_MAX_ANGULAR_SPEED,
    DEFAULT_MAX_SPEED,
    DEFAULT_WINDOW,
    GATE_MIN_SPEED,
    GATE_RATIO,
    GATE_STEPS,
    Estimator,
    release_velocity,
)
from playspace.systems.interaction.events import (
    GRAB_EVENTS,
    HOVER_EVENTS,
    INTERACTABLE_EVENTS,
    SOCKET_EVENTS,
    TELEMETRY_EVENTS,
    ButtonPressed,
    ButtonReleased,
    DialTurned,
    LeverMoved,
)
from playspace.systems.interaction.hand_collision import collide_hands
from playspace.systems.interaction.hold import grab, hold
from playspace.systems.interaction.layers import HeldSensors, held_layers
from playspace.systems.interaction.looks import show_hands
from playspace.systems.interaction.pullable import Pullable
from playspace.systems.interaction.sockets import sockets
from playspace.systems.interaction.throw import ThrowHistory, ThrowPlugin
from playspace.systems.player.players import PlayerSetups, set_up_players
from playspace.systems.sets import add_fixed_sets, add_late_sets

if TYPE_CHECKING:
    from playspace.systems.interaction.interactables import InteractablesPlugin
else:
    # Levers, buttons and dials load when first asked for (PEP 562): a world whose scene has
    # none never imports their systems, and a start-up does not pay for them (their events are
    # plain data, with the other interaction events).
    _INTERACTABLES = frozenset(("InteractablesPlugin",))

    def __getattr__(name: str) -> object:
        if name not in _INTERACTABLES:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f"{__name__}.interactables"), name)
        globals()[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted({*globals(), *_INTERACTABLES})


class GrabPlugin:
    """Hands that grab, hold and let go; `settings` for reach, grip thresholds and the throw."""

    def __init__(self, settings: GrabSettings | None = None) -> None:
        self.settings = settings or GrabSettings()

    def build(self, world: World) -> None:
        if world.try_resource(PlayerSetups) is None:
            raise PluginError("GrabPlugin needs the RigPlugin (for the hands): add it first")
        world.insert_resource(self.settings)
        world.insert_resource(HeldSensors())
        world.insert_resource(Pullable())
        world.insert_resource(Highlights())
        world.insert_resource(Ghosts())
        for kind in (*GRAB_EVENTS, *HOVER_EVENTS, *SOCKET_EVENTS):
            world.add_event(kind)
        set_up_players(world, self._hands)
        add_fixed_sets(world)
        add_late_sets(world)
        world.add_systems(
            forget_despawned, collide_hands, grab, hold, held_layers, sockets, show_hands
        )

    def _hands(self, world: World, rig: Rig) -> None:
        """Make a player's two tracked hands hands that grab: each a kinematic sensor sphere
        of the reach on the ``hands`` layer, with its grip, hold, hover and physics hand."""
        for entity in (rig.left_hand, rig.right_hand):
            side = world.get(entity, TrackedDevice).role
            sensor = Collider(Sphere(self.settings.reach), layer="hands", sensor=True)
            world.add(
                entity,
                Hand(side, player=rig.player),
                Grip(),
                Holding(),
                Hover(),
                PhysicsHand(),
                RigidBody(kind=BodyKind.KINEMATIC),
                Colliders(sensor),
            )


__all__ = [
    "AVERAGE_STEPS",
    "DEFAULT_MAX_ANGULAR_SPEED",
    "DEFAULT_MAX_SPEED",
    "DEFAULT_WINDOW",
    "GATE_MIN_SPEED",
    "GATE_RATIO",
    "GATE_STEPS",
    "INTERACTABLE_EVENTS",
    "TELEMETRY_EVENTS",
    "ButtonPressed",
    "ButtonReleased",
    "DialTurned",
    "Estimator",
    "GrabPlugin",
    "InteractablesPlugin",
    "LeverMoved",
    "ThrowHistory",
    "ThrowPlugin",
    "release_velocity",
]
