"""Physics as plain data: bodies, collider shapes, layers by name, the character capsule.

The physics system (``playspace.systems.physics``) turns these into Rapier objects and keeps
the two in step. Sizes are validated when a component is made, so a zero radius or a NaN mass
is an error at the line that wrote it, not a NaN inside the engine three steps later.

Units: metres, kilograms, radians. Box sizes are *full* extents, as in scene files (Rapier
takes half extents; the physics system converts). Capsule and cylinder heights are the total
height, caps included, as in Unity and Godot.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING, TypeAlias

import numpy as np

from playspace import spatial
from playspace.components.checks import check_finite
from playspace.spatial import Pose, Quat, Vec3


def _positive(value: float, what: str) -> None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TypeError(f"{what} must be a number, got {value!r}")
    if not math.isfinite(value) or value <= 0:
        raise ValueError(f"{what} must be a finite number > 0, got {value!r}")


def _points(points: Sequence[Sequence[float]], what: str, minimum: int) -> None:
    if len(points) < minimum:
        raise ValueError(f"{what} needs at least {minimum} points, got {len(points)}")
    if _all_finite(points, 3):
        return  # the common case at numpy's pace; else find the first bad point to name it
    for i, p in enumerate(points):
        if len(p) != 3 or not all(isinstance(c, int | float) and math.isfinite(c) for c in p):
            raise ValueError(f"{what} point {i} must be three finite numbers, got {p!r}")


@dataclass(frozen=True, slots=True)
class Sphere:
    radius: float

    def __post_init__(self) -> None:
        _positive(self.radius, "sphere radius")


@dataclass(frozen=True, slots=True)
class Box:
    """A box of full extents `size` (x, y, z), centred on its collider's offset."""

    size: tuple[float, float, float]

    def __post_init__(self) -> None:
        if len(self.size) != 3:
            raise ValueError(f"box size must be [x, y, z], got {self.size!r}")
        for axis, extent in zip("xyz", self.size, strict=True):
            _positive(extent, f"box size {axis}")


@dataclass(frozen=True, slots=True)
class Capsule:
    """An upright capsule: `height` is the total height, both caps included."""

    radius: float
    height: float

    def __post_init__(self) -> None:
        _positive(self.radius, "capsule radius")
        _positive(self.height, "capsule height")
        if self.height < 2 * self.radius:
            raise ValueError(
                f"capsule height ({self.height}) must be at least twice its radius "
                f"({self.radius}): the height includes both caps"
            )


@dataclass(frozen=True, slots=True)
class Cylinder:
    """An upright cylinder of total `height`."""

    radius: float
    height: float

    def __post_init__(self) -> None:
        _positive(self.radius, "cylinder radius")
        _positive(self.height, "cylinder height")


@dataclass(frozen=True, slots=True)
class ConvexHull:
    """The convex hull of `points` (at least four, not all in a plane). Points given as lists
    are kept as tuples: a hull is a value, and equal hulls share what physics made of them."""

    points: tuple[tuple[float, float, float], ...]

    def __post_init__(self) -> None:
        _points(self.points, "convex hull", 4)
        as_tuples = tuple((float(x), float(y), float(z)) for x, y, z in self.points)
        object.__setattr__(self, "points", as_tuples)


def _rows(rows: Sequence[Sequence[float]], width: int, kinds: str) -> np.ndarray | None:
    """`rows` as one numpy array of `width` columns of numbers of `kinds` (numpy's kind
    letters), or None when they are not that: the common case checked at numpy's pace."""
    try:
        array = np.asarray(rows)
    except (ValueError, TypeError):
        return None
    if array.ndim != 2 or array.shape[1] != width or array.dtype.kind not in kinds:
        return None
    return array


def _all_finite(rows: Sequence[Sequence[float]], width: int) -> bool:
    """Whether `rows` are all `width` finite numbers."""
    array = _rows(rows, width, "iuf")
    return array is not None and bool(np.isfinite(array).all())


