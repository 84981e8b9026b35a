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
import os
import random
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import zenoh

from playspace.components.input import InputFrame
from playspace.ecs import World
from playspace.loops.replay import prepare_replay
from playspace.net.session import NetError, Network, check_name, paced
from playspace.net.wire import REDUNDANCY, TICKET, State, WireError, decode_state, encode_input
from playspace.spatial import Pose, lerp_pose
from playspace.systems.input import Polled
from playspace.systems.input.sources import InputSource
from playspace.systems.tracking import InputState

INTERPOLATION_DELAY = 0.05  # seconds the remote world is drawn behind the newest state


@dataclass(slots=True)
class Impairment:
    """Bad network conditions, for tests: each message is delayed by up to `delay` seconds
    (so messages overtake each other) and a fraction `loss` never arrives."""

    delay: float = 0.15
    loss: float = 0.1
    seed: int = 0


class ImpairedLink:
    """Sends through `put` as :class:`Impairment` says, from a thread of its own."""

    def __init__(self, put: Callable[[bytes], None], impairment: Impairment) -> None:
        self.put = put
        self.impairment = impairment
        self.random = random.Random(impairment.seed)
        self.dropped = 0
        self._due: list[tuple[float, int, bytes]] = []
        self._order = itertools.count()
        self._wake = threading.Condition()
        self._open = True
        self._thread = threading.Thread(target=self._send, daemon=True)
        self._thread.start()

    def __call__(self, data: bytes) -> None:
        if self.random.random() < self.impairment.loss:
            self.dropped += 1
            return
        due = time.monotonic() + self.random.uniform(0.0, self.impairment.delay)
        with self._wake:
            heapq.heappush(self._due, (due, next(self._order), data))
            self._wake.notify()

    def _send(self) -> None:
        with self._wake:
            while self._open or self._due:
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
    them `delay` seconds behind the host's newest time, as estimated on the local clock."""

    delay: float = INTERPOLATION_DELAY
    states: deque[tuple[float, State]] = field(default_factory=lambda: deque(maxlen=128))
    refused: int = 0  # state messages that were not one

    def add(self, state: State, arrived: float) -> None:
        if not self.states or state.time > self.states[-1][1].time:
            self.states.append((arrived, state))

    def host_time(self, now: float) -> float | None:
        """The host's time now, from the newest state and how long ago it arrived."""
        if not self.states:
            return None
        arrived, state = self.states[-1]
        return state.time + (now - arrived)

    def poses(self, now: float) -> dict[int, Pose]:
        """Every remote body's pose at the host's time `delay` ago: between the two states
        around it, or the oldest (newest) state's before (after) them."""
        host = self.host_time(now)
        if host is None:
            return {}
        when = host - self.delay
        states = [state for _, state in self.states]
        after = next((i for i, s in enumerate(states) if s.time >= when), len(states) - 1)
        b = states[after]
        if after == 0 or b.time <= when:
            return dict(b.bodies)
        a = states[after - 1]
        f = (when - a.time) / (b.time - a.time)
        return {
            e: lerp_pose(a.bodies[e], p, f) if e in a.bodies else p for e, p in b.bodies.items()
        }

    @property
    def score(self) -> str | None:
        return self.states[-1][1].score if self.states else None


class _Sending:
    """The player's source, passed through; each new step's frame is sent to the host."""

    def __init__(self, source: InputSource, send: Callable[[int, InputFrame], None]) -> None:
        self.source = source
        self.send = send
        self.step = 0
        self._last = -1.0

    @property
    def duration(self) -> float | None:
        return self.source.duration

    def poll(self, time: float) -> InputFrame:
        source = self.source
        return source.poll(time) if isinstance(source, Polled) else source.sample(time)

    def sample(self, time: float) -> InputFrame:
        frame = self.source.sample(time)
        if time > self._last:
            self._last = time
            self.step += 1
            self.send(self.step, frame)
        return frame


class Client:
    """A player in a match (see the module). Add :meth:`plugin` to the player's world (a
    headless replay, the preview window): it sends that world's input and fills
    :attr:`remote`. Call :meth:`wait_for_host` before playing, :meth:`close` after."""

    def __init__(self, network: Network, player: str, impairment: Impairment | None = None) -> None:
        self.network = network
        self.player = check_name(player, "player")
        self.ticket = os.urandom(TICKET)
        self.remote = RemoteView()
        self.sent = 0  # bytes of input sent
        self.received = 0  # bytes of state received
        self._recent: deque[tuple[int, InputFrame]] = deque(maxlen=REDUNDANCY)
        self.session = network.open()
        self.publisher = self.session.declare_publisher(
            network.key("input", self.player), congestion_control=zenoh.CongestionControl.DROP
        )
        self.link: ImpairedLink | None = None
        put: Callable[[bytes], None] = self.publisher.put
        if impairment is not None:
            self.link = ImpairedLink(put, impairment)
            put = self.link
        self._put = put
        self.session.declare_subscriber(network.key("state"), self._state)
        self._token = self.session.liveliness().declare_token(network.key("players", self.player))

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
        self._take(sample.payload.to_bytes())

    def _take(self, data: bytes) -> None:
        self.received += len(data)
        try:
            state = decode_state(data)
        except WireError:
            self.remote.refused += 1
            return
        self.remote.add(state, time.monotonic())

    def send(self, step: int, frame: InputFrame) -> None:
        """Send frame `step` with the ones before it."""
        self._recent.append((step, frame))
        data = encode_input(self.ticket, list(self._recent))
        self.sent += len(data)
        self._put(data)

    def plugin(self, world: World) -> None:
        """Send `world`'s input to the host, one frame per fixed step."""
        state = world.resource(InputState)
        state.source = _Sending(state.source, self.send)

    def close(self) -> None:
        if self.link is not None:
            self.link.close()
        self._token.undeclare()  # type: ignore[no-untyped-call]
        self.session.close()  # type: ignore[no-untyped-call]


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
