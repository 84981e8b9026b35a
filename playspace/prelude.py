"""What a game uses, from one place: ``from playspace.prelude import *`` or by name.

The world and its decorators; the components a game spawns and writes; the resources it reads
and changes; every event the runtime sends or takes; the default plugin group and the world
built from a scene; locomotion providers. Deeper module paths stay where the code lives, and
may move; these names are the game's. Nothing here loads GL or OpenXR: a headless game
imports only this.

Each name is imported when it is first used (PEP 562, as Scientific Python's SPEC 1 does it),
not when this module is: ``from playspace.prelude import World`` loads the world and nothing
of the physics, the player or the hands, so a tool or a test that needs a few names starts in
the time those take. ``from playspace.prelude import *`` still loads them all. Type checkers
and IDEs read the imports below ``TYPE_CHECKING``, which name every one.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from playspace import spatial
    from playspace.app import DefaultPlugins, ScenePlugin, Seed, build_world, load_target
    from playspace.app.spawn import SpawnedScene
    from playspace.components import (
        DeviceRole,
        Grabbable,
        HandControls,
        Opponent,
        PlayerStart,
        Prop,
        SceneCamera,
        Static,
        TrackedDevice,
        Trail,
        Transform,
    )
    from playspace.components.comfort import VignetteSettings
    from playspace.components.debug import PhysicsDebug
    from playspace.components.haptics import HapticPulse, HapticQueue
    from playspace.components.input import (
        JOINT_COUNT,
        Button,
        DevicePose,
        Gamepad,
        HandInput,
        HandJoint,
        HandJoints,
        InputFrame,
        InputSource,
        InputState,
    )
    from playspace.components.interactables import Dial, Lever, PushButton
    from playspace.components.interaction import GrabSettings, Hand
    from playspace.components.joints import Joint, JointKind, Spring
    from playspace.components.locomotion import (
        Climbable,
        ClimbSettings,
        CrouchSettings,
        JumpSettings,
        Locomotion,
        Provider,
        SprintSettings,
    )
    from playspace.components.look import Look
    from playspace.components.movers import Mover
    from playspace.components.panels import Panel, Pointer, PointerSettings
    from playspace.components.physics import (
        BodyKind,
        Box,
        Capsule,
        CharacterBody,
        CharacterMotion,
        Collider,
        Colliders,
        ConvexHull,
        Cylinder,
        RigidBody,
        Sphere,
        TriangleMesh,
    )
    from playspace.components.rig import (
        SLOPE_QUANTIZATION,
        Crouch,
        MoveRelativeTo,
        OriginMotion,
        Rig,
        RigSettings,
        Seated,
        Separation,
        SeparationPolicy,
        TeleportAim,
        TurnMode,
        ViewFade,
    )
    from playspace.components.sockets import Socket
    from playspace.components.text import Label, ScreenText
    from playspace.ecs import Despawned, Phase, Plugin, World, system
    from playspace.formats.scene import Scene, load_scene
    from playspace.spatial import Pose, Quat, Vec3
    from playspace.systems.input import (
        ReplaySource,
        ScriptedSource,
        device_pose,
        hand_input,
        load_trace,
        standing,
    )
    from playspace.systems.input.placement import tracked_world_pose
    from playspace.systems.input.tracking import TrackingRejected
    from playspace.systems.interaction import GrabPlugin, ThrowPlugin, release_velocity
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
    from playspace.systems.interaction.haptics import HapticsPlugin
    from playspace.systems.interaction.interactables import (
        ButtonPressed,
        ButtonReleased,
        DialTurned,
        InteractablesPlugin,
        LeverMoved,
    )
    from playspace.systems.interaction.trails import TrailPlugin
    from playspace.systems.panels import PanelsPlugin, add_panel_content
    from playspace.systems.physics import (
        ContactBegan,
        ContactEnded,
        FellOutOfWorld,
        Layers,
        Physics,
        PhysicsPlugin,
        Quarantined,
        RayHit,
        SensorEntered,
        SensorExited,
        ShapeHit,
    )
    from playspace.systems.physics.movers import MoverPlugin
    from playspace.systems.player import Arrival, RigPlugin, Roster, despawn_player
    from playspace.systems.player.climb import ClimbPlugin
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
    from playspace.systems.player.movement import CrouchPlugin, JumpPlugin, SprintPlugin
    from playspace.systems.player.players import on_origin, set_up_players, spawn_player
    from playspace.systems.player.poses import horizontal
    from playspace.systems.player.providers import add_provider, locomotion_provider
    from playspace.systems.player.seated import SeatedPlugin, calibrate
    from playspace.systems.sets import FixedSet
    from playspace.systems.telemetry import TelemetryPlugin, record_events

# Where each name lives: the module imported the first time a game asks for the name.
_HOMES: dict[str, tuple[str, ...]] = {
    "playspace.spatial": ("spatial", "Pose", "Quat", "Vec3"),
    "playspace.app": ("DefaultPlugins", "ScenePlugin", "Seed", "build_world", "load_target"),
    "playspace.components": (
        "DeviceRole",
        "Grabbable",
        "HandControls",
        "Opponent",
        "PlayerStart",
        "Prop",
        "SceneCamera",
        "Static",
        "TrackedDevice",
        "Trail",
        "Transform",
    ),
    "playspace.components.comfort": ("VignetteSettings",),
    "playspace.components.debug": ("PhysicsDebug",),
    "playspace.components.haptics": ("HapticPulse", "HapticQueue"),
    "playspace.components.input": (
        "JOINT_COUNT",
        "Button",
        "DevicePose",
        "Gamepad",
        "HandInput",
        "HandJoint",
        "HandJoints",
        "InputFrame",
        "InputSource",
        "InputState",
    ),
    "playspace.components.interactables": ("Dial", "Lever", "PushButton"),
    "playspace.components.interaction": ("GrabSettings", "Hand"),
    "playspace.components.joints": ("Joint", "JointKind", "Spring"),
    "playspace.components.locomotion": (
        "Climbable",
        "ClimbSettings",
        "CrouchSettings",
        "JumpSettings",
        "Locomotion",
        "Provider",
        "SprintSettings",
    ),
    "playspace.components.look": ("Look",),
    "playspace.components.movers": ("Mover",),
    "playspace.components.panels": ("Panel", "Pointer", "PointerSettings"),
    "playspace.components.physics": (
        "BodyKind",
        "Box",
        "Capsule",
        "CharacterBody",
        "CharacterMotion",
        "Collider",
        "Colliders",
        "ConvexHull",
        "Cylinder",
        "RigidBody",
        "Sphere",
        "TriangleMesh",
    ),
    "playspace.components.rig": (
        "SLOPE_QUANTIZATION",
        "Crouch",
        "MoveRelativeTo",
        "OriginMotion",
        "Rig",
        "RigSettings",
        "Seated",
        "Separation",
        "SeparationPolicy",
        "TeleportAim",
        "TurnMode",
        "ViewFade",
    ),
    "playspace.components.sockets": ("Socket",),
    "playspace.components.text": ("Label", "ScreenText"),
    "playspace.ecs": ("Despawned", "Phase", "Plugin", "World", "system"),
    "playspace.formats.scene": ("Scene", "load_scene"),
    "playspace.app.spawn": ("SpawnedScene",),
    "playspace.systems.interaction.haptics": ("HapticsPlugin",),
    "playspace.systems.input": (
        "ReplaySource",
        "ScriptedSource",
        "device_pose",
        "hand_input",
        "load_trace",
        "standing",
    ),
    "playspace.systems.interaction": ("GrabPlugin", "ThrowPlugin", "release_velocity"),
    "playspace.systems.interaction.events": (
        "Grabbed",
        "Hit",
        "HoverEntered",
        "HoverExited",
        "LetGo",
        "Released",
        "Returned",
        "Socketed",
        "Unsocketed",
    ),
    "playspace.systems.interaction.interactables": (
        "ButtonPressed",
        "ButtonReleased",
        "DialTurned",
        "InteractablesPlugin",
        "LeverMoved",
    ),
    "playspace.systems.physics.movers": ("MoverPlugin",),
    "playspace.systems.panels": ("PanelsPlugin", "add_panel_content"),
    "playspace.systems.physics": (
        "ContactBegan",
        "ContactEnded",
        "FellOutOfWorld",
        "Layers",
        "Physics",
        "PhysicsPlugin",
        "Quarantined",
        "RayHit",
        "SensorEntered",
        "SensorExited",
        "ShapeHit",
    ),
    "playspace.systems.player": ("Arrival", "RigPlugin", "Roster", "despawn_player"),
    "playspace.systems.player.climb": ("ClimbPlugin",),
    "playspace.systems.player.events": (
        "BlinkRequested",
        "Blocked",
        "ClimbEnded",
        "ClimbStarted",
        "Crouched",
        "FloorSnapped",
        "FloorSnapRequested",
        "HeightCalibrated",
        "Jumped",
        "Landed",
        "PlayerJoined",
        "PlayerLeft",
        "PlayerRescued",
        "Recentered",
        "RecenterRequested",
        "SprintEnded",
        "SprintStarted",
        "StandRefused",
        "StoodUp",
        "Teleported",
        "TeleportRefused",
        "Turned",
    ),
    "playspace.systems.player.movement": ("CrouchPlugin", "JumpPlugin", "SprintPlugin"),
    "playspace.systems.player.poses": ("horizontal",),
    "playspace.systems.input.placement": ("tracked_world_pose",),
    "playspace.systems.sets": ("FixedSet",),
    "playspace.systems.player.players": ("on_origin", "set_up_players", "spawn_player"),
    "playspace.systems.player.providers": ("add_provider", "locomotion_provider"),
    "playspace.systems.player.seated": ("SeatedPlugin", "calibrate"),
    "playspace.systems.telemetry": ("TelemetryPlugin", "record_events"),
    "playspace.systems.input.tracking": ("TrackingRejected",),
    "playspace.systems.interaction.trails": ("TrailPlugin",),
}
_HOME = {name: module for module, names in _HOMES.items() for name in names}

__all__ = [
    "JOINT_COUNT",
    "SLOPE_QUANTIZATION",
    "Arrival",
    "BlinkRequested",
    "Blocked",
    "BodyKind",
    "Box",
    "Button",
    "ButtonPressed",
    "ButtonReleased",
    "Capsule",
    "CharacterBody",
    "CharacterMotion",
    "ClimbEnded",
    "ClimbPlugin",
    "ClimbSettings",
    "ClimbStarted",
    "Climbable",
    "Collider",
    "Colliders",
    "ContactBegan",
    "ContactEnded",
    "ConvexHull",
    "Crouch",
    "CrouchPlugin",
    "CrouchSettings",
    "Crouched",
    "Cylinder",
    "DefaultPlugins",
    "Despawned",
    "DevicePose",
    "DeviceRole",
    "Dial",
    "DialTurned",
    "FellOutOfWorld",
    "FixedSet",
    "FloorSnapRequested",
    "FloorSnapped",
    "Gamepad",
    "GrabPlugin",
    "GrabSettings",
    "Grabbable",
    "Grabbed",
    "Hand",
    "HandControls",
    "HandInput",
    "HandJoint",
    "HandJoints",
    "HapticPulse",
    "HapticQueue",
    "HapticsPlugin",
    "HeightCalibrated",
    "Hit",
    "HoverEntered",
    "HoverExited",
    "InputFrame",
    "InputSource",
    "InputState",
    "InteractablesPlugin",
    "Joint",
    "JointKind",
    "JumpPlugin",
    "JumpSettings",
    "Jumped",
    "Label",
    "Landed",
    "Layers",
    "LetGo",
    "Lever",
    "LeverMoved",
    "Locomotion",
    "Look",
    "MoveRelativeTo",
    "Mover",
    "MoverPlugin",
    "Opponent",
    "OriginMotion",
    "Panel",
    "PanelsPlugin",
    "Phase",
    "Physics",
    "PhysicsDebug",
    "PhysicsPlugin",
    "PlayerJoined",
    "PlayerLeft",
    "PlayerRescued",
    "PlayerStart",
    "Plugin",
    "Pointer",
    "PointerSettings",
    "Pose",
    "Prop",
    "Provider",
    "PushButton",
    "Quarantined",
    "Quat",
    "RayHit",
    "RecenterRequested",
    "Recentered",
    "Released",
    "ReplaySource",
    "Returned",
    "Rig",
    "RigPlugin",
    "RigSettings",
    "RigidBody",
    "Roster",
    "Scene",
    "SceneCamera",
    "ScenePlugin",
    "ScreenText",
    "ScriptedSource",
    "Seated",
    "SeatedPlugin",
    "Seed",
    "SensorEntered",
    "SensorExited",
    "Separation",
    "SeparationPolicy",
    "ShapeHit",
    "Socket",
    "Socketed",
    "SpawnedScene",
    "Sphere",
    "Spring",
    "SprintEnded",
    "SprintPlugin",
    "SprintSettings",
    "SprintStarted",
    "StandRefused",
    "Static",
    "StoodUp",
    "TelemetryPlugin",
    "TeleportAim",
    "TeleportRefused",
    "Teleported",
    "ThrowPlugin",
    "TrackedDevice",
    "TrackingRejected",
    "Trail",
    "TrailPlugin",
    "Transform",
    "TriangleMesh",
    "TurnMode",
    "Turned",
    "Unsocketed",
    "Vec3",
    "ViewFade",
    "VignetteSettings",
    "World",
    "add_panel_content",
    "add_provider",
    "build_world",
    "calibrate",
    "despawn_player",
    "device_pose",
    "hand_input",
    "horizontal",
    "load_scene",
    "load_target",
    "load_trace",
    "locomotion_provider",
    "on_origin",
    "record_events",
    "release_velocity",
    "set_up_players",
    "spatial",
    "spawn_player",
    "standing",
    "system",
    "tracked_world_pose",
]


if not TYPE_CHECKING:  # the checkers see the imports above instead, each name with its type

    def __getattr__(name: str) -> object:
        """Import `name`'s module and keep the name here, so the next use is a plain lookup."""
        module = _HOME.get(name)
        if module is None:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        loaded = importlib.import_module(module)
        value = loaded if module == f"playspace.{name}" else getattr(loaded, name)
        globals()[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted({*globals(), *__all__})
