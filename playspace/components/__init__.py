"""Plain-data components: dataclasses with slots, no behaviour; they import only spatial."""

from playspace.components.camera import SceneCamera
from playspace.components.interaction import Grabbable
from playspace.components.look import Look
from playspace.components.scene import Opponent, PlayerStart, Prop, Static
from playspace.components.tracking import DeviceRole, HandControls, TrackedDevice
from playspace.components.trail import Trail
from playspace.components.transform import Transform

__all__ = [
    "DeviceRole",
    "Grabbable",
    "HandControls",
    "Look",
    "Opponent",
    "PlayerStart",
    "Prop",
    "SceneCamera",
    "Static",
    "TrackedDevice",
    "Trail",
    "Transform",
]
