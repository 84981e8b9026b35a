"""Plain-data components: dataclasses with slots, no behaviour; they import only spatial."""

from playspace.components.appearance import Appearance
from playspace.components.camera import SceneCamera
from playspace.components.interaction import Grabbable
from playspace.components.scene import Opponent, PlayerStart, Prop, Scenery
from playspace.components.tracking import DeviceRole, HandControls, TrackedDevice
from playspace.components.trail import Trail
from playspace.components.transform import Transform

__all__ = [
    "Appearance",
    "DeviceRole",
    "Grabbable",
    "HandControls",
    "Opponent",
    "PlayerStart",
    "Prop",
    "SceneCamera",
    "Scenery",
    "TrackedDevice",
    "Trail",
    "Transform",
]
