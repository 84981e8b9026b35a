"""The authoritative host: the world that decides, stepped at the fixed rate in real time.

One remote VR player drives the world's rig (the first to join takes the seat; this
increment's world has one rig). Its input arrives as messages of frames numbered by the
client's fixed steps; the host takes exactly one of those frames per step, in order, after a
short playout buffer (`playout` frames), so a message that is late, reordered or lost (each
carries the two frames before its newest) changes nothing the world sees. When the buffer runs
dry the rig holds its last frame; when it grows past `playout` twice over the host skips ahead,
so a client never lags further and further behind.

Each state carries where the seated player's body stood after the newest frame the host
played for them (:attr:`~playspace.net.wire.State.feet`): the client compares it with where its
own body was after the same frame and corrects itself (:mod:`playspace.net.correction`).

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
from typing import Any

import zenoh

from playspace.app import build_world, load_target, telemetry_events
from playspace.components import Transform
from playspace.components.input import InputFrame
from playspace.components.rig import Rig
from playspace.components.scene import Opponent, Prop
from playspace.ecs import World
from playspace.example import Example
from playspace.formats.telemetry import event_record
from playspace.net.session import Network, paced
from playspace.net.wire import (
    MAX_EVENTS,
    Events,
    State,
    WireError,
    decode_input,
    encode_events,
    encode_state,
)
from playspace.scene import Scene
from playspace.spatial import Pose, Vec3
from playspace.systems.input import Recorder, TraceWriter, standing
from playspace.systems.input.sources import InputSource
from playspace.systems.telemetry import Lines, Telemetry, TelemetryPlugin, telemetry_system

DEFAULT_PLAYOUT = 2  # frames buffered before the host starts taking a player's input


@dataclass(slots=True)
class InputQueue:
    """One player's frames by client step, taken one per host step (see the module)."""

    playout: int = DEFAULT_PLAYOUT
    frames: dict[int, InputFrame] = field(default_factory=dict)
    next: int | None = None  # the client step the host takes next; None before the playout
    newest: float = -1.0  # the time of the last frame taken
    taken: int = 0  # the client step of the last frame taken (echoed in the state)
    arrived: float = 0.0  # when that frame arrived here (time.monotonic)
    arrivals: dict[int, float] = field(default_factory=dict)
    starved: int = 0  # host steps that held the last frame: nothing had arrived
    skipped: int = 0  # client frames never taken (lost, or dropped to catch up)

    def offer(self, frames: tuple[tuple[int, InputFrame], ...]) -> None:
        for step, frame in frames:
            fresh = self.next is None or step >= self.next
            if fresh and frame.time > self.newest and step not in self.frames:
                self.frames[step] = frame
                self.arrivals[step] = time.monotonic()

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
                self.arrivals.pop(step, None)
                self.skipped += self.frames.pop(step, None) is not None
            self.next += ahead
        frame = self.frames.pop(self.next, None)
        if frame is None:
            self.starved += 1
            return None
        self.taken, self.arrived = self.next, self.arrivals.pop(self.next, 0.0)
        self.next += 1
        self.newest = frame.time
        return frame


class NetSource:
    """The seated player's input as an input source: one queued frame per new step time, the
    last one held between (a frame's poll never takes a frame). `fresh` says whether the last
    step took a new frame (rather than holding the last one)."""

    def __init__(self, lock: threading.Lock) -> None:
        self.lock = lock
        self.queue: InputQueue | None = None
        self.current = standing()
        self.fresh = False
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
            self.fresh = frame is not None
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


def moving_bodies(world: World) -> tuple[dict[int, Pose], dict[int, str]]:
    """The poses a client draws from the host: every prop and opponent, the head and hands;
    and each one's name (a prop's or opponent's, ``head``, ``left_hand``, ``right_hand``)."""
    bodies: dict[int, Pose] = {}
    names: dict[int, str] = {}
    markers: tuple[type[Prop] | type[Opponent], ...] = (Prop, Opponent)
    for kind in markers:
        for entity, (marker, transform) in world.query(kind, Transform):
            bodies[entity] = Pose(transform.position, transform.rotation)
            names[entity] = marker.name
    rig = world.try_resource(Rig)
    if rig is not None:
        for entity, name in ((rig.head, "head"), (rig.left_hand, "left_hand"),
                             (rig.right_hand, "right_hand")):  # fmt: skip
            transform = world.get(entity, Transform)
            bodies[entity] = Pose(transform.position, transform.rotation)
            names[entity] = name
    return bodies, names


Said = Callable[[str], None]
REPEAT = 3  # states that carry a body after it last moved: a lost one costs nothing
DEFAULT_KEYFRAME = 90  # a full state every this many states (and for each late joiner)


class _Null:
    """Where telemetry goes when the host writes none (its event list is still the one)."""

    def write(self, text: str, /) -> int:
        return len(text)


