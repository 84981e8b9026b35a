"""A scene as read from its file: plain frozen data, checked, in the file's own terms.

Everything here has passed validation, so spawning cannot fail on a value: sizes and masses
are finite and positive, positions finite, directions unit and horizontal. Units are those of
the file (metres, kilograms, degrees) except where a field's name says otherwise; the spawner
converts degrees to rotations. Each shape's ``look`` is its ``material`` and look keys merged
into one :class:`Appearance`, or None when the file says nothing about how it looks.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from playspace.components.appearance import Appearance
from playspace.components.interaction import GrabSettings
from playspace.components.locomotion import (
    ClimbSettings,
    CrouchSettings,
    JumpSettings,
    SprintSettings,
)
from playspace.components.physics import (
    GRAVITY,
    KILL_HEIGHT,
    Box,
    Capsule,
    Cylinder,
    FallPolicy,
    Sphere,
    TriangleMesh,
)
from playspace.components.rig import (
    SLOPE_QUANTIZATION,
    RigSettings,
    SeparationPolicy,
    TurnMode,
)
from playspace.formats.models import Model
from playspace.formats.quoting import printable

Triple = tuple[float, float, float]
BodyShape = Sphere | Box | Capsule | Cylinder


class SceneError(ValueError):
    """A scene file that cannot be used, with every problem found in it (not just the first).

    Each message names the file, the table and the key, and what was expected, so a level
    designer can fix them all in one pass; ``str()`` lists one per line.
    """

    def __init__(self, errors: list[str]) -> None:
        self.errors = [printable(error) for error in errors]  # a file name may hold anything
        super().__init__("\n".join(self.errors))


@dataclass(frozen=True, slots=True)
class SceneHeard:
    """How a shape sounds: the `sound` it plays, looping, from where it is (a name in the
    sound bank, or a file), and what it sounds like struck (`sound_material`)."""

    sound: str | None = None
    material: str | None = None


@dataclass(frozen=True, slots=True)
class SceneBox:
    name: str
    size: Triple
    position: Triple
    rotation: Triple  # degrees about x, y, z; see playspace.scene for the order
    look: Appearance | None = None  # None: the file said nothing; drawn in its kind's color
    climbable: bool = False  # the hands hold on to it (the ClimbPlugin)
    drawn_as: Model | None = None  # a model drawn in place of the box (`model`)
    heard: SceneHeard | None = None  # `sound`, `sound_material`
    label: str | None = None  # text shown over it (`label`)


@dataclass(frozen=True, slots=True)
class SceneStairs:
    name: str
    position: Triple  # the foot of the first step, at the centre of its width
    direction: Triple  # unit, horizontal: the way the stairs climb
    steps: int
    rise: float
    run: float
    width: float
    look: Appearance | None = None


@dataclass(frozen=True, slots=True)
class SceneRamp:
    name: str
    position: Triple  # the centre of the slope's bottom edge
    direction: Triple  # unit, horizontal: the way the ramp rises
    length: float  # along the slope
    width: float
    angle: float  # degrees above the horizontal
    look: Appearance | None = None


@dataclass(frozen=True, slots=True)
class SceneMesh:
    name: str
    file: Path  # resolved against the scene file's folder
    shape: TriangleMesh  # the file's triangles, already scaled
    position: Triple
    rotation: Triple
    look: Appearance | None = None  # the scene's, else the file's own material


@dataclass(frozen=True, slots=True)
class SceneModel:
    """A ``[[model]]``: a glTF model placed whole (`dynamic`: as one body), `scale` times its
    size, and what the scene says instead of its extras (None: the file's word)."""

    name: str
    file: Path  # resolved against the scene file's folder
    model: Model
    position: Triple
    rotation: Triple
    scale: float = 1.0
    dynamic: bool = False
    grabbable: bool | None = None
    mass: float | None = None
    layer: str | None = None
    tags: tuple[str, ...] | None = None


@dataclass(frozen=True, slots=True)
class SceneSpring:
    """A joint's ``spring``: its `target` in the joint's unit (degrees or metres)."""

    target: float
    stiffness: float
    damping: float


@dataclass(frozen=True, slots=True)
class SceneJoint:
    """A prop's ``joint``: a hinge turns about `axis` through `anchor`, a slider moves along
    `axis`; both in the prop's own frame. `limits` and the spring's target are degrees on a
    hinge and metres on a slider, counted from where the prop is spawned."""

    kind: str  # "hinge" or "slider"
    to: str | None  # the name of the scene entity it is held to; None: the world
    anchor: Triple
    axis: Triple  # not zero
    limits: tuple[float, float] | None  # min <= max; a hinge's within (-180, 180)
    friction: float
    spring: SceneSpring | None = None


@dataclass(frozen=True, slots=True)
class SceneLever:
    detents: tuple[float, ...]  # joint angles, degrees, within the joint's limits
    stiffness: float
    damping: float


@dataclass(frozen=True, slots=True)
class SceneButton:
    press_depth: float  # metres; more than release_depth, reachable within the limits
    release_depth: float
    radius: float


@dataclass(frozen=True, slots=True)
class SceneDial:
    step: float  # degrees, > 0


@dataclass(frozen=True, slots=True)
class SceneAttach:
    """An attach point (``attach_left``, ``attach_right``): where a hand holds the prop, in
    the prop's own frame; `rotation` in degrees, as a box's."""

    position: Triple
    rotation: Triple


@dataclass(frozen=True, slots=True)
class ScenePath:
    """A kinematic prop's ``path``: from its position to `to` and back every `period`
    seconds, easing in and out at each end."""

    to: Triple  # not its position
    period: float  # > 0


@dataclass(frozen=True, slots=True)
class SceneGrab:
    """The ``[grab]`` table: how every hand grabs (``GrabSettings``, angles in degrees)."""

    grip_toggle: bool = GrabSettings().grip_toggle
    hand_collision: bool = GrabSettings().hand_collision  # physics hands stop at the world
    distance_grab: bool = False  # both hands pull what they aim at from a distance
    distance_range: float = GrabSettings().distance_range
    distance_angle: float = 10.0  # degrees
    pull_time: float = GrabSettings().pull_time


@dataclass(frozen=True, slots=True)
class SceneClimb:
    """The ``[climb]`` table: the climb's ``ClimbSettings``."""

    reach: float = ClimbSettings().reach
    grip_on: float = ClimbSettings().grip_on
    grip_off: float = ClimbSettings().grip_off


@dataclass(frozen=True, slots=True)
class SceneProp:
    name: str
    shape: BodyShape
    mass: float
    position: Triple  # of the shape's centre
    rotation: Triple
    grabbable: bool
    layer: str
    look: Appearance | None = None
    tags: tuple[str, ...] = ()  # what sockets accept it by (a grabbable's Grabbable.tags)
    joint: SceneJoint | None = None  # a lever and a dial come with a hinge, a button a slider
    lever: SceneLever | None = None
    button: SceneButton | None = None
    dial: SceneDial | None = None
    kinematic: bool = False  # moved by its path or a game, not pushed; then `mass` is unused
    path: ScenePath | None = None  # only on a kinematic prop
    climbable: bool = False
    attach_left: SceneAttach | None = None  # these five only on a grabbable prop
    attach_right: SceneAttach | None = None
    attach_ease: float = 0.0  # seconds
    second_grip: Triple | None = None  # a second grab point, in the prop's frame
    distance_grab: bool = False
    drawn_as: Model | None = None  # a model drawn in place of the shape (`model`)
    heard: SceneHeard | None = None  # `sound`, `sound_material`
    label: str | None = None  # text shown over it (`label`)


@dataclass(frozen=True, slots=True)
class SceneSocket:
    """A ``[[socket]]`` table: a snap zone, fixed in the world or carried by the player's
    body (a holster), where `position` and `rotation` are then its offset from the body."""

    name: str
    zone: Sphere | Box
    position: Triple  # the zone's centre; from the body's feet when `carried_by` is "body"
    rotation: Triple  # degrees, as a box's
    snap_position: Triple  # where a socketed object's origin goes, in the socket's frame
    snap_yaw: float  # degrees, in the socket's frame
    accepts: tuple[str, ...] = ()  # tags; empty: every grabbable
    return_after: float | None = None  # seconds; None: a dropped object stays where it fell
    holding: str | None = None  # the name of the prop it starts with
    carried_by: str | None = None  # "body": a holster; None: fixed in the world


@dataclass(frozen=True, slots=True)
class SceneOpponent:
    name: str
    shape: BodyShape
    position: Triple  # where it stands: the bottom of its shape
    yaw: float  # degrees, positive turning left
    look: Appearance | None = None
    drawn_as: Model | None = None  # a model drawn in place of the shape (`model`)
    heard: SceneHeard | None = None  # `sound`, `sound_material`
    label: str | None = None  # text shown over it (`label`)


@dataclass(frozen=True, slots=True)
class ScenePlayer:
    position: Triple = (0.0, 0.0, 0.0)
    yaw: float = 0.0  # degrees
    slope_quantization: float = SLOPE_QUANTIZATION
    policy: str = SeparationPolicy.FADE.value  # what walking into a wall does
    turn: str = TurnMode.SNAP.value
    jump: bool = False  # the movement providers the scene turns on, and their settings
    jump_speed: float = JumpSettings().speed
    sprint: bool = False
    sprint_multiplier: float = SprintSettings().multiplier
    sprint_toggle: bool = SprintSettings().toggle
    crouch: bool = False
    crouch_lowered: float = CrouchSettings().lowered
    head_radius: float | None = None  # None: the rig's own
    seated: bool = False  # the view raised to a standing player's eye height
    eye_height: float = RigSettings().eye_height


@dataclass(frozen=True, slots=True)
class SceneSpawn:
    """A ``[[spawn]]`` table: where a player after the first starts (the second player at the
    first table, and so on), their feet at `position` (metres) facing `yaw` degrees."""

    position: Triple
    yaw: float = 0.0  # degrees


@dataclass(frozen=True, slots=True)
class ScenePhysics:
    gravity: Triple = GRAVITY
    kill_height: float = KILL_HEIGHT
    fall_policy: FallPolicy = FallPolicy.REMOVE
    layers: tuple[str, ...] = ()  # layers the scene adds to the defaults


@dataclass(frozen=True, slots=True)
class Viewpoint:
    """The ``[camera]`` table: where the scene's own camera stands and the point it looks at,
    world space, metres (the two differ), and its vertical field of view in degrees (None: the
    preview's, 90 degrees across)."""

    position: Triple
    look_at: Triple
    fov: float | None = None


@dataclass(frozen=True, slots=True)
class Scene:
    """One scene file, every table read and checked."""

    path: Path
    name: str
    boxes: tuple[SceneBox, ...] = ()
    stairs: tuple[SceneStairs, ...] = ()
    ramps: tuple[SceneRamp, ...] = ()
    meshes: tuple[SceneMesh, ...] = ()
    models: tuple[SceneModel, ...] = ()
    props: tuple[SceneProp, ...] = ()
    opponents: tuple[SceneOpponent, ...] = ()
    sockets: tuple[SceneSocket, ...] = ()
    player: ScenePlayer = ScenePlayer()
    spawns: tuple[SceneSpawn, ...] = ()  # where the players after the first start
    physics: ScenePhysics = ScenePhysics()
    camera: Viewpoint | None = None  # None: the file has no [camera] table
    grab: SceneGrab = SceneGrab()
    climb: SceneClimb = SceneClimb()
    sounds: dict[str, Path] = field(default_factory=dict)  # [sounds]: a name and its file

    @property
    def climbable(self) -> bool:
        """Whether anything of the scene can be climbed (it then needs the ClimbPlugin)."""
        return any(b.climbable for b in self.boxes) or any(p.climbable for p in self.props)

    def summary(self) -> str:
        """What the scene holds, for people: ``2 boxes, 1 stairs, 3 props``."""
        counts = (
            (len(self.boxes), "box", "boxes"),
            (len(self.stairs), "stairs", "stairs"),
            (len(self.ramps), "ramp", "ramps"),
            (len(self.meshes), "mesh", "meshes"),
            (len(self.models), "model", "models"),
            (len(self.props), "prop", "props"),
            (len(self.opponents), "opponent", "opponents"),
            (len(self.sockets), "socket", "sockets"),
        )
        parts = [f"{n} {one if n == 1 else many}" for n, one, many in counts if n]
        return ", ".join(parts) or "empty"

    def warnings(self) -> list[str]:
        """What loads but will not play as its author meant: nothing to stand on, props that
        start inside each other (physics pushes them apart, gently, as they start)."""
        found = []
        if not (self.boxes or self.stairs or self.ramps or self.meshes):
            found.append("nothing to stand on: the player and every prop fall out of the world")
        props = self.props
        for i, a in enumerate(props):
            for b in props[i + 1 :]:
                gap = sum((p - q) ** 2 for p, q in zip(a.position, b.position, strict=True)) ** 0.5
                if gap < _inner(a.shape) + _inner(b.shape):
                    found.append(
                        f"props {a.name!r} and {b.name!r} start inside each other "
                        f"({gap:.2f} m apart): they are pushed apart as the scene starts"
                    )
        return found


def _inner(shape: BodyShape) -> float:
    """How far from its centre a shape surely reaches, whatever way it is turned."""
    if isinstance(shape, Box):
        return min(shape.size) / 2
    return shape.radius
