"""The files a game reads: scenes and traces."""

from playspace.formats.scene import Scene, load_scene
from playspace.formats.trace import Trace, load_trace

__all__ = ["Scene", "Trace", "load_scene", "load_trace"]
