"""A client: its own player's world run locally, its input sent to the host, the host's state
received and drawn a short delay behind.

The client's world is the same target as the host's, with the player's own source (a headset,
the desktop simulator, a trace): its head and hands are placed from its own input each step
and never wait for the network. Each fixed step's frame goes to the host with the two before
it (:data:`~playspace.net.wire.REDUNDANCY`); the host's states gather in a :class:`RemoteView`
that gives every remote body's pose at a time a little behind the newest, interpolated.
"""

from __future__ import annotations

import heapq
import itertools
import math
import os
import random
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

import zenoh

from playspace.app.replay import prepare_replay
from playspace.components import Transform
from playspace.components.avatars import Avatar
from playspace.components.drawn import DrawnPoses, Figure
from playspace.components.input import InputFrame, InputState
from playspace.components.interaction import Holding
from playspace.components.physics import Box, Capsule, Shape, Sphere
from playspace.components.scene import Opponent, Prop
from playspace.ecs import Phase, PluginError, World
from playspace.net.correction import Correction, add_correction
from playspace.net.scoreline import add_score_line
from playspace.net.session import NetError, Network, check_client_id, check_name, paced
from playspace.net.wire import (
    CLIENT_ID,
    REDUNDANCY,
    TICKET,
    Events,
    Played,
    State,
    WireError,
    decode_events,
    decode_state,
    encode_input,
)
from playspace.spatial import (
    Pose,
    Quat,
    Vec3,
    identity,
    inverse,
    length,
    lerp_pose,
    multiply,
    normalize,
    slerp,
    vec3,
)
from playspace.systems.input import Recorder
from playspace.systems.player.players import local_rig
from playspace.systems.sets import LateSet, add_late_sets

INTERPOLATION_DELAY = 0.03  # seconds the remote world is drawn behind the host, at least
OFFSETS = 180  # recent states whose arrival sets the host's clock and the delay (2 s at 90 Hz)
EASE = 0.1  # how fast the delay follows its target: seconds per second
STAMPS = 512  # input steps whose send time is kept for the round trip
TRACK = 16  # recent poses a remote body keeps: a far one's come by turns
BLEND = 0.1  # seconds over which a body handed from the local world to the host's eases over
# seconds over which a body drawn held past its newest pose (the states after it late or lost)
# eases onto the host's path once the next comes, rather than jumping there
SETTLE = 0.1
SNAP = 1.0  # metres: a body further off the host's path than this goes there at once
BODY_HEIGHT = 1.4  # metres: another player's body, drawn up to the shoulders (the head above)
AVATAR: dict[str, tuple[Shape, Pose]] = {  # how another player's parts are drawn, on their pose
    "head": (Sphere(0.11), Pose.identity()),
    "left_hand": (Box((0.07, 0.05, 0.14)), Pose.identity()),
    "right_hand": (Box((0.07, 0.05, 0.14)), Pose.identity()),
    "body": (Capsule(0.2, BODY_HEIGHT), Pose(vec3(0.0, BODY_HEIGHT / 2, 0.0), identity())),
}


@dataclass(slots=True)
class Impairment:
    """Bad network conditions, for tests: each message is delayed by `base` seconds and up to
    `delay` more (jitter: messages overtake each other), and a fraction `loss` never arrives,
    lost in bursts of `burst` messages on average (a Gilbert-Elliott channel: the internet
    loses packets in runs, which redundancy of three frames only partly covers)."""

    delay: float = 0.15
    loss: float = 0.1
    seed: int = 0
    base: float = 0.0
    burst: float = 1.0  # 1: each message lost on its own


def _internet(round_trip: float) -> Impairment:
    """A round trip of `round_trip` seconds on average, 30 ms of jitter each way, 5 % lost in
    bursts of three."""
    jitter = 0.03
    return Impairment(delay=jitter, loss=0.05, base=round_trip / 2 - jitter / 2, burst=3.0)


PROFILES = {"internet-100": _internet(0.1), "internet-200": _internet(0.2)}


