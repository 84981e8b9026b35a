"""The shooting range example (``examples/range.toml``), replayed headless from its trace: what
a player would notice of its attach points (the pistol held by its grip), of the rifle held in
both hands (the front hand steers it), of grip toggle (a held gun stays in the open hand) and
of sprint (the stick's click doubles the pace), checked from telemetry as in
``test_examples.py``; and that nothing on the bench moves until a hand takes it. Each test
also replays a copy of the scene without the feature it shows (its control), and that copy
fails it."""

from __future__ import annotations

import itertools
import math
import tempfile
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from playspace import spatial
from playspace.app.spawn import euler_rotation
from playspace.components.input import Button, HandInput
from playspace.formats.scene import load_scene
from playspace.formats.trace import load_trace
from playspace.spatial import Pose
from tests.game_helpers import EXAMPLES, replay

SCENE = EXAMPLES / "range.toml"
TRACE = EXAMPLES / "traces" / "range.jsonl"
Steps = list[dict[str, Any]]

# What each control takes out of the scene, as the file spells it.
PISTOL_GRIP = "attach_right = { position = [0, -0.05, 0.07], rotation = [-20, 0, 0] }\n"
FORE_END = "second_grip = [0, 0, -0.2]\n"
TOGGLE = "grip_toggle = true\n"
SPRINT = "sprint = true\n"
PISTOL_SPOT = "position = [0.45, 0.921, -0.55]\n"
# the bench test's control: the pistol behind the rifle's muzzle, in the quarter circle the
# muzzle sweeps as the rifle turns from lying across the bench to pointing down the range
IN_THE_SWING = "position = [-0.35, 0.921, -0.8]\n"
BENCH_TOP = 0.9


@cache
def _steps(without: str | None = None, instead: str = "") -> Steps:
    """The replay of the trace in the scene, or in a copy of it with the line `without` left
    out or replaced by `instead` (each test's control)."""
    if without is None:
        return replay(SCENE, TRACE)
    text = SCENE.read_text()
    assert text.count(without) == 1, f"range.toml no longer has {without!r}"
    with tempfile.TemporaryDirectory() as folder:
        return replay(_copy(Path(folder), text.replace(without, instead)), TRACE)


def _copy(folder: Path, text: str) -> Path:
    """`text` as a range.toml in `folder`, with the models it names beside it."""
    (folder / "models").symlink_to(EXAMPLES / "models")
    copy = folder / "range.toml"
    copy.write_text(text)
    return copy


def found(step: dict[str, Any], name: str) -> dict[str, Any]:
    """The object called `name` in a step's telemetry."""
    return next(o for o in step["objects"] if o["name"] == name)


def placed(record: dict[str, Any]) -> Pose:
    """A pose as telemetry writes it (``p``, and ``q`` as x, y, z, w)."""
    return Pose(spatial.vec3(*record["p"]), spatial.quat_from_xyzw(record["q"]))


def degrees_between(a: spatial.Quat, b: spatial.Quat) -> float:
    """The angle of the turn from `a` to `b`, in degrees."""
    turn = spatial.normalize(spatial.multiply(b, spatial.inverse(a)))
    return math.degrees(2.0 * math.acos(min(1.0, abs(turn.w))))


def degrees_apart(a: spatial.Vec3, b: spatial.Vec3) -> float:
    """The angle between two directions, in degrees."""
    cosine = (a.x * b.x + a.y * b.y + a.z * b.z) / (spatial.length(a) * spatial.length(b))
    return math.degrees(math.acos(max(-1.0, min(1.0, cosine))))


def _prop(name: str) -> Any:
    return next(p for p in load_scene(SCENE).props if p.name == name)


def _attach_right(name: str) -> Pose:
    """The scene's right-hand attach point of the prop `name`."""
    attach = _prop(name).attach_right
    return Pose(spatial.vec3(*attach.position), euler_rotation(attach.rotation))


def _grabs(steps: Steps, kind: str, name: str) -> list[tuple[float, dict[str, Any]]]:
    """(time, event) of each `kind` event ("grabbed", "released") of the object `name`."""
    ident = found(steps[0], name)["id"]
    return [
        (s["t"], e)
        for s in steps
        for e in s["events"]
        if e["type"] == kind and e["object"] == ident
    ]


def _hand(sample: Any, side: str) -> HandInput:
    hand: HandInput = sample.left if side == "left" else sample.right
    return hand


def squeezes(side: str) -> list[float]:
    """When the `side` hand's grip closed (rose past 0.7) in the trace: what the player did."""
    samples = load_trace(TRACE).samples
    return [
        b.time
        for a, b in itertools.pairwise(samples)
        if _hand(a, side).grip <= 0.7 < _hand(b, side).grip
    ]


def at(steps: Steps, t: float) -> dict[str, Any]:
    """The first step at or after `t` seconds."""
    return next(s for s in steps if s["t"] >= t)


