"""A comfort settings menu on a panel in the room, pointed at and clicked with a controller.

The panel hangs in front of the player. Aim a controller at it (its ray and a cursor show
where) and pull the trigger to choose snap or smooth turning, the snap turn's angle, whether
dynamic slope quantization is on, and whether the vignette darkens smooth motion. Each choice
changes the world's settings inside the fixed step, so the trace replays to the same choices
at the same steps. The trace points at "Smooth", then "45", then at the slope and vignette
checkboxes, clicking each; then the player turns smoothly with the right stick.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from imgui_bundle import imgui

from playspace.prelude import (
    SLOPE_QUANTIZATION,
    Panel,
    PanelsPlugin,
    RigSettings,
    Transform,
    TurnMode,
    VignetteSettings,
    World,
    add_panel_content,
    spatial,
)

SCENE = "roomscale.toml"
TRACE = "traces/settings.jsonl"

PANEL_AT = (0.0, 1.35, -1.0)  # metres, in front of the player's start, facing them
SNAP_ANGLES = (15, 30, 45, 90)  # degrees: Godot XR Tools 20, DESIGN.md 30, XRI 45, SteamVR 90


@dataclass(slots=True)
class Choices:
    """What the player chose on the menu, in order (a resource, for the summary)."""

    made: list[str]


def menu(world: World) -> None:
    """The settings menu: turning, the snap angle, slope quantization, the vignette."""
    settings, choices = world.resource(RigSettings), world.resource(Choices)
    vignette = world.resource(VignetteSettings)
    imgui.push_style_var(imgui.StyleVar_.frame_padding, imgui.ImVec2(10.0, 8.0))
    imgui.push_style_var(imgui.StyleVar_.item_spacing, imgui.ImVec2(16.0, 14.0))
    imgui.text("Turning")
    for mode in TurnMode:
        if imgui.radio_button(mode.value.capitalize(), settings.turn_mode is mode):
            if settings.turn_mode is not mode:
                choices.made.append(f"turn {mode.value}")
            settings.turn_mode = mode
        imgui.same_line()
    imgui.new_line()
    imgui.text("Snap angle")
    for angle in SNAP_ANGLES:
        chosen = round(math.degrees(settings.snap_turn)) == angle
        if imgui.radio_button(f"{angle}", chosen) and not chosen:
            settings.snap_turn = math.radians(angle)
            choices.made.append(f"snap {angle}")
        imgui.same_line()
    imgui.new_line()
    on = settings.slope_quantization > 0
    clicked, on = imgui.checkbox("Slope quantization", on)
    if clicked:
        settings.slope_quantization = SLOPE_QUANTIZATION if on else 0.0
        choices.made.append(f"slope {'on' if on else 'off'}")
    clicked, vignette.enabled = imgui.checkbox("Vignette", vignette.enabled)
    if clicked:
        choices.made.append(f"vignette {'on' if vignette.enabled else 'off'}")
    imgui.pop_style_var(2)


def build(world: World) -> None:
    """The panels plugin, the menu, and the panel showing it."""
    world.add_plugin(PanelsPlugin())
    world.insert_resource(Choices([]))
    world.insert_resource(VignetteSettings())
    add_panel_content(world, "settings", menu, writes=(RigSettings, Choices, VignetteSettings))
    world.spawn(
        Transform(position=spatial.vec3(*PANEL_AT)),
        Panel("settings", size=(0.6, 0.4), resolution=(600, 400), font_size=26.0),
    )


def summary(world: World) -> str:
    settings = world.resource(RigSettings)
    made = ", ".join(world.resource(Choices).made) or "none"
    return (
        f"chosen: {made}; now {settings.turn_mode.value} turning, "
        f"snap {math.degrees(settings.snap_turn):.0f} degrees, "
        f"slope quantization {settings.slope_quantization:.2f} m, "
        f"vignette {'on' if world.resource(VignetteSettings).enabled else 'off'}"
    )
