"""A headless rig world driven by a script, and its telemetry read back as a player would."""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from playspace import spatial
from playspace.components.drawn import DrawnView
from playspace.components.input import Button, DevicePose, HandInput, InputFrame
from playspace.components.physics import Box
from playspace.components.rig import LocalPlayer, Rig, RigSettings
from playspace.components.scene import PlayerStart
from playspace.ecs import Phase, World
from playspace.formats.telemetry import parse_telemetry
from playspace.systems.input import ScriptedSource, device_pose, hand_input
from playspace.systems.physics import PhysicsPlugin
from playspace.systems.player import RigPlugin
from playspace.systems.player.events import RIG_EVENTS
from playspace.systems.player.looks import show_players
from playspace.systems.player.players import local_rig, spawn_rig
from playspace.systems.sets import FixedSet, add_late_sets
from playspace.systems.telemetry import TelemetryPlugin
from tests.physics_helpers import floor, static

Script = Callable[[float], InputFrame]


@dataclass
class Run:
    world: World
    out: io.StringIO

    def steps(self) -> list[dict[str, Any]]:
        return parse_telemetry(self.out.getvalue(), "the run's telemetry").steps

    def events(self, kind: str) -> list[dict[str, Any]]:
        return [e for s in self.steps() for e in s["events"] if e["type"] == kind]


def rig_world(
    script: Script,
    build: Callable[[World], None] | None = None,
    settings: RigSettings | None = None,
    start: PlayerStart | None = None,
    plugins: tuple[object, ...] = (),
    events: tuple[type, ...] = (),
) -> Run:
    world = World(fixed_hz=90)
    world.add_plugin(PhysicsPlugin())
    floor(world)
    if build is not None:
        build(world)
    if start is not None:
        world.insert_resource(start)
    world.add_plugin(RigPlugin(ScriptedSource(script), settings))
    for plugin in plugins:
        world.add_plugin(plugin)  # type: ignore[arg-type]
    out = io.StringIO()
    world.add_plugin(TelemetryPlugin(out, (*RIG_EVENTS, *events)))
    return Run(world, out)


def rig_of(world: World) -> Rig:
    """The rig of the player the world shows (``LocalPlayer``): a test's world has one."""
    rig = local_rig(world)
    assert rig is not None, "the world shows no player"
    return rig


def shown_player(world: World) -> Rig:
    """The player this process shows, made as the rig's plugin makes them (their origin's
    markers, their head's and controllers' figures), whose looks LATE says each frame: a
    player as the renderer sees one, with no physics or input of their own."""
    rig = spawn_rig(world, PlayerStart(), RigSettings())
    world.add(rig.origin, rig, LocalPlayer())
    world.insert_resource(DrawnView())
    add_late_sets(world)
    world.add_systems(show_players)
    return rig


def head_at(x: float, y: float, z: float, yaw: float = 0.0, **hands: HandInput) -> InputFrame:
    """A frame with the head at (x, y, z) in tracking space and relaxed hands (or `hands`)."""
    return InputFrame(
        0.0,
        device_pose((x, y, z), yaw),
        hands.get("left", hand_input((x - 0.2, y - 0.8, z))),
        hands.get("right", hand_input((x + 0.2, y - 0.8, z))),
    )


def with_sticks(
    frame: InputFrame, left: tuple[float, float] = (0, 0), right: tuple[float, float] = (0, 0)
) -> InputFrame:
    return replace(
        frame, left=replace(frame.left, stick=left), right=replace(frame.right, stick=right)
    )


def aiming_hand(position: tuple[float, float, float], pitch: float) -> DevicePose:
    """A controller pointing forward (-Z), tilted up by `pitch` radians."""
    tilt = spatial.from_axis_angle(spatial.vec3(1, 0, 0), pitch)
    return DevicePose(spatial.Pose(spatial.vec3(*position), tilt))


def stairs(world: World, rise: float = 0.17, run: float = 0.3, steps: int = 8) -> None:
    """Steps climbing toward -Z from z = -0.5, the last a 3 m landing."""
    for i in range(steps):
        top = (i + 1) * rise
        depth = run if i < steps - 1 else 3.0
        static(world, Box((3.0, top, depth)), spatial.vec3(0, top / 2, -0.5 - run * i - depth / 2))


def walking(
    speed: float, direction: tuple[float, float] = (0.0, -1.0), height: float = 1.7
) -> Script:
    """Walk physically at `speed` m/s along `direction` (x, z) in the room, from its centre."""
    dx, dz = direction
    return lambda t: head_at(dx * speed * t, height, dz * speed * t)


def pressing(frame: InputFrame, hand: str, button: Button, down: bool = True) -> InputFrame:
    """`frame` with `button` of the `hand` ("left" or "right") held down (or not)."""
    held = frozenset({button}) if down else frozenset()
    if hand == "left":
        return replace(frame, left=replace(frame.left, buttons=held))
    return replace(frame, right=replace(frame.right, buttons=held))


def heard(world: World, *kinds: type) -> list[tuple[int, object]]:
    """Every event of `kinds` from now on, with the fixed step it was sent in, in order: what
    a game reading them would see."""
    got: list[tuple[int, object]] = []

    def listen(w: World) -> None:
        for kind in kinds:
            sent: list[object] = w.read_events(kind, reader=listen)
            got.extend((w.fixed_time.step, e) for e in sent)

    world.add_system(listen, phase=Phase.FIXED, in_set=FixedSet.GAME, reads=kinds)
    return got
