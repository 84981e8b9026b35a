"""Reading a scene file: TOML in, a checked :class:`Scene` out, or one SceneError with them all.

Tables are counted from 1 in file order, as a person counts them (``[[box]] 2`` is the
second box). Every key is checked, unknown keys and tables included, before anything is
built, so a scene either loads whole or not at all.
"""

from __future__ import annotations

import math
import os
import re
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from playspace.components.appearance import Appearance
from playspace.components.interactables import Dial, Lever, PushButton
from playspace.components.interaction import GrabSettings
from playspace.components.joints import SHORTEST_AXIS, Spring
from playspace.components.locomotion import ClimbSettings
from playspace.components.physics import (
    DEFAULT_LAYERS,
    GRAVITY,
    KILL_HEIGHT,
    MAX_LAYERS,
    Box,
    Capsule,
    Cylinder,
    FallPolicy,
    Sphere,
)
from playspace.components.rig import SLOPE_QUANTIZATION, SeparationPolicy, TurnMode
from playspace.formats.files import MB, input_problem
from playspace.formats.meshes import MeshFileError, read_material
from playspace.formats.models import Model, ModelError, read_model
from playspace.formats.numbers import Number
from playspace.formats.quoting import clipped
from playspace.formats.scene.level import start_problems
from playspace.formats.scene.looks import LOOK_KEYS, LookKeys, look_of, read_look
from playspace.formats.scene.meshes import load_mesh
from playspace.formats.scene.model import (
    BodyShape,
    Scene,
    SceneAttach,
    SceneBox,
    SceneButton,
    SceneClimb,
    SceneDial,
    SceneError,
    SceneGrab,
    SceneHeard,
    SceneJoint,
    SceneLever,
    SceneMesh,
    SceneModel,
    SceneOpponent,
    ScenePath,
    ScenePhysics,
    ScenePlayer,
    SceneProp,
    SceneRamp,
    SceneSocket,
    SceneSpawn,
    SceneSpring,
    SceneStairs,
    Triple,
    Viewpoint,
)
from playspace.formats.scene.reader import Table

T = TypeVar("T")

ARRAY_TABLES = (
    "box",
    "stairs",
    "ramp",
    "mesh",
    "model",
    "prop",
    "opponent",
    "socket",
    "spawn",
)
SINGLE_TABLES = (
    "player", "physics", "scene", "materials", "camera", "grab", "climb", "sounds",
)  # fmt: skip
SOUND_SUFFIXES = (".wav", ".ogg", ".flac")
SOUND_MATERIALS = ("wood", "metal", "stone", "snow", "flesh")
SHAPES = ("sphere", "box", "capsule", "cylinder")
FORWARD: Triple = (0.0, 0.0, -1.0)
ZERO: Triple = (0.0, 0.0, 0.0)
OPPONENT_RADIUS = 0.25
OPPONENT_HEIGHT = 1.8  # a standing adult
SOCKET_RADIUS = 0.1  # a socket's zone when the table gives neither radius nor size
CARRIERS = ("body",)  # what a scene's socket may be carried by: the player's body

# Rapier works in 32-bit floats: within 10 km of the origin they still hold a millimetre, and a
# number past 3.4e38 is infinity there. Bounds keep every value of a scene well inside that.
REACH = 1e4  # metres
LARGEST_SCENE = 64 * MB  # a scene file is a few kilobytes; this is room for mesh-like tables
METRES = Number(low=-REACH, high=REACH, unit="metres")
SIZE = Number(low=0.0, high=REACH, exclusive=True, unit="metres")
MASS = Number(low=0.0, high=1e5, exclusive=True, unit="kilograms")
DEGREES = Number(unit="degrees")
SLOPE = Number(low=0.0, high=90.0, exclusive=True, unit="degrees")
STEPS = Number(low=1, high=1000, whole=True)
SCALE = Number(low=0.0, high=REACH, exclusive=True)
DIRECTION = Number(low=-1e6, high=1e6)  # only the direction counts; larger overflows maths
ACCELERATION = Number(low=-1000.0, high=1000.0, unit="m/s^2")
THRESHOLD = Number(low=0.0, high=REACH, unit="metres")
FIELD_OF_VIEW = Number(low=0.0, high=180.0, exclusive=True, unit="degrees")
SECONDS = Number(low=0.0, high=1e5, unit="seconds")
SPEED = Number(low=0.0, high=100.0, exclusive=True, unit="m/s")
MULTIPLIER = Number(low=0.0, high=100.0, exclusive=True)
LOWERED = Number(low=0.0, high=2.0, exclusive=True, unit="metres")
HEAD_RADIUS = Number(low=0.0, high=1.0, exclusive=True, unit="metres")
HINGE_ANGLE = Number(low=-180.0, high=180.0, exclusive=True, unit="degrees")  # Rapier's range
FRICTION = Number(low=0.0, high=1e4, unit="1/s")
STIFFNESS = Number(low=0.0, high=1e6, unit="1/s^2")
DAMPING = Number(low=0.0, high=1e5, unit="1/s")
DEPTH = Number(low=0.0, high=1.0, exclusive=True, unit="metres")
STEP_ANGLE = Number(low=0.0, high=360.0, exclusive=True, unit="degrees")
JOINT_KINDS = ("hinge", "slider")
BODY_KINDS = ("dynamic", "kinematic")
PERIOD = Number(low=0.1, high=1e5, unit="seconds")  # shorter than a few steps: no path
EASE = Number(low=0.0, high=60.0, unit="seconds")
CONE = Number(low=0.0, high=90.0, exclusive=True, unit="degrees")
GRIP = Number(low=0.0, high=1.0)
HAND_REACH = Number(low=0.0, high=1.0, exclusive=True, unit="metres")
EYE_HEIGHT = Number(low=0.0, high=3.0, exclusive=True, unit="metres")
# what each interactable key needs its prop's joint to be
NEEDS = {"lever": "hinge", "button": "slider", "dial": "hinge"}

