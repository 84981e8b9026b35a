"""The snowball fight for two (examples/snowball_fight.py): its rules in one world, and the
match on loopback with the host playing seat 0 itself (``playspace host --play``), a client
in seat 1, both from scripted traces made here."""

from __future__ import annotations

import importlib.util
import io
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest
from moderngl import Context

from playspace.app import build_world, load_target, telemetry_events
from playspace.app.spawn import player_start_for
from playspace.components.input import InputFrame
from playspace.components.scene import PlayerStart
from playspace.ecs import World
from playspace.formats.scene import Scene, load_scene
from playspace.formats.telemetry import parse_telemetry
from playspace.loops.replay import run_headless
from playspace.net import Client, Host, Impairment, Network, play
from playspace.net.session import paced
from playspace.render import Renderer, add_standard_passes
from playspace.render.capture import Offscreen, eye_view
from playspace.systems.audio import AudioPlugin, render
from playspace.systems.audio.engine import RATE
from playspace.systems.drawn import place_drawn
from playspace.systems.input import ReplaySource, Trace, write_trace
from playspace.systems.input.velocities import with_velocities
from playspace.systems.player import Arrival, Roster
from playspace.systems.telemetry import TelemetryPlugin
from tests.cli_helpers import ROOT, playspace
from tests.needs import need_program

FIGHT = ROOT / "examples" / "snowball_fight.py"
SCORED = "score: player 0: 1, player 1 (bob): 1; hits on players 1, on targets 1"


def _traces() -> ModuleType:
    """examples/traces/make_traces.py, whose throw the scripts below share."""
    spec = importlib.util.spec_from_file_location("make_traces", ROOT / "examples" / "traces"
                                                  / "make_traces.py")  # fmt: skip
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


TRACES = _traces()
Script = Callable[[float], InputFrame]


def at_the_other(at: float) -> Script:
    """Player 0's throw, `at` seconds in: straight ahead at the other player, 9 m off."""
    return lambda t: TRACES.throw(t, (0.0, -1.0), 12.0, 13.0, at)


def at_a_target(at: float) -> Script:
    """Player 1's throw, `at` seconds in: ahead and to the right, at the west target."""
    return lambda t: TRACES.throw(t, (3.5, -4.5), 15.0, 9.0, at)


def aside(t: float) -> InputFrame:
    """Player 1 steps 1.5 m to their left, behind the north wall, and stands there."""
    return TRACES.player((-1.5 * min(t, 1.0), TRACES.HEIGHT, 0.0))  # type: ignore[no-any-return]


def _trace(script: Script, seconds: float) -> Trace:
    """A script sampled as a headset would be (72 Hz), with the hands' velocities."""
    return with_velocities(Trace(tuple(TRACES.frames(script, seconds))))


def _events(telemetry: str, kind: str = "snowball_hit") -> list[dict[str, Any]]:
    steps = parse_telemetry(telemetry).steps
    return [e for step in steps for e in step["events"] if e["type"] == kind]


def _fight(first: Script, second: Script, scene: Scene | None = None) -> tuple[World, str]:
    """Both players in one world (the second through the roster, at the [[spawn]], as a
    host adds them), 4 s: the world and its telemetry."""
    loaded, example = load_target(FIGHT)
    assert example is not None
    scene = scene or loaded
    out = io.StringIO()
    world, _ = build_world(
        scene, ReplaySource(_trace(first, 4.0)), 90.0, 0,
        [TelemetryPlugin(out, telemetry_events()), example.build],
    )  # fmt: skip
    start = player_start_for(scene, world.resource(PlayerStart), 1)
    world.resource(Roster).arriving.append(Arrival(ReplaySource(_trace(second, 4.0)), start, "bob"))
    world.step(360)
    return world, out.getvalue()


def _summary(world: World) -> str:
    _, example = load_target(FIGHT)
    assert example is not None and example.summary is not None
    return example.summary(world)


def test_each_throw_scores_for_the_player_whose_hand_let_it_go() -> None:
    """Player 0's snowball strikes player 1, player 1's the west target: a point each, each
    to the thrower, said by one snowball_hit each."""
    world, telemetry = _fight(at_the_other(0.5), at_a_target(0.5))
    hits = sorted(_events(telemetry), key=lambda e: e["thrower"])
    assert [(e["thrower"], e["target"], e["player_hit"]) for e in hits] == [
        (0, None, 1), (1, "target west", None)]  # fmt: skip
    assert _summary(world) == SCORED