class Host:
    """A match's authoritative world on the network (see the module).

    `state_every` publishes the state every n-th step; each state carries only the bodies that
    moved in the last :data:`REPEAT` states, and every `keyframe_every`-th state (and the
    answer to a late joiner's query) carries them all. Each step's events, as the host's
    telemetry records them, go to every client reliably. `telemetry` and `record` write what
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
        keyframe_every: int = DEFAULT_KEYFRAME,
        telemetry: Lines | None = None,
        record: Path | None = None,
        say: Said = lambda line: None,
    ) -> None:
        if state_every < 1 or keyframe_every < 1:
            raise ValueError(
                f"state_every and keyframe_every must be at least 1, "
                f"got {state_every} and {keyframe_every}"
            )
        scene, self.example = load_target(target)
        self.network = network
        self.playout = playout
        self.state_every = state_every
        self.keyframe_every = keyframe_every
        self.say = say
        self.lock = threading.Lock()
        self.refused: Counter[str] = Counter()
        self.seat: Seat | None = None
        self.queues: dict[str, InputQueue] = {}  # every seated player's input, by name
        self.present: set[str] = set()
        self.source = NetSource(self.lock)
        self.sent = 0  # bytes of state and events published (once, whoever subscribes)
        self._stack = ExitStack()
        source: InputSource = self.source
        if record is not None:
            writer = self._stack.enter_context(TraceWriter(record, fixed_hz))
            source = Recorder(self.source, writer)
        self.world = _world(scene, self.example, source, fixed_hz, seed, telemetry)
        self.event_kinds = tuple(self.world.resource(Telemetry).events)
        self.world.events.subscribe(self, self.event_kinds)
        self._poses: dict[int, Pose] = {}  # as last gathered
        self._names: dict[int, str] = {}
        self._moved: dict[int, int] = {}  # entity: the state count when it last moved
        self._feet: Vec3 | None = None  # the seated player's body's feet, as last gathered
        self._feet_moved = 0  # the state count when they last moved
        self._states = 0
        self._latest = State(0, 0.0, {})
        self.session = network.open()
        self._stack.callback(self.session.close)
        self.publisher = self.session.declare_publisher(
            network.key("state"),
            congestion_control=zenoh.CongestionControl.DROP,
            priority=zenoh.Priority.DATA_HIGH,
            reliability=zenoh.Reliability.BEST_EFFORT,
        )
        self.events = self.session.declare_publisher(
            network.key("events"),
            congestion_control=zenoh.CongestionControl.BLOCK,
            priority=zenoh.Priority.INTERACTIVE_HIGH,
            reliability=zenoh.Reliability.RELIABLE,
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
        """A late joiner's query: the newest state, full."""
        with self.lock:
            latest, poses, names = self._latest, self._poses, self._names
        if latest.step:
            full = replace(latest, bodies=poses, full=True, names=names)
            query.reply(query.key_expr, encode_state(full))

    def step(self) -> None:
        """One fixed step of the world; its events published, its state when it is due."""
        world = self.world
        world.step(1)
        step, now = world.fixed_time.step, world.fixed_time.elapsed
        happened: list[dict[str, Any]] = []
        for kind in self.event_kinds:
            sent: list[object] = world.read_events(kind, reader=self)
            happened.extend(event_record(event) for event in sent)
        if happened:
            data = encode_events(Events(step, now, tuple(happened[:MAX_EVENTS])))
            self.sent += len(data)
            self.events.put(data)
        if step % self.state_every == 0:
            self._publish(step, now)

    def _publish(self, step: int, now: float) -> None:
        """Gather the moving bodies, and send those that moved lately (all on a keyframe)."""
        world = self.world
        self._states += 1
        count = self._states
        poses, names = moving_bodies(world)
        last, moved = self._poses, self._moved
        for entity, pose in poses.items():
            was = last.get(entity)
            if was is None or was.position != pose.position or was.rotation != pose.rotation:
                moved[entity] = count
        full = count % self.keyframe_every == 1 or self.keyframe_every == 1
        if full or len(names) != len(self._names):
            sent = poses
        else:
            sent = {e: p for e, p in poses.items() if count - moved[e] < REPEAT}
        score = self.example.summary(world) if self.example and self.example.summary else None
        echo, held = 0, 0.0
        with self.lock:
            if self.seat is not None and self.seat.queue.taken:
                echo, held = self.seat.queue.taken, time.monotonic() - self.seat.queue.arrived
        full = full or sent is poses
        feet = self._player_feet(count, full)
        state = State(step, now, sent, score, full, names if full else None, echo, held, feet)
        data = encode_state(state)
        with self.lock:
            self._poses, self._names, self._latest = poses, names, state
        for entity in [e for e in moved if e not in poses]:
            del moved[entity]
        self.sent += len(data)
        self.publisher.put(data)

    def _player_feet(self, count: int, full: bool) -> Vec3 | None:
        """Where the seated player's body stands, for the state numbered `count`: only when
        this step played a new frame of theirs (the feet are then those after input `echo`,
        what the client compares its own body with) and, as the other bodies, only while it
        moved in the last :data:`REPEAT` states or on a full state."""
        rig = self.world.try_resource(Rig)
        if rig is None:
            return None
        feet = Vec3(self.world.get(rig.body, Transform).position)
        if feet != self._feet:
            self._feet, self._feet_moved = feet, count
        if not self.source.fresh or not (full or count - self._feet_moved < REPEAT):
            return None
        return feet

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
    plugins: list[object] = [TelemetryPlugin(telemetry or _Null(), telemetry_events())]
    if example is not None:
        plugins.append(example.build)
    world, _ = build_world(scene, source, fixed_hz, seed, plugins)
    if telemetry is None:  # the event list of telemetry is kept: it says what clients get
        world.remove_system(telemetry_system)
    return world
