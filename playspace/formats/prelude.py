"""The files a game reads: scenes, traces and models."""

from playspace.formats.models import Model, read_model
from playspace.formats.scene import Scene, load_scene
from playspace.formats.trace import Trace, load_trace

__all__ = ["Model", "Scene", "Trace", "load_scene", "load_trace", "read_model"]
