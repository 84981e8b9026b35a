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
last frame and the buffer grows a frame deeper (it shrinks again once steady:
:class:`~playspace.net.inputs.InputQueue`); a frame lost with every copy is played as the
motion between its neighbours; when the buffer stays past the playout twice over for half a
second the host catches up at once (the head and hands eased onto the frames over 0.1 s), so a
client never lags further and further behind.

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
from collections.abc import Callable, Iterable
from contextlib import ExitStack
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
import zenoh

from playspace.app import build_world, load_target, telemetry_events
from playspace.app.game import Example
from playspace.app.reload import LiveReload
from playspace.app.spawn import player_start_for
from playspace.components import Transform
from playspace.components.avatars import Avatar
from playspace.components.drawn import Figure
from playspace.components.input import InputSource
from playspace.components.rig import LocalPlayer, Rig
from playspace.components.scene import Opponent, PlayerStart, Prop
from playspace.ecs import Phase, World, system
from playspace.formats.scene import Scene
from playspace.formats.telemetry import event_record
from playspace.net.client import AVATAR
from playspace.net.inputs import DEFAULT_PLAYOUT, InputQueue, NetSource
from playspace.net.interest import REPEAT, Audience, BodyTable
from playspace.net.lobby import announce, host_entry
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
    encode_step,
    encode_tail,
)
from playspace.spatial import Pose, Vec3, yaw
from playspace.systems.input import MatchRecorder
from playspace.systems.player import Arrival, Roster, set_up_players
from playspace.systems.sets import FixedSet
from playspace.systems.telemetry import Lines, Telemetry, TelemetryPlugin, telemetry_system

DEFAULT_PLAYERS = 2  # seats: a 1v1
DEFAULT_NAME = "host"  # the host's own player's name, when it plays too
RETURN_WITHIN = 30.0  # seconds a client that left may come back to its own seat, if free
DEFAULT_BUDGET = 48_000  # bytes a second of state a client (at most; a full state aside)


@dataclass(slots=True)
class Listener:
    """A client the host sends state to (a player, seated or not, or a spectator), by its id:
    on a key of its own (``state/<id>``), chosen by its own interest."""

    client: str
    player: str
    since_full: int | None = None  # states since its last full one (None: none yet)
    publisher: zenoh.Publisher | None = None  # declared by the thread that publishes


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
DEFAULT_KEYFRAME = 90  # a full state every this many states (and for each late joiner)


class _Null:
    """Where telemetry goes when the host writes none (its event list is still the one)."""

    def write(self, text: str, /) -> int:
        return len(text)


