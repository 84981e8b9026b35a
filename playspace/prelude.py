"""What a game uses, from one place: ``from playspace.prelude import *`` or by name.

The world and its decorators; the components a game spawns and writes; the resources it reads
and changes; every event the runtime sends or takes; the default plugin group and the world
built from a scene; locomotion providers. Deeper module paths stay where the code lives, and
may move; these names are the game's. Nothing here loads GL or OpenXR: a headless game
imports only this.
"""

from __future__ import annotations

from playspace import spatial
from playspace.app import DefaultPlugins, ScenePlugin, Seed, build_world, load_target
from playspace.components import (
    DeviceRole,
    Grabbable,
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
from playspace.components.input import Button, DevicePose, Gamepad, HandInput, InputFrame
from playspace.components.interaction import GrabSettings, Hand
from playspace.components.locomotion import (
    CrouchSettings,
    JumpSettings,
    Locomotion,
    Provider,
    SprintSettings,
)
from playspace.components.look import Look
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
    Separation,
    SeparationPolicy,
    TeleportAim,
    TurnMode,
    ViewFade,
)
from playspace.components.sockets import Socket
from playspace.components.text import Label, ScreenText
from playspace.ecs import Despawned, Phase, Plugin, World, system
from playspace.scene import Scene, SpawnedScene, load_scene
from playspace.spatial import Pose, Quat, Vec3
from playspace.systems.haptics import HapticsPlugin
from playspace.systems.input import (
    InputSource,
    ReplaySource,
    ScriptedSource,
    device_pose,
    hand_input,
    load_trace,
    standing,
)
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
from playspace.systems.player import RigPlugin
from playspace.systems.player.events import (
    BlinkRequested,
    Blocked,
    Crouched,
    FloorSnapped,
    FloorSnapRequested,
    Jumped,
    Landed,
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
from playspace.systems.player.poses import horizontal, to_world
from playspace.systems.player.providers import add_provider, locomotion_provider
from playspace.systems.telemetry import TelemetryPlugin, record_events
from playspace.systems.tracking import InputState, TrackingRejected
from playspace.systems.trails import TrailPlugin

__all__ = [
    "SLOPE_QUANTIZATION",
    "BlinkRequested",
    "Blocked",
    "BodyKind",
    "Box",
    "Button",
    "Capsule",
    "CharacterBody",
    "CharacterMotion",
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
    "FellOutOfWorld",
    "FloorSnapRequested",
    "FloorSnapped",
    "Gamepad",
    "GrabPlugin",
    "GrabSettings",
    "Grabbable",
    "Grabbed",
    "Hand",
    "HandInput",
    "HapticPulse",
    "HapticQueue",
    "HapticsPlugin",
    "Hit",
    "HoverEntered",
    "HoverExited",
    "InputFrame",
    "InputSource",
    "InputState",
    "JumpPlugin",
    "JumpSettings",
    "Jumped",
    "Label",
    "Landed",
    "Layers",
    "LetGo",
    "Locomotion",
    "Look",
    "MoveRelativeTo",
    "Opponent",
    "OriginMotion",
    "Panel",
    "PanelsPlugin",
    "Phase",
    "Physics",
    "PhysicsDebug",
    "PhysicsPlugin",
    "PlayerRescued",
    "PlayerStart",
    "Plugin",
    "Pointer",
    "PointerSettings",
    "Pose",
    "Prop",
    "Provider",
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
    "Scene",
    "SceneCamera",
    "ScenePlugin",
    "ScreenText",
    "ScriptedSource",
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
    "device_pose",
    "hand_input",
    "horizontal",
    "load_scene",
    "load_target",
    "load_trace",
    "locomotion_provider",
    "record_events",
    "release_velocity",
    "spatial",
    "standing",
    "system",
    "to_world",
]
