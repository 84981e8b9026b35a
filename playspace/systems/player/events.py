"""What the rig did, as ECS events; telemetry writes each with its ``kind`` as the type.

`kind` is the event's name in telemetry: its class's name in snake case (``floor_snapped``,
``turned``, ...), as for every event. Each event
says which player it concerns (``player``, the number of :class:`~playspace.components.rig.Rig`:
0 for the first); telemetry leaves out player 0's, so one player's telemetry reads as it did
before worlds had several.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from playspace.spatial import Vec3
from playspace.systems.input.tracking import TrackingRejected


@dataclass(frozen=True, slots=True)
class FloorSnapRequested:
    """Ask slope quantization to put the view's floor on the body's this step: a teleport, a
    snap turn, recentering, the start of smooth movement (`announced`: said as a floor snap)
    and every step of it after (not announced: the floor follows while the player moves)."""

    announced: bool = True
    player: int = 0  # which player (``Rig.player``)


@dataclass(frozen=True, slots=True)
class BlinkRequested:
    """Ask for the view to blink (fade out and in over the settings' blink time), hiding a
    jump of the view: a teleport, a rescue."""

    player: int = 0  # which player (``Rig.player``)


@dataclass(frozen=True, slots=True)
class FloorSnapped:
    """The origin snapped to the body's floor: the view moved by `dy` metres at once."""

    kind: ClassVar[str] = "floor_snapped"
    dy: float
    player: int = 0  # which player (``Rig.player``)


@dataclass(frozen=True, slots=True)
class Turned:
    """The origin turned around the head by `angle` radians (positive: to the left)."""

    kind: ClassVar[str] = "turned"
    angle: float
    player: int = 0  # which player (``Rig.player``)


@dataclass(frozen=True, slots=True)
class Teleported:
    kind: ClassVar[str] = "teleported"
    to: Vec3
    player: int = 0  # which player (``Rig.player``)


@dataclass(frozen=True, slots=True)
class TeleportRefused:
    """The arc ended somewhere the body cannot stand: `reason` is "slope", "room" or "none"."""

    kind: ClassVar[str] = "teleport_refused"
    to: Vec3 | None
    reason: str
    player: int = 0  # which player (``Rig.player``)


@dataclass(frozen=True, slots=True)
class Blocked:
    """The body could not follow the player: they walked into something."""

    kind: ClassVar[str] = "blocked"
    separation: float
    player: int = 0  # which player (``Rig.player``)


@dataclass(frozen=True, slots=True)
class Recentered:
    kind: ClassVar[str] = "recentered"
    player: int = 0  # which player (``Rig.player``)


@dataclass(frozen=True, slots=True)
class RecenterRequested:
    """Ask the rig to put the origin back so the player stands at the body (a command)."""

    kind: ClassVar[str] = "recenter_requested"
    player: int = 0  # which player (``Rig.player``)


@dataclass(frozen=True, slots=True)
class PlayerRescued:
    """The body left the world (`fell`: where it was) and was put back on the last safe ground
    (`to`), behind a blink; `why`: ``"fell"`` below the kill height or ``"out_of_bounds"``
    past the level's geometry across the floor."""

    kind: ClassVar[str] = "player_rescued"
    fell: Vec3
    to: Vec3
    why: str = "fell"
    player: int = 0  # which player (``Rig.player``)


@dataclass(frozen=True, slots=True)
class Jumped:
    """The body left the ground at `speed` m/s upward (the jump provider)."""

    kind: ClassVar[str] = "jumped"

    speed: float
    player: int = 0  # which player (``Rig.player``)


@dataclass(frozen=True, slots=True)
class Landed:
    """The body came down on walkable ground after `airtime` seconds in the air, at `speed`
    m/s downward: after a jump, or a fall of at least ``movement.FALL`` seconds (not the
    step or two a stair's edge takes)."""

    kind: ClassVar[str] = "landed"

    airtime: float
    speed: float
    player: int = 0  # which player (``Rig.player``)


@dataclass(frozen=True, slots=True)
class SprintStarted:
    """Smooth movement goes at the sprint's multiple of its speed from this step."""

    kind: ClassVar[str] = "sprint_started"
    player: int = 0  # which player (``Rig.player``)


@dataclass(frozen=True, slots=True)
class SprintEnded:
    """Smooth movement is back to its own speed."""

    kind: ClassVar[str] = "sprint_ended"
    player: int = 0  # which player (``Rig.player``)


@dataclass(frozen=True, slots=True)
class Crouched:
    """The player crouched: the view went down by `lowered` metres, the capsule shorter."""

    kind: ClassVar[str] = "crouched"

    lowered: float
    player: int = 0  # which player (``Rig.player``)


@dataclass(frozen=True, slots=True)
class StoodUp:
    """The player stood up from a crouch (never under something the body would not fit)."""

    kind: ClassVar[str] = "stood_up"
    player: int = 0  # which player (``Rig.player``)


@dataclass(frozen=True, slots=True)
class StandRefused:
    """The crouch button was pressed to stand, with no room for the standing body."""

    kind: ClassVar[str] = "stand_refused"
    player: int = 0  # which player (``Rig.player``)


@dataclass(frozen=True, slots=True)
class ClimbStarted:
    """A hand (`hand`: ``left_hand`` or ``right_hand``) took hold of something climbable
    while no hand held on: the body hangs from it, without gravity."""

    kind: ClassVar[str] = "climb_started"

    hand: str
    player: int = 0  # which player (``Rig.player``)


@dataclass(frozen=True, slots=True)
class ClimbEnded:
    """The last hand holding on let go: the body falls again (under gravity)."""

    kind: ClassVar[str] = "climb_ended"
    player: int = 0  # which player (``Rig.player``)


@dataclass(frozen=True, slots=True)
class HeightCalibrated:
    """Seated play's calibration: the view is raised by `raised` metres above the player's
    real head height, so the head at calibration is seen at the standing eye height."""

    kind: ClassVar[str] = "height_calibrated"

    raised: float
    player: int = 0  # which player (``Rig.player``)


@dataclass(frozen=True, slots=True)
class PlayerJoined:
    """A player joined the world while it ran (a client took a seat on a networked host):
    their number and name."""

    kind: ClassVar[str] = "player_joined"
    player: int
    name: str


@dataclass(frozen=True, slots=True)
class PlayerLeft:
    """A player left the world (their client left, or vanished): their number and name."""

    kind: ClassVar[str] = "player_left"
    player: int
    name: str


MOVEMENT_EVENTS = (Jumped, Landed, SprintStarted, SprintEnded, Crouched, StoodUp, StandRefused)

RIG_EVENTS = (
    FloorSnapped,
    Turned,
    Teleported,
    TeleportRefused,
    Blocked,
    Recentered,
    RecenterRequested,
    TrackingRejected,
    PlayerRescued,
    PlayerJoined,
    PlayerLeft,
)

PLAYER_REQUESTS = (FloorSnapRequested, BlinkRequested)  # between the player's systems only
