"""The inspector's interface, in Dear ImGui: the entities, the chosen one's components with
their live values (numbers, switches, vectors and colors edited in place), pause and single
step, the systems' time as bars over the last frames, and the last events.

A list of a thousand entities would cost a thousand widgets a frame; a clipper draws only the
rows in view, so the panel costs the same whatever the world holds.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from imgui_bundle import imgui

from playspace import spatial
from playspace.components.debug import Inspector
from playspace.ecs import World
from playspace.systems.inspector.model import Field, brief, edit, fields_of, slowest

BARS = 6  # systems shown as bars: the slowest
BAR_HEIGHT = 26.0  # pixels
LIST_SHARE = 0.38  # of the panel's width: the entity list


def draw(world: World, inspector: Inspector, rows: list[tuple[int | None, str]]) -> None:
    """The whole panel; `rows` are the entity list's lines (None: a group's heading)."""
    _controls(world, inspector)
    height = imgui.get_content_region_avail().y - BARS * (BAR_HEIGHT + 4) - 30
    width = imgui.get_content_region_avail().x
    bordered = imgui.ChildFlags_.borders
    imgui.begin_child("entities", imgui.ImVec2(width * LIST_SHARE, height), bordered)
    _entity_list(inspector, rows)
    imgui.end_child()
    imgui.same_line()
    imgui.begin_child("components", imgui.ImVec2(0, height), bordered)
    _components(world, inspector)
    imgui.end_child()
    _bars(inspector)


def _controls(world: World, inspector: Inspector) -> None:
    """Pause (or Resume) and Step first, at the panel's top left, where they never move."""
    if imgui.button("Resume" if inspector.paused else "Pause"):
        inspector.paused = not inspector.paused
    imgui.same_line()
    if imgui.button("Step") and inspector.paused:
        inspector.steps += 1
    imgui.same_line()
    imgui.text(f"step {world.fixed_time.step}")
    if inspector.events:
        imgui.same_line()
        imgui.text_disabled(f"last: {inspector.events[-1]}")


def _entity_list(inspector: Inspector, rows: list[tuple[int | None, str]]) -> None:
    clipper = imgui.ListClipper()
    clipper.begin(len(rows))
    while clipper.step():
        for index in range(clipper.display_start, clipper.display_end):
            entity, text = rows[index]
            if entity is None:
                imgui.text_disabled(text)
                continue
            chosen = entity == inspector.selected
            if imgui.selectable(f"{text}##{entity}", chosen)[0]:
                inspector.selected = entity
    clipper.end()


def _components(world: World, inspector: Inspector) -> None:
    entity = inspector.selected
    if entity is None or not world.exists(entity):
        imgui.text_wrapped("Choose an entity in the list, or point at one and pull the trigger.")
        return
    imgui.text(f"entity {entity}")
    for component in world.components_of(entity):
        kind = type(component)
        if not imgui.collapsing_header(kind.__qualname__, imgui.TreeNodeFlags_.default_open):
            continue
        for field in fields_of(component):
            changed = _field(kind.__qualname__, field)
            if changed is not None:
                try:
                    edit(world, entity, kind, field.name, changed)
                except (TypeError, ValueError) as error:
                    inspector.events.append(f"edit refused: {error}")


def _field(owner: str, field: Field) -> Any:
    """The field's editor; the new value when it was changed this frame, else None."""
    label = f"{field.name}##{owner}"
    value = field.value
    now: Any
    if field.kind == "bool":
        changed, now = imgui.checkbox(label, value)
    elif field.kind == "int":
        changed, now = imgui.input_int(label, value)
    elif field.kind == "float":
        changed, now = imgui.drag_float(label, value, 0.01, format="%.4g")
    elif field.kind == "vec3":
        changed, xyz = imgui.drag_float3(label, [value.x, value.y, value.z], 0.01)
        now = spatial.vec3(*xyz)
    elif field.kind == "color":
        changed, rgba = (imgui.color_edit4 if len(value) == 4 else imgui.color_edit3)(
            label, list(value)
        )
        now = tuple(float(c) for c in rgba)
    else:
        imgui.text_wrapped(f"{field.name}: {brief(value)}")
        return None
    return now if changed else None


def _bars(inspector: Inspector) -> None:
    width = imgui.get_content_region_avail().x
    for name, kept in slowest(inspector.timings, BARS):
        values = np.asarray(kept, dtype=np.float32)
        imgui.plot_histogram(
            f"##{name}",
            values,
            overlay_text=f"{name} {values[-1]:.2f} ms (most {values.max():.2f})",
            scale_min=0.0,
            graph_size=imgui.ImVec2(width, BAR_HEIGHT),
        )
