"""Each panel's interface, run once a fixed step with the hands' pointers as its mouse.

A panel's content is a game function registered by name (``add_panel_content``): it adds
Dear ImGui widgets and acts on what they return in the world, inside the fixed step, so a
checkbox that changes a setting changes it at a known step and a replayed trace changes it at
the same one. Dear ImGui is loaded only once a panel exists; a world without panels never
imports it.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from playspace.components import DeviceRole, TrackedDevice
from playspace.components.panels import DrawnLate, Panel, PanelDrawing, Pointer
from playspace.ecs import Phase, World, system
from playspace.systems.panels.pointer import point
from playspace.systems.sets import FixedSet

if TYPE_CHECKING:
    from playspace.systems.panels.imgui_frame import PanelContext

Content = Callable[[World], None]


@dataclass(slots=True)
class PanelContent:
    """What panels can show, a resource: a content's name (``Panel.content``) to the game
    function that draws it. Add to it with ``add_panel_content``."""

    contents: dict[str, Content] = field(default_factory=dict)


@dataclass(slots=True)
class PanelContexts:
    """Each panel's Dear ImGui context, by panel entity; a resource of the panels plugin."""

    contexts: dict[int, PanelContext] = field(default_factory=dict)
    revisions: itertools.count[int] = field(default_factory=lambda: itertools.count(1))


def _mouse(world: World, panel: int) -> tuple[tuple[float, float] | None, bool]:
    """The mouse `panel` sees: the hand whose press began on it, else the right hand pointing
    at it, else the left; the button is down only for a press that began on the panel."""
    pointers = sorted(
        world.query(Pointer, TrackedDevice),
        key=lambda row: row[1][1].role is not DeviceRole.RIGHT_HAND,
    )
    for _, (pointer, _device) in pointers:
        if pointer.captured == panel:
            return pointer.pixel, True
    for _, (pointer, _device) in pointers:
        if pointer.panel == panel:
            return pointer.pixel, False
    return None, False


def _panels_or_contexts(world: World) -> bool:
    """Whether there is a panel to draw, or a panel's context left to free."""
    return bool(world.query(Panel) or world.resource(PanelContexts).contexts)


@system(
    Phase.FIXED,
    in_set=FixedSet.GAME,
    after=(point,),
    run_if=_panels_or_contexts,
    reads=(Panel, Pointer, TrackedDevice, PanelContent),
    writes=(PanelDrawing, PanelContexts),
)
def draw_panels(world: World) -> None:
    """Run every visible panel's interface for this step and keep what it drew."""
    contexts = world.resource(PanelContexts)
    panels = world.query(Panel)
    gone = [entity for entity in contexts.contexts if not world.has(entity, Panel)]
    if not panels and not gone:
        return
    from playspace.systems.panels import imgui_frame  # here: only worlds with panels load it

    for entity in gone:
        imgui_frame.destroy(contexts.contexts.pop(entity))
    registry = world.resource(PanelContent).contents
    dt = world.fixed_time.dt
    for entity, (panel,) in list(panels):
        if not panel.visible or world.has(entity, DrawnLate):
            continue
        content = registry.get(panel.content)
        if content is None:
            known = ", ".join(sorted(registry)) or "none yet"
            raise LookupError(
                f"panel {entity}: its content {panel.content!r} is not registered "
                f"(registered: {known}); add it with add_panel_content(world, name, draw)"
            )
        state = contexts.contexts.get(entity)
        if state is None:
            state = contexts.contexts[entity] = imgui_frame.new_context()
        mouse, down = _mouse(world, entity)
        drawing = imgui_frame.run_frame(
            state,
            panel,
            lambda: content(world),  # noqa: B023 - called at once, inside this iteration
            mouse,
            down,
            dt,
            lambda: next(contexts.revisions),
        )
        kept = world.try_get(entity, PanelDrawing)
        if kept is None:
            drawing.version = 1
            world.add(entity, drawing)
            continue
        kept.vertices, kept.indices = drawing.vertices, drawing.indices
        kept.commands, kept.images = drawing.commands, drawing.images
        kept.version += 1
