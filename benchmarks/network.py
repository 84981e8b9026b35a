"""What networked play costs on loopback, and what an internet link does to what players see.

Matches of 2, 8 and 16 players, every one seated (``players=N``): the host in this process,
the clients four to a process (a process each would be sixteen Python processes on a
two-core machine). The first player plays the snowball trace on their own rig at the scene's
start, by the pile (a snowball is grabbed and thrown); every other one sends synthetic frames
at 90 Hz, a function of time and the player's number (:func:`walking`: a circle of about a
metre on the left stick, a snap turn every 2 s, the head looking about, both hands waving),
so every body moves and each client's interest and byte budget decide what it hears of. The
shipped scene has no ``[[spawn]]``: seats past the third would start beyond the floor's edge
and crowd where the level's ground is nearest, so the host's scene is given a spawn per seat
(:data:`SPAWNS`, four by four on the floor). Clients connect, take their seats and walk; the
measured window starts together for all. Measured for each count:

- bytes a second per client each way: input up, state and events down (the mean, and the
  largest down: the goal is under 64 kB/s at 16 players). A host that cannot keep 90 Hz sends
  fewer states, so ``down_bytes_per_s_max_at_90hz`` scales the largest by 90 over the rate it
  kept (``host_hz``): what that client would get at 90 Hz, the budget being a state's;
- the true round trip of the players' input: each input frame is stamped when sent, the host
  echoes the newest frame it played in each state, and the client measures until that state
  arrives (median, 99th percentile). Of it, ``host_held`` is the time the frame waited at the
  host (its playout buffer of 2 frames and the fixed step's pacing: a choice, not the network),
  and ``network`` the rest: what Zenoh and the messages add on loopback;
- the host's step (the world, its events, gathering and publishing every client's state)
  against a local world with the same players (the trace, and the same walkers spawned where
  the host seats them), both as the stepping thread's CPU time, taken in turns in the same
  thread during the match, so both see the same machine. The local world steps with every
  other host step (both every step would not fit a fixed step at 16 players on two cores),
  and which goes first alternates: the first after the pacing's sleep finds the caches cold
  and costs about a quarter more, which ``host_over_local_host_first`` and ``_local_first``
  show; ``host_step_ms`` is the median of the host's steps taken beside a local one. The
  walkers' frames are made before the local step, outside its timing, as the host's are made
  from the network's bytes on Zenoh's thread. ``host_hz`` is the rate the host kept: below 90
  the machine could not keep up (its step alone longer than a fixed step's 11.1 ms, or the
  clients' processes taking the cores), and the figures of that count are of a host behind
  real time (input queued and skipped, round trips long). ``full_state_*`` is 2 players
  with every body in every state (the increment before interest management), for comparison.

Under each internet profile (:data:`~playspace.net.client.PROFILES`: 100 or 200 ms round trips,
30 ms of jitter, 5 % lost in bursts), two players, both clients impaired (input up, state and
events down), each a real client world:

- the first grabs a snowball from the pile, waves it about and walks a circle holding it
  (:func:`holding`); the second walks as the others do (:func:`walking`);
- corrections: how often each client corrected its own body from the host's word
  (:class:`~playspace.net.correction.OwnBody`'s count, of places; turns apart), per 10 s of
  walking (the steps its world ran: on a loaded machine a client's world may fall behind real
  time, and ``client_hz_min`` says how far the slower one did), the larger of the two (the
  goal: at most once);
- the held object on the other player's screen: each of the second player's frames, the
  snowball's drawn position (what its world's ``DrawnPoses`` holds after the frame) and the
  host time it was drawn for (``RemoteView.drawn``), against the host's own pose of it at that
  time (recorded each host step in the host's thread, interpolated). The error is drawn minus
  true; ``held_jump_cm`` is the largest change of the error from one frame to the next: how
  far the object jumps on screen beyond how it really moved (the goal: under 5 cm; a lost or
  late state held and then caught up shows here; ``held_jump_cm_p99``, the 99th percentile of
  those changes, says how rare the largest is), ``held_error_cm`` the largest error, and
  ``held_step_cm`` the largest the drawn object moved in one frame, all of it, and
  ``held_true_step_cm`` the largest the host's own moved between two frames' drawn times;
- how the host played their input: steps that held a player's last frame because the next had
  not come (``host_held_frames_per_s``) and frames it never played, lost or dropped to catch
  up (``host_skipped_frames_per_s``), a player's on average over the window. A held frame
  walks the body on with the last stick, a skipped one drops a step of walking: each a step
  the host's body and the client's part by, what corrections then make good.

Run: ``python benchmarks/network.py [--seconds S] [--walk W] [--counts 2,16] [--profiles
internet-100]`` (``--counts`` the matches' players, 2, 8 and 16 by default, the full-state
comparison with 2; ``--profiles`` the internet profiles, all by default, ``none`` for none).
The last line printed is one JSON object.
"""

