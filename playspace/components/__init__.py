"""Plain-data components: dataclasses with slots, no behaviour; they import only spatial."""

from playspace.components.tracking import DeviceRole, TrackedDevice
from playspace.components.transform import Transform

__all__ = ["DeviceRole", "TrackedDevice", "Transform"]