class ImpairedLink:
    """Passes messages on to `put` as :class:`Impairment` says, from a thread of its own. A
    `reliable` link (Zenoh's reliable channel: retransmitted, in order) loses nothing and keeps
    the order; the delay is what a retransmission costs."""

    def __init__(
        self, put: Callable[[bytes], None], impairment: Impairment, *, reliable: bool = False
    ) -> None:
        self.put = put
        self.impairment = impairment
        self.reliable = reliable
        self.random = random.Random(impairment.seed)
        self.dropped = 0
        self._losing = False  # in a burst of losses
        self._last_due = 0.0
        self._due: list[tuple[float, int, bytes]] = []
        self._order = itertools.count()
        self._wake = threading.Condition()
        self._open = True
        self._thread = threading.Thread(target=self._send, daemon=True)
        self._thread.start()

    def __call__(self, data: bytes) -> None:
        if not self.reliable and self._lost():
            self.dropped += 1
            return
        impairment = self.impairment
        due = time.monotonic() + impairment.base + self.random.uniform(0.0, impairment.delay)
        with self._wake:
            if self.reliable:
                due = self._last_due = max(due, self._last_due)
            heapq.heappush(self._due, (due, next(self._order), data))
            self._wake.notify()

    def _lost(self) -> bool:
        """Whether this message is lost: on its own, or by the bursty channel's state."""
        loss, burst = self.impairment.loss, self.impairment.burst
        if burst <= 1.0:
            return self.random.random() < loss
        leave = 1.0 / burst  # the chance a burst ends with this message
        enter = loss * leave / (1.0 - loss)  # so that `loss` of all messages are lost
        self._losing = (
            self.random.random() >= leave if self._losing else self.random.random() < enter
        )
        return self._losing

    def _send(self) -> None:
        """Pass each message on when due, outside the lock (a put may take a while: the
        sender and :meth:`close` must not wait on it)."""
        while True:
            with self._wake:
                if not (self._open or self._due):
                    return
                if not self._due:
                    self._wake.wait()
                    continue
                due, _, data = self._due[0]
                wait = due - time.monotonic()
                if wait > 0:
                    self._wake.wait(wait)
                    continue
                heapq.heappop(self._due)
            self.put(data)

    def close(self) -> None:
        """Send what is still due, then stop."""
        with self._wake:
            self._open = False
            self._wake.notify()
        self._thread.join()