def test_a_snowball_stopped_by_the_wall_scores_nothing() -> None:
    """Player 1 stands behind the north wall; player 0's low throw at them strikes the wall.
    The same throw with the wall taken away strikes them (the control)."""
    low = lambda t: TRACES.throw(t, (1.5, -9.0), 8.0, 13.0, 0.5)  # noqa: E731
    world, telemetry = _fight(low, aside)
    assert _events(telemetry) == [] and world.resource(Roster).names == {1: "bob"}
    scene, _ = load_target(FIGHT)
    text = scene.path.read_text()
    without = "[[box]]".join(b for b in text.split("[[box]]") if '"wall north"' not in b)
    assert without != text
    opened = Path(scene.path.parent / "snowball_fight_open.toml")
    try:
        opened.write_text(without)
        _, telemetry = _fight(low, aside, load_scene(opened))
    finally:
        opened.unlink()
    assert [(e["thrower"], e["player_hit"]) for e in _events(telemetry)] == [(0, 1)]


def leaning(to: float) -> Script:
    """Player 1 walks round behind their pile's table, to its west end, then leans east over
    it, their head to `to` metres from where they started (1.2: not leaning): the table holds
    their body back, so their head is out in the open, 0.57 m from their body."""

    def lean(t: float) -> InputFrame:
        across = 1.2 * TRACES.ramp(t, 0.0, 0.8) - (1.2 - to) * TRACES.ramp(t, 1.6, 0.6)
        ahead = 0.55 * TRACES.ramp(t, 0.9, 0.6)
        return TRACES.player((across, TRACES.HEIGHT, -ahead))  # type: ignore[no-any-return]

    return lean


@pytest.mark.parametrize(("to", "hits"), [(0.6, [(0, 1)]), (1.2, [])], ids=["leaning", "back"])
def test_a_fast_snowball_through_the_head_alone_scores(
    to: float, hits: list[tuple[int, int]]
) -> None:
    """Player 1 leans out over the table; player 0's fast throw (the hand at 12 m/s) passes
    through their head and wide of their body: a point, for the head alone (a sensor sphere of
    the rig's head radius). Not leaning (the control), the same throw flies past their head."""
    throw = lambda t: TRACES.throw(t, (-0.097, -1.0), 19.5, 12.0, 0.8)  # noqa: E731
    _, telemetry = _fight(throw, leaning(to))
    assert [(e["thrower"], e["player_hit"]) for e in _events(telemetry)] == hits


def test_a_snowball_thrown_up_that_falls_on_the_thrower_scores_nothing() -> None:
    """Player 0 throws a snowball straight up (84 degrees, the hand at 5 m/s); it comes down
    through their own head's sensor and onto their body: no point, for anyone."""
    up = lambda t: TRACES.throw(t, (-0.25, -0.3), 84.0, 5.0, 0.5)  # noqa: E731
    _, telemetry = _fight(up, aside)
    assert _events(telemetry) == []


def _endpoint() -> str:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return f"tcp/127.0.0.1:{probe.getsockname()[1]}"


def _wait(condition: Callable[[], bool], seconds: float) -> None:
    end = time.monotonic() + seconds
    while not condition() and time.monotonic() < end:
        time.sleep(0.02)


def _hits_heard(client: Client) -> list[dict[str, Any]]:
    return [e for step in client.events for e in step.events if e["type"] == "snowball_hit"]


def test_the_host_plays_seat_0_and_a_joiner_named_as_the_host_is_refused() -> None:
    """With the host playing, remote players take seats 1 and up: of two seats, Bob gets
    seat 1 and Carol waits; one calling themselves the host's name gets nothing."""
    endpoint = _endpoint()
    host = Host(FIGHT, Network("s", listen=[endpoint]), play=ReplaySource(_trace(aside, 1.0)))
    peer = Network("s", connect=[endpoint]).open()
    try:
        tokens = [peer.liveliness().declare_token(f"playspace/s/players/{name}/c-{name}")
                  for name in ("bob", "carol", "host")]  # fmt: skip
        _wait(lambda: sum(host.refused.values()) >= 2, 5.0)
        host.step()
        assert {name: seat.index for name, seat in host.seats.items()} == {"bob": 1}
        assert host.seats["bob"].number == 1
        assert host.refused == {"full": 1, "name": 1}
        for token in tokens:
            token.undeclare()  # type: ignore[no-untyped-call]
    finally:
        peer.close()  # type: ignore[no-untyped-call]
        host.close()


