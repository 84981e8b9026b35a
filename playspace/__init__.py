"""playspace: an entity-component-system runtime for VR games.

The world, its schedule and its clock live in :mod:`playspace.ecs`; poses and quaternions in
:mod:`playspace.spatial`; plain-data components in :mod:`playspace.components`.
"""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("playspace")
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0.0.0+unknown"
