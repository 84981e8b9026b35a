"""Networked play on loopback: host and client as separate processes, Zenoh on 127.0.0.1 only
(explicit endpoints on a free port, scouting off), a replayed trace driving the client."""

from __future__ import annotations

import itertools
import json
import math
import socket
import struct
import subprocess
import sys
import threading
import time
from dataclasses import replace
from pathlib import Path

import pytest
import zenoh
from cli_helpers import ROOT, playspace
from pyglm import glm

from playspace.components import Transform
from playspace.components.drawn import DrawnPoses
from playspace.components.input import InputFrame
from playspace.components.rig import Rig, ViewFade
from playspace.components.scene import Prop
from playspace.ecs import Phase, World
from playspace.loops.replay import prepare_replay
from playspace.net import (
    Client,
    Correction,
    Host,
    Impairment,
    InputQueue,
    Network,
    OwnBody,
    RemoteDrawn,
    RemoteView,
    State,
    WireError,
    decode_input,
    decode_state,
    draw_remote,
    encode_input,
    play,
)
from playspace.net.client import BLEND
from playspace.net.correction import BodyCorrected, add_correction, decide
from playspace.net.session import paced
from playspace.net.wire import encode_state
from playspace.spatial import Pose, Vec3, identity, vec3
from playspace.systems.input import TraceWriter, hand_input, standing

SNOWBALL = ROOT / "examples" / "snowball.py"
TRACE = ROOT / "examples" / "traces" / "snowball.jsonl"
HITS = "target hits: target 5m: 1"  # what the trace does played locally
TICKET = bytes(16)


def _endpoint() -> str:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return f"tcp/127.0.0.1:{probe.getsockname()[1]}"


def _command(*args: str | Path) -> list[str]:
    return [sys.executable, "-m", "playspace.cli", *map(str, args)]


def _match(tmp_path: Path, *join_options: str, playout: int = 8) -> tuple[str, Path, Path]:
    """A host and a client playing the snowball trace, each its own process: the host's
    output, its telemetry and its recording. The host waits 10 s and plays 8 frames behind
    (90 ms): on a loaded 2-core machine a client takes seconds to start, and its frames arrive
    in bursts; a frame that came too late would be skipped and change the throw."""
    endpoint, telemetry, record = _endpoint(), tmp_path / "host.jsonl", tmp_path / "rec.jsonl"
    host = subprocess.Popen(
        _command("host", SNOWBALL, "--session", "t", "--listen", endpoint, "--seconds", "10",
                 "--telemetry", telemetry, "--record", record, "--playout", str(playout)),
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=ROOT,
    )  # fmt: skip
    client = subprocess.run(
        _command("join", SNOWBALL, "--session", "t", "--connect", endpoint, "--player", "alice",
                 "--trace", TRACE, *join_options),
        capture_output=True, text=True, timeout=60, cwd=ROOT, check=False,
    )  # fmt: skip
    out, _ = host.communicate(timeout=60)
    assert client.returncode == 0, client.stderr
    assert host.returncode == 0, out
    return out, telemetry, record


def _replays_to(tmp_path: Path, record: Path, telemetry: Path) -> None:
    replayed = tmp_path / "replayed.jsonl"
    run = playspace("run", SNOWBALL, "--headless", "--trace", record, "--telemetry", replayed)
    assert run.returncode == 0, run.stderr
    assert replayed.read_bytes() == telemetry.read_bytes()


def test_a_match_scores_as_played_locally_and_its_recording_replays_byte_for_byte(
    tmp_path: Path,
) -> None:
    out, telemetry, record = _match(tmp_path)
    assert "joined alice" in out and "left alice" in out
    assert HITS in out
    assert "refused messages: none" in out
    _replays_to(tmp_path, record, telemetry)


