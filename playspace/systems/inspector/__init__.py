"""The inspector: a panel that shows and edits the running world (docs/live-development.md).

F1 in the preview, the left menu button in the headset (``toggle_inspector``) shows it:
before the eyes in the preview, over the left wrist in the headset. It is drawn once a frame
in LATE, not in the fixed step, so it answers while the world is paused: pause, single steps
and resume are its own (the loops honour :class:`Inspector` ``paused`` and ``steps``). The
right hand's aim ray is its mouse and the trigger its button; pulled while the ray is off the
panel, the trigger picks the entity the ray meets. Hidden, it costs one run condition a frame:
it reads no events, keeps no timings and draws nothing.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from playspace import spatial
from playspace.components import Transform
from playspace.components.debug import Inspector, InspectorPlace
from playspace.components.drawn import DrawnPoses, DrawnView
from playspace.components.input import InputState
from playspace.components.panels import DrawnLate, Panel, PanelDrawing, Pointer, PointerSettings
from playspace.ecs import Phase, World, system
from playspace.spatial import Pose
from playspace.systems.inspector.model import entity_names, pick, tree
from playspace.systems.panels.pointer import aim_ray, panel_hit
from playspace.systems.player.players import local_rig
from playspace.systems.sets import LateSet, add_late_sets

if TYPE_CHECKING:
    from playspace.systems.panels.imgui_frame import PanelContext

FRAMES_KEPT = 180  # of each system's time: two seconds at 90 Hz
NAMES_EVERY = 30  # frames between two readings of the entities' names
VIEW_PANEL = Panel("inspector", (0.9, 0.6), (900, 600), 18.0, (0.08, 0.09, 0.12, 0.92))
WRIST_PANEL = Panel("inspector", (0.3, 0.2), (900, 600), 22.0, (0.08, 0.09, 0.12, 0.92))
BEFORE_EYES = spatial.vec3(0.0, -0.05, -0.8)  # the panel in the head's frame (the preview)
OVER_WRIST = spatial.vec3(0.0, 0.14, 0.0)  # above the left hand, world up (the headset)
PICK_REACH = 20.0  # metres the trigger picks along the aim ray
READER = "inspector"  # its cursor in the event queues, while shown


@dataclass(slots=True)
class InspectorFrame:
    """What the inspector keeps between its frames, a resource: its Dear ImGui context, the
    entity list (read again every :data:`NAMES_EVERY` frames), the frame count."""

    context: PanelContext | None = None
    rows: list[tuple[int | None, str]] = field(default_factory=list)
    frames: int = 0
    revision: int = 0


class InspectorPlugin:
    """The inspector, hidden until :func:`toggle_inspector`; `place` says where it hangs."""

    def __init__(self, place: InspectorPlace = InspectorPlace.VIEW) -> None:
        self.place = place

    def build(self, world: World) -> None:
        world.insert_resource(Inspector(self.place))
        world.insert_resource(InspectorFrame())
        add_late_sets(world)
        world.add_systems(inspect)


def toggle_inspector(world: World, place: InspectorPlace = InspectorPlace.VIEW) -> Inspector:
    """Show the inspector, or hide it (adding it to the world the first time)."""
    if world.try_resource(Inspector) is None:
        world.add_plugin(InspectorPlugin(place))
    inspector = world.resource(Inspector)
    inspector.shown = not inspector.shown
    if inspector.panel is not None and world.exists(inspector.panel):
        world.get(inspector.panel, Panel).visible = inspector.shown
    if inspector.shown:
        for kind in world.events.kinds():
            world.events.subscribe(READER, (kind,))
    else:
        world.events.forget(READER)
        inspector.timings.clear()
    return inspector


def _shown(world: World) -> bool:
    return world.resource(Inspector).shown


@system(
    Phase.LATE,
    in_set=LateSet.HANDS,
    run_if=_shown,
    reads=(DrawnPoses, DrawnView, InputState),
    writes=(Inspector, InspectorFrame, Panel, PanelDrawing, Transform, Pointer, PointerSettings),
)
def inspect(world: World) -> None:
    """Place the panel, note the systems' times and the events, follow the right hand's aim
    (its mouse, or a pick), and draw the interface for this frame."""
    inspector, frame = world.resource(Inspector), world.resource(InspectorFrame)
    panel = _panel(world, inspector)
    _keep(world, inspector)
    mouse, down = _aim(world, inspector, panel)
    from playspace.systems.inspector.ui import draw
    from playspace.systems.panels import imgui_frame  # only once shown: it loads Dear ImGui

    if frame.context is None:
        frame.context = imgui_frame.new_context()
    if frame.frames % NAMES_EVERY == 0:
        frame.rows = _rows(world)
    frame.frames += 1

    def revision() -> int:
        frame.revision += 1
        return frame.revision

    shown = world.get(panel, Panel)
    drawing = imgui_frame.run_frame(
        frame.context, shown, lambda: draw(world, inspector, frame.rows), mouse, down,
        max(world.time.delta, 1e-3), revision,
    )  # fmt: skip
    kept = world.try_get(panel, PanelDrawing)
    if kept is None:
        world.add(panel, drawing)
        return
    kept.vertices, kept.indices = drawing.vertices, drawing.indices
    kept.commands, kept.images = drawing.commands, drawing.images
    kept.version += 1


def _panel(world: World, inspector: Inspector) -> int:
    """The panel's entity, made the first time, placed for this frame."""
    if inspector.panel is None or not world.exists(inspector.panel):
        looks = WRIST_PANEL if inspector.place is InspectorPlace.WRIST else VIEW_PANEL
        inspector.panel = world.spawn(Transform(), _copy(looks), DrawnLate())
    placed = _placement(world, inspector.place)
    if placed is not None:
        transform = world.get(inspector.panel, Transform)
        transform.position, transform.rotation = placed.position, placed.rotation
    return inspector.panel


