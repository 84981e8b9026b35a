"""A host applies its game's saves between steps, as the preview does."""

from __future__ import annotations

import io
import time
from pathlib import Path

from playspace.formats.telemetry import parse_telemetry
from playspace.net import Host, Network
from tests.app.test_reload import GAME, _beats
from tests.net.test_net import _endpoint

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_a_hosts_saved_module_runs_at_its_next_steps(tmp_path: Path) -> None:
    game = tmp_path / "hosted_game.py"
    source = GAME.format(scene=EXAMPLES / "kitchen.toml", trace=EXAMPLES / "traces/kitchen.jsonl")
    game.write_text(source)
    said: list[str] = []
    out = io.StringIO()
    network = Network("r", listen=[_endpoint()])
    host = Host(game, network, say=said.append, telemetry=out, reload=True)
    try:
        host.step()
        time.sleep(0.2)  # the watcher is up
        game.write_text(source.replace("POINTS = 1", "POINTS = 4"))
        deadline = time.monotonic() + 10
        while not said and time.monotonic() < deadline:
            host.step()
            time.sleep(0.01)
        assert said == [f"playspace: reloaded {game}"]
        reloaded_at = host.world.fixed_time.step
        for _ in range(61):
            host.step()
    finally:
        host.close()
    beats = _beats(parse_telemetry(out.getvalue()).steps)
    assert {p for s, p in beats if s < reloaded_at - 1} <= {1}
    assert {p for s, p in beats if s >= reloaded_at} == {4}
