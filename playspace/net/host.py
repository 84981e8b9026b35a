"""The authoritative host: the world that decides, stepped at the fixed rate in real time.

One remote VR player drives the world's rig (the first to join takes the seat; this
increment's world has one rig). Its input arrives as messages of frames numbered by the
client's fixed steps; the host takes exactly one of those frames per step, in order, after a
short playout buffer (`playout` frames), so a message that is late, reordered or lost (each
carries the two frames before its newest) changes nothing the world sees. When the buffer runs
dry the rig holds its last frame; when it grows past `playout` twice over the host skips ahead,
so a client never lags further and further behind.

What each step saw is written as a trace (:class:`~playspace.systems.input.Recorder`), so
``playspace run TARGET --headless --trace RECORDING --telemetry T`` writes the host's
telemetry byte for byte. Messages that are not input (:class:`~playspace.net.wire.WireError`),
come from a player who has no seat, or claim a seated player from another client are refused
and counted in :attr:`Host.refused`; they never reach the world.
"""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass, field, replace
from pathlib import Path

import zenoh

from playspace.app import build_world, load_target, telemetry_events
from playspace.components import Transform
from playspace.components.input import InputFrame
from playspace.components.rig import Rig
from playspace.components.scene import Opponent, Prop
from playspace.ecs import World
from playspace.example import Example
from playspace.net.session import Network, paced
from playspace.net.wire import State, WireError, decode_input, encode_state
from playspace.scene import Scene
from playspace.spatial import Pose
from playspace.systems.input import Recorder, TraceWriter, standing
from playspace.systems.input.sources import InputSource
from playspace.systems.telemetry import Lines, TelemetryPlugin

DEFAULT_PLAYOUT = 2  # frames buffered before the host starts taking a player's input


@dataclass(slots=True)
class InputQueue:
    """One player's frames by client step, taken one per host step (see the module)."""

    playout: int = DEFAULT_PLAYOUT
    frames: dict[int, InputFrame] = field(default_factory=dict)
    next: int | None = None  # the client step the host takes next; None before the playout
    newest: float = -1.0  # the time of the last frame taken
    starved: int = 0  # host steps that held the last frame: nothing had arrived
    skipped: int = 0  # client frames never taken (lost, or dropped to catch up)

    def offer(self, frames: tuple[tuple[int, InputFrame], ...]) -> None:
        for step, frame in frames:
            if (self.next is None or step >= self.next) and frame.time > self.newest:
                self.frames.setdefault(step, frame)

    def take(self) -> InputFrame | None:
        """The frame for this host step, or None to hold the last one."""
        if not self.frames:
            if self.next is not None:
                self.starved += 1
            return None
        if self.next is None:
            if len(self.frames) < self.playout:
                return None
            self.next = min(self.frames)
        late = max(self.frames) - self.next + 1
        if self.next not in self.frames and late > self.playout:
            lost = min(self.frames) - self.next  # every copy of these frames was lost
            self.skipped += lost
            self.next += lost
        if late > 2 * self.playout:  # fallen behind: drop down to the playout
            ahead = late - self.playout
            for step in range(self.next, self.next + ahead):
                self.skipped += self.frames.pop(step, None) is not None
            self.next += ahead
        frame = self.frames.pop(self.next, None)
        if frame is None:
            self.starved += 1
            return None
        self.next += 1
        self.newest = frame.time
        return frame


class NetSource:
    """The seated player's input as an input source: one queued frame per new step time, the
    last one held between (a frame's poll never takes a frame)."""

    def __init__(self, lock: threading.Lock) -> None:
        self.lock = lock
        self.queue: InputQueue | None = None
        self.current = standing()
        self._time = -1.0

    @property
    def duration(self) -> float | None:
        return None

    def poll(self, time: float) -> InputFrame:
        return replace(self.current, time=time)

    def sample(self, time: float) -> InputFrame:
        if time > self._time:
            self._time = time
            with self.lock:
                frame = self.queue.take() if self.queue is not None else None
            if frame is not None:
                self.current = frame
        return replace(self.current, time=time)


@dataclass(slots=True)
class Seat:
    """Who drives the rig: a player's name, the ticket of the client that speaks for it, and
    its input."""

    player: str
    queue: InputQueue
    ticket: bytes | None = None


def moving_bodies(world: World) -> dict[int, Pose]:
    """The poses a client draws from the host: every prop and opponent, the head and hands."""
    bodies: dict[int, Pose] = {}
    for kind in (Prop, Opponent):
        for entity, (_, transform) in world.query(kind, Transform):
            bodies[entity] = Pose(transform.position, transform.rotation)
    rig = world.try_resource(Rig)
    if rig is not None:
        for entity in (rig.head, rig.left_hand, rig.right_hand):
            transform = world.get(entity, Transform)
            bodies[entity] = Pose(transform.position, transform.rotation)
    return bodies