def _all_indices(rows: Sequence[Sequence[int]], count: int) -> bool:
    """Whether `rows` are all three whole numbers in [0, count)."""
    array = _rows(rows, 3, "iu")
    return array is not None and bool(((array >= 0) & (array < count)).all())


@dataclass(frozen=True, slots=True)
class TriangleMesh:
    """Triangles over `vertices`; for static geometry (a mesh has no inside to push out of)."""

    vertices: tuple[tuple[float, float, float], ...]
    triangles: tuple[tuple[int, int, int], ...]

    def __post_init__(self) -> None:
        _points(self.vertices, "triangle mesh", 3)
        if not self.triangles:
            raise ValueError("triangle mesh needs at least one triangle")
        count = len(self.vertices)
        if _all_indices(self.triangles, count):
            return
        for i, tri in enumerate(self.triangles):
            if len(tri) != 3 or not all(isinstance(v, int) and 0 <= v < count for v in tri):
                raise ValueError(
                    f"triangle {i} must be three vertex indices in [0, {count}), got {tri!r}"
                )


Shape = Sphere | Box | Capsule | Cylinder | ConvexHull | TriangleMesh

if TYPE_CHECKING:
    import numpy.typing as npt

    Surface: TypeAlias = tuple[npt.NDArray[np.float32], npt.NDArray[np.uint32]]
else:  # numpy.typing only where types are checked: it costs 15 ms of every start
    Surface = tuple[np.ndarray, np.ndarray]
"""Triangles as the engine has them: vertices (N, 3) and indices (M, 3), counter-clockwise
seen from outside."""


@dataclass(slots=True)
class ColliderSurfaces:
    """The surfaces the physics engine collides with where a shape's data does not say; a
    resource the physics system fills and the renderer reads.

    A ``ConvexHull`` holds points, not a surface: the engine builds the hull, and two hull
    algorithms can disagree on points that are nearly in a face (which survive, how the face
    is split). So the surface of each hull the engine has built is kept here, and whatever
    draws a hull draws the one things collide with. `hulls` is keyed by the shape's value
    (equal point lists share one entry); the arrays are read-only. Entries are only added, so
    the number of them says when a reader has something new to look at.
    """

    hulls: dict[ConvexHull, Surface] = field(default_factory=dict)


# The named collision layers every world has (what collides with what is the physics system's
# matrix, systems/physics/layers.py); a scene may add its own, up to MAX_LAYERS in all.
DEFAULT_LAYERS = (
    "environment",
    "player",
    "hands",
    "props",
    "held",
    "opponents",
    "ghost",
    "dropped",
    "probe",
)
MAX_LAYERS = 32  # Rapier's interaction groups are 32 bits
GRAVITY = (0.0, -9.81, 0.0)  # m/s^2, a world's unless its scene says (Rapier's own is zero)
KILL_HEIGHT = -50.0  # metres: below this a body has fallen out of the world


class FallPolicy(Enum):
    """What happens to a body that falls below the kill height."""

    REMOVE = "remove"
    RESPAWN = "respawn"


class BodyKind(Enum):
    """How a body moves: by the solver, by its Transform, or not at all."""

    DYNAMIC = "dynamic"
    KINEMATIC = "kinematic"
    FIXED = "fixed"


@dataclass(slots=True)
class RigidBody:
    """A body the physics engine simulates (dynamic), follows (kinematic) or keeps still.

    Give `mass` in kilograms, spread over the solid colliders by volume; or leave it None and
    the colliders' densities decide. A kinematic body follows its Transform every step through
    Rapier's next-kinematic-position, so what it pushes gets a real velocity. A field changed
    at run time through ``world.get_mut`` (so physics sees it) takes effect on the next step:
    `kind`, a given `mass` (spread over the solid parts again), the damping, the gravity scale
    and `ccd`. A body keeps the mass it was given whatever its parts become.
    """

    kind: BodyKind = BodyKind.DYNAMIC
    mass: float | None = None
    linear_damping: float = 0.0
    angular_damping: float = 0.0
    gravity_scale: float = 1.0
    ccd: bool = False
    can_sleep: bool = True

    def __post_init__(self) -> None:
        if not isinstance(self.kind, BodyKind):
            raise TypeError(f"body kind must be a BodyKind, got {self.kind!r}")
        if self.mass is not None:
            _positive(self.mass, "body mass")
        check_finite(self.linear_damping, "linear damping", 0.0)
        check_finite(self.angular_damping, "angular damping", 0.0)
        check_finite(self.gravity_scale, "gravity scale")


