"""Every event the built-in systems send, in one namespace: ``events.Grabbed``, ``events.Hit``.

Each is defined beside the systems that send it; here they are together, so a game reads
``world.read_events(events.Hit, reader=...)`` without a dozen names in its own namespace, and
so a reader finds every event in one place. Their names in telemetry are their class names in
snake case (``Grabbed`` is ``grabbed``).
"""

from playspace.ecs import Despawned
from playspace.systems.animation import AnimationMarked
from playspace.systems.input.tracking import TrackingRejected
from playspace.systems.interaction.events import (
    Grabbed,
    Hit,
    HoverEntered,
    HoverExited,
    LetGo,
    Released,
    Returned,
    Socketed,
    Unsocketed,
)
from playspace.systems.interaction.interactables import (
    ButtonPressed,
    ButtonReleased,
    DialTurned,
    LeverMoved,
)
from playspace.systems.physics.events import (
    ContactBegan,
    ContactEnded,
    FellOutOfWorld,
    Impact,
    Quarantined,
    SensorEntered,
    SensorExited,
)
from playspace.systems.player.events import (
    BlinkRequested,
    Blocked,
    ClimbEnded,
    ClimbStarted,
    Crouched,
    FloorSnapped,
    FloorSnapRequested,
    HeightCalibrated,
    Jumped,
    Landed,
    PlayerJoined,
    PlayerLeft,
    PlayerRescued,
    Recentered,
    RecenterRequested,
    SprintEnded,
    SprintStarted,
    StandRefused,
    StoodUp,
    Teleported,
    TeleportRefused,
    Turned,
)

__all__ = [
    "AnimationMarked",
    "BlinkRequested",
    "Blocked",
    "ButtonPressed",
    "ButtonReleased",
    "ClimbEnded",
    "ClimbStarted",
    "ContactBegan",
    "ContactEnded",
    "Crouched",
    "Despawned",
    "DialTurned",
    "FellOutOfWorld",
    "FloorSnapRequested",
    "FloorSnapped",
    "Grabbed",
    "HeightCalibrated",
    "Hit",
    "HoverEntered",
    "HoverExited",
    "Impact",
    "Jumped",
    "Landed",
    "LetGo",
    "LeverMoved",
    "PlayerJoined",
    "PlayerLeft",
    "PlayerRescued",
    "Quarantined",
    "RecenterRequested",
    "Recentered",
    "Released",
    "Returned",
    "SensorEntered",
    "SensorExited",
    "Socketed",
    "SprintEnded",
    "SprintStarted",
    "StandRefused",
    "StoodUp",
    "TeleportRefused",
    "Teleported",
    "TrackingRejected",
    "Turned",
    "Unsocketed",
]