Said = Callable[[str], None]


class Host:
    """A match's authoritative world on the network (see the module).

    `state_every` publishes the state every n-th step; `telemetry` and `record` write what
    the world did and the input each step saw. :meth:`run` steps in real time; :meth:`step`
    steps once (tests, benchmarks). `say` hears who joined and who left.
    """

    def __init__(
        self,
        target: Path,
        network: Network,
        *,
        fixed_hz: float = 90.0,
        seed: int = 0,
        playout: int = DEFAULT_PLAYOUT,
        state_every: int = 1,
        telemetry: Lines | None = None,
        record: Path | None = None,
        say: Said = lambda line: None,
    ) -> None:
        scene, self.example = load_target(target)
        self.network = network
        self.playout = playout
        self.state_every = state_every
        self.say = say
        self.lock = threading.Lock()
        self.refused: Counter[str] = Counter()
        self.seat: Seat | None = None
        self.queues: dict[str, InputQueue] = {}  # every seated player's input, by name
        self.present: set[str] = set()
        self.source = NetSource(self.lock)
        self._stack = ExitStack()
        source: InputSource = self.source
        if record is not None:
            writer = self._stack.enter_context(TraceWriter(record, fixed_hz))
            source = Recorder(self.source, writer)
        self.world = _world(scene, self.example, source, fixed_hz, seed, telemetry)
        self._latest = b""
        self.session = network.open()
        self._stack.callback(self.session.close)
        self.state_key = network.key("state")
        self.publisher = self.session.declare_publisher(
            self.state_key, congestion_control=zenoh.CongestionControl.DROP
        )
        self.session.declare_subscriber(network.key("input", "*"), self._input)
        self.session.liveliness().declare_subscriber(
            network.key("players", "*"), self._presence, history=True
        )
        self.session.declare_queryable(network.key("state", "now"), self._now)
        self._token = self.session.liveliness().declare_token(network.key("host"))

    def _input(self, sample: zenoh.Sample) -> None:
        player = str(sample.key_expr).rsplit("/", 1)[-1]
        try:
            message = decode_input(sample.payload.to_bytes())
        except WireError:
            self._refuse("malformed")
            return
        with self.lock:
            seat = self.seat
            if seat is None or seat.player != player:
                reason = "unseated"
            elif seat.ticket is not None and seat.ticket != message.ticket:
                reason = "claimed"
            else:
                seat.ticket = message.ticket
                seat.queue.offer(message.frames)
                return
        self._refuse(reason)

    def _refuse(self, reason: str) -> None:
        with self.lock:
            self.refused[reason] += 1

    def _presence(self, sample: zenoh.Sample) -> None:
        player = str(sample.key_expr).rsplit("/", 1)[-1]
        with self.lock:
            if sample.kind == zenoh.SampleKind.PUT:
                self.present.add(player)
                if self.seat is None:
                    self.seat = Seat(player, InputQueue(self.playout))
                    self.queues[player] = self.seat.queue
                    self.source.queue = self.seat.queue
                said = f"joined {player}"
            else:
                self.present.discard(player)
                if self.seat is not None and self.seat.player == player:
                    self.seat = None
                    self.source.queue = None
                said = f"left {player}"
        self.say(f"{said} at {time.time():.3f}")

    def _now(self, query: zenoh.Query) -> None:
        with self.lock:
            latest = self._latest
        if latest:
            query.reply(query.key_expr, latest)

    def step(self) -> None:
        """One fixed step of the world, its state published when it is due."""
        world = self.world
        world.step(1)
        if world.fixed_time.step % self.state_every == 0:
            score = self.example.summary(world) if self.example and self.example.summary else None
            state = State(
                world.fixed_time.step, world.fixed_time.elapsed, moving_bodies(world), score
            )
            data = encode_state(state)
            with self.lock:
                self._latest = data
            self.publisher.put(data)

    def run(self, seconds: float | None = None, stop: Callable[[], bool] | None = None) -> int:
        """Step in real time until `seconds` have run or `stop` says so; the steps run."""
        hz = self.world.clock.hz
        return paced(self.step, hz, None if seconds is None else round(seconds * hz), stop)

    def close(self) -> None:
        self._stack.close()


def _world(
    scene: Scene,
    example: Example | None,
    source: InputSource,
    fixed_hz: float,
    seed: int,
    telemetry: Lines | None,
) -> World:
    """The world as a headless replay builds it (the same plugins in the same order), so the
    recording replays to the same telemetry."""
    plugins: list[object] = []
    if telemetry is not None:
        plugins.append(TelemetryPlugin(telemetry, telemetry_events()))
    if example is not None:
        plugins.append(example.build)
    world, _ = build_world(scene, source, fixed_hz, seed, plugins)
    return world
