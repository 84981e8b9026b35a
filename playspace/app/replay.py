"""A replay's world: a scene or a game, the trace that drives it, its rate, seed and length.

The same replay is built afresh as often as asked, each world the same: the headless loop, the
trace viewer and a networked client's headless play all start from one. A match recording
(trace version 3) holds other players besides the first: the replay puts each in the
:class:`~playspace.systems.player.Roster` at the step their first line was taken and takes them
out at the step after their last (:class:`MatchPlayers`), as the host did, so the match replays
as it was played.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from playspace.app import build_world, load_target
from playspace.app.game import Example
from playspace.app.reload.recorded import RecordedReloads, replay_code
from playspace.components.input import InputSource, InputState
from playspace.components.rig import Rig
from playspace.components.scene import PlayerStart
from playspace.ecs import Phase, World, system
from playspace.formats.scene import Scene
from playspace.systems.input import (
    PlayerTrace,
    ReplaySource,
    ScriptedSource,
    Trace,
    load_trace,
    standing_frame,
)
from playspace.systems.player import Arrival, Roster
from playspace.systems.sets import FixedSet

DEFAULT_HZ = 90.0  # fixed steps a second when neither the caller nor the trace says


def replay_source(trace: Path | Trace | None) -> InputSource:
    """A fresh source playing the recorded trace (a file, or one loaded already), or a player
    standing still at the start when there is none."""
    if trace is None:
        return ScriptedSource(lambda t: standing_frame())
    return ReplaySource(trace if isinstance(trace, Trace) else load_trace(trace))


@dataclass(slots=True)
class RecordedPlayers:
    """A match recording's other players, a resource: those still to arrive, in the order
    they arrived, and those in the world now, with the source that replays each."""

    waiting: list[PlayerTrace]
    present: list[tuple[PlayerTrace, ReplaySource]] = field(default_factory=list)


@system(
    Phase.FIXED,
    in_set=FixedSet.ARRIVALS,
    reads=(Rig, InputState, PlayerStart),
    writes=(Roster, RecordedPlayers),
)
def replay_players(world: World) -> None:
    """Put the recorded players in the roster as the host did: one whose first line is this
    step's arrives (spawned by ``join_players`` right after, before tracking samples them),
    those arriving at one step in the order of their numbers; one whose last line was an
    earlier step's leaves, those leaving at one step in the order of their numbers."""
    now = world.fixed_time.elapsed
    recorded, roster = world.resource(RecordedPlayers), world.resource(Roster)
    gone = {id(source) for stay, source in recorded.present if stay.last < now}
    if gone:
        recorded.present = [(s, source) for s, source in recorded.present if id(source) not in gone]
        rigs = world.query(Rig, InputState)
        roster.leaving.extend(sorted(r.player for _, (r, st) in rigs if id(st.source) in gone))
    while recorded.waiting and recorded.waiting[0].arrived <= now:
        stay = recorded.waiting.pop(0)
        source = ReplaySource(Trace(stay.samples, f"player {stay.player}"))
        start = stay.start
        at = None
        if start is not None:
            scene_start = world.resource(PlayerStart)
            at = replace(scene_start, position=start.position, yaw=start.yaw)
        roster.arriving.append(Arrival(source, at, stay.name))
        recorded.present.append((stay, source))


class MatchPlayers:
    """A plugin: the other players of a match recording join and leave as recorded."""

    def __init__(self, players: Sequence[PlayerTrace]) -> None:
        self.players = tuple(players)

    def build(self, world: World) -> None:
        world.insert_resource(RecordedPlayers(list(self.players)))
        world.add_systems(replay_players)


@dataclass(frozen=True, slots=True)
class Replay:
    """What a replay plays (a scene or an example, a trace, a rate, a seed) and for how many
    fixed steps; :meth:`world` builds it afresh, as often as asked, each world the same."""

    scene: Scene
    example: Example | None
    trace: Trace | None
    fixed_hz: float
    seed: int
    steps: int  # the run's length: the trace's (or `seconds`) in whole fixed steps, at least 1
    code: RecordedReloads | None = None  # a recording made across reloads: its spans' code

    def world(self, plugins: Sequence[object] = ()) -> World:
        """A world at the replay's start: the default plugins on a fresh source playing the
        trace, then `plugins`, then the example's own systems, then, for a match recording,
        the other players' arrivals (:class:`MatchPlayers`)."""
        if self.code is not None:
            self.code.begin(World())  # the game's modules as the recording began
        added = [*plugins, *([self.example.build] if self.example is not None else [])]
        if self.trace is not None and self.trace.players:
            added.append(MatchPlayers(self.trace.players))
        world, _ = build_world(
            self.scene, replay_source(self.trace), self.fixed_hz, self.seed, added
        )
        return world

    def step(self, world: World) -> None:
        """Run one fixed step of `world`, the recording's reloads due before it first."""
        if self.code is not None:
            self.code.apply(world, world.clock.steps)
        world.step(1)


def prepare_replay(
    target: Path,
    trace: Path | None,
    seconds: float | None = None,
    fixed_hz: float | None = None,
    seed: int = 0,
) -> Replay:
    """Load a scene or an example module and the trace to play through it (the example's own
    when `trace` is None): `seconds` long (default: the trace's length), at `fixed_hz`
    (default: the rate the trace was recorded at, else 90 Hz). Raises what loading raises."""
    scene, example = load_target(target)
    if trace is None and example is not None:
        trace = example.trace
    recorded = None if trace is None else load_trace(trace)
    if recorded is not None and recorded.start is not None:  # a span kept from mid-session
        at, yaw = recorded.start.position, math.degrees(recorded.start.yaw)
        player = replace(scene.player, position=(at.x, at.y, at.z), yaw=yaw)
        scene = replace(scene, player=player)
    recorded_hz = recorded.fixed_hz if recorded is not None else None
    hz = fixed_hz if fixed_hz is not None else recorded_hz or DEFAULT_HZ
    length = seconds if seconds is not None else (recorded.duration if recorded else 0.0)
    steps = max(1, math.ceil(length * hz - 1e-9))
    code = None
    module = example.module if example is not None else None
    if recorded is not None and module is not None and (recorded.code or recorded.reloads):
        code = replay_code(recorded, module.parent, hz)
    return Replay(scene, example, recorded, hz, seed, steps, code)