@dataclass(frozen=True, slots=True)
class Collider:
    """One collision shape of a body, placed at `offset` in the body's frame.

    `layer` names a layer of the :class:`~playspace.systems.physics.Layers` matrix. A collider
    is a value, checked when it is made: to change one while the game runs, put a new one in
    its place in the body's ``Colliders`` (``dataclasses.replace(part, friction=0.0)``, through
    ``world.get_mut``), so a value the constructor refuses never reaches a body. Physics
    compares the new one with what it built: a new shape, offset or `sensor` rebuilds the
    collider (what touched it is touched anew); the layer, the surface (friction, restitution,
    density) and `report_contacts` are changed on the collider as it is.

    A `sensor` detects overlaps and pushes nothing; sensors always report enter and exit,
    solids report contacts when `report_contacts` is set (contact events for every collider
    would cost a Python call per touching pair).
    """

    shape: Shape
    offset: Pose = field(default_factory=Pose.identity)
    layer: str = "props"
    sensor: bool = False
    friction: float = 0.5
    restitution: float = 0.0
    density: float = 1000.0
    report_contacts: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.shape, Shape):
            raise TypeError(f"collider shape must be one of {_SHAPE_NAMES}, got {self.shape!r}")
        if not isinstance(self.offset, Pose):
            raise TypeError(f"collider offset must be a Pose, got {self.offset!r}")
        if not self.layer or not isinstance(self.layer, str):
            raise ValueError(f"collider layer must be a layer name, got {self.layer!r}")
        check_finite(self.friction, "friction", 0.0)
        check_finite(self.restitution, "restitution", 0.0)
        _positive(self.density, "density")


_SHAPE_NAMES = "Sphere, Box, Capsule, Cylinder, ConvexHull, TriangleMesh"


# the fields of a Collider the engine builds its collider from: a new value rebuilds it
BUILT_FROM = ("shape", "offset", "sensor")
# the fields of its surface, changed on the engine's collider as it is
SURFACE = ("friction", "restitution", "density")


def check_parts(parts: Sequence[object]) -> None:
    """Refuse what a body cannot be made of: no part, or a part that is not a Collider."""
    if not parts:
        raise ValueError("Colliders needs at least one Collider")
    for i, part in enumerate(parts):
        if not isinstance(part, Collider):
            raise TypeError(f"collider part {i} must be a Collider, got {part!r}")


@dataclass(slots=True, init=False)
class Colliders:
    """The colliders of one entity's body (an entity may carry several), in order.

    `parts` is a plain list: parts may be appended, cut, replaced or the list assigned anew
    while the game runs (the held-object layers add and remove sensor twins, a crouching
    capsule is replaced), through ``world.get_mut(entity, Colliders)``; the physics system
    builds what changed before the next step, and refuses a list the constructor would.
    Events name a part by its index here.
    """

    parts: list[Collider]

    def __init__(self, *parts: Collider) -> None:
        check_parts(parts)
        self.parts = list(parts)


def _finite_vector(value: Vec3 | Quat | None, what: str) -> None:
    if value is not None and not all(math.isfinite(c) for c in value):
        raise ValueError(f"{what} must be finite, got {value}")


@dataclass(frozen=True, slots=True)
class Teleport:
    """Move a body at once to `position` (and `rotation`, else keeping its own), with no
    velocity from the jump and no drawing in between: a respawn, a rescue, a teleport."""

    entity: int
    position: Vec3
    rotation: Quat | None = None

    def __post_init__(self) -> None:
        _finite_vector(self.position, f"entity {self.entity}: teleport position")
        _finite_vector(self.rotation, f"entity {self.entity}: teleport rotation")


