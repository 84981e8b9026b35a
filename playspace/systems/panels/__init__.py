"""Panels: flat Dear ImGui interfaces in the world that the hands point at and click (XR
Interaction Toolkit's world-space UI, Godot XR Tools' 2D-in-3D viewport); docs/panels.md.

Add :class:`PanelsPlugin` after the rig; register what a panel shows with
:func:`add_panel_content`; spawn an entity with a ``Transform`` and a ``Panel`` naming it::

    def settings_menu(world: World) -> None:
        rig = world.resource(RigSettings)
        _, smooth = imgui.checkbox("Smooth turning", rig.turn_mode is TurnMode.SMOOTH)
        rig.turn_mode = TurnMode.SMOOTH if smooth else TurnMode.SNAP

    world.add_plugin(PanelsPlugin())
    add_panel_content(world, "settings", settings_menu, writes=(RigSettings,))
    world.spawn(Transform(spatial.vec3(0, 1.4, -0.8)), Panel("settings"))

Each fixed step, in the ``game`` set, the ``point`` system casts each hand's aim ray at the
panels (``Pointer`` on the hand), then ``draw_panels`` runs each panel's interface with its
pointer as the mouse and the trigger as the button, and keeps the frame in ``PanelDrawing``
for the renderer's ``PanelPass``.
"""

from __future__ import annotations

from collections.abc import Iterable

from playspace.components.panels import Panel, PanelDrawing, Pointer, PointerSettings
from playspace.components.rig import Rig
from playspace.ecs import PluginError, World
from playspace.systems.panels.pointer import aim_ray, panel_hit, point
from playspace.systems.panels.ui import Content, PanelContent, PanelContexts, draw_panels
from playspace.systems.player.players import PlayerSetups, set_up_players
from playspace.systems.sets import add_fixed_sets


class PanelsPlugin:
    """Pointers on every player's hands, the panels' interfaces, and `settings` for the aim
    ray."""

    def __init__(self, settings: PointerSettings | None = None) -> None:
        self.settings = settings or PointerSettings()

    def build(self, world: World) -> None:
        if world.try_resource(PlayerSetups) is None:
            raise PluginError("PanelsPlugin needs the RigPlugin (for the hands): add it first")
        world.insert_resource(self.settings)
        world.insert_resource(PanelContent())
        world.insert_resource(PanelContexts())
        set_up_players(world, _pointers)
        add_fixed_sets(world)
        world.add_systems(point, draw_panels)


def _pointers(world: World, rig: Rig) -> None:
    """A player's hands point at panels."""
    for hand in (rig.left_hand, rig.right_hand):
        world.add(hand, Pointer())


def add_panel_content(
    world: World,
    name: str,
    draw: Content,
    reads: Iterable[type] = (),
    writes: Iterable[type] = (),
) -> None:
    """Let panels show `draw` as content `name`: called inside the panel's window each fixed
    step, it adds Dear ImGui widgets and acts on them in the world. `reads` and `writes` name
    what it touches there (component, resource and event types), as a system declares them,
    so the schedule can order it against the systems that touch the same."""
    registry = world.resource(PanelContent).contents
    if name in registry:
        raise ValueError(f"panel content {name!r} is already registered")
    registry[name] = draw
    world.declare(draw_panels, reads=reads, writes=writes)


__all__ = [
    "Panel",
    "PanelContent",
    "PanelDrawing",
    "PanelsPlugin",
    "Pointer",
    "PointerSettings",
    "add_panel_content",
    "aim_ray",
    "draw_panels",
    "panel_hit",
    "point",
]