# tomllib ends its messages with where it stopped: "(at line 3, column 8)", "(at end of document)"
_SYNTAX = re.compile(
    r"^(?P<what>.*) \(at (?:line (?P<line>\d+), column (?P<column>\d+)|end of document)\)$"
)


def load_scene(path: str | os.PathLike[str]) -> Scene:
    """Read and check the scene file at `path`; raise SceneError listing every problem.

    Files that the scene names (meshes) are found relative to the scene file's folder.
    """
    path = Path(path)
    file = str(path)
    problem = input_problem(path, LARGEST_SCENE)
    if problem is not None:
        raise SceneError([f"{file}: {problem}"])
    try:
        data = tomllib.loads(path.read_bytes().decode("utf-8"))
    except OSError as error:
        raise SceneError([f"{file}: cannot read the file: {error.strerror}"]) from None
    except UnicodeDecodeError:
        raise SceneError([f"{file}: not a text file (TOML is UTF-8)"]) from None
    except tomllib.TOMLDecodeError as error:
        raise SceneError([f"{file}: {_syntax_error(error)}"]) from None
    except RecursionError:
        raise SceneError([f"{file}: arrays or tables nested too deeply to be a scene"]) from None
    except ValueError:  # an integer of thousands of digits, which Python will not read
        raise SceneError([f"{file}: a number with thousands of digits: not a scene's"]) from None
    reader = _SceneReader(path, data)
    scene = reader.scene()
    if reader.errors:
        raise SceneError(reader.errors)
    return scene


def _syntax_error(error: tomllib.TOMLDecodeError) -> str:
    """``line 3, column 8: invalid TOML: Invalid value``, from tomllib's message."""
    found = _SYNTAX.match(str(error))
    if found is None:
        return f"invalid TOML: {error}"
    where = (
        f"line {found['line']}, column {found['column']}"
        if found["line"]
        else "at the end of the file"
    )
    return f"{where}: invalid TOML: {found['what']}"


def _triple(values: tuple[float, ...]) -> Triple:
    return values[0], values[1], values[2]


def _not_with(t: Table, key: str, expected: str) -> None:
    """Report `key` when the table has it: another of its keys makes it meaningless."""
    t.skip(key)
    if key in t.raw:
        t.reject(key, expected)


def _setting(t: Table, switch: str, on: bool, key: str, value: T) -> T:
    """A movement provider's setting `key`, read as `value`: refused when the table has it
    but does not turn the provider (`switch`) on, as it would change nothing."""
    if key in t.raw and not on and not t.bad & {switch, key}:
        t.problem(
            key, f"expected {switch} = true with it (the {switch} is off: it changes nothing)"
        )
    return value