class Host:
    """A match's authoritative world on the network (see the module).

    `state_every` publishes the state every n-th step. Each client gets its own: the moving
    bodies that matter most to it within `budget` bytes a second
    (:mod:`playspace.net.interest`), and every `keyframe_every`-th of its states (and the
    answer to a late joiner's query) all of them. Each step's events, as the host's
    telemetry records them, go to every client reliably. `telemetry` and `record` write what
    the world did and the input each step saw. :meth:`run` steps in real time; :meth:`step`
    steps once (tests, benchmarks). `say` hears who joined, who was refused and who left, at
    the match's own time (seconds of fixed steps, and the step: as telemetry counts them).
    `players` is how many seats there are (see the module). With `play`, the host's own player
    (`name`) sits in seat 0, driven by that source (see the module); `plugins` add to the
    world what that player needs and the match does not, as the sound they hear.
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
        budget: int = DEFAULT_BUDGET,
        plugins: Iterable[object] = (),
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
        self.world = world = _world(scene, self.example, source, fixed_hz, seed, telemetry, plugins)
        self.event_kinds = tuple(world.resource(Telemetry).events)
        world.insert_resource(Hosting(self))
        world.add_system(host_roster)
        world.add_system(
            host_publish, reads=self.event_kinds,
            after=(telemetry_system,) if telemetry is not None else (),
        )  # fmt: skip
        self.budget = budget
        self.table = BodyTable()  # the moving bodies, as last gathered
        self.audience = Audience()  # what each client has had of them
        self.listeners: dict[str, Listener] = {}  # every client the host sends state, by id
        self._closing: list[Listener] = []  # clients gone, their publishers to undeclare
        self._names: dict[int, str] = {}
        self._waiting: tuple[str, ...] = ()  # those waiting for a seat, as last sent
        self._refused: tuple[str, ...] = ()  # the clients turned away, as last sent
        self._clients: dict[str, str] = {}  # the players' client ids, as last sent
        self._states = 0
        self._latest = State(0, 0.0, {})
        self._first = self.world.resource(PlayerStart)
        self.session = network.open()
        self._stack.callback(self.session.close)
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
        self.session.liveliness().declare_subscriber(
            network.key("observers", "*", "*"), self._watching, history=True
        )
        self.session.declare_queryable(network.key("state", "now"), self._now)
        self._token = self.session.liveliness().declare_token(network.key("host"))
        announce(self.session, network, lambda: host_entry(self))  # in the lobby while it runs
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
            self._listen(client, player, arrived)
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

    def _watching(self, sample: zenoh.Sample) -> None:
        """A spectator's token came or went (Zenoh's thread): it gets state, never a seat."""
        player, client = _named(sample)
        with self.lock:
            self._listen(client, player, sample.kind == zenoh.SampleKind.PUT)

    def _listen(self, client: str, player: str, arrived: bool) -> None:
        """Start or stop sending `client` state (the lock held)."""
        if arrived:
            self.listeners.setdefault(client, Listener(client, player))
        elif client in self.listeners:
            self._closing.append(self.listeners.pop(client))

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
            latest = self._latest
            waiting, refused = tuple(self.waiting), tuple(sorted(self.turned_away))
            clients = dict(self.ids)
        if latest.step:
            full = replace(latest, waiting=waiting, refused=refused, clients=clients)
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
            sent: list[object] = world.read_events(kind, reader=host_publish)
            happened.extend(event_record(event) for event in sent)
        if happened:
            data = encode_events(Events(step, now, tuple(happened[:MAX_EVENTS])))
            self.sent += len(data)
            self.events.put(data)
        if step % self.state_every == 0:
            self._publish(step, now)

    def _publish(self, step: int, now: float) -> None:
        """Gather the moving bodies and send each client its own state: the bodies that
        matter most to it within its budget (:mod:`playspace.net.interest`), all of them on
        its keyframe and whenever a player came, went or changed their name, or the queue for
        a seat changed (a full state says who sits and who waits)."""
        world = self.world
        self._states += 1
        count = self._states
        with self.lock:
            seats = [seat for seat in self.seats.values() if seat.number is not None]
            waiting = tuple(self.waiting)
            refused = tuple(sorted(self.turned_away))
            clients = dict(self.ids)
            listeners = list(self.listeners.values())
            closing, self._closing = self._closing, []
        for gone in closing:
            if gone.publisher is not None:
                gone.publisher.undeclare()  # type: ignore[no-untyped-call]
        seated = {seat.number: seat.player for seat in seats if seat.number is not None}
        if self.name is not None:
            seated[0] = self.name
        poses, names = moving_bodies(world, seated)
        table = self.table
        table.update(poses, self.state_every / world.clock.hz)
        news = (waiting, refused, clients) != (self._waiting, self._refused, self._clients)
        everyone_full = names != self._names or news or self.keyframe_every == 1
        score = self.example.summary(world) if self.example and self.example.summary else None
        rigs = {rig.player: rig for _, rig in world.each(Rig)}
        played = {
            seat.player: (seat.number, *self._seen(seat, count, rigs, poses)) for seat in seats
        }
        full_state = State(
            step, now, poses, score, True, names, {}, seated, waiting, refused, clients
        )  # fmt: skip
        tails = {False: encode_tail(replace(full_state, names=None, seated=None, waiting=None,
                                            refused=None, clients=None))}  # fmt: skip
        for listener in listeners:
            if listener.publisher is None:
                listener.publisher = self.session.declare_publisher(
                    self.network.key("state", listener.client),
                    congestion_control=zenoh.CongestionControl.DROP,
                    priority=zenoh.Priority.DATA_HIGH,
                    reliability=zenoh.Reliability.BEST_EFFORT,
                )
        audience = self.audience
        audience.fit(table, [listener.client for listener in listeners])
        # each listener's own seat: by its client, never by a name a spectator or a client
        # turned away may share
        theirs = [
            played.get(listener.player) if clients.get(listener.player) == listener.client
            else None
            for listener in listeners
        ]  # fmt: skip
        numbers = [None if own is None else own[0] for own in theirs]
        centres = np.array([self._centre(rigs, poses, number) for number in numbers], np.float64)
        own = np.zeros((len(listeners), len(table)), bool)
        for row, parts in enumerate(self._own_slots(names, listeners, numbers)):
            own[row, parts] = True
        due = [listener.since_full for listener in listeners]
        full = np.array(
            [everyone_full or d is None or d + 1 >= self.keyframe_every for d in due], bool
        ).reshape(len(listeners))
        if full.any():  # who is who: on a keyframe, a join or a change, not every state
            tails[True] = encode_tail(full_state)
        budget = self.budget * self.state_every / world.clock.hz
        room = int(budget - 64 - len(tails[False])) // 32  # the header, the player's own word
        chosen = audience.choose(table, centres.reshape(-1, 3), own, full, room)
        packed = audience.send(table, chosen)
        for listener, whole, bodies, mine in zip(listeners, full.tolist(), packed, theirs,
                                                 strict=True):  # fmt: skip
            number, seen, lately = mine if mine is not None else (None, None, False)
            if seen is not None and not (whole or lately):
                seen = Played(seen.echo, seen.held)  # no feet, no turn
            players = {number: seen} if number is not None and seen is not None else {}
            listener.since_full = 0 if whole else (listener.since_full or 0) + 1
            data = encode_step(step, now, whole, players, bodies, tails[whole])
            self.sent += len(data)
            assert listener.publisher is not None
            listener.publisher.put(data)
        self._waiting, self._refused, self._clients = waiting, refused, clients
        with self.lock:
            self._names = names
            self._latest = replace(
                full_state, players={n: seen for n, seen, _ in played.values() if n is not None}
            )

    def _own_slots(
        self, names: dict[int, str], listeners: list[Listener], numbers: list[int | None]
    ) -> list[list[int]]:
        """Each seated listener's own parts, by the table's slots: a client draws its own."""
        own: dict[str, list[int]] = {}
        for entity, name in names.items():
            player, _, part = name.rpartition("/")
            if player and part in PARTS:
                own.setdefault(player, []).append(self.table.slots[entity])
        return [
            own.get(listener.player, []) if number is not None else []
            for listener, number in zip(listeners, numbers, strict=True)
        ]

    def _centre(
        self, rigs: dict[int, Rig], poses: dict[int, Pose], number: int | None
    ) -> tuple[float, float, float]:
        """Where a client's interest centres: its player's head (among this state's `poses`),
        else the stage (where the first player starts: a spectator, or a player waiting for a
        seat)."""
        rig = None if number is None else rigs.get(number)
        at = self._first.position if rig is None else poses[rig.head].position
        return (at.x, at.y, at.z)

    def _seen(
        self, seat: Seat, count: int, rigs: dict[int, Rig], poses: dict[int, Pose]
    ) -> tuple[Played, bool]:
        """What the host made of `seat`'s input by the state numbered `count`: the newest
        input step played, how long it waited here, and the body's feet and the origin's turn
        after it, only when this step played a new frame of theirs (they are then those after
        that step, what the client compares its own with); and whether those moved in the last
        :data:`REPEAT` states (a state that is not full carries them only then). `rigs` by
        player number and this state's `poses` are read once a state for every seat."""
        with self.lock:
            queue = seat.queue
            echo = queue.taken
            held = time.monotonic() - queue.arrived if echo else 0.0
        rig = None if seat.number is None else rigs.get(seat.number)
        if rig is None or not echo:
            return Played(echo, held), False
        feet = Vec3(poses[rig.body].position)
        turn = yaw(self.world.get(rig.origin, Transform).rotation)
        if feet != seat.feet or turn != seat.turn:
            seat.feet, seat.turn, seat.moved = feet, turn, count
        if not seat.source.fresh:
            return Played(echo, held), False
        return Played(echo, held, feet, turn), count - seat.moved < REPEAT

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
    plugins: Iterable[object],
) -> World:
    """The world as a headless replay builds it (the same plugins in the same order), so the
    recording replays to the same telemetry; the caller's `plugins` (the host's player's
    sound) between telemetry and the game's own, where a preview adds them."""
    added: list[object] = [TelemetryPlugin(telemetry or _Null(), telemetry_events()), *plugins]
    if example is not None:
        added.append(example.build)
    world, _ = build_world(scene, source, fixed_hz, seed, added)
    if telemetry is None:  # the event list of telemetry is kept: it says what clients get
        world.remove_system(telemetry_system)
    return world
