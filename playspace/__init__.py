"""playspace: an entity-component-system runtime for VR games.

The world, its schedule and its clock live in :mod:`playspace.ecs`; poses and quaternions in
:mod:`playspace.spatial`; plain-data components in :mod:`playspace.components`; what a game
imports in :mod:`playspace.prelude`.
"""

# The one place the version is written (pyproject.toml reads it from here): a constant, since
# asking importlib.metadata costs some 30 ms of every start.
__version__ = "0.1.0"
