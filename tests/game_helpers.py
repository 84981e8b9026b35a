"""The examples replayed headless from their traces, as the example tests and others check them."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from playspace.app import build_world
from playspace.app.replay import replay_source
from playspace.formats.scene import load_scene
from playspace.formats.telemetry import parse_telemetry
from playspace.systems.interaction import TELEMETRY_EVENTS
from playspace.systems.player.events import RIG_EVENTS
from playspace.systems.telemetry import TelemetryPlugin

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def replay(scene: Path, trace: Path, build: object = None) -> list[dict[str, Any]]:
    out = io.StringIO()
    source = replay_source(trace)
    plugins: list[object] = [TelemetryPlugin(out, (*RIG_EVENTS, *TELEMETRY_EVENTS))]
    if build is not None:
        plugins.append(build)
    world, _ = build_world(load_scene(scene), source, plugins=plugins)
    assert source.duration is not None
    world.step(round(source.duration * 90))
    return parse_telemetry(out.getvalue()).steps


def events(steps: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [e for s in steps for e in s["events"] if e["type"] == kind]