def test_under_delay_reordering_and_loss_the_host_sees_the_same_throw(tmp_path: Path) -> None:
    # 150 ms of jitter is about 14 steps at 90 Hz: a playout of 18 frames absorbs it, and the
    # two older frames in each message cover the 10 % that are lost
    out, telemetry, record = _match(tmp_path, "--impair", "150,0.1", playout=18)
    assert HITS in out
    assert "last throw left the hand at 7.3 m/s" in out
    assert "input of alice: 0 frames skipped" in out  # every frame played, in order
    _replays_to(tmp_path, record, telemetry)


def _host(endpoint: str, lines: list[str] | None = None) -> Host:
    said = lines.append if lines is not None else (lambda line: None)
    return Host(SNOWBALL, Network("t", listen=[endpoint]), say=said)


def _peer(endpoint: str) -> zenoh.Session:
    return Network("t", connect=[endpoint]).open()


def _wait(condition: object, seconds: float = 3.0) -> None:
    end = time.monotonic() + seconds
    while not condition() and time.monotonic() < end:  # type: ignore[operator]
        time.sleep(0.02)


def test_hostile_messages_are_refused_counted_and_never_reach_the_world() -> None:
    endpoint = _endpoint()
    host = _host(endpoint)
    peer = _peer(endpoint)
    try:
        token = peer.liveliness().declare_token("playspace/t/players/alice")
        _wait(lambda: host.seat is not None)
        good = encode_input(TICKET, [(1, standing())])
        nan = bytearray(good)
        struct.pack_into("<f", nan, 18 + 12 + 1, math.nan)  # the head's x
        far = hand_input((0.0, 1e6, 0.0))
        for payload in (b"", good[:-1], good + b"\0", bytes(nan)):
            peer.put("playspace/t/input/alice", payload)
        peer.put("playspace/t/input/bob", good)  # a player who has not joined
        peer.put("playspace/t/input/alice", good)  # takes alice's seat for this ticket
        time.sleep(0.2)
        other = encode_input(bytes(range(16)), [(2, standing())])  # another client, alice's key
        peer.put("playspace/t/input/alice", other)
        _wait(lambda: sum(host.refused.values()) >= 6)
        assert host.refused == {"malformed": 4, "unseated": 1, "claimed": 1}
        assert host.seat is not None and list(host.seat.queue.frames) == [1]
        with pytest.raises(WireError, match=r"frame 0\.right\.p"):
            decode_input(encode_input(TICKET, [(1, InputFrame(right=far))]))
        token.undeclare()  # type: ignore[no-untyped-call]
    finally:
        peer.close()  # type: ignore[no-untyped-call]
        host.close()


def test_a_vanished_client_is_removed_within_two_seconds() -> None:
    endpoint = _endpoint()
    lines: list[str] = []
    host = _host(endpoint, lines)
    client = subprocess.Popen(
        _command("join", SNOWBALL, "--session", "t", "--connect", endpoint, "--player", "bob",
                 "--trace", TRACE),
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=ROOT,
    )  # fmt: skip
    try:
        _wait(lambda: host.seat is not None, 20.0)
        assert host.seat is not None and host.seat.player == "bob"
        client.kill()
        killed = time.time()
        _wait(lambda: host.seat is None, 5.0)
        assert host.seat is None
        left = [float(line.split()[-1]) for line in lines if line.startswith("left bob")]
        assert left and left[0] - killed < 2.0
    finally:
        client.kill()
        client.wait()
        host.close()


def test_a_late_joiner_gets_the_current_state_by_query() -> None:
    endpoint, own = _endpoint(), _endpoint()
    host = _host(endpoint)
    client = Client(Network("t", connect=[endpoint], listen=[own]), "carol")
    try:
        for _ in range(5):
            host.step()
        client.wait_for_host()
        newest = client.remote.states[-1][1]
        assert newest.step == 5 and newest.score is not None and "target hits" in newest.score
        assert len(newest.bodies) >= 6 and "snowball 1" in client.remote.names.values()
        peer = Network("t", connect=[endpoint, own]).open()
        (reply,) = peer.get("playspace/t/state/now", timeout=2.0)
        assert reply.ok is not None
        asked = decode_state(reply.ok.payload.to_bytes())
        assert asked.full and asked.bodies == newest.bodies and asked.names is not None
        # someone else, sending what is not state or events
        for key in ("playspace/t/state", "playspace/t/events"):
            peer.put(key, b"\x02garbage")
        _wait(lambda: client.remote.refused and client.refused_events)
        assert (client.remote.refused, client.refused_events) == (1, 1)
        peer.close()  # type: ignore[no-untyped-call]
    finally:
        client.close()
        host.close()


