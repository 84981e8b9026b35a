"""The match's score on screen while it is played: a client shows the host's score line (every
number is the host's) on its own row of the screen text, beside a game's own lines."""

from __future__ import annotations

import socket
from pathlib import Path

from playspace.app.replay import prepare_replay
from playspace.components.text import ScreenText
from playspace.net import Client, Host, Network

SNOWBALL = Path(__file__).resolve().parents[2] / "examples" / "snowball.py"


def _endpoint() -> str:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return f"tcp/127.0.0.1:{s.getsockname()[1]}"


def test_a_client_shows_the_host_s_score_line_below_the_game_s_own() -> None:
    endpoint = _endpoint()
    host = Host(SNOWBALL, Network("s", listen=[endpoint]))
    client = Client(Network("s", connect=[endpoint]), "sam", observer=True)
    try:
        for _ in range(5):
            host.step()
        client.wait_for_host()
        world = prepare_replay(SNOWBALL, None, seconds=1.0).world(
            [lambda w: w.insert_resource(ScreenText(["the game's own line"])), client.plugin]
        )
        world.step(2)
        hosted = client.remote.score
        assert hosted is not None and hosted.startswith("target hits")
        assert world.resource(ScreenText).lines == ["the game's own line", f"score: {hosted}"]
    finally:
        client.close()
        host.close()
