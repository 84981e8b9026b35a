"""The bare-hands example (``examples/hands.toml``), replayed headless from its trace: what a
seated player with no controllers notices: the view at a standing player's eyes, a pinch that
picks the block up, an index finger that pokes the button, and a hand that stops on the table
top while the tracked one goes on into it (checked from telemetry, as in ``test_examples.py``,
with the button's events and where the right hand is tracked recorded too)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from playspace.components import Transform
from playspace.components.input import JOINT_COUNT
from playspace.components.interaction import PhysicsHand
from playspace.components.rig import Rig
from playspace.ecs import Phase, World, system
from playspace.formats.scene import load_scene
from playspace.formats.trace import load_trace
from playspace.systems.interaction import INTERACTABLE_EVENTS
from playspace.systems.player.events import HeightCalibrated
from playspace.systems.sets import FixedSet
from playspace.systems.telemetry import record_events
from tests.game_helpers import EXAMPLES, events, replay
from tests.rig_helpers import rig_of

SCENE = EXAMPLES / "hands.toml"
TRACE = EXAMPLES / "traces" / "hands.jsonl"
TABLE_TOP = 1.1  # the table top's height in the world
SEATED, EYES = 1.2, 1.7  # the head's height in the room, and where the view is


@dataclass(slots=True)
class RightHand:
    """A resource: the right hand's entity, and each step where it is tracked (its height in
    the world) and whether it is blocked (the tracked hand drawn as a ghost)."""

    entity: int = -1
    tracked: list[float] = field(default_factory=list)
    blocked: list[bool] = field(default_factory=list)


@system(
    Phase.FIXED,
    in_set=FixedSet.TELEMETRY,
    reads=(PhysicsHand, Rig, Transform),
    writes=(RightHand,),
)
def _log_right_hand(world: World) -> None:
    log = world.resource(RightHand)
    entity = rig_of(world).right_hand
    hand = world.get(entity, PhysicsHand)
    # a hand that does not collide (no PhysicsHand.controller) is where it is tracked
    tracked = hand.controller or world.get(entity, Transform).pose()
    log.tracked.append(tracked.position.y)
    log.blocked.append(hand.blocked)


@cache
def _run(scene: Path = SCENE, trace: Path = TRACE) -> tuple[list[dict[str, Any]], RightHand]:
    log = RightHand()

    def build(world: World) -> None:
        world.add_event(HeightCalibrated)  # also without seated play: then none is sent
        record_events(world, *INTERACTABLE_EVENTS, HeightCalibrated)
        log.entity = rig_of(world).right_hand
        world.insert_resource(log)
        world.add_system(_log_right_hand)

    return replay(scene, trace, build), log


def found(step: dict[str, Any], name: str) -> dict[str, Any]:
    """The object called `name` in a step's telemetry."""
    return next(o for o in step["objects"] if o["name"] == name)


def identity(name: str) -> int:
    ident: int = found(_run()[0][0], name)["id"]
    return ident


def test_the_scene_is_what_the_trace_was_made_for() -> None:
    scene = load_scene(SCENE)
    assert scene.player.seated and scene.player.eye_height == EYES
    assert scene.grab.hand_collision
    props = {p.name: p for p in scene.props}
    assert props["block"].grabbable and props["button"].button is not None
    (top,) = [b for b in scene.boxes if b.name == "table top"]
    assert top.position[1] + top.size[1] / 2 == pytest.approx(TABLE_TOP)


def test_the_trace_is_version_2_and_its_right_hand_is_a_bare_hand() -> None:
    """Bare hands: the right hand is its joints, with no controller pose; the left rests in the
    lap, out of the tracker's view."""
    assert json.loads(TRACE.read_text().split("\n", 1)[0])["version"] == 2
    trace = load_trace(TRACE)
    assert trace.duration < 20.0 and not trace.warnings
    rights = [s.right for s in trace.samples]
    assert all(h.joints is not None and len(h.joints.poses) == JOINT_COUNT for h in rights)
    assert all(h.pose is None for h in rights)
    assert all(s.left.joints is None and s.left.pose is None for s in trace.samples)


@pytest.mark.slow
def test_a_seated_head_at_1_2_m_is_seen_at_1_7_m() -> None:
    steps, _ = _run()
    heads = [s.head for s in load_trace(TRACE).samples]
    assert all(h is not None and h.pose.position.y == pytest.approx(SEATED) for h in heads)
    seen = [s["head"]["p"][1] for s in steps]
    assert min(seen) == pytest.approx(EYES, abs=1e-3)
    assert max(seen) == pytest.approx(EYES, abs=1e-3)  # from the first step to the last
    assert [e["raised"] for e in events(steps, "height_calibrated")] == [pytest.approx(0.5)]


def test_the_hand_stops_on_the_table_top_while_the_tracked_hand_goes_into_it() -> None:
    """The right hand is tracked 10 cm into the table top for over a second; the hand that
    grabs (and is drawn) stays on the top throughout, with the tracked one as a ghost."""
    steps, log = _run()
    tracked = log.tracked
    assert len(tracked) == len(steps)
    assert min(tracked) == pytest.approx(TABLE_TOP - 0.1, abs=1e-3)
    deep = [i for i, y in enumerate(tracked) if y < TABLE_TOP - 0.05]
    assert len(deep) > 90  # more than a second 5 cm or more into the table
    # on the top: the hand's box, 4 cm through the flat hand (half of it below the palm),
    # stopped within the 2 mm skin off it (1.5 mm; a little closer as it leaves)
    stopped = TABLE_TOP + 0.02 + 0.001
    heights = [s["right_hand"]["p"][1] for s in steps]
    assert min(heights) == pytest.approx(stopped, abs=1e-3)
    assert all(heights[i] == pytest.approx(stopped, abs=1e-3) for i in deep)
    # the tracked hand is drawn as a ghost while it is more than 1 cm from the stopped one
    assert all(b for y, b in zip(tracked, log.blocked, strict=True) if y < stopped - 0.011)
    assert not any(b for y, b in zip(tracked, log.blocked, strict=True) if y > stopped - 0.009)


def test_a_pinch_picks_the_block_up_and_it_rises_with_the_hand() -> None:
    steps, log = _run()
    block = identity("block")
    assert [(e["hand"], e["object"]) for e in events(steps, "grabbed")] == [(log.entity, block)]
    (release,) = events(steps, "released")
    assert release["object"] == block
    held = [s for s in steps if found(s, "block")["held_by"] == log.entity]
    rise = [found(s, "block")["p"][1] - s["right_hand"]["p"][1] for s in held]
    assert max(rise) - min(rise) < 0.002  # it keeps its place under the hand
    start = found(steps[0], "block")["p"][1]
    assert max(found(s, "block")["p"][1] for s in held) - start == pytest.approx(0.25, abs=0.01)
    assert found(steps[-1], "block")["p"][1] == pytest.approx(start, abs=0.002)  # put back


def test_the_index_tip_pokes_the_button_once() -> None:
    steps, _ = _run()
    said = [e for s in steps for e in s["events"] if e["type"].startswith("button_")]
    button = identity("button")
    assert said == [
        {"type": "button_pressed", "button": button},
        {"type": "button_released", "button": button},
    ]
    rest = found(steps[0], "button")["p"][2]
    pushed = max(rest - found(s, "button")["p"][2] for s in steps)
    assert pushed == pytest.approx(0.0145, abs=0.001)  # 2.5 cm past the face: to its limit