def _copy(panel: Panel) -> Panel:
    return Panel(panel.content, panel.size, panel.resolution, panel.font_size, panel.background)


def _placement(world: World, place: InspectorPlace) -> Pose | None:
    head = world.resource(DrawnView).head if world.try_resource(DrawnView) else None
    if head is None:
        return None
    if place is InspectorPlace.VIEW:
        return Pose(spatial.transform_point(head, BEFORE_EYES), head.rotation)
    hand = _hand_pose(world, "left_hand")
    if hand is None:
        return None
    at = hand.position + OVER_WRIST
    return Pose(at, spatial.look_rotation(at - head.position))


def _hand_pose(world: World, role: str) -> Pose | None:
    rig = local_rig(world)
    if rig is None:
        return None
    entity = getattr(rig, role)
    drawn = world.try_resource(DrawnPoses)
    found = drawn.pose(entity) if drawn is not None else None
    return found or world.get(entity, Transform).pose()


def _keep(world: World, inspector: Inspector) -> None:
    """The systems' times this frame (0 for one that did not run: its run condition skipped
    it), as the schedule measured them (the numbers ``--profile`` writes), and the events
    since the last frame."""
    timings, frame = inspector.timings, world.time.frame
    for spec in world.schedule.all():
        if spec.stats.calls:
            kept = timings.get(spec.name)
            if kept is None:
                kept = timings[spec.name] = deque(maxlen=FRAMES_KEPT)
            kept.append(spec.stats.last_ns / 1e6 if spec.stats.frame == frame else 0.0)
    for kind in world.events.kinds():
        events: list[object] = world.read_events(kind, reader=READER)
        for event in events:
            inspector.events.append(_said(event))


def _said(event: Any) -> str:
    shown = repr(event)
    return shown if len(shown) <= 120 else shown[:117] + "..."


def _aim(world: World, inspector: Inspector, panel: int) -> tuple[tuple[float, float] | None, bool]:
    """The panel's mouse and button from the right hand's aim ray and trigger, as they are
    now (the input of this frame, so it works while paused); a trigger pulled off the panel
    picks what the ray meets."""
    rig = local_rig(world)
    hand = _hand_pose(world, "right_hand")
    if rig is None or hand is None:
        return None, False
    settings = world.try_resource(PointerSettings) or world.insert_resource(PointerSettings())
    pressed = world.get(rig.origin, InputState).latest.right.trigger > settings.press
    origin, direction = aim_ray(hand, settings.aim)
    shown = world.get(panel, Panel)
    hit = panel_hit(
        origin, direction, world.get(panel, Transform).pose(), shown.size, settings.reach
    )
    pointer = world.try_get(rig.right_hand, Pointer)
    if pointer is None:
        pointer = Pointer()
        world.add(rig.right_hand, pointer)
    fresh = pressed and not inspector.picked_with
    inspector.picked_with = pressed
    if hit is None:
        pointer.panel = pointer.point = pointer.pixel = None
        if fresh:
            picked = pick(world, origin, direction, PICK_REACH)
            inspector.selected = picked if picked is not None else inspector.selected
        return None, False
    distance, u, v = hit
    width, height = shown.resolution
    pointer.panel, pointer.distance = panel, distance
    pointer.point = origin + direction * distance
    pointer.pixel = (u * width, v * height)
    return pointer.pixel, pressed


def _rows(world: World) -> list[tuple[int | None, str]]:
    rows: list[tuple[int | None, str]] = []
    for group, members in tree(entity_names(world)):
        if group:
            rows.append((None, group))
        rows.extend((entity, f"  {name}" if group else name) for entity, name in members)
    return rows


__all__ = ["Inspector", "InspectorPlace", "InspectorPlugin", "inspect", "toggle_inspector"]
