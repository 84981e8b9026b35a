"""The actions playspace asks OpenXR for, and the controls it suggests for them, as data.

OpenXR never names buttons to an application: the app declares *actions* (``grip``,
``trigger``, ...) and *suggests* a binding for each on every controller it knows (an
*interaction profile*); the runtime then binds whatever is plugged in, remapping where the
user says so. One action set, :data:`ACTION_SET_NAME`, holds the actions of :data:`ACTIONS`, each
with the two hands as subaction paths, so one ``grip`` action reads either hand.

How the actions reach the input frame (:mod:`playspace.xr.mapping`): ``grip_pose`` is the
hand's pose, ``grip``/``trigger``/``stick`` its analog controls; ``primary`` and
``secondary`` are the lower and upper face buttons, reported as ``A``/``B`` on the right hand
and ``X``/``Y`` on the left (so an Index's left ``A`` reads as ``X``, where a Quest's is);
``menu`` and ``stick_click`` are ``MENU`` and ``STICK``. ``aim_pose`` (the pointing ray) is
located for pointers; ``haptic`` drives the rumble.

The rule every profile keeps (:func:`binding_problems` checks it): each hand binds
``grip_pose``, ``grip`` and ``trigger``, and binds ``stick`` exactly when the controller has a
thumbstick or a trackpad (:attr:`Profile.has_stick`). ``khr/simple_controller`` has neither a
squeeze nor an analog trigger, only ``select/click``: it drives both ``grip`` and ``trigger``
(a click reads as 1.0), so a generic controller can still grab; it has no stick, so that
player turns and moves with the preview's keys or teleports. Buttons a controller lacks stay
unbound (the Index has no menu button; the system buttons belong to the runtime).

Paths follow the OpenXR 1.0 specification's interaction-profile tables; the Pico 4 profile
belongs to the ``XR_BD_controller_interaction`` extension and is suggested only where the
runtime offers it. A runtime that still rejects a profile's suggestions only loses that
profile: the backend logs it and carries on.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum

from playspace import spatial
from playspace.spatial import Vec3


class ActionType(Enum):
    BOOLEAN = "boolean"
    FLOAT = "float"
    VECTOR2 = "vector2"
    POSE = "pose"
    VIBRATION = "vibration"


@dataclass(frozen=True, slots=True)
class ActionSpec:
    """One action: its OpenXR name (lower case, as the spec requires), type and label."""

    name: str
    type: ActionType
    label: str


ACTION_SET_NAME = "playspace"
ACTION_SET_LABEL = "Playspace"
ACTIONS: tuple[ActionSpec, ...] = (
    ActionSpec("grip_pose", ActionType.POSE, "Hand pose"),
    ActionSpec("aim_pose", ActionType.POSE, "Pointer pose"),
    ActionSpec("grip", ActionType.FLOAT, "Grab"),
    ActionSpec("trigger", ActionType.FLOAT, "Trigger"),
    ActionSpec("stick", ActionType.VECTOR2, "Move and turn"),
    ActionSpec("primary", ActionType.BOOLEAN, "Primary button"),
    ActionSpec("secondary", ActionType.BOOLEAN, "Secondary button"),
    ActionSpec("menu", ActionType.BOOLEAN, "Menu"),
    ActionSpec("stick_click", ActionType.BOOLEAN, "Thumbstick click"),
    ActionSpec("haptic", ActionType.VIBRATION, "Rumble"),
)
ACTION_TYPES: dict[str, ActionType] = {action.name: action.type for action in ACTIONS}
HANDS = ("/user/hand/left", "/user/hand/right")
REQUIRED = ("grip_pose", "grip", "trigger")  # on every hand of every profile

# The default centre of mass (GrabSettings' own), for a controller no profile describes.
DEFAULT_COM_OFFSET = (0.0, -0.01, 0.03)


@dataclass(frozen=True, slots=True)
class Profile:
    """One controller's suggested bindings, as (action, full OpenXR path) pairs.

    `com_offset` is where the controller's centre of mass sits in its grip pose's frame
    (metres; +X out of the right palm, +Y up, -Z forward through the fist), the point the
    throw measures velocities at. The values are estimates from each controller's shape
    (where the battery and the tracking ring put the weight), not measurements: expect
    errors of 1-2 cm, which change a throw's speed by a few percent at most.
    """

    path: str
    name: str
    bindings: tuple[tuple[str, str], ...]
    com_offset: tuple[float, float, float] = DEFAULT_COM_OFFSET
    has_stick: bool = True
    extension: str | None = None


def _bind(
    action: str, component: str, hands: Iterable[str] = ("left", "right")
) -> list[tuple[str, str]]:
    return [(action, f"/user/hand/{hand}/{component}") for hand in hands]


def _profile(
    path: str,
    name: str,
    com_offset: tuple[float, float, float],
    controls: Iterable[tuple[str, str] | tuple[str, str, tuple[str, ...]]],
    *,
    has_stick: bool = True,
    extension: str | None = None,
) -> Profile:
    """A profile binding the poses and haptics every controller has, then `controls`:
    (action, component) for both hands, or (action, component, hands) for some."""
    bindings = [
        *_bind("grip_pose", "input/grip/pose"),
        *_bind("aim_pose", "input/aim/pose"),
        *_bind("haptic", "output/haptic"),
    ]
    for control in controls:
        bindings += _bind(*control)
    return Profile(path, name, tuple(bindings), com_offset, has_stick, extension)


_STICK = (("stick", "input/thumbstick"), ("stick_click", "input/thumbstick/click"))
_FACE = (
    ("primary", "input/x/click", ("left",)),
    ("secondary", "input/y/click", ("left",)),
    ("primary", "input/a/click", ("right",)),
    ("secondary", "input/b/click", ("right",)),
    ("menu", "input/menu/click", ("left",)),
)
_SQUEEZE_TRIGGER = (("grip", "input/squeeze/value"), ("trigger", "input/trigger/value"))

PROFILES: tuple[Profile, ...] = (
    _profile(
        "/interaction_profiles/khr/simple_controller",
        "generic controller (khr/simple)",
        DEFAULT_COM_OFFSET,
        [
            ("grip", "input/select/click"),
            ("trigger", "input/select/click"),
            ("menu", "input/menu/click"),
        ],
        has_stick=False,
    ),
    # Quest 1-3 and Rift S: the ring sits ahead of the fist, the battery in the handle.
    _profile(
        "/interaction_profiles/oculus/touch_controller",
        "Meta Touch",
        (0.0, 0.0, -0.01),
        [*_SQUEEZE_TRIGGER, *_STICK, *_FACE],
    ),
    # Index: the weight is in the handle, close to the grip point.
    _profile(
        "/interaction_profiles/valve/index_controller",
        "Valve Index",
        (0.0, -0.01, 0.01),
        [*_SQUEEZE_TRIGGER, *_STICK, ("primary", "input/a/click"), ("secondary", "input/b/click")],
    ),
    # Vive wand: a long handle under a heavy ring that reaches forward and up.
    _profile(
        "/interaction_profiles/htc/vive_controller",
        "HTC Vive wand",
        (0.0, 0.01, -0.04),
        [
            ("grip", "input/squeeze/click"),
            ("trigger", "input/trigger/value"),
            ("stick", "input/trackpad"),
            ("stick_click", "input/trackpad/click"),
            ("menu", "input/menu/click"),
        ],
    ),
    # Windows Mixed Reality: a large LED ring ahead of the fist.
    _profile(
        "/interaction_profiles/microsoft/motion_controller",
        "Windows Mixed Reality",
        (0.0, 0.01, -0.03),
        [
            ("grip", "input/squeeze/click"),
            ("trigger", "input/trigger/value"),
            *_STICK,
            ("menu", "input/menu/click"),
        ],
    ),
    # Pico 4: the ring arcs over the thumb, a little ahead of the fist.
    _profile(
        "/interaction_profiles/bytedance/pico4_controller",
        "Pico 4",
        (0.0, 0.01, -0.02),
        [*_SQUEEZE_TRIGGER, *_STICK, *_FACE],
        extension="XR_BD_controller_interaction",
    ),
)
PROFILES_BY_PATH: dict[str, Profile] = {profile.path: profile for profile in PROFILES}

# OpenXR's well-formed path: "/"-separated components of [a-z0-9-_.], none only dots, no
# trailing "/", at most XR_MAX_PATH_LENGTH - 1 (255) characters.
_PATH = re.compile(r"(/[a-z0-9_.\-]+)+")
_MAX_PATH = 255


def path_problem(path: str) -> str | None:
    """Why `path` is not a well-formed OpenXR path, or None when it is."""
    if len(path) > _MAX_PATH:
        return f"{path!r} is longer than {_MAX_PATH} characters"
    if not _PATH.fullmatch(path):
        return f"{path!r} is not a well-formed OpenXR path (/lower-case/components)"
    if any(set(part) == {"."} for part in path.split("/")[1:]):
        return f"{path!r} has a component made only of dots"
    return None


def _binding_problem(action: str, path: str) -> str | None:
    kind = ACTION_TYPES.get(action)
    if kind is None:
        return f"binds {action!r}, which is not an action"
    problem = path_problem(path)
    if problem is not None:
        return problem
    hand, _, component = path.removeprefix("/user/hand/").partition("/")
    if hand not in ("left", "right") or not path.startswith("/user/hand/"):
        return f"{path!r} is not under /user/hand/left or /user/hand/right"
    if kind is ActionType.VIBRATION:
        return None if component == "output/haptic" else f"{action} needs output/haptic"
    if not component.startswith("input/"):
        return f"{action} is an input but {path!r} is not"
    if (kind is ActionType.POSE) != component.endswith("/pose"):
        return f"{path!r} does not fit the {kind.value} action {action}"
    return None


def binding_problems(profiles: Iterable[Profile] = PROFILES) -> list[str]:
    """Every problem with the suggested bindings: empty when they are all well-formed and each
    profile keeps the rule in the module docstring."""
    problems: list[str] = []
    for profile in profiles:
        where = profile.path
        parts = where.split("/")
        if path_problem(where) or len(parts) != 4 or parts[1] != "interaction_profiles":
            problems.append(f"{where}: not a well-formed /interaction_profiles/VENDOR/NAME")
        if len(set(profile.bindings)) != len(profile.bindings):
            problems.append(f"{where}: the same binding is suggested twice")
        for action, path in profile.bindings:
            problem = _binding_problem(action, path)
            if problem is not None:
                problems.append(f"{where}: {problem}")
        required = (*REQUIRED, "stick") if profile.has_stick else REQUIRED
        for hand in HANDS:
            bound = {action for action, path in profile.bindings if path.startswith(hand + "/")}
            problems += [f"{where}: {hand} does not bind {a}" for a in required if a not in bound]
            if not profile.has_stick and "stick" in bound:
                problems.append(f"{where}: {hand} binds stick, but has_stick is False")
        offset = profile.com_offset
        if not all(math.isfinite(c) for c in offset) or math.hypot(*offset) > 0.2:
            problems.append(f"{where}: com_offset {offset} is not within 0.2 m of the grip")
    return problems


def com_offset_for(profile_path: str | None) -> Vec3:
    """The controller's centre of mass in its grip frame, for the throw; the default for a
    profile playspace does not know (or none bound yet)."""
    profile = PROFILES_BY_PATH.get(profile_path or "")
    return spatial.vec3(*(profile.com_offset if profile else DEFAULT_COM_OFFSET))


def profile_name(profile_path: str | None) -> str:
    """The controller's name for people: ``Meta Touch``, or the path of an unknown one."""
    if not profile_path:
        return "no controllers"
    profile = PROFILES_BY_PATH.get(profile_path)
    return profile.name if profile else profile_path
