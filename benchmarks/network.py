"""What networked play costs on loopback: one host, 2, 4 and 8 clients, each its own process.

The host seats two VR players, a 1v1: the first two clients each play the snowball trace on
their own rig (the second 2 m to the first's right), the others are observers without a rig
that receive the state and the events as a spectator's screen would. Measured for each count:

- bytes a second per client each way at 90 Hz: input up (the mean over the two players;
  observers send none), state and events down (the mean over the clients);
- the true round trip of the players' input: each input frame is stamped when sent, the host
  echoes the newest frame it played in each state, and the client measures until that state
  arrives (median, 99th percentile). Of it, ``host_held`` is the time the frame waited at the
  host (its playout buffer of 2 frames and the fixed step's pacing: a choice, not the network),
  and ``network`` the rest: what Zenoh and the messages add on loopback;
- the host's step (the world, its events, gathering and publishing the state) against the same
  world stepped locally (two players replaying the trace), both as the stepping thread's CPU
  time, taken in turns in the same thread during the match, so both see the same machine (the
  clients' processes share its cores). Which world goes first alternates step by step: the
  first after the pacing's sleep finds the caches cold and costs about a quarter more, which
  ``host_over_local_host_first`` and ``_local_first`` show. ``full_state_*`` is the host
  sending every body in every state (the previous increment), for comparison.

Run: ``python benchmarks/network.py [--seconds S]``. The last line printed is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from playspace.app.replay import prepare_replay, replay_source
from playspace.app.spawn import player_start_for
from playspace.components.scene import PlayerStart
from playspace.formats.scene import load_scene
from playspace.net import Client, Host, Network, play
from playspace.net.session import paced
from playspace.systems.player import spawn_player

ROOT = Path(__file__).resolve().parent.parent
SNOWBALL = ROOT / "examples" / "snowball.py"
COUNTS = (2, 4, 8)
PLAYERS = 2  # seated: the rest of the clients watch


def _endpoint() -> str:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return f"tcp/127.0.0.1:{probe.getsockname()[1]}"


def _client(endpoint: str, name: str, seconds: float, player: bool) -> None:
    """One client process: play the trace (the player) or watch (an observer); print what it
    sent, received and measured as one JSON line."""
    client = Client(Network("bench", connect=[endpoint]), name, observer=not player)
    try:
        client.wait_for_host()
        sent, received, start = client.sent, client.received, time.perf_counter()
        if player:
            play(client, SNOWBALL, None, seconds=seconds)
        else:
            time.sleep(seconds)
        elapsed = time.perf_counter() - start
        with client._lock:
            trips, held = list(client.round_trips), list(client.host_held)
        print(json.dumps({
            "up": (client.sent - sent) / elapsed, "down": (client.received - received) / elapsed,
            "trips": trips, "held": held,
        }))  # fmt: skip
    finally:
        client.close()


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[round(q * (len(ordered) - 1))] if ordered else float("nan")


def _match(clients: int, seconds: float, keyframe_every: int) -> dict[str, float]:
    """A host in this process and `clients` client processes for `seconds` of play."""
    endpoint = _endpoint()
    host = Host(
        SNOWBALL, Network("bench", listen=[endpoint]), keyframe_every=keyframe_every, players=2
    )
    replay = prepare_replay(SNOWBALL, None)
    local = replay.world()
    scene = load_scene(ROOT / "examples" / "snowball.toml")
    second = player_start_for(scene, local.resource(PlayerStart), 1)
    spawn_player(local, replay_source(ROOT / "examples" / "traces" / "snowball.jsonl"), second)
    costs: list[float] = []
    local_costs: list[float] = []

    def step() -> None:
        first, second = (host.step, costs), (lambda: local.step(1), local_costs)
        if len(costs) % 2:
            first, second = second, first
        for run, into in (first, second):
            start = time.thread_time()
            run()
            into.append(time.thread_time() - start)

    stop = threading.Event()
    hosting = threading.Thread(target=lambda: paced(step, 90.0, None, stop.is_set))
    hosting.start()
    command = [sys.executable, __file__, "--seconds", str(seconds), "--client", endpoint]
    processes = [
        subprocess.Popen([*command, f"c{i}", *(["--player"] if i < PLAYERS else [])],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for i in range(clients)
    ]  # fmt: skip
    reports = []
    try:
        for process in processes:
            out, err = process.communicate(timeout=seconds + 60)
            if process.returncode != 0:
                raise SystemExit(f"a client failed ({process.returncode}):\n{err}")
            lines = [line for line in out.splitlines() if line.startswith("{")]  # not Zenoh's log
            reports.append(json.loads(lines[-1]))
    finally:
        stop.set()
        hosting.join()
        host.close()
    players = reports[:PLAYERS]
    trips = [t * 1000.0 for p in players for t in p["trips"]]
    network = [
        (t - h) * 1000.0 for p in players for t, h in zip(p["trips"], p["held"], strict=True)
    ]
    host_ms = statistics.median(costs) * 1000.0
    local_ms = statistics.median(local_costs) * 1000.0
    # the first world stepped after the pacing's sleep finds the caches cold: by order
    host_first = statistics.median(costs[0::2]) / statistics.median(local_costs[0::2])
    local_first = statistics.median(costs[1::2]) / statistics.median(local_costs[1::2])
    return {
        "up_bytes_per_s": round(statistics.mean(p["up"] for p in players)),
        "down_bytes_per_s": round(statistics.mean(r["down"] for r in reports)),
        "input_to_state_ms_median": round(statistics.median(trips), 2),
        "input_to_state_ms_p99": round(_percentile(trips, 0.99), 2),
        "network_ms_median": round(statistics.median(network), 3),
        "network_ms_p99": round(_percentile(network, 0.99), 3),
        "host_step_ms": round(host_ms, 3),
        "local_step_ms": round(local_ms, 3),
        "host_over_local": round(host_ms / local_ms, 2),
        "host_over_local_host_first": round(host_first, 2),
        "host_over_local_local_first": round(local_first, 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="how long the clients play")
    parser.add_argument("--client", nargs=2, metavar=("ENDPOINT", "NAME"), help=argparse.SUPPRESS)
    parser.add_argument("--player", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.client is not None:
        _client(args.client[0], args.client[1], args.seconds, args.player)
        return
    full = _match(2, args.seconds, keyframe_every=1)
    result: dict[str, object] = {"fixed_hz": 90, "observers": "all clients but the first two"}
    result["full_state_down_bytes_per_s"] = full["down_bytes_per_s"]
    result["full_state_host_over_local"] = full["host_over_local"]
    for clients in COUNTS:
        result[f"clients_{clients}"] = _match(clients, args.seconds, keyframe_every=90)
    for key, value in result.items():
        print(f"{key:<28}  {value}")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
