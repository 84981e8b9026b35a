"""Worlds with hands that grab and throw, scripts that swing them, and what the telemetry says
of the flight."""

from __future__ import annotations

import math
from collections.abc import Callable

from playspace import spatial
from playspace.components import Transform
from playspace.components.input import HandInput, InputFrame
from playspace.components.physics import (
    BodyKind,
    Box,
    Capsule,
    Collider,
    Colliders,
    RigidBody,
    Sphere,
)
from playspace.components.scene import Grabbable, Opponent, Prop
from playspace.ecs import World
from playspace.systems.input import hand_input
from playspace.systems.interaction import TELEMETRY_EVENTS, GrabPlugin, ThrowPlugin
from tests.rig_helpers import Run, head_at, rig_world

G = 9.81


HAND = (0.25, 1.1, -0.3)  # where the right hand rests and grabs, in the room


def prop(
    world: World, name: str, position: spatial.Vec3, shape: object = None, **body: object
) -> int:
    return world.spawn(
        Transform(position=position),
        RigidBody(mass=0.2, **body),  # type: ignore[arg-type]
        Colliders(Collider(shape or Sphere(0.04))),  # type: ignore[arg-type]
        Prop(name),
        Grabbable(),
    )


def named(world: World, name: str) -> int:
    """The prop called `name`."""
    return next(e for e, p in world.each(Prop) if p.name == name)


def ball_in_hand(world: World) -> None:
    prop(world, "ball", spatial.vec3(*HAND))


def grab_world(
    script: Callable[[float], InputFrame],
    build: Callable[[World], object],
    events: tuple[type, ...] = (),
    **kw: object,
) -> Run:
    """A rig world with grab and throw; telemetry records the grab events and `events`."""
    plugins = (GrabPlugin(), ThrowPlugin())
    recorded = (*TELEMETRY_EVENTS, *events)
    return rig_world(script, build=build, plugins=plugins, events=recorded, **kw)  # type: ignore[arg-type]


def right(position: tuple[float, float, float], grip: float, yaw: float = 0.0) -> HandInput:
    return hand_input(position, yaw, grip=grip)


def holding_still(t: float) -> InputFrame:
    return head_at(0.0, 1.7, 0.0, right=right(HAND, 1.0))


def throw_script(
    speed: float, release: float = 1.0, accelerate: float = 0.3, stop: bool = False
) -> tuple[Callable[[float], InputFrame], tuple[float, float, float]]:
    """Grab the ball, then swing the hand forward and up at 30 degrees, reaching `speed` at
    `release` after accelerating for `accelerate` s; with `stop`, the hand stops dead over the
    last 3 steps before release (a flick)."""
    direction = (0.0, math.sin(math.radians(30)), -math.cos(math.radians(30)))
    start = release - accelerate

    def travel(t: float) -> float:
        if t <= start:
            return 0.0
        if stop and t > release - 3 / 90:
            t = release - 3 / 90
        t = min(t, release) - start
        return 0.5 * (speed / accelerate) * t * t

    def script(t: float) -> InputFrame:
        d = travel(t)
        p = tuple(h + d * k for h, k in zip(HAND, direction, strict=True))
        grip = 1.0 if 0.1 < t < release else 0.0
        return head_at(0.0, 1.7, 0.0, right=right(p, grip))  # type: ignore[arg-type]

    return script, direction


def flight(run: Run, name: str = "ball") -> list[list[float]]:
    return [o["p"] for s in run.steps() for o in s["objects"] if o["name"] == name]


def throw_distance(run: Run) -> tuple[float, float]:
    """How far the ball flew from where it left the hand to where it first touched down, and
    the height it left from."""
    steps = run.steps()
    at = next(i for i, s in enumerate(steps) if any(e["type"] == "released" for e in s["events"]))
    path = [next(o["p"] for o in s["objects"] if o["name"] == "ball") for s in steps[at:]]
    start = path[0]
    down = next(p for p in path[1:] if p[1] <= 0.045)
    return math.hypot(down[0] - start[0], down[2] - start[2]), start[1]


def landing_distance(v: float, height: float, angle: float = math.radians(30)) -> float:
    """How far a ball released at `height` with speed `v` at `angle` up travels to y = 0.04."""
    vy, vh = v * math.sin(angle), v * math.cos(angle)
    drop = height - 0.04
    t = (vy + math.sqrt(vy * vy + 2 * G * drop)) / G
    return vh * t


def released(run: Run) -> list[dict]:  # type: ignore[type-arg]
    return run.events("released")


def pan(world: World, position: spatial.Vec3) -> int:
    return world.spawn(
        Transform(position=position),
        RigidBody(mass=1.0),
        Colliders(Collider(Box((0.3, 0.04, 0.3)))),
        Prop("pan"),
        Grabbable(),
    )


def bee(world: World, position: spatial.Vec3) -> int:
    return world.spawn(
        Transform(position=position),
        RigidBody(kind=BodyKind.KINEMATIC),
        Colliders(Collider(Capsule(0.15, 0.5), layer="opponents")),
        Opponent("bee"),
    )


def swing(t: float) -> InputFrame:
    """Grab the pan at the hand, then push it forward 1.2 m over a second."""
    z = HAND[2] - 1.2 * min(max(t - 0.3, 0.0), 1.0)
    return head_at(0.0, 1.7, 0.0, right=right((HAND[0], HAND[1], z), 1.0 if t > 0.1 else 0.0))