from __future__ import annotations

import argparse
import bisect
import json
import math
import socket
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from playspace.app import build_world
from playspace.app.replay import prepare_replay
from playspace.app.spawn import player_start_for
from playspace.components import Transform
from playspace.components.drawn import DrawnPoses
from playspace.components.input import InputFrame
from playspace.components.interaction import Holding
from playspace.components.scene import PlayerStart, Prop
from playspace.ecs import World
from playspace.formats.scene import SceneSpawn
from playspace.net import Client, Host, Network, play
from playspace.net.client import PROFILES
from playspace.net.correction import OwnBody
from playspace.net.session import paced
from playspace.systems.input import ScriptedSource, device_pose, hand_input, standing_frame
from playspace.systems.player import spawn_player
from playspace.systems.player.players import local_rig, player_rig

ROOT = Path(__file__).resolve().parent.parent
SNOWBALL = ROOT / "examples" / "snowball.py"
HZ = 90.0
COUNTS = (2, 8, 16)
PER_PROCESS = 4  # clients a process
LOCAL_EVERY = 2  # host steps a local step
# where seat n starts (the n-th spawn): four columns, four rows on the range's 10 x 30 m floor,
# clear of the first player's place by the pile and of each other's circles
SPAWNS = tuple(SceneSpawn((-3.3 + 2.2 * (n % 4), 0.0, 2.5 - 5.0 * (n // 4))) for n in range(1, 16))
PILE = (0.3, 0.92, -0.3)  # snowball 1, where the first player's right hand grabs it
Triple = tuple[float, float, float]


def walking(t: float, n: int) -> InputFrame:
    """Player `n`'s frame at `t` seconds: a circle of about a metre on the left stick at half
    speed (the stick turning 1.5 rad/s), a snap turn every 2 s on the right, the head looking
    about and both hands waving."""
    theta = 1.5 * t + n
    turn = 1.0 if round(t * HZ) % 180 < 10 else 0.0
    return replace(
        standing_frame(), time=t,
        head=device_pose((0.05 * math.sin(1.3 * t + n), 1.7, 0.05 * math.cos(1.1 * t + n)),
                         0.4 * math.sin(0.7 * t + n)),
        left=hand_input((-0.25 + 0.1 * math.sin(2 * t + n), 1.0 + 0.15 * math.sin(3 * t + n), -0.2),
                        stick=(0.5 * math.sin(theta), 0.5 * math.cos(theta))),
        right=hand_input((0.25, 1.0 + 0.2 * math.sin(3 * t + n), -0.2 - 0.1 * math.cos(3 * t + n)),
                         stick=(turn, 0.0)),
    )  # fmt: skip


def holding(t: float) -> InputFrame:
    """The first player's frame at `t` seconds (at the scene's start, by the pile): the right
    hand on snowball 1, gripping from 0.3 s; from 0.6 s lifting it and waving it in a loop in
    front of the body; from 1 s walking a circle away from the pile's table (backwards first,
    to the left), holding it throughout."""
    wave = max(t - 0.6, 0.0)
    lift = min(wave / 0.4, 1.0)
    theta = 1.5 * max(t - 1.0, 0.0) + math.pi
    stick = (0.5 * math.sin(theta), 0.5 * math.cos(theta)) if t >= 1.0 else (0.0, 0.0)
    return replace(
        standing_frame(), time=t,
        left=hand_input((-0.2, 0.9, -0.1), stick=stick),
        right=hand_input((PILE[0] + 0.15 * math.sin(4 * wave) * lift,
                          PILE[1] + (0.3 + 0.1 * math.sin(6 * wave)) * lift,
                          PILE[2] + 0.15 * (1 - math.cos(4 * wave)) * lift), grip=1.0 * (t >= 0.3)),
    )  # fmt: skip


class Ahead:
    """Player `n`'s walking frames for the local world, each made before the step that plays
    it (:meth:`prepare`), outside the step's timing: the host's frames are made from the
    network's bytes on Zenoh's thread, not in its step. Stamped as a :class:`NetSource`'s."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.frame = walking(0.0, n)

    @property
    def duration(self) -> float | None:
        return None

    def prepare(self, t: float) -> None:
        self.frame = walking(t, self.n)

    def sample(self, time: float) -> InputFrame:
        return replace(self.frame, time=time)


def _endpoint() -> str:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return f"tcp/127.0.0.1:{probe.getsockname()[1]}"


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[round(q * (len(ordered) - 1))] if ordered else float("nan")


class Go:
    """Set when the benchmark's process says ``go`` on this client process's stdin: the
    measured window starts. What follows the word (a held snowball's name, to a watcher) is
    kept as `said`."""

    def __init__(self) -> None:
        self.event = threading.Event()
        self.said = ""
        threading.Thread(target=self._listen, daemon=True).start()

    def _listen(self) -> None:
        self.said = sys.stdin.readline().partition(" ")[2].strip()
        self.event.set()


def _walkers(endpoint: str, first: int, count: int, seconds: float) -> None:
    """A client process of a match: players `first` to `first + count - 1`, seated one after
    another; player 0 plays the snowball trace once the window starts, the others walk from
    the moment they sit. Prints ``ready``, waits for ``go``, measures `seconds`, prints each
    client's figures as one JSON line."""
    clients: list[Client] = []
    stop = threading.Event()
    try:
        for n in range(first, first + count):
            client = Client(Network("bench", connect=[endpoint]), f"p{n}")
            clients.append(client)
            client.wait_for_host(30.0)
            client.wait_for_seat(30.0)
        walkers = [(n, c) for n, c in enumerate(clients, first) if n > 0]
        steps = [0]

        def send() -> None:
            steps[0] += 1
            for n, client in walkers:
                client.send(steps[0], walking(steps[0] / HZ, n))

        walk = threading.Thread(target=lambda: paced(send, HZ, None, stop.is_set))
        walk.start()
        go = Go()
        print("ready", flush=True)
        go.event.wait()
        before = [(c.sent, c.received, len(c.round_trips)) for c in clients]
        start = time.perf_counter()
        end = start + seconds  # real time, should the player's world fall behind
        if first == 0:
            play(
                clients[0], SNOWBALL, None, seconds=seconds, stop=lambda: time.perf_counter() >= end
            )
        time.sleep(max(end - time.perf_counter(), 0.0))
        elapsed = time.perf_counter() - start
        reports = []
        for client, (sent, received, trips) in zip(clients, before, strict=True):
            with client._lock:
                reports.append({
                    "up": (client.sent - sent) / elapsed,
                    "down": (client.received - received) / elapsed,
                    "trips": client.round_trips[trips:], "held": client.host_held[trips:],
                })  # fmt: skip
        print(json.dumps(reports), flush=True)
    finally:
        stop.set()
        for client in clients:
            client.close()


def _impaired(endpoint: str, role: str, profile: str, seconds: float) -> None:
    """A client process under `profile`, a real client world: the ``holder`` (player 0,
    :func:`holding`) or the ``watcher`` (player 1, :func:`walking`). Prints ``ready`` once it
    holds the snowball (the holder) or has the host's bodies (the watcher), waits for ``go``
    (with the held snowball's name), walks `seconds` more, and prints its corrections and,
    the watcher, each frame's drawn host time and the snowball's drawn position."""
    holder = role == "holder"
    impairment = replace(PROFILES[profile], seed=1 if holder else 2)
    client = Client(Network("bench", connect=[endpoint]), role, impairment)
    try:
        client.wait_for_host(30.0)
        client.wait_for_seat(30.0)
        replay = prepare_replay(SNOWBALL, None)
        assert replay.example is not None
        script: Callable[[float], InputFrame] = holding if holder else lambda t: walking(t, 1)
        world, _ = build_world(replay.scene, ScriptedSource(script), HZ, replay.seed,
                               [client.plugin, replay.example.build])  # fmt: skip
        rig = local_rig(world)
        assert rig is not None
        go = Go()
        ready = False
        while not go.event.is_set():
            paced(lambda: world.step(1), HZ, 9, None)
            if not ready and (world.get(rig.right_hand, Holding).object is not None
                              if holder else client.remote.names):  # fmt: skip
                print("ready", flush=True)
                ready = True
        own = world.resource(OwnBody)
        corrections, turns = own.corrections, own.turn_corrections
        names = {prop.name: e for e, (prop,) in world.query(Prop)}
        entity = names.get(go.said)
        samples: list[tuple[float, Triple]] = []

        def step() -> None:
            world.step(1)
            pose = None if entity is None else world.resource(DrawnPoses).pose(entity)
            if pose is not None and not holder:
                p = pose.position
                samples.append((client.remote.drawn, (p.x, p.y, p.z)))

        end = time.perf_counter() + seconds  # real time: a world behind walks fewer steps
        steps = paced(step, HZ, None, lambda: time.perf_counter() >= end)
        print(json.dumps({
            "corrections": own.corrections - corrections, "turns": own.turn_corrections - turns,
            "steps": steps, "samples": samples,
        }), flush=True)  # fmt: skip
    finally:
        client.close()


class Clients:
    """The client processes of one run: started in turns (each waits until the one before
    said ``ready``: seats go in the order players come), told ``go`` together, their JSON
    line read back (among Zenoh's log, which shares their stdout: one pipe, read to the end)."""

    def __init__(self, endpoint: str, seconds: float) -> None:
        self.endpoint = endpoint
        self.seconds = seconds
        self.processes: list[subprocess.Popen[str]] = []
        self.readied = 0  # the processes heard ``ready`` from, in the order started

    def start(self, *args: str) -> None:
        command = [sys.executable, __file__, "--seconds", str(self.seconds), "--client"]
        self.processes.append(subprocess.Popen(
            [*command, self.endpoint, *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT, text=True,
        ))  # fmt: skip

    def ready(self) -> None:
        """Wait until every process started said ``ready``."""
        for process in self.processes[self.readied :]:
            assert process.stdout is not None
            said = []
            while (line := process.stdout.readline()) and line.strip() != "ready":
                said.append(line)
            if not line:
                process.wait(timeout=60)
                raise SystemExit(f"a client failed ({process.returncode}):\n{''.join(said)}")
            self.readied += 1

    def go(self, said: str = "") -> list[Any]:
        """Start every process's window; what each printed last, once they are done."""
        for process in self.processes:
            assert process.stdin is not None
            process.stdin.write(f"go {said}\n")
            process.stdin.flush()
        reports = []
        for process in self.processes:
            out, _ = process.communicate(timeout=2 * self.seconds + 60)
            if process.returncode != 0:
                raise SystemExit(f"a client failed ({process.returncode}):\n{out}")
            lines = [line for line in out.splitlines() if line.startswith(("{", "["))]
            reports.append(json.loads(lines[-1]))
        return reports

    def close(self) -> None:
        for process in self.processes:
            if process.poll() is None:
                process.kill()
                process.wait()


def _host(endpoint: str, players: int, keyframe_every: int = 90) -> Host:
    """The match's host, its seats placed by :data:`SPAWNS`."""
    host = Host(SNOWBALL, Network("bench", listen=[endpoint]), players=players,
                keyframe_every=keyframe_every)  # fmt: skip
    host.scene = replace(host.scene, spawns=SPAWNS)
    return host


def _match(players: int, seconds: float, keyframe_every: int = 90) -> dict[str, float]:
    """A host in this process and `players` clients in processes of four, `seconds` of play."""
    endpoint = _endpoint()
    host = _host(endpoint, players, keyframe_every)
    local = prepare_replay(SNOWBALL, None).world()
    first = local.resource(PlayerStart)
    walkers = [Ahead(n) for n in range(1, players)]
    for n, source in enumerate(walkers, 1):
        spawn_player(local, source, player_start_for(host.scene, first, n))
    costs: list[float] = []  # the host's steps beside a local step, in order
    local_costs: list[float] = []
    measuring = threading.Event()
    marks: list[float] = []  # when each host step of the window began

    def timed(run: Callable[[], None]) -> float:
        start = time.thread_time()
        run()
        return time.thread_time() - start

    def step() -> None:
        if not measuring.is_set():
            host.step()
            return
        marks.append(time.perf_counter())
        if len(marks) % LOCAL_EVERY:
            host.step()
            return
        t = local.fixed_time.elapsed + 1.0 / HZ
        for source in walkers:
            source.prepare(t)
        if len(costs) % 2:
            local_costs.append(timed(lambda: local.step(1)))
            costs.append(timed(host.step))
        else:
            costs.append(timed(host.step))
            local_costs.append(timed(lambda: local.step(1)))

    stop = threading.Event()
    hosting = threading.Thread(target=lambda: paced(step, HZ, None, stop.is_set))
    hosting.start()
    clients = Clients(endpoint, seconds)
    try:
        for lead in range(0, players, PER_PROCESS):
            clients.start("walkers", str(lead), str(min(PER_PROCESS, players - lead)))
            if lead == 0:
                clients.ready()  # player 0 sits by the pile: seated first
        clients.ready()
        measuring.set()
        start = time.perf_counter()
        reports = [r for process in clients.go() for r in process]
        measuring.clear()
    finally:
        stop.set()
        hosting.join()
        clients.close()
        host.close()
    trips = [t * 1000.0 for r in reports for t in r["trips"]]
    network = [
        (t - h) * 1000.0 for r in reports for t, h in zip(r["trips"], r["held"], strict=True)
    ]
    host_ms = statistics.median(costs) * 1000.0
    local_ms = statistics.median(local_costs) * 1000.0
    # the first world stepped after the pacing's sleep finds the caches cold: by order
    host_first = statistics.median(costs[0::2]) / statistics.median(local_costs[0::2])
    local_first = statistics.median(costs[1::2]) / statistics.median(local_costs[1::2])
    # the rate the host kept over the clients' window; each client's down bytes are states
    # and events, a few a step: at 90 Hz they would be that many times more
    host_hz = sum(start <= mark < start + seconds for mark in marks) / seconds
    down_max = max(r["down"] for r in reports)
    return {
        "up_bytes_per_s": round(statistics.mean(r["up"] for r in reports)),
        "down_bytes_per_s": round(statistics.mean(r["down"] for r in reports)),
        "down_bytes_per_s_max": round(down_max),
        "down_bytes_per_s_max_at_90hz": round(down_max * HZ / host_hz),
        "input_to_state_ms_median": round(statistics.median(trips), 2),
        "input_to_state_ms_p99": round(_percentile(trips, 0.99), 2),
        "network_ms_median": round(statistics.median(network), 3),
        "network_ms_p99": round(_percentile(network, 0.99), 3),
        "host_step_ms": round(host_ms, 3),
        "local_step_ms": round(local_ms, 3),
        "host_over_local": round(host_ms / local_ms, 2),
        "host_over_local_host_first": round(host_first, 2),
        "host_over_local_local_first": round(local_first, 2),
        "host_hz": round(host_hz, 1),
    }


def _held(world: World) -> tuple[str | None, Triple]:
    """What player 0's right hand holds in `world` (its name; None when nothing) and where."""
    rig = player_rig(world, 0)
    entity = None if rig is None else world.get(rig.right_hand, Holding).object
    if entity is None or not world.has(entity, Prop):
        return None, (0.0, 0.0, 0.0)
    p = world.get(entity, Transform).position
    return world.get(entity, Prop).name, (p.x, p.y, p.z)


def _internet(profile: str, seconds: float) -> dict[str, float]:
    """Two players under `profile` for `seconds` of walking: their corrections, and the held
    snowball on the second one's screen against the host's (see the module)."""
    endpoint = _endpoint()
    host = _host(endpoint, 2)
    truth: list[tuple[float, str | None, Triple]] = []  # host time, held snowball, where
    played: list[tuple[float, int, int]] = []  # after each step: when, and the queues' counts

    def step() -> None:
        host.step()
        truth.append((host.world.fixed_time.elapsed, *_held(host.world)))
        played.append((time.perf_counter(), *_queues(host)))

    stop = threading.Event()
    hosting = threading.Thread(target=lambda: paced(step, HZ, None, stop.is_set))
    hosting.start()
    clients = Clients(endpoint, seconds)
    try:
        clients.start("holder", profile)
        clients.ready()
        clients.start("watcher", profile)
        clients.ready()
        deadline = time.monotonic() + 10.0
        while (held := truth[-1][1] if truth else None) is None and time.monotonic() < deadline:
            time.sleep(0.05)
        if held is None:
            raise SystemExit(f"{profile}: the host's first player holds nothing")
        start = time.perf_counter()
        reports = clients.go(held)
    finally:
        stop.set()
        hosting.join()
        clients.close()
        host.close()
    # the queues over the clients' window (not after: a client closing sends no more)
    window = [p for p in played if start <= p[0] < start + seconds]
    held_frames, skipped = (window[-1][k] - window[0][k] for k in (1, 2))
    walked = [r["steps"] / HZ for r in reports]  # seconds of walking in each client's world
    per_10s = [10.0 * r["corrections"] / w for r, w in zip(reports, walked, strict=True)]
    turns_per_10s = [10.0 * r["turns"] / w for r, w in zip(reports, walked, strict=True)]
    return {
        "corrections_per_10s": round(max(per_10s), 2),
        "turn_corrections_per_10s": round(max(turns_per_10s), 2),
        **_drawn_against_true(reports[1]["samples"], truth, held),
        "client_hz_min": round(min(walked) * HZ / seconds, 1),
        "host_held_frames_per_s": round(held_frames / 2 / seconds, 2),
        "host_skipped_frames_per_s": round(skipped / 2 / seconds, 2),
    }


def _queues(host: Host) -> tuple[int, int]:
    """The host steps that held a player's last frame (none had come), and the frames it
    never played (every copy lost, or dropped to catch up), both players together so far."""
    with host.lock:
        queues = list(host.queues.values())
    return sum(q.starved for q in queues), sum(q.skipped for q in queues)


def _drawn_against_true(
    samples: list[tuple[float, Triple]], truth: list[tuple[float, str | None, Triple]], held: str
) -> dict[str, float]:
    """Over the frames drawn for a host time when the host's first player held `held`, in
    centimetres: the largest frame-to-frame change of drawn minus true (and its 99th
    percentile: the largest comes of a rare coincidence, a state lost just where the host's
    own object jumped), the largest error, the largest frame-to-frame move of the drawn
    position, and of the true one (the host's own motion: input it held, then skipped, shows
    there); and how many frames that was."""
    times = [t for t, _, _ in truth]
    jumps, errors, moved, truly = [], [], [], []
    last: tuple[Triple, Triple] | None = None  # the frame before: drawn, error
    for when, drawn in samples:
        i = bisect.bisect_right(times, when)
        if i == 0 or i == len(times) or truth[i - 1][1] != held or truth[i][1] != held:
            last = None
            continue
        (t0, _, a), (t1, _, b) = truth[i - 1], truth[i]
        f = (when - t0) / (t1 - t0)
        off = _minus(drawn, (a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f,
                             a[2] + (b[2] - a[2]) * f))  # fmt: skip
        errors.append(math.dist(off, (0.0, 0.0, 0.0)))
        if last is not None:
            jumps.append(math.dist(off, last[1]))
            moved.append(math.dist(drawn, last[0]))
            truly.append(math.dist(_minus(drawn, off), _minus(*last)))
        last = (drawn, off)
    return {
        "held_jump_cm": round(max(jumps) * 100.0, 2),
        "held_jump_cm_p99": round(_percentile(jumps, 0.99) * 100.0, 2),
        "held_error_cm": round(max(errors) * 100.0, 2),
        "held_step_cm": round(max(moved) * 100.0, 2),
        "held_true_step_cm": round(max(truly) * 100.0, 2),
        "held_frames": len(errors),
    }


def _minus(a: Triple, b: Triple) -> Triple:
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2])


def _table(title: str, columns: dict[str, dict[str, float]]) -> None:
    print(f"{title:<28}" + "".join(f"{name:>14}" for name in columns))
    for key in next(iter(columns.values())):
        print(f"  {key:<26}" + "".join(f"{figures[key]:>14}" for figures in columns.values()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="each match's window")
    parser.add_argument("--walk", type=float, default=60.0, help="each profile's walk, seconds")
    parser.add_argument("--counts", default=",".join(map(str, COUNTS)), help="players a match")
    parser.add_argument("--profiles", default=",".join(PROFILES), help="internet profiles")
    parser.add_argument("--client", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.client is not None:
        endpoint, role, *rest = args.client
        if role == "walkers":
            _walkers(endpoint, int(rest[0]), int(rest[1]), args.seconds)
        else:
            _impaired(endpoint, role, rest[0], args.seconds)
        return
    counts = [int(n) for n in args.counts.split(",") if n]
    profiles = [p for p in args.profiles.split(",") if p and p != "none"]
    unknown = [p for p in profiles if p not in PROFILES]
    if unknown:
        parser.error(f"unknown profiles {', '.join(unknown)}: choose of {', '.join(PROFILES)}")
    result: dict[str, object] = {"fixed_hz": HZ, "seated": "every client"}
    if 2 in counts:
        full = _match(2, args.seconds, keyframe_every=1)
        result["full_state_down_bytes_per_s"] = full["down_bytes_per_s"]
        result["full_state_host_over_local"] = full["host_over_local"]
        print(f"full state, 2 players: {full['down_bytes_per_s']} B/s down a client, "
              f"host over local {full['host_over_local']}")  # fmt: skip
    matches = {f"{n} players": _match(n, args.seconds) for n in counts}
    internet = {name: _internet(name, args.walk) for name in profiles}
    for n, figures in zip(counts, matches.values(), strict=True):
        result.update({f"players_{n}_{key}": value for key, value in figures.items()})
    for name, figures in internet.items():
        prefix = name.replace("-", "_")
        result.update({f"{prefix}_{key}": value for key, value in figures.items()})
    if matches:
        _table("loopback", matches)
    if internet:
        _table(f"internet ({args.walk:g} s walk)", internet)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