@dataclass(slots=True)
class RemoteView:
    """The host's recent states, each with when it arrived here; :meth:`poses` interpolates
    them a short, adaptive delay behind the host's time as estimated on the local clock.

    Each body keeps a track of its own recent poses and is drawn between its own two around
    the drawn time: a state that is not full carries only some bodies (those at rest not at
    all, far ones by turns: :mod:`playspace.net.interest`). A body flagged as having stood
    still until the state before (:attr:`State.resumed`) is held there until then, so it
    does not glide from where it came to rest long ago. The host's clock is read from the
    least delayed of the recent states (the largest host time minus arrival time), so jitter
    does not shake it; the delay is the spread of the recent arrivals plus `delay`, eased in
    at a tenth of real time, and the drawn time never goes back: a late or lost state bends
    nothing that was drawn.

    When the states after a body's newest are lost (a burst of losses outlasts the delay), it
    is drawn held there while the host's moves on; the next state says where it really was,
    up to 20 cm away for a hand waving a snowball. Rather than jump there, it settles: the
    offset from where it was drawn to where the host's path puts it at that drawn time eases
    out over :data:`SETTLE` (a tenth of the jump a frame at 90 Hz), as games smooth a
    correction; one over :data:`SNAP` (a teleport) is taken at once."""

    delay: float = INTERPOLATION_DELAY  # the least delay: about two states at 90 Hz and more
    states: deque[tuple[float, State]] = field(default_factory=lambda: deque(maxlen=128))
    tracks: dict[int, deque[tuple[float, Pose]]] = field(default_factory=dict)  # host time: pose
    names: dict[int, str] = field(default_factory=dict)  # the host's bodies' names
    seated: dict[int, str] | None = None  # the seated players' names by number (None: unknown)
    waiting: tuple[str, ...] | None = None  # who waits for a seat, in order (None: not said)
    turned_away: tuple[str, ...] = ()  # the clients (by id) the host refused, as last said
    clients: dict[str, str] | None = None  # the players' client ids by name (None: not said)
    refused: int = 0  # state messages that were not one
    offsets: deque[float] = field(default_factory=lambda: deque(maxlen=OFFSETS))
    eased: float | None = None  # the delay now, moving toward the target
    drawn: float = -math.inf  # the host time last drawn
    # whether that draw found no state after the drawn time and held the newest (a late or
    # lost state, or a host that stalled): what was drawn is where the host was a while ago
    held: bool = False
    last_call: float | None = None
    # a body's offset from the host's path being eased out: since when (local time), by how
    # far and how much turned
    settling: dict[int, tuple[float, Vec3, Quat]] = field(default_factory=dict)

    def add(self, state: State, arrived: float) -> None:
        """Take a state that arrived (local time `arrived`): each body's pose joins its
        track; a full state says which bodies there are (the others are gone)."""
        self.offsets.append(state.time - arrived)
        if state.names is not None:
            self.names = state.names
        if state.seated is not None:  # a full state: it says whom it turned away too
            self.seated = state.seated
            self.turned_away = state.refused or ()
            self.clients = state.clients
        if state.waiting is not None:
            self.waiting = state.waiting
        if self.states and state.time <= self.states[-1][1].time:
            return  # overtaken: a newer state is here already
        before = self.states[-1][1].time if self.states else None
        if state.full:
            for gone in [e for e in self.tracks if e not in state.bodies]:
                del self.tracks[gone]
                self.settling.pop(gone, None)
        for entity, pose in state.bodies.items():
            track = self.tracks.get(entity)
            was = None  # where it was drawn, when drawn held past its newest pose
            if track is None:
                track = self.tracks[entity] = deque(maxlen=TRACK)
            else:
                if track[-1][0] < self.drawn:
                    was = self._shown(entity, track, arrived)
                if entity in state.resumed and before is not None and before > track[-1][0]:
                    track.append((before, track[-1][1]))  # it stood there until then
            track.append((state.time, pose))
            if was is not None:
                self._settle(entity, was, _at(track, self.drawn), arrived)
        self.states.append((arrived, state))

    def _settle(self, entity: int, was: Pose, path: Pose, now: float) -> None:
        """`entity` was drawn at `was` for the drawn time, where the host's path, as now
        known, has it at `path`: ease the difference out from `now` (see the class)."""
        offset = was.position - path.position
        if length(offset) > SNAP:
            self.settling.pop(entity, None)
            return
        turn = multiply(normalize(was.rotation), inverse(normalize(path.rotation)))
        self.settling[entity] = (now, offset, turn)

    def _shown(self, entity: int, track: deque[tuple[float, Pose]], now: float) -> Pose:
        """Where `entity` is drawn at the drawn time, at local time `now`: on its track,
        plus what is left of an offset settling."""
        pose = _at(track, self.drawn)
        settling = self.settling.get(entity)
        if settling is None:
            return pose
        since, offset, turn = settling
        left = 1.0 - (now - since) / SETTLE
        if left <= 0.0:
            del self.settling[entity]
            return pose
        rotation = multiply(slerp(identity(), turn, left), normalize(pose.rotation))
        return Pose(pose.position + offset * left, rotation)

    def host_time(self, now: float) -> float | None:
        """The host's time now, from the least delayed recent state."""
        return now + max(self.offsets) if self.offsets else None

    def target_delay(self) -> float:
        """How far behind to draw: the recent arrivals' spread (most of it) plus `delay`."""
        ordered = sorted(self.offsets)
        spread = ordered[-1] - ordered[len(ordered) // 20] if ordered else 0.0
        return self.delay + spread

    def poses(self, now: float) -> dict[int, Pose]:
        """Every remote body's pose at the drawn time: between the two states around it, or
        the oldest (newest) state's before (after) them, with what is left of an offset
        settling (see the class)."""
        host = self.host_time(now)
        if host is None or not self.states:
            return {}
        target = self.target_delay()
        if self.eased is None or self.last_call is None:
            self.eased = target
        else:
            ease = EASE * max(now - self.last_call, 0.0)
            self.eased += min(max(target - self.eased, -ease), ease)
        self.last_call = now
        when = self.drawn = max(host - self.eased, self.drawn)
        self.held = self.states[-1][1].time < when
        return {entity: self._shown(entity, track, now) for entity, track in self.tracks.items()}

    @property
    def score(self) -> str | None:
        return self.states[-1][1].score if self.states else None


def _at(track: deque[tuple[float, Pose]], when: float) -> Pose:
    """A body's pose at `when` from its track: between the two samples around it, else the
    nearest one (a body's samples come by turns: see :mod:`playspace.net.interest`)."""
    for i in range(len(track) - 1, 0, -1):  # `when` is near the newest: look from there
        t0, a = track[i - 1]
        if t0 <= when:
            t1, b = track[i]
            return b if t1 <= when else lerp_pose(a, b, (when - t0) / (t1 - t0))
    return track[0][1]


@dataclass(frozen=True, slots=True)
class Standing:
    """Where a player stands in the match, as the host's newest full state says: their player
    `number` once seated; else their `place` in the queue for a seat (1: the next to get
    one); both None while the host has not said (it has not seen them yet, or is older than
    the queue on the wire)."""

    number: int | None = None
    place: int | None = None
    refused: bool = False  # turned away: another client plays under this name

    @property
    def known(self) -> bool:
        return self.number is not None or self.place is not None or self.refused


class _Sender:
    """Each new step's frame, numbered from 1, to the host (a :class:`Recorder`'s sink)."""

    def __init__(self, send: Callable[[int, InputFrame], None]) -> None:
        self.send = send
        self.step = 0

    def write(self, frame: InputFrame) -> None:
        self.step += 1
        self.send(self.step, frame)


class Client:
    """A player in a match (see the module). Add :meth:`plugin` to the player's world (a
    headless replay, the preview window): it sends that world's input, fills :attr:`remote`
    and :attr:`events`, and draws the host's bodies over the world's own copies of them
    (:meth:`draw_remote`). Call :meth:`wait_for_host` before playing, :meth:`close` after.

    `impairment` (tests) delays, reorders and drops the input going up and the state coming
    down, and delays the events (reliable: none lost). An `observer` watches without a rig: it
    is present under ``observers/`` instead of ``players/``, so it never takes the host's seat.
    After :meth:`wait_for_seat`, `say` hears each change of the player's :class:`Standing`:
    a seat taken, a place in the queue for one.
    A player's client corrects its own body where the host's disagrees, as `correction` says
    (:mod:`playspace.net.correction`; the defaults when None).
    """

    def __init__(
        self,
        network: Network,
        player: str,
        impairment: Impairment | None = None,
        *,
        observer: bool = False,
        correction: Correction | None = None,
        say: Callable[[str], None] = lambda line: None,
        client_id: str | None = None,
    ) -> None:
        self.network = network
        self.player = check_name(player, "player")
        if network.user and network.user != player:
            raise NetError(f"this client's token is {network.user}'s: it plays as {network.user}")
        self.observer = observer
        self.say = say
        self._told: Standing | None = None  # the standing last said; None before wait_for_seat
        self.correction = correction if correction is not None else Correction()
        self.ticket = os.urandom(TICKET)  # secret: the host knows its input by it
        # public: this client, whatever its name; one coming back after a drop gives its own
        self.id = check_client_id(client_id) if client_id else os.urandom(CLIENT_ID).hex()
        self.remote = RemoteView()
        self.events: list[Events] = []  # the host's events, by step, as they arrived
        self.refused_events = 0
        self.round_trips: list[float] = []  # input sent -> played -> its state here (s)
        self.host_held: list[float] = []  # of each round trip, the time the host held it
        self.sent = 0  # bytes of input sent
        self.received = 0  # bytes of state and events received
        self.states = 0  # state messages received (good or not)
        self._recent: deque[tuple[int, InputFrame]] = deque(maxlen=REDUNDANCY)
        self._stamps: dict[int, float] = {}  # step: when its frame was first sent
        self._echoed = 0
        self._body: Played | None = None  # the host's newest word on this player's body
        self._lock = threading.Lock()
        self.session = network.open()
        self.publisher = self.session.declare_publisher(
            network.key("input", self.player, self.id),
            congestion_control=zenoh.CongestionControl.DROP,
            priority=zenoh.Priority.DATA_HIGH,
        )
        self.links: list[ImpairedLink] = []
        self._put = self._impaired(self.publisher.put, impairment)
        self._state_in = self._impaired(self._take, impairment)
        self._events_in = self._impaired(self._take_events, impairment, reliable=True)
        self.session.declare_subscriber(network.key("state", self.id), self._state)
        self.session.declare_subscriber(network.key("events"), self._event)
        presence = network.key("observers" if observer else "players", self.player, self.id)
        self._token = self.session.liveliness().declare_token(presence)

    def _impaired(
        self, put: Callable[[bytes], None], impairment: Impairment | None, reliable: bool = False
    ) -> Callable[[bytes], None]:
        if impairment is None:
            return put
        seed = replace(impairment, seed=impairment.seed + len(self.links))
        link = ImpairedLink(put, seed, reliable=reliable)
        self.links.append(link)
        return link

    def wait_for_host(self, timeout: float = 10.0) -> None:
        """Block until the host is there, and take its newest state (joining late); NetError
        when no host answers within `timeout` seconds."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if list(self.session.liveliness().get(self.network.key("host"), timeout=1.0)):
                for reply in self.session.get(self.network.key("state", "now"), timeout=1.0):
                    if reply.ok is not None:
                        self._take(reply.ok.payload.to_bytes())
                return
            time.sleep(0.05)
        raise NetError(f"no host of session {self.network.session!r} within {timeout:g} s")

    def _state(self, sample: zenoh.Sample) -> None:
        self._state_in(sample.payload.to_bytes())

    def _event(self, sample: zenoh.Sample) -> None:
        self._events_in(sample.payload.to_bytes())

    def _take(self, data: bytes) -> None:
        arrived = time.monotonic()
        try:
            state = decode_state(data)
        except WireError:
            with self._lock:
                self.received += len(data)
                self.states += 1
                self.remote.refused += 1
            return
        with self._lock:
            self.received += len(data)
            self.states += 1
            self.remote.add(state, arrived)
            news = self._news()
            number = self._standing().number
            seen = state.players.get(number) if number is not None else None
            if seen is not None:
                self._heard(seen, arrived)
        if news is not None:
            self.say(news)

    def _heard(self, seen: Played, arrived: float) -> None:
        """The host's word on this player's input and body (the lock held)."""
        said = seen.feet is not None or seen.turn is not None
        if said and (self._body is None or seen.echo > self._body.echo):
            self._body = seen
        if seen.echo > self._echoed:
            self._echoed = seen.echo
            sent = self._stamps.get(seen.echo)
            if sent is not None:
                self.round_trips.append(arrived - sent)
                self.host_held.append(seen.held)

    def _take_events(self, data: bytes) -> None:
        try:
            events = decode_events(data)
        except WireError:
            with self._lock:
                self.received += len(data)
                self.refused_events += 1
            return
        with self._lock:
            self.received += len(data)
            self.events.append(events)

    def send(self, step: int, frame: InputFrame) -> None:
        """Send frame `step` with the ones before it, stamped with when it was first sent."""
        self._recent.append((step, frame))
        data = encode_input(self.ticket, list(self._recent))
        with self._lock:
            self._stamps[step] = time.monotonic()
            self._stamps.pop(step - STAMPS, None)
            self.sent += len(data)
        self._put(data)

    @property
    def seated(self) -> bool | None:
        """Whether the host gave this player a seat, as its newest full state says (None
        before one arrived): a joiner past the host's limit waits unseated, its input refused."""
        with self._lock:
            seated = self.remote.seated
            return None if seated is None else self._standing().number is not None

    def _standing(self) -> Standing:
        """The player's standing as the newest full states say (the lock held)."""
        seated, waiting = self.remote.seated or {}, self.remote.waiting or ()
        if self.id in self.remote.turned_away:
            return Standing(refused=True)
        clients = self.remote.clients
        if clients is not None and clients.get(self.player) != self.id:
            return Standing()  # that name is another client's: the host has not seen this one
        number = next((n for n, name in seated.items() if name == self.player), None)
        if number is not None:
            return Standing(number=number)
        return Standing(place=waiting.index(self.player) + 1 if self.player in waiting else None)

    def _news(self) -> str | None:
        """A line for `say` when the standing changed since it was last said (the lock held)."""
        standing = self._standing()
        if self._told is None or not standing.known or standing == self._told:
            return None
        self._told = standing
        if standing.refused:
            return f"{self.player} was turned away: another client plays as {self.player}"
        if standing.number is not None:
            return f"{self.player} has a seat now: player {standing.number}"
        return f"{self.player} waits for a seat: number {standing.place} in the queue now"

    @property
    def standing(self) -> Standing:
        """Where this player stands in the match: seated, waiting for a seat, or not said."""
        with self._lock:
            return self._standing()

    def wait_for_seat(self, timeout: float = 3.0) -> Standing:
        """Block until the host says whether this player has a seat, or `timeout` seconds
        pass (an older host never says who waits); the standing then. From now on `say`
        hears each change."""
        end = time.monotonic() + timeout
        while True:
            with self._lock:
                standing = self._standing()
                if standing.known or time.monotonic() >= end:
                    self._told = standing
                    return standing
            time.sleep(0.02)

    def host_body(self) -> Played | None:
        """The host's newest word on the player's body: the input step it had played, and
        the body's feet and the origin's turn after it (None before the first word)."""
        with self._lock:
            return self._body

    def poses(self, now: float | None = None) -> dict[int, Pose]:
        """The host's bodies as drawn now (the remote view, interpolated)."""
        with self._lock:
            return self.remote.poses(time.monotonic() if now is None else now)

    def plugin(self, world: World) -> None:
        """Draw the host's bodies in `world` (:meth:`draw_remote`) and its score line on
        screen, and, for a player, send the world's input to the host, one frame per fixed
        step, and correct its own body from the host's."""
        rig = local_rig(world)
        if rig is None:
            raise PluginError("a client plays the player this process shows: add the RigPlugin")
        if not self.observer:  # a spectator's rig only moves its eyes: it sends nothing
            state = world.get(rig.origin, InputState)
            sender = _Sender(self.send)
            state.source = Recorder(state.source, sender)
            add_correction(world, self.correction, self.host_body, lambda: sender.step)
        world.insert_resource(RemoteDrawn(self))
        add_score_line(world, lambda _: self.remote.score)  # the host's: every number is
        add_late_sets(world)
        world.add_system(
            draw_remote, phase=Phase.LATE, in_set=LateSet.REMOTE, reads=(Holding, Prop),
            writes=(DrawnPoses, RemoteDrawn, Avatar, Figure),
        )  # fmt: skip

    def close(self) -> None:
        for link in self.links:
            link.close()
        self._token.undeclare()  # type: ignore[no-untyped-call]
        self.session.close()  # type: ignore[no-untyped-call]


@dataclass(slots=True)
class RemoteDrawn:
    """The client's world's view of the host's bodies; a resource. `blends` holds, for a body
    the local world drew last frame (held in the player's own hand) and the host draws now,
    the offset from the host's pose to where it was drawn, eased out over :data:`BLEND`."""

    client: Client
    blends: dict[int, tuple[float, Vec3]] = field(default_factory=dict)  # entity: (start, offset)
    remote: set[int] = field(default_factory=set)  # entities drawn from the host last frame
    local: dict[str, int] = field(default_factory=dict)  # a body's name: this world's entity
    made_for: int = -1  # the world's entity count the names were gathered at
    avatars: dict[tuple[str, str], int] = field(default_factory=dict)  # (player, part): entity


def _local_names(world: World, drawn: RemoteDrawn) -> dict[str, int]:
    """This world's moving bodies by name (props and opponents), gathered again when the
    world's structure changed."""
    count = len(world.query(Prop)) + len(world.query(Opponent))
    if count != drawn.made_for:
        drawn.made_for = count
        markers: tuple[type[Prop] | type[Opponent], ...] = (Prop, Opponent)
        drawn.local = {m.name: e for kind in markers for e, (m,) in world.query(kind)}
    return drawn.local


def draw_remote(world: World) -> None:
    """Draw the host's props and opponents where the host put them (interpolated), over this
    world's own copies (same name), and the other players as avatars; the player's own rig
    and what its hands hold stay local. Only :class:`DrawnPoses` rows and the avatars are
    written: this world's physics never sees the host."""
    drawn_poses, drawn = world.resource(DrawnPoses), world.resource(RemoteDrawn)
    now = time.monotonic()
    remote = drawn.client.poses(now)
    names = drawn.client.remote.names
    local = _local_names(world, drawn)
    held = {h.object for _, h in world.each(Holding) if h.object is not None}
    shown: set[int] = set()
    for host_entity, pose in remote.items():
        entity = local.get(names.get(host_entity, ""))
        row = drawn_poses.rows.get(entity) if entity is not None else None
        if entity is None or row is None or entity in held:
            continue
        p = pose.position
        if entity not in drawn.remote:  # handed over from the local world: ease the jump out
            was = drawn_poses.positions[row]
            drawn.blends[entity] = (now, vec3(was[0] - p.x, was[1] - p.y, was[2] - p.z))
        blend = drawn.blends.get(entity)
        if blend is not None:
            left = 1.0 - (now - blend[0]) / BLEND
            if left <= 0.0:
                del drawn.blends[entity]
            else:
                p = p + blend[1] * left
        q = normalize(pose.rotation)
        drawn_poses.positions[row] = (p.x, p.y, p.z)
        drawn_poses.rotations[row] = (q.x, q.y, q.z, q.w)
        shown.add(entity)
    drawn.remote = shown
    _draw_avatars(world, drawn, remote, names, local)


def _draw_avatars(
    world: World, drawn: RemoteDrawn, remote: dict[int, Pose], names: dict[int, str],
    local: dict[str, int],
) -> None:  # fmt: skip
    """Every other player's head, hands and body (``<player>/<part>`` on the host) as an
    :class:`Avatar` at the host's pose, interpolated as the props are: spawned when the
    player first shows, despawned once the host no longer has them."""
    wanted: dict[tuple[str, str], Pose] = {}
    for host_entity, pose in remote.items():
        name = names.get(host_entity, "")
        player, _, part = name.rpartition("/")
        if player and player != drawn.client.player and part in AVATAR and name not in local:
            wanted[(player, part)] = pose
    for key in [key for key in drawn.avatars if key not in wanted]:
        world.despawn(drawn.avatars.pop(key))
    for (player, part), pose in wanted.items():
        entity = drawn.avatars.get((player, part))
        if entity is None:
            shape, offset = AVATAR[part]
            entity = world.spawn(Transform(), Avatar(player, part), Figure(shape, offset))
            drawn.avatars[(player, part)] = entity
        transform = world.get(entity, Transform)
        transform.position, transform.rotation = pose.position, normalize(pose.rotation)


def play(
    client: Client,
    target: Path,
    trace: Path | None,
    *,
    seconds: float | None = None,
    fixed_hz: float | None = None,
    seed: int = 0,
    stop: Callable[[], bool] | None = None,
) -> World:
    """Play `trace` (the example's own when None) through the player's own world in real
    time, sending its input to the host: a headless client. The world as it ended."""
    replay = prepare_replay(target, trace, seconds, fixed_hz, seed)
    world = replay.world([client.plugin])
    paced(lambda: world.step(1), replay.fixed_hz, replay.steps, stop)
    return world