@dataclass(frozen=True, slots=True)
class SetVelocity:
    """Set a body moving (m/s; rad/s, else its spin is kept): a throw, a door pushed open. A
    body spawned this step and not yet in the engine gets it when it is made."""

    entity: int
    linear: Vec3
    angular: Vec3 | None = None

    def __post_init__(self) -> None:
        _finite_vector(self.linear, f"entity {self.entity}: velocity")
        _finite_vector(self.angular, f"entity {self.entity}: angular velocity")


@dataclass(frozen=True, slots=True)
class ApplyImpulse:
    """Push a body (N s) before the next step."""

    entity: int
    impulse: Vec3

    def __post_init__(self) -> None:
        _finite_vector(self.impulse, f"entity {self.entity}: impulse")


BodyCommand: TypeAlias = Teleport | SetVelocity | ApplyImpulse


@dataclass(slots=True)
class BodyCommands:
    """What systems ask of bodies besides their components, a resource: the physics system
    applies it, in the order it was sent, as the step begins and again just before Rapier
    steps (bevy_rapier's ``Velocity`` and ``ExternalImpulse``, as requests). Gameplay never
    calls the engine: it edits components and sends these."""

    queue: list[BodyCommand] = field(default_factory=list)

    def send(self, command: BodyCommand) -> None:
        self.queue.append(command)


@dataclass(slots=True)
class PreviousTransform:
    """Where a moving body was one fixed step ago, so LATE can draw it in between."""

    position: Vec3 = field(default_factory=lambda: spatial.vec3(0.0, 0.0, 0.0))
    rotation: Quat = field(default_factory=spatial.identity)


@dataclass(slots=True)
class CharacterBody:
    """An upright capsule moved by Rapier's kinematic character controller.

    The entity's Transform is at the capsule's *feet*, where a VR developer puts a rig's floor.
    `step_height` is the highest step it climbs, `max_slope` (radians) the steepest slope it
    walks up; `snap_to_ground` keeps it on the floor going down steps and slopes.
    """

    radius: float = 0.2
    height: float = 1.7
    step_height: float = 0.35
    max_slope: float = math.radians(45.0)
    snap_to_ground: float = 0.2
    layer: str = "player"

    def __post_init__(self) -> None:
        _positive(self.radius, "character radius")
        _positive(self.height, "character height")
        if self.height < 2 * self.radius:
            raise ValueError(
                f"character height ({self.height}) must be at least twice its radius "
                f"({self.radius})"
            )
        check_finite(self.step_height, "step height", 0.0)
        check_finite(self.snap_to_ground, "snap to ground", 0.0)
        check_finite(self.max_slope, "max slope", 0.0)
        if self.max_slope >= math.pi / 2:
            raise ValueError(f"max slope must be below 90 degrees, got {self.max_slope!r} rad")


@dataclass(slots=True)
class CharacterMotion:
    """What a character should do this step, and what it did: the only way to move one.

    Set `desired` (a translation in metres for this step, world space, across the floor: where
    the player's body follows the player) and add to `carried` (a locomotion provider's move,
    the same way). The character system consumes both, the carried move first, with collision
    and steps, and reports `carried_made` (what the carried move became: a wall stops it, a
    step lifts it), `moved` (the whole translation made), `grounded`, and `vertical_speed`
    (negative while falling; gravity is the controller's).
    """

    desired: Vec3 = field(default_factory=lambda: spatial.vec3(0.0, 0.0, 0.0))
    carried: Vec3 = field(default_factory=lambda: spatial.vec3(0.0, 0.0, 0.0))
    carried_made: Vec3 = field(default_factory=lambda: spatial.vec3(0.0, 0.0, 0.0))
    moved: Vec3 = field(default_factory=lambda: spatial.vec3(0.0, 0.0, 0.0))
    grounded: bool = False
    vertical_speed: float = 0.0
