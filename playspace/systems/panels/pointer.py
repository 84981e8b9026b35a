"""The hands' aim rays against the panels: which panel each hand points at, where, and whether
its trigger is pressed (XRI's ray interactor, Godot XR Tools' function pointer).

The ray leaves the hand's aim pose (``PointerSettings.aim`` in the grip's frame) along its -Z.
Panels are flat rectangles, not physics bodies: the hit is plain maths, one ray against one
plane per panel, and the nearest panel in front of the hand within reach wins. A panel is hit
only from its front (its +Z side), as a screen is; walls do not hide panels from the ray.

A press belongs to the panel it began on: while the trigger stays down that panel keeps the
mouse, at the point where the ray crosses its plane, even off its edges, so a slider dragged
past its end stays at the end rather than sticking where the ray left the panel.
"""

from __future__ import annotations

from playspace import spatial
from playspace.components import TrackedDevice, Transform
from playspace.components.panels import DrawnLate, Panel, Pointer, PointerSettings
from playspace.components.tracking import HandControls
from playspace.ecs import Phase, World, system
from playspace.spatial import Pose, Vec3
from playspace.systems.sets import FixedSet

FORWARD = spatial.vec3(0.0, 0.0, -1.0)
PARALLEL = 1e-9  # |cos| below this: the ray runs along the plane and never meets it


def _dot(a: Vec3, b: Vec3) -> float:
    return float(a.x * b.x + a.y * b.y + a.z * b.z)


def aim_ray(hand: Pose, aim: Pose) -> tuple[Vec3, Vec3]:
    """The aim ray of a hand posed `hand` in the world: its origin and unit direction."""
    pose = spatial.compose(hand, aim)
    return pose.position, spatial.transform_direction(pose, FORWARD)


def panel_hit(
    origin: Vec3,
    direction: Vec3,
    panel: Pose,
    size: tuple[float, float],
    reach: float,
    bounded: bool = True,
) -> tuple[float, float, float] | None:
    """Where the ray from `origin` along the unit `direction` meets the front of a panel
    centred at `panel` (facing its +Z) and `size` metres across: (distance, u, v), u from 0 at
    the left edge to 1 at the right, v from 0 at the top to 1 at the bottom. None when the ray
    meets it from behind, runs parallel to it, would meet it behind its origin or further than
    `reach`, or (when `bounded`) passes beside it."""
    normal = spatial.transform_direction(panel, spatial.vec3(0.0, 0.0, 1.0))
    facing = _dot(direction, normal)
    if facing > -PARALLEL:  # from behind, or along the plane
        return None
    distance = _dot(panel.position - origin, normal) / facing
    if distance < 0.0 or distance > reach:
        return None
    local = spatial.transform_point(spatial.invert(panel), origin + direction * distance)
    width, height = size
    u, v = local.x / width + 0.5, 0.5 - local.y / height
    if bounded and not (0.0 <= u <= 1.0 and 0.0 <= v <= 1.0):
        return None
    return distance, u, v


@system(
    Phase.FIXED,
    in_set=FixedSet.GAME,
    reads=(PointerSettings, Panel, TrackedDevice, HandControls, Transform),
    writes=(Pointer,),
)
def point(world: World) -> None:
    """Cast each hand's aim ray at the visible panels; record the hit and the trigger."""
    settings = world.resource(PointerSettings)
    panels = {
        entity: (panel, transform.pose())
        for entity, (panel, transform) in world.query(Panel, Transform)
        if panel.visible and not world.has(entity, DrawnLate)
    }
    query = world.query(Pointer, TrackedDevice, HandControls, Transform)
    for _, (pointer, device, controls, transform) in query:
        if not device.tracked:
            pointer.panel, pointer.point, pointer.pixel = None, None, None
            pointer.pressed, pointer.captured = False, None
            continue
        origin, direction = aim_ray(transform.pose(), settings.aim)
        pressed = controls.trigger > settings.press
        nearest: tuple[int, tuple[float, float, float]] | None = None
        for entity, (panel, pose) in panels.items():
            hit = panel_hit(origin, direction, pose, panel.size, settings.reach)
            if hit is not None and (nearest is None or hit[0] < nearest[1][0]):
                nearest = entity, hit
        if not pressed:
            pointer.captured = None
        elif not pointer.pressed:  # the press begins: on the panel it points at, if any
            pointer.captured = None if nearest is None else nearest[0]
        pointer.pressed = pressed
        if pointer.captured is not None and pointer.captured not in panels:
            pointer.captured = None  # hidden or gone mid-press
        if pointer.captured is not None and (nearest is None or nearest[0] != pointer.captured):
            panel, pose = panels[pointer.captured]
            plane = panel_hit(origin, direction, pose, panel.size, settings.reach, False)
            pointer.panel = pointer.captured
            if plane is None:  # pointing away from its plane: the mouse stays where it was
                pointer.point = None
                continue
            nearest = pointer.captured, plane
        if nearest is None:
            pointer.panel, pointer.point, pointer.pixel = None, None, None
            continue
        entity, (distance, u, v) = nearest
        width, height = panels[entity][0].resolution
        pointer.panel, pointer.distance = entity, distance
        pointer.point = origin + direction * distance
        pointer.pixel = (u * width, v * height)