def test_the_host_s_player_hears_the_match_and_sound_changes_nothing_in_it() -> None:
    """A host that plays is given its player's sound (``playspace host --play`` gives it the
    speakers; here the memory output a test listens to): the throw is heard, and the same
    match without sound writes the same telemetry to the byte."""
    trace = _trace(at_the_other(1.0), 2.5)
    told: dict[bool, str] = {}
    heard: list[np.ndarray] = []
    for sound in (True, False):
        telemetry = io.StringIO()
        plugins = [AudioPlugin(output="memory")] if sound else []
        host = Host(FIGHT, Network(f"h{int(sound)}", listen=[_endpoint()]),
                    play=ReplaySource(trace), telemetry=telemetry, plugins=plugins)  # fmt: skip
        try:
            for _ in range(225):
                host.step()
                if sound:
                    heard.append(render(host.world, RATE // 90))
        finally:
            host.close()
        told[sound] = telemetry.getvalue()
    assert told[True] == told[False]
    assert _events(told[True], "released")  # the throw happened...
    assert np.abs(np.concatenate(heard)).max() > 0.05  # ...and was heard


def test_the_host_s_player_plays_through_the_sound_device_it_is_given(xvfb: str) -> None:
    """``playspace host --play --audio-device``: the name reaches the sound of the host's
    player in the window; on OpenAL's null device a name that is not there is said, with the
    names that are."""
    env = {**os.environ, "DISPLAY": xvfb, "ALSOFT_DRIVERS": "null"}
    done = playspace("host", FIGHT, "--play", "--listen", _endpoint(), "--seconds", "1",
                     "--audio-device", "Valve Index", env=env)  # fmt: skip
    assert done.returncode == 0, done.stderr
    said = "no sound device named 'Valve Index' (there are: No Output)"
    assert said in done.stderr, done.stdout + done.stderr


@pytest.mark.slow
def test_a_match_under_delay_and_loss_scores_the_same_on_both_ends(tmp_path: Path) -> None:
    """The host plays seat 0 from a trace in its own thread, stepping in real time; Bob plays
    from his, his messages delayed up to 150 ms and 10 % of input and state lost. The host
    scores 1-1; Bob heard the same two points and shows the host's score line; the match's
    recording replays to the host's telemetry byte for byte."""
    endpoint, record, telemetry = _endpoint(), tmp_path / "match.jsonl", io.StringIO()
    mine = ReplaySource(_trace(at_the_other(1.0), 4.0))
    host = Host(FIGHT, Network("f", listen=[endpoint]), play=mine, record=record,
                telemetry=telemetry, playout=18)  # fmt: skip
    bob_trace = tmp_path / "bob.jsonl"
    write_trace(bob_trace, _trace(at_a_target(0.5), 4.0).samples)
    client = Client(Network("f", connect=[endpoint]), "bob", Impairment(0.15, 0.1, seed=5))
    hosted = threading.Event()

    def hosting_steps() -> None:
        paced(host.step, 90.0, 360, None)  # 4 s in real time, as `playspace host` steps
        hosted.set()

    hosting = threading.Thread(target=hosting_steps)
    try:
        client.wait_for_host()
        _wait(lambda: "bob" in host.seats, 5.0)
        hosting.start()
        play(client, FIGHT, bob_trace, seconds=5.0, stop=hosted.is_set)
        hosting.join()
        time.sleep(0.5)  # the last state and events on their way
    finally:
        client.close()
        host.close()
    assert _summary(host.world) == SCORED
    assert client.remote.score == SCORED
    assert _hits_heard(client) == _events(telemetry.getvalue())
    replayed = io.StringIO()
    run_headless(FIGHT, record, replayed)
    assert replayed.getvalue() == telemetry.getvalue()


@pytest.mark.slow
def test_playspace_host_play_trace_and_a_joiner_fight_from_two_terminals(tmp_path: Path) -> None:
    """``playspace host examples/snowball_fight.py --play --trace`` in one process, Bob
    joining in another: the host's summary is 1-1, Bob's client shows it, and the host's
    recording replays to its telemetry byte for byte (``playspace run --headless``)."""
    mine, bob = tmp_path / "host-player.jsonl", tmp_path / "bob.jsonl"
    # the host's player throws 3 s in: Bob's client, started once the host says it is
    # hosting, may take seconds to come on a loaded machine
    write_trace(mine, _trace(at_the_other(3.0), 5.0).samples)
    write_trace(bob, _trace(at_a_target(0.5), 3.0).samples)
    endpoint, telemetry, record = _endpoint(), tmp_path / "host.jsonl", tmp_path / "rec.jsonl"
    command = [sys.executable, "-m", "playspace.cli", "host", str(FIGHT), "--play", "--trace",
               str(mine), "--session", "c", "--listen", endpoint, "--telemetry", str(telemetry),
               "--record", str(record), "--playout", "8", "--seconds", "6.5"]  # fmt: skip
    host = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            cwd=ROOT)  # fmt: skip
    client = None
    try:
        assert host.stdout is not None
        assert "playing as host" in host.stdout.readline()
        client = Client(Network("c", connect=[endpoint]), "bob")
        client.wait_for_host()
        play(client, FIGHT, bob, seconds=8.0, stop=lambda: host.poll() is not None)
        out, _ = host.communicate(timeout=30)
        time.sleep(0.2)
    finally:
        if client is not None:
            client.close()
        host.kill()
    assert host.returncode == 0, out
    assert "seated bob in seat 1" in out and "refused messages: none" in out
    assert SCORED in out.splitlines()
    assert client.remote.score == SCORED
    assert _hits_heard(client) == _events(telemetry.read_text())
    replayed = tmp_path / "replayed.jsonl"
    run = playspace("run", FIGHT, "--headless", "--trace", record, "--telemetry", replayed)
    assert run.returncode == 0, run.stderr
    assert replayed.read_bytes() == telemetry.read_bytes()


@pytest.mark.parametrize("flag", ["--trace", "--player"])
def test_host_options_for_playing_need_play(flag: str) -> None:
    done = playspace("host", FIGHT, flag, "x")
    assert (
        done.returncode == 2 and f"{flag} is for a host that plays too: add --play" in done.stderr
    )


@pytest.mark.parametrize("shown", [True, False], ids=["avatars", "control"])
def test_the_host_player_sees_the_other_player_across_the_field(gl: Context, shown: bool) -> None:
    """In the host's own view (its window draws the host's world), Bob stands 9 m ahead, drawn
    as a client draws another player: his body, head and hands in the opponents' color,
    across the middle of the picture. Without the avatars (the control) his rig shows
    nothing there: a body capsule is never drawn."""
    endpoint = _endpoint()
    host = Host(FIGHT, Network("v", listen=[endpoint]), play=ReplaySource(_trace(aside, 0.5)))
    peer = Network("v", connect=[endpoint]).open()
    renderer = add_standard_passes(Renderer(gl))
    target = Offscreen(gl, (320, 180))
    try:
        token = peer.liveliness().declare_token("playspace/v/players/bob/c-bob")
        _wait(lambda: "bob" in host.seats, 5.0)
        if shown:
            host.show_players()
        host.world.step(3)
        place_drawn(host.world, alpha=1.0)
        renderer.prepare(host.world)
        renderer.draw(eye_view(host.world, target.aspect), target.framebuffer)
        picture = target.read().astype(int)
        token.undeclare()  # type: ignore[no-untyped-call]
    finally:
        target.release()
        renderer.release()
        peer.close()  # type: ignore[no-untyped-call]
        host.close()
    r, g, b = picture[..., 0], picture[..., 1], picture[..., 2]
    yellow = (r > 180) & (g > 150) & (b < 100)  # the opponents' color, lit; nothing else is
    seen = int(yellow[:, 140:180].sum())  # straight ahead, where Bob stands
    assert (seen > 30) if shown else (seen == 0), seen


@pytest.mark.slow
def test_playspace_host_play_hosts_from_the_preview_windows_loop() -> None:
    """``playspace host --play`` without a trace: the preview window's loop steps the world,
    and so hosts the match: a watcher hears states that step on, naming the host's player in
    seat 0, until the window's run ends."""
    need_program("xvfb-run", "xvfb xauth")
    need_program("xauth", "xauth")
    endpoint = _endpoint()
    command = ["xvfb-run", "-a", "-s", "-screen 0 640x480x24", sys.executable, "-m",
               "playspace.cli", "host", str(FIGHT), "--play", "--session", "w", "--listen",
               endpoint, "--seconds", "3"]  # fmt: skip
    host = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            cwd=ROOT)  # fmt: skip
    watcher = Client(Network("w", connect=[endpoint]), "watcher", observer=True)
    try:
        watcher.wait_for_host(20.0)
        _wait(lambda: len(watcher.remote.states) > 20, 10.0)
        out, _ = host.communicate(timeout=60)
    finally:
        watcher.close()
        host.kill()
    assert host.returncode == 0, out
    assert "playing as host" in out and " fixed steps hosted" in out
    steps = [state.step for _, state in watcher.remote.states]
    assert len(steps) > 20 and steps[-1] - steps[0] > 20  # stepping on, frame after frame
    assert watcher.remote.seated == {0: "host"}
    assert "host/head" in watcher.remote.names.values()