def test_the_scene_is_what_the_trace_was_made_for() -> None:
    scene = load_scene(SCENE)
    assert scene.grab.grip_toggle and scene.player.sprint and not scene.player.sprint_toggle
    pistol, rifle = _prop("pistol"), _prop("rifle")
    assert pistol.attach_right is not None and pistol.attach_ease == 0.15
    assert rifle.attach_right is not None and rifle.second_grip == (0.0, 0.0, -0.2)
    text = SCENE.read_text()
    assert all(text.count(line) == 1 for line in (PISTOL_GRIP, FORE_END, TOGGLE, SPRINT))


def grip_errors(steps: Steps) -> list[tuple[float, float, float]]:
    """(time, metres, degrees) of the pistol's right-hand attach point from the right hand's
    grip pose, at each step the pistol is held."""
    attach = _attach_right("pistol")
    errors = []
    for step in steps:
        if found(step, "pistol")["held_by"] is None:
            continue
        grip = spatial.compose(placed(found(step, "pistol")), attach)
        hand = placed(step["right_hand"])
        errors.append(
            (
                step["t"],
                spatial.length(grip.position - hand.position),
                degrees_between(grip.rotation, hand.rotation),
            )
        )
    return errors


@pytest.mark.slow
@pytest.mark.parametrize("without", [None, PISTOL_GRIP], ids=["attach point", "control: none"])
def test_the_pistol_taken_by_any_spot_is_held_by_its_grip(without: str | None) -> None:
    """The hand closes on the pistol lying on the bench 14 cm from its grip and turned 90
    degrees from it; once it has eased into the hand (0.15 s), the pistol's grip is at the
    hand's grip pose, within a millimetre and a degree, at every step it is held: raised, aimed
    15 degrees left and back, lowered. Without the attach point (the control) it stays as it
    was taken."""
    steps = _steps(without)
    (taken, _), *_ = _grabs(steps, "grabbed", "pistol")
    before = next(s for s in reversed(steps) if s["t"] < taken)
    grip = spatial.compose(placed(found(before, "pistol")), _attach_right("pistol"))
    hand = placed(before["right_hand"])
    assert spatial.length(grip.position - hand.position) > 0.1  # not taken by its grip
    assert degrees_between(grip.rotation, hand.rotation) > 45.0
    settled = [e for e in grip_errors(steps) if e[0] > taken + _prop("pistol").attach_ease]
    assert settled[-1][0] - settled[0][0] > 2.0  # held through the aim
    by_its_grip = max(e[1] for e in settled) < 0.001 and max(e[2] for e in settled) < 1.0
    assert by_its_grip == (without is None)


def rifle_aim(steps: Steps) -> list[tuple[float, float, spatial.Vec3]]:
    """(time, degrees, barrel) for each step the left hand holds the rifle's fore-end: how far
    the barrel (the rifle's -Z) points from the line from the right hand to the left hand, and
    its direction (as a Vec3)."""
    (_, first), (left_took, second) = _grabs(steps, "grabbed", "rifle")[:2]
    assert first["hand"] != second["hand"]  # the second grab was by the other hand
    left_let_go = next(t for t in squeezes("left") if t > left_took)
    out = []
    for step in steps:
        if left_took < step["t"] < left_let_go:
            barrel = spatial.rotate(placed(found(step, "rifle")).rotation, spatial.vec3(0, 0, -1))
            toward = spatial.vec3(*step["left_hand"]["p"]) - spatial.vec3(*step["right_hand"]["p"])
            out.append((step["t"], degrees_apart(barrel, toward), barrel))
    return out


@pytest.mark.parametrize("without", [None, FORE_END], ids=["second grip", "control: none"])
def test_the_rifle_in_both_hands_points_from_the_right_hand_to_the_left(
    without: str | None,
) -> None:
    """The right hand takes the rifle by its grip and the left takes its fore-end: as the left
    hand rises 0.2 m and swings 0.25 m left and back, the barrel points from the right hand at
    the left, within a degree, at every step (it swings through 30 degrees and more), its grip
    still in the right hand. Let go with the left, it points where the right hand does again.
    Without a second grip (the control) the left hand takes the rifle from the right and
    carries it as it was."""
    steps = _steps(without)
    aims = rifle_aim(steps)
    barrels = [barrel for _, _, barrel in aims]
    swung = max(degrees_apart(a, b) for a, b in itertools.combinations(barrels[::9], 2))
    grip = _attach_right("rifle")
    gaps = [
        spatial.length(
            spatial.compose(placed(found(s, "rifle")), grip).position
            - spatial.vec3(*s["right_hand"]["p"])
        )
        for s in steps
        if aims[0][0] <= s["t"] <= aims[-1][0]
    ]
    steered = max(angle for _, angle, _ in aims) < 1.0 and swung > 30.0 and max(gaps) < 0.001
    assert steered == (without is None)
    if without is None:
        eased = at(steps, aims[-1][0] + _prop("rifle").attach_ease + 0.1)
        one_handed = spatial.compose(placed(found(eased, "rifle")), grip)
        assert degrees_between(one_handed.rotation, placed(eased["right_hand"]).rotation) < 1.0


