"""The authoritative host: the world that decides, stepped at the fixed rate in real time.

Remote VR players sit in *seats*, up to `players` of them (2 by default): the first to join
drives the world's first rig (player 0, created with the world), each later one a rig of their
own, added through the :class:`~playspace.systems.player.Roster` at the next fixed step's
start, where the scene puts them (:func:`~playspace.scene.player_start_for`: its ``[[spawn]]``
tables in order, else beside the first). A joiner past the limit waits without a seat (its
input refused as ``unseated``, and counted once as ``full``), its place in the queue told in
every full state, and takes the first seat freed.
A seated player who leaves or vanishes frees their seat: their rig is removed through the
roster, except the world's first, which stands (the standing frame) until someone takes
seat 0 again.

A host may play too (`play`, an input source: the preview window's simulator through
:func:`host_in_window`, or a trace): its own player, `name`, sits in seat 0 and drives the
first rig from that source directly, never through the network nor waiting for it, and remote
players take seats 1 and up. Whatever steps the world (:meth:`Host.run`, or the preview
window's loop) hosts the match: the host's work is two of the world's own fixed-step systems,
:func:`host_roster` at a step's start and :func:`host_publish` at its end, so one thread owns
the world.

Each player's input arrives as messages of frames numbered by their client's fixed steps;
the host takes exactly one of those frames per step, in order, after a short playout buffer
(`playout` frames), so a message that is late, reordered or lost (each carries the two frames
before its newest) changes nothing the world sees. When the buffer runs dry the rig holds its
last frame; when it grows past `playout` twice over the host skips ahead, so a client never
lags further and further behind.

Each state carries, per seated player, where their body stood and which way they faced after
the newest frame the host played for them (:class:`~playspace.net.wire.Played`): each client
compares its own with where its body was and which way it faced after the same frame, and
corrects itself (:mod:`playspace.net.correction`).

What each step saw, every seated player's input, is written as one match trace
(:class:`~playspace.systems.input.MatchRecorder`, a line each step, flushed as the step ends),
so ``playspace run TARGET --headless --trace RECORDING --telemetry T`` writes the host's
telemetry byte for byte: each player joins and leaves the replay at the step they did here.
Messages that are not input (:class:`~playspace.net.wire.WireError`), come from a player who
has no seat, or claim a seated player from another client are refused and counted in
:attr:`Host.refused`; they never reach the world. A departing player's last input may come
after the word that they left (Zenoh orders neither against the other): it is dropped, and
counted in :attr:`Host.late`, not refused.
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
from playspace.app.game import Example
from playspace.app.reload import LiveReload
from playspace.app.spawn import player_start_for
from playspace.components import Transform
from playspace.components.avatars import Avatar
from playspace.components.drawn import Figure
from playspace.components.input import InputFrame, InputSource
from playspace.components.rig import LocalPlayer, Rig
from playspace.components.scene import Opponent, PlayerStart, Prop
from playspace.ecs import Phase, World, system
from playspace.formats.scene import Scene
from playspace.formats.telemetry import event_record
from playspace.net.client import AVATAR
from playspace.net.scoreline import add_score_line
from playspace.net.session import Network, check_name, paced
from playspace.net.wire import (
    MAX_EVENTS,
    MAX_PLAYERS,
    PARTS,
    Events,
    Played,
    State,
    WireError,
    decode_input,
    encode_events,
    encode_state,
)
from playspace.spatial import Pose, Vec3, yaw
from playspace.systems.input import MatchRecorder, standing_frame
from playspace.systems.player import Arrival, Roster, set_up_players
from playspace.systems.player.players import player_rig
from playspace.systems.sets import FixedSet
from playspace.systems.telemetry import Lines, Telemetry, TelemetryPlugin, telemetry_system

DEFAULT_PLAYOUT = 2  # frames buffered before the host starts taking a player's input
DEFAULT_PLAYERS = 2  # seats: a 1v1
DEFAULT_NAME = "host"  # the host's own player's name, when it plays too
RETURN_WITHIN = 30.0  # seconds a client that left may come back to its own seat, if free


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
    """A seat's input as an input source: one queued frame per new step time, the last one
    held between (a frame's poll never takes a frame); the standing frame while nobody sits
    (`queue` None), so a rig left behind does not walk on with its last stick. `fresh` says
    whether the last step took a new frame (rather than holding the last one)."""

    def __init__(self, lock: threading.Lock) -> None:
        self.lock = lock
        self.queue: InputQueue | None = None
        self.current = standing_frame()
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
                queue = self.queue
                frame = queue.take() if queue is not None else None
            self.fresh = frame is not None
            if frame is not None:
                self.current = frame
            elif queue is None:
                self.current = standing_frame()
        return replace(self.current, time=time)


@dataclass(slots=True)
class Seat:
    """A place for one remote player: the seat's `index` (0 drives the world's first rig; n
    starts where the scene puts player n + 1), the player's name, the ticket of the client
    that speaks for it, its input and the source that plays it, and the player's number in
    the world once their rig is there (None until the fixed step that adds it)."""

    index: int
    player: str
    queue: InputQueue
    source: NetSource
    ticket: bytes | None = None
    number: int | None = None
    feet: Vec3 | None = None  # as last gathered
    turn: float | None = None  # as last gathered
    moved: int = 0  # the state count when their feet last moved or they last turned


def moving_bodies(world: World, seated: dict[int, str]) -> tuple[dict[int, Pose], dict[int, str]]:
    """The poses a client draws from the host: every prop and opponent, and each player's head,
    hands and body; and each one's name (a prop's or opponent's, ``<player>/head``,
    ``<player>/left_hand``, ``<player>/right_hand``, ``<player>/body``, with the player's name
    from `seated` by number, ``player <number>`` for a rig nobody sits in)."""
    bodies: dict[int, Pose] = {}
    names: dict[int, str] = {}
    markers: tuple[type[Prop] | type[Opponent], ...] = (Prop, Opponent)
    for kind in markers:
        for entity, (marker, transform) in world.query(kind, Transform):
            bodies[entity] = Pose(transform.position, transform.rotation)
            names[entity] = marker.name
    for _, rig in world.each(Rig):
        player = seated.get(rig.player, f"player {rig.player}")
        for entity, part in zip((rig.head, rig.left_hand, rig.right_hand, rig.body), PARTS,
                                strict=True):  # fmt: skip
            transform = world.get(entity, Transform)
            bodies[entity] = Pose(transform.position, transform.rotation)
            names[entity] = f"{player}/{part}"
    return bodies, names


Printer = Callable[[str], None]
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
    steps once (tests, benchmarks). `say` hears who joined, who was refused and who left, at
    the match's own time (seconds of fixed steps, and the step: as telemetry counts them).
    `players` is how many seats there are (see the module). With `play`, the host's own player
    (`name`) sits in seat 0, driven by that source (see the module).
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
        say: Printer = lambda line: None,
        players: int = DEFAULT_PLAYERS,
        play: InputSource | None = None,
        name: str = DEFAULT_NAME,
        reload: bool = False,
    ) -> None:
        if state_every < 1 or keyframe_every < 1:
            raise ValueError(
                f"state_every and keyframe_every must be at least 1, "
                f"got {state_every} and {keyframe_every}"
            )
        if not 1 <= players <= MAX_PLAYERS:
            raise ValueError(f"players: expected 1 to {MAX_PLAYERS} seats, got {players}")
        scene, self.example = load_target(target)
        self.scene = scene
        self.players = players
        self.network = network
        self.playout = playout
        self.state_every = state_every
        self.keyframe_every = keyframe_every
        self.say = say
        self.lock = threading.Lock()
        self.refused: Counter[str] = Counter()
        self.seats: dict[str, Seat] = {}  # the seated players, by name
        self.waiting: list[str] = []  # present past the limit, in the order they came
        self.queues: dict[str, InputQueue] = {}  # the input of everyone ever seated, by name
        self.present: set[str] = set()
        self.ids: dict[str, str] = {}  # each present player's client, by name
        self.turned_away: dict[str, str] = {}  # clients refused while present: id -> name
        # seats of clients that left lately: id -> (seat index, when it left); one back with
        # its id within RETURN_WITHIN seconds takes that seat again while it is free
        self.returns: dict[str, tuple[int, float]] = {}
        self.left: set[str] = set()  # players who had a seat and left
        self.late: Counter[str] = Counter()  # input messages after leaving, by player
        # the host's own player, in seat 0 (None: seat 0 is the first remote player's)
        self.name = check_name(name, "player") if play is not None else None
        # seat 0's input from the network, when no one plays on the host
        self.source: NetSource | None = None
        self._arriving: list[Seat] = []  # seats whose rig the next step adds...
        self._leaving: list[Seat] = []  # ...and whose rig it removes
        self._added: list[Seat] = []  # the seats whose rig this step added
        self.sent = 0  # bytes of state and events published (once, whoever subscribes)
        self._stack = ExitStack()
        self.recorder: MatchRecorder | None = None
        source: InputSource
        if play is None:
            source = self.source = NetSource(self.lock)
        else:
            source = play
        if record is not None:
            self.recorder = self._stack.enter_context(MatchRecorder.open(record, fixed_hz))
            source = self.recorder.source_for(source)
        self.world = world = _world(scene, self.example, source, fixed_hz, seed, telemetry)
        self.event_kinds = tuple(world.resource(Telemetry).events)
        world.events.subscribe(self, self.event_kinds)
        world.insert_resource(Hosting(self))
        world.add_system(host_roster)
        world.add_system(
            host_publish, reads=self.event_kinds,
            after=(telemetry_system,) if telemetry is not None else (),
        )  # fmt: skip
        self._poses: dict[int, Pose] = {}  # as last gathered
        self._names: dict[int, str] = {}
        self._moved: dict[int, int] = {}  # entity: the state count when it last moved
        self._seated: dict[int, str] = {}  # seated players' names by number, as last gathered
        self._waiting: tuple[str, ...] = ()  # those waiting for a seat, as last sent
        self._refused: tuple[str, ...] = ()  # the clients turned away, as last sent
        self._clients: dict[str, str] = {}  # the players' client ids, as last sent
        self._states = 0
        self._latest = State(0, 0.0, {})
        self._first = self.world.resource(PlayerStart)
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
        self.session.declare_subscriber(network.key("input", "*", "*"), self._input)
        self.session.liveliness().declare_subscriber(
            network.key("players", "*", "*"), self._presence, history=True
        )
        self.session.declare_queryable(network.key("state", "now"), self._now)
        self._token = self.session.liveliness().declare_token(network.key("host"))
        # the game's saved files, applied between steps (whoever steps the world applies it)
        self.live: LiveReload | None = None
        if reload:
            module = self.example.module if self.example is not None else None
            self.live = LiveReload(scene, module, say=lambda line: say(f"playspace: {line}"))
            self._stack.callback(self.live.close)

    def _input(self, sample: zenoh.Sample) -> None:
        player, client = _named(sample)
        try:
            message = decode_input(sample.payload.to_bytes())
        except WireError:
            self._refuse("malformed")
            return
        with self.lock:
            seat = self.seats.get(player)
            if seat is None and player in self.left:
                self.late[player] += 1
                return
            if seat is None:
                reason = "unseated"
            elif self.ids.get(player) != client:
                reason = "claimed"  # a client that is not the one seated under that name
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
        """A client's token came or went (Zenoh's thread): seats change here, rigs at the
        next step (:meth:`step`). A client is its id; its name is what the others see, so a
        second client with a name already in the match is turned away, and only the client
        that holds a name frees it by leaving."""
        player, client = _named(sample)
        said = []
        arrived = sample.kind == zenoh.SampleKind.PUT
        with self.lock:
            if not arrived and self.turned_away.pop(client, None) is not None:
                return  # a client turned away left: nothing of it was in the match
            if arrived and (player == self.name or self.ids.get(player, client) != client):
                self.refused["name"] += 1
                self.turned_away[client] = player
                who = "the host plays as" if player == self.name else "another client is"
                said.append(f"refused {player}: {who} {player}")
            elif arrived and player not in self.present:
                self.present.add(player)
                self.ids[player] = client
                self.left.discard(player)
                self.waiting.append(player)
                said.append(f"joined {player}")
            elif not arrived and self.ids.get(player) == client:
                self.present.discard(player)
                del self.ids[player]
                if player in self.waiting:
                    self.waiting.remove(player)
                seat = self.seats.pop(player, None)
                if seat is not None:
                    self._vacate(seat)
                    self.left.add(player)
                    self.returns[client] = (seat.index, time.monotonic())
                said.append(f"left {player}")
            taken = {seat.index for seat in self.seats.values()}
            if self.name is not None:
                taken.add(0)  # the host's own player's
            free = [i for i in range(self.players) if i not in taken]
            while self.waiting and free:
                seated = self.waiting.pop(0)
                index = self._seat_for(self.ids[seated], free)
                free.remove(index)
                self._seat(seated, index)
                said.append(f"seated {seated} in seat {index}")
            if player in self.waiting:
                self.refused["full"] += 1
                said.append(f"refused {player}: all {self.players} seats taken")
        clock = self.world.fixed_time  # read on Zenoh's thread: a log line's time, no more
        for line in said:
            self.say(f"{line} at {clock.elapsed:.2f} s (step {clock.step})")

    def _seat_for(self, client: str, free: list[int]) -> int:
        """The seat for `client` of the `free` ones (the lock held): its own again when it
        left it lately and it is free, else the lowest free."""
        now = time.monotonic()
        self.returns = {c: r for c, r in self.returns.items() if now - r[1] < RETURN_WITHIN}
        back = self.returns.pop(client, None)
        return back[0] if back is not None and back[0] in free else free[0]

    def _seat(self, player: str, index: int) -> None:
        """Seat `player` at `index` (the lock held): seat 0 drives the first rig at once, the
        others' rigs come at the next step."""
        queue = InputQueue(self.playout)
        source = self.source if index == 0 and self.source is not None else NetSource(self.lock)
        seat = self.seats[player] = Seat(index, player, queue, source)
        self.queues[player] = queue
        source.queue = queue
        if index == 0:
            seat.number = 0
        else:
            self._arriving.append(seat)

    def _vacate(self, seat: Seat) -> None:
        """Free `seat` (the lock held): the first rig stands, another is removed next step."""
        seat.source.queue = None
        if seat.index == 0:
            return
        if seat in self._arriving:
            self._arriving.remove(seat)  # left before their rig was added
        else:
            self._leaving.append(seat)

    def hand_over(self) -> None:
        """Hand the seats that changed to the world's roster, at the start of a fixed step
        (:func:`host_roster`): their rigs come and go in this step."""
        with self.lock:
            arriving, self._arriving = self._arriving, []
            leaving, self._leaving = self._leaving, []
        roster = self.world.resource(Roster)
        roster.leaving.extend(sorted(s.number for s in leaving if s.number is not None))
        for seat in arriving:
            start = player_start_for(self.scene, self._first, seat.index)
            source: InputSource = seat.source
            if self.recorder is not None:
                source = self.recorder.source_for(source, seat.player, start)
            roster.arriving.append(Arrival(source, start, seat.player))
        self._added = arriving

    def _now(self, query: zenoh.Query) -> None:
        """A late joiner's query: the newest state, full."""
        with self.lock:
            latest, poses, names, seated = self._latest, self._poses, self._names, self._seated
            waiting, refused = tuple(self.waiting), tuple(sorted(self.turned_away))
            clients = dict(self.ids)
        if latest.step:
            full = replace(
                latest, bodies=poses, full=True, names=names, seated=seated, waiting=waiting,
                refused=refused, clients=clients,
            )  # fmt: skip
            query.reply(query.key_expr, encode_state(full))

    def step(self) -> None:
        """One fixed step of the world: players who came or went added or removed at its
        start, its events published and its state when due at its end (the world's own
        systems do both, :func:`host_roster` and :func:`host_publish`, so whatever steps the
        world, this or the preview window's loop, hosts the match); the game's saved files
        applied first, when it reloads them."""
        if self.live is not None:
            self.live.apply(self.world)
        self.world.step(1)

    def publish(self) -> None:
        """At the end of a fixed step (:func:`host_publish`): its recording line written, the
        new rigs' numbers noted, its events published and its state when it is due."""
        world = self.world
        if self.recorder is not None:
            self.recorder.flush()  # the step's line, whole: a host killed now loses nothing
        arriving, self._added = self._added, []
        if arriving:
            numbers = {name: number for number, name in world.resource(Roster).names.items()}
            with self.lock:
                for seat in arriving:
                    seat.number = numbers.get(seat.player)
        # the steps run, this one included: the step's own number counts from 0
        step, now = world.fixed_time.step + 1, world.fixed_time.elapsed
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
        """Gather the moving bodies, and send those that moved lately (all on a keyframe, and
        whenever a player came, went or changed their name, or the queue for a seat changed:
        a full state says who sits and who waits)."""
        world = self.world
        self._states += 1
        count = self._states
        with self.lock:
            seats = [seat for seat in self.seats.values() if seat.number is not None]
            waiting = tuple(self.waiting)
            refused = tuple(sorted(self.turned_away))
            clients = dict(self.ids)
        seated = {seat.number: seat.player for seat in seats if seat.number is not None}
        if self.name is not None:
            seated[0] = self.name
        poses, names = moving_bodies(world, seated)
        last, moved = self._poses, self._moved
        for entity, pose in poses.items():
            was = last.get(entity)
            if was is None or was.position != pose.position or was.rotation != pose.rotation:
                moved[entity] = count
        full = count % self.keyframe_every == 1 or self.keyframe_every == 1
        news = (waiting, refused, clients) != (self._waiting, self._refused, self._clients)
        if full or names != self._names or news:
            sent = poses
        else:
            sent = {e: p for e, p in poses.items() if count - moved[e] < REPEAT}
        score = self.example.summary(world) if self.example and self.example.summary else None
        full = full or sent is poses
        players = {seat.number: self._seen(seat, count, full) for seat in seats}
        state = State(
            step, now, sent, score, full, names if full else None,
            {n: seen for n, seen in players.items() if n is not None}, seated if full else None,
            waiting if full else None, refused if full else None, clients if full else None,
        )  # fmt: skip
        data = encode_state(state)
        self._waiting, self._refused, self._clients = waiting, refused, clients
        with self.lock:
            self._poses, self._names, self._latest, self._seated = poses, names, state, seated
        for entity in [e for e in moved if e not in poses]:
            del moved[entity]
        self.sent += len(data)
        self.publisher.put(data)

    def _seen(self, seat: Seat, count: int, full: bool) -> Played:
        """What the host made of `seat`'s input by the state numbered `count`: the newest
        input step played, how long it waited here, and the body's feet and the origin's turn
        after it, only when this step played a new frame of theirs (they are then those after
        that step, what the client compares its own with) and, as the other bodies, only while
        they moved in the last :data:`REPEAT` states or on a full state."""
        with self.lock:
            queue = seat.queue
            echo = queue.taken
            held = time.monotonic() - queue.arrived if echo else 0.0
        rig = None if seat.number is None else player_rig(self.world, seat.number)
        if rig is None or not echo:
            return Played(echo, held)
        feet = Vec3(self.world.get(rig.body, Transform).position)
        turn = yaw(self.world.get(rig.origin, Transform).rotation)
        if feet != seat.feet or turn != seat.turn:
            seat.feet, seat.turn, seat.moved = feet, turn, count
        if not seat.source.fresh or not (full or count - seat.moved < REPEAT):
            return Played(echo, held)
        return Played(echo, held, feet, turn)

    def run(self, seconds: float | None = None, stop: Callable[[], bool] | None = None) -> int:
        """Step in real time until `seconds` have run or `stop` says so; the steps run."""
        hz = self.world.clock.hz
        return paced(self.step, hz, None if seconds is None else round(seconds * hz), stop)

    def close(self) -> None:
        self._stack.close()

    def show_players(self) -> None:
        """Draw every remote player's head, hands and body in this world as a client draws
        them (:class:`~playspace.components.avatars.Avatar`: drawn only), for a host that
        plays in a window: their rigs have no shape of their own to be seen by; and the
        game's score line on screen, as each client shows it."""
        example = self.example
        if example is not None and example.summary is not None:
            add_score_line(self.world, example.summary)

        def setup(world: World, rig: Rig) -> None:
            if world.has(rig.origin, LocalPlayer):
                return  # the host's own player
            parts = (rig.head, rig.left_hand, rig.right_hand, rig.body)
            for entity, part in zip(parts, PARTS, strict=True):
                shape, offset = AVATAR[part]
                world.add(entity, Avatar(f"player {rig.player}", part), Figure(shape, offset))

        set_up_players(self.world, setup)


@dataclass(slots=True)
class Hosting:
    """The host of the match this world is, a resource: how :func:`host_roster` and
    :func:`host_publish` reach it."""

    host: Host


def _named(sample: zenoh.Sample) -> tuple[str, str]:
    """The player's name and client id a key ``.../NAME/ID`` says."""
    *_, name, client = str(sample.key_expr).split("/")
    return name, client


@system(
    Phase.FIXED,
    in_set=FixedSet.ARRIVALS,
    reads=(Hosting,),
    writes=(Roster,),
)
def host_roster(world: World) -> None:
    """The players who took or left a seat since the last step join or leave at this one."""
    world.resource(Hosting).host.hand_over()


@system(
    Phase.FIXED, in_set=FixedSet.TELEMETRY,
    reads=(Hosting, Roster, Rig, Transform, Prop, Opponent, PlayerStart),
)  # fmt: skip
def host_publish(world: World) -> None:
    """This step's recording line, events and state go out (:meth:`Host.publish`)."""
    world.resource(Hosting).host.publish()


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
