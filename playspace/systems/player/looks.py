"""How the players look, said once a frame in LATE for whatever draws the world (DESIGN.md,
"Looks, sound, animation": features write render-facing components, the renderer draws them).

- The view of the player this process shows (:class:`~playspace.components.drawn.DrawnView`):
  their head where late placement drew it, how dark the view is (the separation's fade and a
  blink), whether a provider carries them continuously (the comfort vignette's cue) and, while
  they walked into something, how far their head is from their body.
- Every player's controllers (``Figure``), hidden while their tracking is lost, as XRI and Godot
  hide a lost controller (a hand never tracked would otherwise stand at the origin, at the
  player's feet), and while ``HandDisplay`` draws hands alone.
- Every player's teleport being aimed (``Markers`` on the origin): dots along the arc and a
  disc where it lands, the body's width, green where the body can stand and red where the
  teleport would be refused, with the reason in the player's words over a refused target.
"""

from __future__ import annotations

from playspace import spatial
from playspace.components import TrackedDevice, Transform
from playspace.components.drawn import DrawnPoses, DrawnView, Figure, Marker, Markers, Tint
from playspace.components.hands import HandDisplay
from playspace.components.physics import Cylinder, Sphere
from playspace.components.rig import (
    AimProblem,
    LocalPlayer,
    OriginMotion,
    Rig,
    Separation,
    TeleportAim,
    ViewFade,
)
from playspace.ecs import Phase, World, system
from playspace.spatial import Pose
from playspace.systems.player.players import local_rig
from playspace.systems.sets import LateSet

ARC_DOT = Sphere(0.015)  # each dot of an aimed arc, at every other point of it
TARGET_DISC = Cylinder(0.3, 0.01)  # where the arc lands: the body's width, flat on the floor
# Why a teleport target is refused, as the player would say it (every AimProblem has words).
REASONS: dict[AimProblem, str] = {
    AimProblem.NO_TARGET: "nothing to land on",
    AimProblem.SLOPE: "too steep",
    AimProblem.ROOM: "no room to stand",
}


@system(
    Phase.LATE,
    in_set=LateSet.VIEW,
    reads=(
        Rig,
        LocalPlayer,
        DrawnPoses,
        Transform,
        ViewFade,
        OriginMotion,
        Separation,
        TrackedDevice,
        TeleportAim,
        HandDisplay,
    ),
    writes=(DrawnView, Figure, Markers),
)
def show_players(world: World) -> None:
    """Say how the players look this frame: the shown player's view, every player's
    controllers and teleport aim."""
    display = world.try_resource(HandDisplay)
    controllers = display is None or display.controllers
    for origin, rig in world.each(Rig):
        for hand in (rig.left_hand, rig.right_hand):
            figure = world.try_get(hand, Figure)
            if figure is not None:
                figure.shown = controllers and world.get(hand, TrackedDevice).tracked
        markers = world.get(origin, Markers)
        aim = world.get(origin, TeleportAim)
        if aim.aiming and aim.arc:
            markers.shown = _aimed(aim)
        elif markers.shown:
            markers.shown = []
    _view(world, world.resource(DrawnView))


def _aimed(aim: TeleportAim) -> list[Marker]:
    """The markers of a teleport being aimed: the arc's dots, and the disc where it lands."""
    valid = aim.target is not None and aim.problem is None
    tint = Tint.VALID if valid else Tint.REFUSED
    dots = tuple(Pose(spatial.Vec3(p), spatial.identity()) for p in aim.arc[::2])
    shown = [Marker(ARC_DOT, dots, tint)]
    target = aim.target
    if target is not None:
        on_floor = target + spatial.vec3(0.0, TARGET_DISC.height, 0.0)
        reason = None if aim.problem is None else REASONS[aim.problem]
        shown.append(Marker(TARGET_DISC, (Pose(on_floor, spatial.identity()),), tint, label=reason))
    return shown


def _view(world: World, view: DrawnView) -> None:
    """The view of the player this process shows, as this frame draws it."""
    rig = local_rig(world)
    if rig is None:
        view.head, view.fade, view.carried, view.walled_in = None, 0.0, False, None
        return
    drawn = world.try_resource(DrawnPoses)
    head = drawn.pose(rig.head) if drawn is not None else None
    view.head = head if head is not None else world.get(rig.head, Transform).pose()
    view.fade = min(max(world.get(rig.head, ViewFade).amount, 0.0), 1.0)
    view.carried = world.get(rig.origin, OriginMotion).continuous
    separation = world.get(rig.body, Separation)
    view.walled_in = separation.distance if separation.blocked else None


__all__ = ["REASONS", "show_players"]