@pytest.mark.slow
@pytest.mark.parametrize("without", [None, TOGGLE], ids=["grip toggle", "control: hold"])
def test_with_grip_toggle_a_gun_stays_in_the_open_hand_until_squeezed_again(
    without: str | None,
) -> None:
    """The right hand squeezes the pistol for 0.2 s and opens: the pistol stays in it through
    2 s and more of an open hand, and the next squeeze lets it go: one grab, one release. Held
    to hold (the control), opening the hand drops it and the next squeeze takes it again."""
    steps = _steps(without)
    grabs, releases = _grabs(steps, "grabbed", "pistol"), _grabs(steps, "released", "pistol")
    take, let_go = squeezes("right")[:2]
    assert grabs[0][0] == pytest.approx(take, abs=0.03)  # the first squeeze takes it
    samples = load_trace(TRACE).samples
    open_hand = [s.time for s in samples if take + 0.3 < s.time < let_go and s.right.grip < 0.3]
    assert open_hand[-1] - open_hand[0] > 2.0
    kept = all(found(at(steps, t), "pistol")["held_by"] is not None for t in open_hand)
    toggled = kept and len(grabs) == len(releases) == 1
    assert toggled == (without is None)
    if without is None:
        assert releases[0][0] == pytest.approx(let_go, abs=0.03)  # the second squeeze


def paces(steps: Steps) -> dict[bool, float]:
    """How far the body went (metres, on the floor) in each push of the left stick in the
    trace, by whether its click was held: {False: walking, True: sprinting}. Each push is
    measured from its start to 0.3 s after its end (the body has stopped by then)."""
    samples = load_trace(TRACE).samples
    pushes = [
        list(run)
        for pushed, run in itertools.groupby(samples, key=lambda s: s.left.stick[1] > 0.5)
        if pushed
    ]
    out = {}
    for push in pushes:
        start, end = at(steps, push[0].time), at(steps, push[-1].time + 0.3)
        clicked = all(Button.STICK in s.left.buttons for s in push)
        assert push[-1].time - push[0].time == pytest.approx(0.6, abs=0.02)  # the same time
        a, b = start["body"]["p"], end["body"]["p"]
        out[clicked] = math.hypot(b[0] - a[0], b[2] - a[2])
    return out


@pytest.mark.slow
@pytest.mark.parametrize("without", [None, SPRINT], ids=["sprint", "control: none"])
def test_holding_the_stick_click_covers_twice_the_ground(without: str | None) -> None:
    """Walking away from the bench for 0.6 s covers 1.5 m (2.5 m/s); the next 0.6 s with the
    left stick clicked covers twice that. Without sprint in the scene (the control) the click
    does nothing."""
    steps = _steps(without)
    pace = paces(steps)
    assert sorted(pace) == [False, True]
    assert pace[False] == pytest.approx(0.6 * 2.5, rel=0.05)
    doubled = pace[True] == pytest.approx(2.0 * pace[False], rel=0.05)
    assert doubled == (without is None)


@pytest.mark.slow
@pytest.mark.parametrize(
    "instead", [None, IN_THE_SWING], ids=["as laid out", "control: in the rifle's swing"]
)
def test_nothing_on_the_bench_moves_until_a_hand_takes_it(instead: str | None) -> None:
    """Each gun lies still on the bench (within a millimetre) until a hand grips it, though
    hands reach past it and the other gun is taken, turned into the hand, aimed and put back
    beside it; both end on the bench. A held gun is a kinematic body that pushes what it meets:
    the control lays the pistol where the rifle's muzzle sweeps as it turns into the hand,
    and it is knocked off the bench."""
    steps = _steps() if instead is None else _steps(PISTOL_SPOT, instead)
    still = True
    for name in ("pistol", "rifle"):
        taken = next((t for t, _ in _grabs(steps, "grabbed", name)), steps[-1]["t"])
        spawned = spatial.vec3(*found(steps[0], name)["p"])
        still &= all(
            spatial.length(spatial.vec3(*found(s, name)["p"]) - spawned) < 0.001
            for s in steps
            if s["t"] < taken
        )
    on_bench = all(found(steps[-1], n)["p"][1] > BENCH_TOP for n in ("pistol", "rifle"))
    assert (still and on_bench) == (instead is None)


RIFLE_EASE = "attach_ease = 0.2\n"


def test_a_rifle_snapping_into_the_hand_at_once_leaves_what_lies_in_its_swing() -> None:
    """With no attach ease the rifle is put in the hand in one step, as a teleport: the pistol
    lying where its muzzle would sweep stays there (driven there in one step, the kinematic
    rifle flung it 24 m down the range at 45 m/s)."""
    text = SCENE.read_text()
    assert text.count(RIFLE_EASE) == 1 and text.count(PISTOL_SPOT) == 1
    with tempfile.TemporaryDirectory() as folder:
        changed = text.replace(PISTOL_SPOT, IN_THE_SWING).replace(RIFLE_EASE, "")
        steps = replay(_copy(Path(folder), changed), TRACE)
    spawned = spatial.vec3(*found(steps[0], "pistol")["p"])
    moved = max(spatial.length(spatial.vec3(*found(s, "pistol")["p"]) - spawned) for s in steps)
    assert moved < 0.002
    assert _grabs(steps, "grabbed", "rifle")  # the rifle was taken, and turned into the hand