class _SceneReader:
    """One pass over a parsed file: every table read, every problem written down."""

    def __init__(self, path: Path, data: dict[str, Any]) -> None:
        self.path = path
        self.file = str(path)
        self.data = data
        self.errors: list[str] = []
        self.names: dict[str, str] = {}  # name -> the table that took it first
        self.layers: tuple[str, ...] = DEFAULT_LAYERS
        self.materials: dict[str, LookKeys] = {}  # [materials.NAME] -> its checked look keys
        self.held: dict[str, str] = {}  # prop name -> the socket table that holds it
        self.joined: list[tuple[Table, str, str]] = []  # (joint table, its `to`, its prop)

    def scene(self) -> Scene:
        self._check_tables()
        physics = self._single("physics", self._physics)
        self.layers = DEFAULT_LAYERS + tuple(n for n in physics.layers if n not in DEFAULT_LAYERS)
        self._materials()
        boxes = self._array("box", self._box)  # file order: the names' first users
        stairs = self._array("stairs", self._stairs)
        ramps = self._array("ramp", self._ramp)
        meshes = self._array("mesh", self._mesh)
        models = self._array("model", self._model)
        props = self._array("prop", self._prop)
        scene = Scene(
            path=self.path,
            name=self._single("scene", lambda t: t.string("name", self.path.stem)),
            boxes=boxes,
            stairs=stairs,
            ramps=ramps,
            meshes=meshes,
            models=models,
            props=props,
            opponents=self._array("opponent", self._opponent),
            sockets=self._array("socket", lambda t, i: self._socket(t, i, props)),
            player=self._single("player", self._player),
            spawns=self._array("spawn", self._spawn),
            physics=physics,
            camera=self._camera(),
            grab=self._single("grab", self._grab),
            climb=self._single("climb", self._climb),
            sounds=self._single("sounds", self._sounds),
        )
        self._check_joined()
        if not self.errors:  # a start's checks read the geometry and kill height as loaded
            self.errors.extend(start_problems(scene, self.file))
        if "climb" in self.data and not scene.climbable:
            self.errors.append(
                f"{self.file}: [climb]: expected climbable = true on a [[box]] or a [[prop]] "
                "with it (nothing of the scene is climbable: it changes nothing)"
            )
        return scene

    def _check_joined(self) -> None:
        """Each joint's `to`: another entity of this scene with a body (any table's name but
        a socket's), known only once every table has been read."""
        for t, to, prop in self.joined:
            first = self.names.get(to)
            if to == prop:
                t.reject("to", "another entity than the prop itself (or no `to`: the world)")
            elif first is None:
                t.reject(
                    "to", "the name of a prop, box, stairs, ramp, mesh or opponent of this scene"
                )
            elif first.startswith("[[socket]]"):
                t.reject("to", f"an entity with a body ({first} is a socket: it has none)")

    # Tables ------------------------------------------------------------------------------

    def _check_tables(self) -> None:
        known = ", ".join([f"[[{n}]]" for n in ARRAY_TABLES] + [f"[{n}]" for n in SINGLE_TABLES])
        for key, value in self.data.items():
            is_array = isinstance(value, list) and all(isinstance(v, dict) for v in value)
            if key in ARRAY_TABLES and not is_array:
                self.errors.append(f"{self.file}: '{key}' must be an array of tables [[{key}]]")
            elif key in SINGLE_TABLES and not isinstance(value, dict):
                self.errors.append(f"{self.file}: '{key}' must be a single table [{key}]")
            elif key not in ARRAY_TABLES + SINGLE_TABLES:
                name = clipped(key)
                shown = f"[{name}]" if isinstance(value, dict) else name
                shown = f"[[{name}]]" if is_array else shown
                self.errors.append(f"{self.file}: unknown table {shown}; known tables: {known}")

    def _array(self, key: str, read: Callable[[Table, int], T | None]) -> tuple[T, ...]:
        raw = self.data.get(key)
        if not isinstance(raw, list):
            return ()
        found: list[T] = []
        for index, item in enumerate(raw, start=1):
            if not isinstance(item, dict):
                return ()  # reported by _check_tables
            table = Table(item, f"[[{key}]] {index}", self.file, self.errors)
            value = read(table, index)
            table.finish()
            if value is not None:
                found.append(value)
        return tuple(found)

    def _single(self, key: str, read: Callable[[Table], T]) -> T:
        raw = self.data.get(key)
        table = Table(raw if isinstance(raw, dict) else {}, f"[{key}]", self.file, self.errors)
        value = read(table)
        table.finish()
        return value

    # Keys shared by several tables -------------------------------------------------------

    def _name(self, t: Table, default: str) -> str:
        """The `name` key, unique in the scene so entities can be looked up by it."""
        name = t.string("name", default)
        first = self.names.setdefault(name, t.where)
        if first != t.where:
            t.problem(
                "name", f'expected a name no other table uses, got "{clipped(name)}" (as {first})'
            )
        return name

    def _direction(self, t: Table) -> Triple:
        """The `direction` key flattened to a horizontal unit vector."""
        raw = t.vector("direction", DIRECTION, FORWARD, counts=(2, 3))
        x, z = raw[0], raw[-1]
        length = math.hypot(x, z)
        if length < SHORTEST_AXIS:
            t.reject("direction", "a direction with a horizontal part ([x, z], not [0, 0])")
            return FORWARD
        return x / length, 0.0, z / length

    def _shape(self, t: Table, default: str | None = None) -> BodyShape | None:
        """`shape` and its sizes, or None when any is wrong. An opponent (`default` capsule)
        may leave its radius and height out: it is then a standing adult, 0.25 by 1.8 m."""
        kind = t.string("shape", default, SHAPES)
        if kind not in SHAPES:
            t.skip("radius", "height", "size")  # which of them apply is not known
            return None
        if kind == "box":
            size = _triple(t.vector("size", SIZE))
            return None if "size" in t.bad else Box(size)
        standing = default is not None
        radius = t.number("radius", SIZE, OPPONENT_RADIUS if standing else None)
        if kind == "sphere":
            return None if "radius" in t.bad else Sphere(radius)
        height = t.number("height", SIZE, OPPONENT_HEIGHT if standing else None)
        if t.bad & {"radius", "height"}:
            return None
        if kind == "cylinder":
            return Cylinder(radius, height)
        if height < 2 * radius:
            expected = f"a number >= 2 * radius = {2 * radius:g} (the height includes both caps)"
            t.problem("height", f"expected {expected}, got {height:g}")
            return None
        return Capsule(radius, height)

    def _materials(self) -> None:
        """The ``[materials]`` table: a ``[materials.NAME]`` table of look keys for each name."""
        raw = self.data.get("materials")
        if not isinstance(raw, dict):
            return  # none, or reported by _check_tables
        outer = Table(raw, "[materials]", self.file, self.errors)
        for name, keys in raw.items():
            if not isinstance(keys, dict):
                outer.reject(name, f"a table of look keys ({', '.join(sorted(LOOK_KEYS))})")
                continue
            bare = re.fullmatch(r"[A-Za-z0-9_-]+", name) is not None
            where = f"[materials.{clipped(name)}]" if bare else f'[materials."{clipped(name)}"]'
            t = Table(keys, where, self.file, self.errors)
            self.materials[name] = read_look(t, self.path.parent)
            t.finish()

    def _look(self, t: Table) -> Appearance | None:
        """How a shape looks: its `material`, then its own look keys over the material's."""
        material = None
        if "material" in t.raw:
            name = t.string("material")
            material = self.materials.get(name)
            if material is None and "material" not in t.bad:
                known = ", ".join(f'"{clipped(n)}"' for n in self.materials) or "none"
                t.problem(
                    "material",
                    f"expected the name of a [materials] table (the file has {known}), "
                    f'got "{clipped(name)}"',
                )
        else:
            t.skip("material")
        own = read_look(t, self.path.parent)
        if t.bad & {"material", *LOOK_KEYS}:
            return None  # the scene does not load: nothing is built from a placeholder
        return look_of(material, own)

    # One reader a table ------------------------------------------------------------------

    def _box(self, t: Table, index: int) -> SceneBox:
        return SceneBox(
            name=self._name(t, f"box {index}"),
            size=_triple(t.vector("size", SIZE)),
            position=_triple(t.vector("position", METRES)),
            rotation=_triple(t.vector("rotation", DEGREES, ZERO)),
            look=self._look(t),
            climbable=t.boolean("climbable", False),
            drawn_as=self._drawn_as(t),
            heard=self._heard(t),
            label=self._label(t),
        )

    def _stairs(self, t: Table, index: int) -> SceneStairs:
        return SceneStairs(
            name=self._name(t, f"stairs {index}"),
            position=_triple(t.vector("position", METRES)),
            direction=self._direction(t),
            steps=int(t.number("steps", STEPS)),
            rise=t.number("rise", SIZE),
            run=t.number("run", SIZE),
            width=t.number("width", SIZE),
            look=self._look(t),
        )

    def _ramp(self, t: Table, index: int) -> SceneRamp:
        return SceneRamp(
            name=self._name(t, f"ramp {index}"),
            position=_triple(t.vector("position", METRES)),
            direction=self._direction(t),
            length=t.number("length", SIZE),
            width=t.number("width", SIZE),
            angle=t.number("angle", SLOPE),
            look=self._look(t),
        )

    def _mesh(self, t: Table, index: int) -> SceneMesh | None:
        name = self._name(t, f"mesh {index}")
        file = self.path.parent / t.string("file")
        scale = t.number("scale", SCALE, 1.0)
        position = _triple(t.vector("position", METRES, ZERO))
        rotation = _triple(t.vector("rotation", DEGREES, ZERO))
        look = self._look(t)
        if t.bad & {"file", "scale"}:
            return None
        try:
            shape = load_mesh(file, scale)
            if look is None and not t.bad:  # the file's own material, when the scene says none
                look = read_material(file)
        except MeshFileError as error:
            t.problem("file", str(error))
            return None
        return SceneMesh(name, file, shape, position, rotation, look)

    def _heard(self, t: Table) -> SceneHeard | None:
        """A shape's `sound` (a name in the sound bank, or a sound file beside the scene) and
        `sound_material`."""
        sound = material = None
        if "sound" in t.raw:
            sound = t.string("sound")
            if "sound" not in t.bad and sound.lower().endswith(SOUND_SUFFIXES):
                file = self.path.parent / sound
                if not file.is_file():
                    t.problem("sound", f"no such sound file: {file}")
                sound = str(file)
        else:
            t.skip("sound")
        if "sound_material" in t.raw:
            material = t.string("sound_material", choices=SOUND_MATERIALS)
        else:
            t.skip("sound_material")
        return None if sound is None and material is None else SceneHeard(sound, material)

    def _label(self, t: Table) -> str | None:
        """A shape's `label`: text shown over it (a dial's markings, a button's name)."""
        if "label" not in t.raw:
            t.skip("label")
            return None
        return t.string("label")

    def _sounds(self, t: Table) -> dict[str, Path]:
        """The ``[sounds]`` table: a name and the sound file (beside the scene) it plays."""
        found = {}
        for name in list(t.raw):
            file = self.path.parent / t.string(name)
            if name in t.bad:
                continue
            if file.suffix.lower() not in SOUND_SUFFIXES:
                t.problem(name, f"expected a sound file ({', '.join(SOUND_SUFFIXES)}), got {file}")
            elif not file.is_file():
                t.problem(name, f"no such sound file: {file}")
            else:
                found[name] = file
        return found

    def _drawn_as(self, t: Table) -> Model | None:
        """A shape's `model`: a glTF model drawn in its place (its colliders stay the shape's),
        read now so a broken one is named before anything runs."""
        if "model" not in t.raw:
            t.skip("model")
            return None
        file = self.path.parent / t.string("model")
        if "model" in t.bad:
            return None
        try:
            return read_model(file)
        except ModelError as error:
            t.problem("model", str(error))
            return None

    def _model(self, t: Table, index: int) -> SceneModel | None:
        """A ``[[model]]``: its file read now, so a broken one is named before anything runs."""
        name = self._name(t, f"model {index}")
        file = self.path.parent / t.string("file")
        position = _triple(t.vector("position", METRES, ZERO))
        rotation = _triple(t.vector("rotation", DEGREES, ZERO))
        scale = t.number("scale", SCALE, 1.0)
        dynamic = t.string("kind", "static", ("static", "dynamic")) == "dynamic"
        grabbable = t.boolean("grabbable", False) if "grabbable" in t.raw else None
        mass = t.number("mass", MASS) if "mass" in t.raw else None
        layer = t.string("layer", "props", self.layers) if "layer" in t.raw else None
        tags = t.strings("tags") if "tags" in t.raw else None
        t.skip("grabbable", "mass", "layer", "tags")  # optional: the file's extras, else
        if t.bad & {"file"}:
            return None
        try:
            model = read_model(file)
        except ModelError as error:
            t.problem("file", str(error))
            return None
        return SceneModel(
            name, file, model, position, rotation, scale, dynamic, grabbable, mass, layer, tags
        )

    def _prop(self, t: Table, index: int) -> SceneProp | None:
        name = self._name(t, f"prop {index}")
        shape = self._shape(t)
        kinematic = t.string("kind", "dynamic", BODY_KINDS) == "kinematic"
        mass = t.number("mass", MASS, 0.5)
        if kinematic and "mass" in t.raw and "mass" not in t.bad:
            t.reject("mass", 'no mass on a kinematic prop (kind = "kinematic"): nothing pushes it')
        position = _triple(t.vector("position", METRES))
        rotation = _triple(t.vector("rotation", DEGREES, ZERO))
        grabbable = t.boolean("grabbable", False)
        layer = t.string("layer", "props", self.layers)
        look = self._look(t)
        tags = t.strings("tags")
        if tags and not grabbable and "grabbable" not in t.bad:
            t.reject("tags", "tags only on a grabbable prop (grabbable = true): sockets take those")
        joint = self._inline(t, "joint", lambda j: self._joint(j, name))
        lever = self._interactable(t, "lever", joint, self._lever)
        button = self._interactable(t, "button", joint, self._button)
        dial = self._interactable(t, "dial", joint, self._dial)
        path = self._inline(t, "path", lambda sub: self._path(sub, position))
        if path is not None and not (kinematic and "kind" not in t.bad):
            t.problem("path", 'expected kind = "kinematic" with it (a path moves a kinematic prop)')
        elif path is not None and (grabbable or joint is not None):
            t.problem("path", "expected a prop that is neither grabbable nor on a joint with it")
        climbable = t.boolean("climbable", False)
        grab = self._grab_keys(t, grabbable)
        drawn_as = self._drawn_as(t)
        heard = self._heard(t)
        label = self._label(t)
        if shape is None:
            return None
        return SceneProp(
            name,
            shape,
            mass,
            position,
            rotation,
            grabbable,
            layer,
            look,
            tags,
            joint,
            lever,
            button,
            dial,
            kinematic,
            path,
            climbable,
            *grab,
            drawn_as,
            heard,
            label,
        )

    def _grab_keys(
        self, t: Table, grabbable: bool
    ) -> tuple[SceneAttach | None, SceneAttach | None, float, Triple | None, bool]:
        """A prop's attach points, attach ease, second grip and distance grab: each only on a
        grabbable prop, where a hand can take it."""
        left = self._inline(t, "attach_left", self._attach)
        right = self._inline(t, "attach_right", self._attach)
        ease = t.number("attach_ease", EASE, 0.0)
        second = _triple(t.vector("second_grip", METRES)) if "second_grip" in t.raw else None
        t.skip("second_grip")
        distance = t.boolean("distance_grab", False)
        if not grabbable and "grabbable" not in t.bad:
            for key in ("attach_left", "attach_right", "attach_ease", "second_grip"):
                if key in t.raw and key not in t.bad:
                    t.reject(key, f"{key} only on a grabbable prop (grabbable = true)")
            if distance:
                t.reject(
                    "distance_grab", "distance_grab only on a grabbable prop (grabbable = true)"
                )
        return left, right, ease, second, distance

    def _attach(self, t: Table) -> SceneAttach:
        return SceneAttach(
            _triple(t.vector("position", METRES, ZERO)),
            _triple(t.vector("rotation", DEGREES, ZERO)),
        )

    def _path(self, t: Table, start: Triple) -> ScenePath:
        to = _triple(t.vector("to", METRES))
        period = t.number("period", PERIOD)
        if "to" not in t.bad and to == start:
            t.reject("to", "a point other than the prop's position (it moves between the two)")
        return ScenePath(to, period)

    def _inline(self, t: Table, key: str, read: Callable[[Table], T | None]) -> T | None:
        """The inline table under `key` (``joint = { kind = "hinge" }``), read by `read` with
        its keys named ``key.name`` in messages; None when absent or wrong."""
        t.skip(key)
        if key not in t.raw:
            return None
        raw = t.raw[key]
        if not isinstance(raw, dict):
            t.reject(key, "a table of keys ({ name = value, ... })")
            return None
        sub = Table(raw, t.where, self.file, self.errors, prefix=f"{t.prefix}{key}.")
        value = read(sub)
        sub.finish()
        if sub.bad or value is None:
            t.bad.add(key)
            return None
        return value

    def _interactable(
        self,
        t: Table,
        key: str,
        joint: SceneJoint | None,
        read: Callable[[Table, SceneJoint | None], T | None],
    ) -> T | None:
        """A lever, button or dial: an inline table, only on a prop whose joint is of the
        kind it works on. Its keys are read even when the joint has a problem (reported on its
        own key), without the checks that need the joint."""
        needed = NEEDS[key]
        if key in t.raw and "joint" not in t.bad and (joint is None or joint.kind != needed):
            t.skip(key)
            has = "none" if joint is None else f"a {joint.kind}"
            t.problem(
                key,
                f'expected a prop with a {needed} joint (joint = {{ kind = "{needed}", ... }}) '
                f"with it, got {has}",
            )
            return None
        return self._inline(t, key, lambda sub: read(sub, joint))

    def _joint(self, t: Table, prop: str) -> SceneJoint | None:
        kind = t.string("kind", None, JOINT_KINDS)
        to = t.string("to") if "to" in t.raw else None
        t.skip("to")
        anchor = _triple(t.vector("anchor", METRES, ZERO))
        axis = _triple(t.vector("axis", DIRECTION, (0.0, 1.0, 0.0)))
        if "axis" not in t.bad and math.hypot(*axis) < SHORTEST_AXIS:
            t.reject("axis", f"a direction at least {SHORTEST_AXIS:g} long, not [0, 0, 0]")
        friction = t.number("friction", FRICTION, 0.0)
        if kind not in JOINT_KINDS:
            t.skip("limits", "spring")  # their units depend on the kind
            return None
        unit = HINGE_ANGLE if kind == "hinge" else METRES
        limits = None
        if "limits" in t.raw:
            low, high = t.vector("limits", unit, counts=(2,))
            if "limits" not in t.bad and low > high:
                t.reject("limits", "[min, max] with min <= max")
            limits = (low, high)
        t.skip("limits")
        spring = self._inline(t, "spring", lambda s: self._spring(s, kind))
        if to is not None and "to" not in t.bad:
            self.joined.append((t, to, prop))
        if t.bad:
            return None
        return SceneJoint(kind, to, anchor, axis, limits, friction, spring)

    def _spring(self, t: Table, kind: str) -> SceneSpring:
        default = Spring()
        return SceneSpring(
            target=t.number("target", DEGREES if kind == "hinge" else METRES, 0.0),
            stiffness=t.number("stiffness", STIFFNESS, default.stiffness),
            damping=t.number("damping", DAMPING, default.damping),
        )

    def _lever(self, t: Table, joint: SceneJoint | None) -> SceneLever:
        default = Lever((0.0,))
        detents = t.numbers("detents", DEGREES)
        if joint is not None and joint.limits is not None and "detents" not in t.bad:
            low, high = joint.limits
            if not all(low <= d <= high for d in detents):
                t.reject(
                    "detents", f"angles within the joint's limits, {low:g} to {high:g} degrees"
                )
        return SceneLever(
            detents,
            t.number("stiffness", STIFFNESS, default.stiffness),
            t.number("damping", DAMPING, default.damping),
        )

    def _button(self, t: Table, joint: SceneJoint | None) -> SceneButton:
        default = PushButton()
        press = t.number("press_depth", DEPTH, default.press_depth)
        release = t.number("release_depth", DEPTH, default.release_depth)
        radius = t.number("radius", SIZE, default.radius)
        if not t.bad & {"press_depth", "release_depth"}:
            if release >= press:
                t.problem(
                    "release_depth",
                    f"expected a depth less than press_depth ({press:g}), got {release:g}",
                )
            elif joint is not None and joint.limits is not None and press > joint.limits[1]:
                t.problem(
                    "press_depth",
                    f"expected a depth the joint's limits let it reach (at most "
                    f"{joint.limits[1]:g} metres), got {press:g}",
                )
        return SceneButton(press, release, radius)

    def _dial(self, t: Table, joint: SceneJoint | None) -> SceneDial:
        return SceneDial(t.number("step", STEP_ANGLE, math.degrees(Dial().step)))

    def _opponent(self, t: Table, index: int) -> SceneOpponent | None:
        name = self._name(t, f"opponent {index}")
        shape = self._shape(t, "capsule")
        position = _triple(t.vector("position", METRES))
        yaw = t.number("yaw", DEGREES, 0.0)
        look = self._look(t)
        drawn_as = self._drawn_as(t)
        heard = self._heard(t)
        label = self._label(t)
        if shape is None:
            return None
        return SceneOpponent(name, shape, position, yaw, look, drawn_as, heard, label)

    def _socket(self, t: Table, index: int, props: tuple[SceneProp, ...]) -> SceneSocket | None:
        name = self._name(t, f"socket {index}")
        carried_by = t.string("carried_by", "", CARRIERS) or None
        position = ZERO
        if "carried_by" in t.bad:
            t.skip("position", "offset")  # which of them applies is not known
        elif carried_by is None:
            position = _triple(t.vector("position", METRES))
            _not_with(t, "offset", 'only on a carried socket (carried_by = "body")')
        else:
            position = _triple(t.vector("offset", METRES, ZERO))
            _not_with(t, "position", "no position on a carried socket: its offset places it")
        rotation = _triple(t.vector("rotation", DEGREES, ZERO))
        yaw = t.number("yaw", DEGREES, 0.0)
        if "yaw" in t.raw and "rotation" in t.raw:
            t.problem("yaw", "expected yaw or rotation, not both")
        elif "yaw" in t.raw:
            rotation = (0.0, yaw, 0.0)
        radius = t.number("radius", SIZE, SOCKET_RADIUS)
        size = _triple(t.vector("size", SIZE, (1.0, 1.0, 1.0)))
        if "radius" in t.raw and "size" in t.raw:
            t.problem("size", "expected radius (a sphere) or size (a box), not both")
        zone = Box(size) if "size" in t.raw else Sphere(radius)
        snap_position = _triple(t.vector("snap_position", METRES, ZERO))
        snap_yaw = t.number("snap_yaw", DEGREES, 0.0)
        accepts = t.strings("accepts")
        return_after = t.number("return_after", SECONDS, 0.0) if "return_after" in t.raw else None
        t.skip("return_after")
        holding = self._holding(t, accepts, props) if "holding" in t.raw else None
        t.skip("holding")
        if t.bad:
            return None
        return SceneSocket(
            name,
            zone,
            position,
            rotation,
            snap_position,
            snap_yaw,
            accepts,
            return_after,
            holding,
            carried_by,
        )

    def _holding(
        self, t: Table, accepts: tuple[str, ...], props: tuple[SceneProp, ...]
    ) -> str | None:
        """The `holding` key: a grabbable prop of this scene that the socket accepts and no
        other socket holds."""
        name = t.string("holding")
        if "holding" in t.bad:
            return None
        prop = next((p for p in props if p.name == name), None)
        first = self.names.get(name, "")
        if prop is None:
            if not first.startswith("[[prop]]"):  # not a prop that failed to load
                t.reject("holding", "the name of a [[prop]] of this scene")
            else:
                t.bad.add("holding")
            return None
        shown = f'"{clipped(name)}"'
        if not prop.grabbable:
            t.reject("holding", f"a grabbable prop (grabbable = true; {first} is not)")
        elif accepts and set(accepts).isdisjoint(prop.tags):
            t.reject("holding", f"a prop with a tag the socket accepts ({first} has none)")
        elif name in self.held:
            t.problem(
                "holding",
                f"expected a prop no other socket holds, got {shown} ({self.held[name]} holds it)",
            )
        else:
            self.held[name] = t.where
            return name
        return None

    def _player(self, t: Table) -> ScenePlayer:
        defaults = ScenePlayer()
        jump = t.boolean("jump", False)
        sprint = t.boolean("sprint", False)
        crouch = t.boolean("crouch", False)
        seated = t.boolean("seated", False)
        head_radius = t.number("head_radius", HEAD_RADIUS, 1.0) if "head_radius" in t.raw else None
        t.skip("head_radius")  # optional, with no number for a default: the rig's own
        return ScenePlayer(
            position=_triple(t.vector("position", METRES, ZERO)),
            yaw=t.number("yaw", DEGREES, 0.0),
            slope_quantization=t.number("slope_quantization", THRESHOLD, SLOPE_QUANTIZATION),
            policy=t.string("policy", defaults.policy, (p.value for p in SeparationPolicy)),
            turn=t.string("turn", defaults.turn, (m.value for m in TurnMode)),
            jump=jump,
            jump_speed=_setting(
                t, "jump", jump, "jump_speed", t.number("jump_speed", SPEED, defaults.jump_speed)
            ),
            sprint=sprint,
            sprint_multiplier=_setting(
                t,
                "sprint",
                sprint,
                "sprint_multiplier",
                t.number("sprint_multiplier", MULTIPLIER, defaults.sprint_multiplier),
            ),
            sprint_toggle=_setting(
                t,
                "sprint",
                sprint,
                "sprint_toggle",
                t.boolean("sprint_toggle", defaults.sprint_toggle),
            ),
            crouch=crouch,
            crouch_lowered=_setting(
                t,
                "crouch",
                crouch,
                "crouch_lowered",
                t.number("crouch_lowered", LOWERED, defaults.crouch_lowered),
            ),
            head_radius=head_radius,
            seated=seated,
            eye_height=_setting(
                t,
                "seated",
                seated,
                "eye_height",
                t.number("eye_height", EYE_HEIGHT, defaults.eye_height),
            ),
        )

    def _spawn(self, t: Table, index: int) -> SceneSpawn | None:
        """A ``[[spawn]]``: where player ``index + 1`` (counted from 1) starts; a position is
        required, a yaw (degrees) is 0 when left out."""
        position = _triple(t.vector("position", METRES))
        yaw = t.number("yaw", DEGREES, 0.0)
        return None if t.bad & {"position", "yaw"} else SceneSpawn(position, yaw)

    def _grab(self, t: Table) -> SceneGrab:
        default = GrabSettings()
        return SceneGrab(
            grip_toggle=t.boolean("grip_toggle", default.grip_toggle),
            hand_collision=t.boolean("hand_collision", default.hand_collision),
            distance_grab=t.boolean("distance_grab", False),
            distance_range=t.number("distance_range", THRESHOLD, default.distance_range),
            distance_angle=t.number("distance_angle", CONE, math.degrees(default.distance_angle)),
            pull_time=t.number("pull_time", EASE, default.pull_time),
        )

    def _climb(self, t: Table) -> SceneClimb:
        default = ClimbSettings()
        grip_on = t.number("grip_on", GRIP, default.grip_on)
        grip_off = t.number("grip_off", GRIP, default.grip_off)
        if not t.bad & {"grip_on", "grip_off"} and not grip_off < grip_on:
            t.problem(
                "grip_off", f"expected a grip less than grip_on ({grip_on:g}), got {grip_off:g}"
            )
        return SceneClimb(t.number("reach", HAND_REACH, default.reach), grip_on, grip_off)

    def _camera(self) -> Viewpoint | None:
        """The ``[camera]`` table, or None when the file has none (or a `camera` that is not
        a table, which :meth:`_check_tables` reports)."""
        if not isinstance(self.data.get("camera"), dict):
            return None
        return self._single("camera", self._viewpoint)

    def _viewpoint(self, t: Table) -> Viewpoint | None:
        position = _triple(t.vector("position", METRES))
        look_at = _triple(t.vector("look_at", METRES))
        fov = None
        if "fov" in t.raw:
            fov = t.number("fov", FIELD_OF_VIEW)
        else:
            t.skip("fov")  # optional with no number for a default: the preview's own
        if t.bad & {"position", "look_at", "fov"}:
            return None
        if position == look_at:
            t.reject(
                "look_at",
                "a point other than the camera's position (it looks from one to the other)",
            )
            return None
        return Viewpoint(position, look_at, fov)

    def _physics(self, t: Table) -> ScenePhysics:
        layers = t.strings("layers")
        if len(set(DEFAULT_LAYERS + layers)) > MAX_LAYERS:
            t.reject("layers", f"at most {MAX_LAYERS - len(DEFAULT_LAYERS)} new layer names")
        return ScenePhysics(
            gravity=_triple(t.vector("gravity", ACCELERATION, GRAVITY)),
            kill_height=t.number("kill_height", METRES, KILL_HEIGHT),
            fall_policy=FallPolicy(t.string("fall_policy", "remove", ("remove", "respawn"))),
            layers=layers,
        )