def test_the_input_queue_restores_order_fills_losses_and_catches_up() -> None:
    queue = InputQueue(playout=2)
    frames = {step: InputFrame(time=step / 90) for step in range(1, 12)}
    assert queue.take() is None  # nothing yet: the rig holds
    queue.offer(((2, frames[2]),))
    queue.offer(((1, frames[1]),))  # overtaken, still taken in order
    taken = [queue.take(), queue.take()]
    assert [f.time if f else None for f in taken] == [1 / 90, 2 / 90]
    queue.offer(((4, frames[4]), (5, frames[5])))  # 3 lost with every copy
    assert queue.take() is frames[4] and queue.skipped == 1
    queue.offer(tuple((s, frames[s]) for s in range(6, 12)))  # a burst: fall back to the playout
    assert queue.take() is frames[10] and queue.skipped == 1 + 5  # 5 to 9 dropped


def test_remote_bodies_are_drawn_interpolated_behind_the_newest_state() -> None:
    view = RemoteView(delay=0.05)
    at = [Pose(vec3(x, 0.0, 0.0), identity()) for x in (0.0, 1.0)]
    view.add(State(1, 1.0, {7: at[0]}), arrived=100.0)
    view.add(State(2, 1.1, {7: at[1]}), arrived=100.1)
    assert view.poses(100.1)[7].position.x == pytest.approx(0.5)  # host time 1.1, drawn at 1.05
    assert view.poses(100.2)[7].position.x == pytest.approx(1.0)


