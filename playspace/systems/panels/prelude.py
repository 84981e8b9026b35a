"""World-space panels with Dear ImGui content."""

from playspace.systems.panels import PanelsPlugin, add_panel_content

__all__ = ["PanelsPlugin", "add_panel_content"]
