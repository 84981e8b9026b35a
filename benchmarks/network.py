"""What networked play costs on loopback: one host, one client playing the snowball trace.

Measured: bytes a second per client each way at 90 Hz (input up, state down); the round trip
client -> host -> client through Zenoh on loopback (the host's ``state/now`` query: the added
latency of the network path an input and its state take; median and 99th percentile); the
host's step time (the world plus publishing its state) against the same world stepped
locally. One client only in this version.

Run: ``python benchmarks/network.py [--seconds S]``. The last line printed is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import socket
import statistics
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from playspace.loops.replay import prepare_replay
from playspace.net import Client, Host, Network, play

ROOT = Path(__file__).resolve().parent.parent
SNOWBALL = ROOT / "examples" / "snowball.py"


def _endpoint() -> str:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return f"tcp/127.0.0.1:{probe.getsockname()[1]}"


def _step_ms(step: object, steps: int) -> float:
    times = []
    for _ in range(steps):
        start = time.perf_counter()
        step()  # type: ignore[operator]
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="how long the client plays")
    args = parser.parse_args()
    endpoint = _endpoint()
    host = Host(SNOWBALL, Network("bench", listen=[endpoint]))
    client = Client(Network("bench", connect=[endpoint]), "bench")
    stop = threading.Event()
    hosting = threading.Thread(target=host.run, kwargs={"stop": stop.is_set})
    hosting.start()
    client.wait_for_host()
    sent, received, start = client.sent, client.received, time.perf_counter()
    play(client, SNOWBALL, None, seconds=args.seconds)
    elapsed = time.perf_counter() - start
    up, down = (client.sent - sent) / elapsed, (client.received - received) / elapsed
    trips = []
    for _ in range(200):
        begin = time.perf_counter()
        list(client.session.get(client.network.key("state", "now"), timeout=1.0))
        trips.append((time.perf_counter() - begin) * 1000.0)
    stop.set()
    hosting.join()
    host_ms = _step_ms(host.step, 270)
    local = prepare_replay(SNOWBALL, None).world()
    for _ in range(host.world.fixed_time.step):  # the same point of the game
        local.step(1)
    local_ms = _step_ms(lambda: local.step(1), 270)
    client.close()
    host.close()
    trips.sort()
    result = {
        "clients": 1,
        "fixed_hz": 90,
        "up_bytes_per_s": round(up),
        "down_bytes_per_s": round(down),
        "round_trip_ms_median": round(statistics.median(trips), 3),
        "round_trip_ms_p99": round(trips[int(0.99 * (len(trips) - 1))], 3),
        "host_step_ms": round(host_ms, 3),
        "local_step_ms": round(local_ms, 3),
        "host_over_local": round(host_ms / local_ms, 2),
    }
    width = max(map(len, result))
    for key, value in result.items():
        print(f"{key:<{width}}  {value}")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