def test_a_headless_run_without_networking_does_not_load_zenoh() -> None:
    code = (
        "import sys; from playspace.cli import main; "
        f"main(['run', {str(SNOWBALL)!r}, '--headless', '--seconds', '0.1']); "
        "assert 'zenoh' not in sys.modules"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stderr


def test_a_state_carries_only_what_moved_and_every_nth_carries_everything() -> None:
    endpoint = _endpoint()
    host = Host(SNOWBALL, Network("t", listen=[endpoint]), keyframe_every=5)
    peer = _peer(endpoint)
    states: list[State] = []
    try:
        peer.declare_subscriber("playspace/t/state", lambda s: states.append(
            decode_state(s.payload.to_bytes())))  # fmt: skip
        time.sleep(0.3)
        for _ in range(11):
            host.step()  # nobody plays: the rig stands, the snowballs rest on the pile
        _wait(lambda: len(states) >= 11)
        assert [s.full for s in states] == [True, *[False] * 4, True, *[False] * 4, True]
        everything = len(states[0].bodies)
        assert everything >= 6 and states[0].names is not None
        assert "snowball 1" in states[0].names.values()
        assert all(len(s.bodies) < everything for s in states[6:10])  # at rest: not sent
        assert len(states[10].bodies) == everything and states[9].names is None
    finally:
        peer.close()  # type: ignore[no-untyped-call]
        host.close()


Hosted = list[tuple[float, dict[str, glm.vec3]]]
Seen = list[tuple[float, float, dict[str, tuple[glm.vec3, bool]]]]


def _flight(impairment: Impairment | None, playout: int) -> tuple[Client, Hosted, Seen]:
    """The snowball trace played by a client (in this process, in real time) against a host
    (in a thread): the host's snowballs each step (time, name: position), and each client
    frame's (time, drawn host time, name: (drawn position, drawn from the host))."""
    endpoint = _endpoint()
    host = Host(SNOWBALL, Network("t", listen=[endpoint]), playout=playout)
    client = Client(Network("t", connect=[endpoint]), "dana", impairment)
    hosted: Hosted = []
    seen: Seen = []

    def host_step() -> None:
        host.step()
        world = host.world
        balls = {
            m.name: glm.vec3(world.get(e, Transform).position) for e, (m,) in world.query(Prop)
        }
        hosted.append((world.fixed_time.elapsed, balls))

    def watch(world: World) -> None:
        drawn, remote = world.resource(DrawnPoses), world.resource(RemoteDrawn)
        at = {m.name: (glm.vec3(*drawn.positions[drawn.rows[e]]), e in remote.remote)
              for e, (m,) in world.query(Prop) if e in drawn.rows}  # fmt: skip
        seen.append((time.monotonic(), client.remote.drawn, at))

    def plugin(world: World) -> None:
        world.add_system(watch, phase=Phase.LATE, after=(draw_remote,), reads=(DrawnPoses,))

    stop = False
    hosting = threading.Thread(target=lambda: paced(host_step, 90.0, None, lambda: stop))
    try:
        hosting.start()
        client.wait_for_host()
        replay = prepare_replay(SNOWBALL, None, seconds=4.5)
        world = replay.world([client.plugin, plugin])
        paced(lambda: world.step(1), replay.fixed_hz, replay.steps, None)
        time.sleep(0.5)  # the last events on their way
    finally:
        stop = True
        hosting.join()
        client.close()
        host.close()
    return client, hosted, seen


def _hit_ball(client: Client) -> str:
    hits = [e for step in client.events for e in step.events if e["type"] == "target_hit"]
    assert hits, [e["type"] for step in client.events for e in step.events]
    return client.remote.names[hits[0]["snowball"]]


def _host_at(hosted: Hosted, name: str, when: float) -> glm.vec3 | None:
    for (t0, a), (t1, b) in itertools.pairwise(hosted):
        if t0 <= when <= t1 and name in a and name in b:
            return a[name] + (b[name] - a[name]) * ((when - t0) / (t1 - t0))
    return None


def test_the_client_draws_the_host_snowball_and_hears_its_hit() -> None:
    client, hosted, seen = _flight(None, playout=2)
    ball = _hit_ball(client)
    grabbed = [e for step in client.events for e in step.events if e["type"] == "grab"]
    assert grabbed  # the host's other events come too
    compared, since = 0, None
    for now, when, at in seen:
        from_host = ball in at and at[ball][1]
        since = (since if since is not None else now) if from_host else None
        expected = _host_at(hosted, ball, when)
        if from_host and since is not None and now - since > BLEND and expected is not None:
            assert glm.distance(at[ball][0], expected) < 0.02
            compared += 1
    assert compared > 100  # drawn from the host most of the run, where the host had it


def test_under_delay_and_loss_both_ways_the_flight_stays_smooth_and_the_hit_arrives() -> None:
    client, hosted, seen = _flight(Impairment(delay=0.15, loss=0.1, seed=3), playout=18)
    ball = _hit_ball(client)
    speeds = [
        glm.distance(b[ball], a[ball]) / (t1 - t0)
        for (t0, a), (t1, b) in itertools.pairwise(hosted) if ball in a and ball in b
    ]  # fmt: skip
    fastest = max(speeds)
    assert fastest > 5.0  # it flew
    track = [(now, at[ball]) for now, _, at in seen if ball in at]
    remote = [i for i, (_, (_, from_host)) in enumerate(track) if from_host]
    assert len(remote) > 100
    for (t0, (p0, _)), (t1, (p1, _)) in itertools.pairwise(track):
        assert glm.distance(p1, p0) <= fastest * 1.2 * (t1 - t0) + 0.03
    assert client.links[1].dropped > 0  # state did go missing on the way down


def test_the_host_feet_travel_gated_and_a_correction_is_decided_once() -> None:
    state = State(4, 0.5, {}, echo=3, feet=vec3(1.0, 0.0, -2.0))
    data = encode_state(state)
    assert len(data) - len(encode_state(State(4, 0.5, {}, echo=3))) == 12  # three floats
    assert decode_state(data).feet == vec3(1.0, 0.0, -2.0)
    for bad in (math.nan, math.inf, 1e5):
        hostile = bytearray(data)
        struct.pack_into("<f", hostile, 24, bad)  # the feet's x, after the state's header
        with pytest.raises(WireError, match=r"state\.feet"):
            decode_state(bytes(hostile))
    # the client walked -z 0.03 m a step; the host has it 0.2 m to the right at step 2
    own = OwnBody(lambda: None, lambda: 3)
    own.history = {s: vec3(0.0, 0.0, -0.03 * s) for s in (1, 2, 3)}
    settings = Correction()
    assert decide(own, settings, 2, vec3(0.04, 0.5, -0.06)) is None  # within 5 cm; height
    assert decide(own, settings, 7, vec3(9.0, 0.0, 0.0)) is None  # a step it has no record of
    assert decide(own, settings, 3, vec3(math.nan, 0.0, 0.0)) is None
    by = decide(own, settings, 2, vec3(0.2, 0.0, -0.06))
    assert by is not None and (by.x, by.y, by.z) == pytest.approx((0.2, 0.0, 0.0))
    assert own.history[1].x == 0.0 and own.history[2].x == own.history[3].x == pytest.approx(0.2)
    assert decide(own, settings, 3, vec3(0.2, 0.0, -0.09)) is None  # not corrected twice
    assert own.corrections == 1
    for wrong, match in (({"tolerance": 0.0}, "tolerance"), ({"spread": 0}, "spread"),
                         ({"snap": 0.01}, "snap")):  # fmt: skip
        with pytest.raises(ValueError, match=match):
            Correction(**wrong)


PLAIN = """[scene]
name = "plain"

[player]
position = [0, 0, 0]

[[box]]
name = "floor"
size = [20, 0.2, 20]
position = [0, -0.1, 0]
"""

WINDY = '''"""The plain floor with a strip only the host has: it pushes the body +x at 1 m/s."""
from playspace.components import Transform
from playspace.components.physics import CharacterMotion
from playspace.components.rig import Rig, ViewFade
from playspace.ecs import Phase, World
from playspace.spatial import vec3

SCENE = "plain.toml"


def push(world: World) -> None:
    rig = world.resource(Rig)
    if -2.5 < world.get(rig.body, Transform).position.z < -1.0:
        motion = world.get(rig.body, CharacterMotion)
        motion.carried = motion.carried + vec3(world.fixed_time.dt, 0.0, 0.0)


def build(world: World) -> None:
    world.add_system(push, phase=Phase.FIXED, in_set="game_before_physics", reads=(Rig,),
                     writes=(CharacterMotion,))
'''


def _walk(path: Path) -> None:
    """0.3 s standing, 1.6 s with the left stick forward (2.5 m/s down -Z), 1.2 s standing."""
    with TraceWriter(path, 90.0) as writer:
        for i in range(round(3.1 * 90)):
            frame = standing()
            if 0.3 * 90 <= i < 1.9 * 90:
                frame = replace(frame, left=replace(frame.left, stick=(0.0, 1.0)))
            writer.write(replace(frame, time=i / 90))


def _walk_past_the_push(tmp_path: Path, correction: Correction) -> tuple[Vec3, Vec3, OwnBody]:
    """A host (its own process) whose world pushes the player's body sideways on a strip of
    floor, and a client (this process) without the strip walking across it: where the host's
    body ended, where the client's did, and the client's record of its corrections."""
    (tmp_path / "plain.toml").write_text(PLAIN)
    (tmp_path / "windy.py").write_text(WINDY)
    _walk(tmp_path / "walk.jsonl")
    endpoint, telemetry = _endpoint(), tmp_path / "host.jsonl"
    host = subprocess.Popen(
        _command("host", tmp_path / "windy.py", "--session", "w", "--listen", endpoint,
                 "--telemetry", telemetry, "--playout", "8"),
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=ROOT,
    )  # fmt: skip
    try:
        assert host.stdout is not None and "hosting" in host.stdout.readline()
        client = Client(Network("w", connect=[endpoint]), "erin", correction=correction)
        try:
            client.wait_for_host(30.0)
            world = play(client, tmp_path / "plain.toml", tmp_path / "walk.jsonl")
        finally:
            client.close()
    finally:
        host.terminate()
        host.communicate(timeout=30)
    lines = telemetry.read_text().splitlines()
    hosted = vec3(*json.loads(lines[-1])["body"]["p"])
    own = world.resource(OwnBody)
    return hosted, Vec3(world.get(world.resource(Rig).body, Transform).position), own


@pytest.mark.parametrize("enabled", [True, False], ids=["corrected", "control"])
def test_the_client_corrects_its_body_to_where_the_host_pushed_it(
    tmp_path: Path, enabled: bool
) -> None:
    hosted, mine, own = _walk_past_the_push(tmp_path, Correction(enabled=enabled))
    assert hosted.x > 0.3 and hosted.z < -3.0  # the host's strip pushed it; it walked on
    apart = math.hypot(hosted.x - mine.x, hosted.z - mine.z)
    print(f"correction {'on' if enabled else 'off'}: {apart:.4f} m apart, "
          f"{own.corrections} corrections")  # fmt: skip
    if enabled:
        assert apart < Correction().tolerance and own.corrections > 0
    else:
        assert apart > Correction().tolerance and own.corrections == 0


class _Said:
    """The host's word on the body, as a test puts it; also a reader of the world's events."""

    def __init__(self) -> None:
        self.feet: tuple[int, Vec3] | None = None
        self.steps = itertools.count(1)

    def latest(self) -> tuple[int, Vec3] | None:
        return self.feet

    def step(self) -> int:
        return next(self.steps)  # asked once a step, as the client's input step


@pytest.mark.parametrize(("off", "snapped"), [(0.3, False), (1.5, True)], ids=["spread", "snap"])
def test_a_correction_moves_the_body_and_the_origin_together(
    tmp_path: Path, off: float, snapped: bool
) -> None:
    (tmp_path / "plain.toml").write_text(PLAIN)
    said = _Said()
    replay = prepare_replay(tmp_path / "plain.toml", None, seconds=1.0)
    world = replay.world([lambda w: add_correction(w, Correction(), said.latest, said.step)])
    world.events.subscribe(said, (BodyCorrected,))
    world.step(10)  # standing still: nothing to correct
    rig, own = world.resource(Rig), world.resource(OwnBody)
    body, origin = (world.get(e, Transform) for e in (rig.body, rig.origin))
    was = (Vec3(body.position), Vec3(origin.position))
    step = max(own.history)
    said.feet = (step, own.history[step] + vec3(off, 0.0, 0.0))  # the host has it off to +x
    world.step(1)
    (event,) = world.read_events(BodyCorrected, reader=said)
    assert (event.step, event.snapped) == (step, snapped) and event.by.x == pytest.approx(off)
    moved = off if snapped else off / Correction().spread  # at once, or a part a step
    assert body.position.x - was[0].x == pytest.approx(moved, abs=1e-6)
    assert origin.position.x - was[1].x == pytest.approx(moved, abs=1e-6)
    assert (world.get(rig.head, ViewFade).blink_left > 0.0) == snapped
    world.step(Correction().spread)
    assert body.position.x - was[0].x == pytest.approx(off, abs=1e-6)
    assert origin.position.x - was[1].x == pytest.approx(off, abs=1e-6)
    assert world.read_events(BodyCorrected, reader=said) == []  # corrected once
