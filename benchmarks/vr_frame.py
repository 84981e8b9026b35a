"""A headset frame against a real OpenXR runtime: what playspace costs around the world, and
how far the drawn hand is from where tracking put it.

Runs the kitchen example through ``playspace.loops.headset`` against the runtime that
``XR_RUNTIME_JSON`` names (Monado, with its ``remote`` driver fed a scripted hand by
``playspace.xr.monado``), drawing both eyes through EGL. Two figures, each per display frame:

- **overhead**: the time spent outside ``world.advance`` and drawing the eyes: polling
  events, syncing actions and locating head and hands, mapping them, locating the eyes,
  acquiring and submitting the swapchain images. Waiting in ``xrWaitFrame`` is the display's
  pacing, not work, and is left out. ``xr calls`` is the part of that spent inside pyopenxr's
  functions (the raw library doing the same calls), so ``overhead / xr calls`` is what
  playspace's Python adds around them.
- **hand gap**: the distance between the drawn right hand (``DrawnPoses``) and the hand where
  the runtime located it for the frame's display time, placed through the rig's origin; beside
  it, the gap the hand would have had drawn where the last fixed step left it (as before late
  placement). At 72 and 90 Hz displays with 90 Hz steps, the hand sweeping at 1 and 5 m/s.

Goals (issue 12): overhead at most 1 ms a frame; hand gap at most 0.1 mm, every frame.

Run: ``python benchmarks/vr_frame.py [--seconds S]`` with the runtime's environment set
(README, "Run in VR"). Without a runtime it says so and prints ``{"skipped": ...}``. The last
line printed is one JSON object of the figures.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playspace import spatial  # noqa: E402
from playspace.components import Transform  # noqa: E402
from playspace.components.drawn import DrawnPoses  # noqa: E402
from playspace.components.input import InputFrame  # noqa: E402
from playspace.ecs import World  # noqa: E402
from playspace.systems.input import Trace, device_pose, hand_input  # noqa: E402
from playspace.systems.player.players import local_rig  # noqa: E402

KITCHEN = ROOT / "examples" / "kitchen.py"
SETTLE = 30  # frames left out at the start: focus arrives, the hands appear
HAND_Y, HAND_Z, SWEEP = 1.2, -0.4, 0.6  # a sweep across the chest, clear of the counter


def sweeping(speed: float, seconds: float) -> Trace:
    """The right hand sweeping sideways at `speed` m/s along SWEEP metres and back, sampled
    at 500 Hz (the driver interpolates between samples)."""
    frames = []
    for i in range(int(seconds * 500) + 1):
        t = i / 500
        phase = (speed * t / SWEEP) % 2.0
        x = SWEEP * (phase if phase < 1.0 else 2.0 - phase) - SWEEP / 2
        frames.append(
            InputFrame(
                t,
                device_pose((0.0, 1.7, 0.0)),
                hand_input((-0.2, 0.9, -0.1)),
                hand_input((x, HAND_Y, HAND_Z)),
            )
        )
    return Trace(tuple(frames), "<sweeping hand>")


class Timer:
    """Wall time spent inside wrapped callables, per frame."""

    def __init__(self) -> None:
        self.spent = 0

    def wrap(self, function: Callable[..., Any]) -> Callable[..., Any]:
        def timed(*args: Any, **kwargs: Any) -> Any:
            start = time.perf_counter_ns()
            try:
                return function(*args, **kwargs)
            finally:
                self.spent += time.perf_counter_ns() - start

        return timed


XR_CALLS = (
    "poll_event", "sync_actions", "get_action_state_float", "get_action_state_boolean",
    "get_action_state_vector2f", "locate_space_with_velocity", "locate_views",
    "acquire_swapchain_image", "wait_swapchain_image", "release_swapchain_image",
    "begin_frame", "end_frame", "apply_haptic_feedback",
)  # fmt: skip


@contextmanager
def timed_xr_calls(timer: Timer, by_name: dict[str, Timer]) -> Iterator[None]:
    """Every pyopenxr function the loop calls while a frame is worked on, timed (in all, and
    by function)."""
    import xr  # type: ignore[import-untyped]

    saved = {name: getattr(xr, name) for name in XR_CALLS}
    for name, function in saved.items():
        setattr(xr, name, timer.wrap(by_name.setdefault(name, Timer()).wrap(function)))
    try:
        yield
    finally:
        for name, function in saved.items():
            setattr(xr, name, function)


def measure(display_hz: float, speed: float, seconds: float) -> dict[str, Any]:
    """One run of the kitchen against the runtime: per-frame overhead and hand gaps."""
    from playspace.app import build_world, load_target
    from playspace.components.input import InputSource
    from playspace.loops.drive import trace_driver
    from playspace.loops.eyes import headset_eyes
    from playspace.loops.headset import open_backend
    from playspace.loops.vr_loop import VrLoop
    from playspace.render import Renderer, create_context

    os.environ["NULL_COMPOSITOR_HZ"] = f"{display_hz:g}"
    scene, example = load_target(KITCHEN)
    assert example is not None
    ctx = create_context()
    renderer = Renderer(ctx)
    backend = open_backend("vr_frame benchmark", graphics=True)
    driver = trace_driver(sweeping(speed, seconds + 5.0))
    driver.start()
    inside, drawing, xr_time = Timer(), Timer(), Timer()
    by_call: dict[str, Timer] = {}
    overheads: list[float] = []
    xr_shares: list[float] = []
    gaps: list[float] = []
    step_gaps: list[float] = []

    def build(source: InputSource, hz: float) -> World:
        world = build_world(scene, source, hz, plugins=[example.build])[0]
        world.advance = inside.wrap(world.advance)  # type: ignore[method-assign]
        return world

    def eyes(world: World) -> Callable[..., None]:
        draw = drawing.wrap(headset_eyes(renderer)(world))

        def render_eye(*args: Any) -> None:
            if loop.lifecycle.input_active and world.time.frame > SETTLE:
                _gap(world)
            draw(*args)

        return render_eye

    drawn_frame = -1

    def _gap(world: World) -> None:
        nonlocal drawn_frame
        if world.time.frame == drawn_frame:
            return  # once a frame, not once an eye
        drawn_frame = world.time.frame
        fresh = loop.mapped.frame.right.pose
        rig = local_rig(world)
        assert rig is not None
        drawn = world.resource(DrawnPoses).pose(rig.right_hand)
        if fresh is None or drawn is None:
            return
        origin = world.get(rig.origin, Transform)
        at = spatial.compose(spatial.Pose(origin.position, origin.rotation), fresh.pose)
        gaps.append(spatial.length(drawn.position - at.position))
        stepped = world.get(rig.right_hand, Transform).position
        step_gaps.append(spatial.length(stepped - at.position))

    loop = VrLoop(backend, build, fixed_hz=90.0, eyes=eyes, out=io.StringIO(),
                  on_focus=driver.start_clock)  # fmt: skip
    real_frame = loop._frame

    def frame() -> None:
        waited = Timer()
        display = backend.display
        assert display is not None
        real_wait = display.wait_frame
        display.wait_frame = waited.wrap(real_wait)  # type: ignore[method-assign]
        before = (inside.spent, drawing.spent, xr_time.spent)
        start = time.perf_counter_ns()
        with timed_xr_calls(xr_time, by_call):
            real_frame()
        total = time.perf_counter_ns() - start
        display.wait_frame = real_wait  # type: ignore[method-assign]
        world_and_eyes = inside.spent - before[0] + drawing.spent - before[1]
        focused = loop.lifecycle.input_active and loop.world is not None
        if focused and loop.world is not None and loop.world.time.frame > SETTLE:
            overheads.append((total - waited.spent - world_and_eyes) / 1e6)
            xr_shares.append((xr_time.spent - before[2]) / 1e6)

    loop._frame = frame  # type: ignore[method-assign]
    try:
        with loop.closing():
            loop.run(seconds)
    finally:
        driver.stop()
        backend.destroy()
        renderer.release()
        ctx.release()
    frames = len(overheads)
    return {
        "display_hz": display_hz,
        "speed": speed,
        "frames": frames,
        "overhead_ms_mean": statistics.fmean(overheads) if overheads else None,
        "overhead_ms_max": max(overheads, default=None),
        "xr_calls_ms_mean": statistics.fmean(xr_shares) if xr_shares else None,
        "hand_gap_mm_max": max(gaps, default=0.0) * 1e3,
        "step_gap_mm_max": max(step_gaps, default=0.0) * 1e3,
        "step_gap_mm_median": statistics.median(step_gaps) * 1e3 if step_gaps else None,
        "xr_calls_ms_by_function": {
            name: timer.spent / 1e6 / max(frames, 1)
            for name, timer in sorted(by_call.items(), key=lambda item: -item[1].spent)
            if timer.spent
        },
    }


def child(args: argparse.Namespace) -> None:
    """One measurement in a process of its own (the runtime's rate is read at start-up)."""
    print(json.dumps(measure(args.display_hz, args.speed, args.seconds)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=4.0, help="of each run (4)")
    parser.add_argument("--display-hz", type=float, help=argparse.SUPPRESS)
    parser.add_argument("--speed", type=float, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.display_hz is not None:
        child(args)
        return
    if not os.environ.get("XR_RUNTIME_JSON"):
        reason = "XR_RUNTIME_JSON names no OpenXR runtime (README, 'Run in VR')"
        print(f"vr_frame: skipped: {reason}")
        print(json.dumps({"skipped": reason}))
        return
    env = {**os.environ, "P_OVERRIDE_ACTIVE_CONFIG": "remote", "XRT_COMPOSITOR_NULL": "1"}
    env.setdefault("XR_LOADER_DEBUG", "none")
    env.setdefault("XRT_LOG", "error")
    runs = []
    for display_hz in (90.0, 72.0):
        for speed in (1.0, 5.0):
            done = subprocess.run(
                [sys.executable, __file__, "--seconds", str(args.seconds),
                 "--display-hz", str(display_hz), "--speed", str(speed)],
                capture_output=True, text=True, env=env, timeout=120, check=False,
            )  # fmt: skip
            if done.returncode != 0:
                sys.exit(f"vr_frame: the run at {display_hz:g} Hz failed:\n{done.stderr[-2000:]}")
            runs.append(json.loads(done.stdout.strip().splitlines()[-1]))
    print(f"{'display':>8} {'hand':>6} {'frames':>7} {'overhead ms':>12} {'(max)':>7} "
          f"{'xr calls ms':>12} {'ratio':>6} {'hand gap mm':>12} "
          f"{'step gap mm (median, max)':>26}")  # fmt: skip
    for run in runs:
        if not run["frames"]:  # the session came up too late to time any frame after settling
            print(f"{run['display_hz']:>6g}Hz {run['speed']:>4g}m/s {0:>7}  no frame timed")
            continue
        ratio = run["overhead_ms_mean"] / run["xr_calls_ms_mean"]
        print(
            f"{run['display_hz']:>6g}Hz {run['speed']:>4g}m/s {run['frames']:>7} "
            f"{run['overhead_ms_mean']:>12.3f} {run['overhead_ms_max']:>7.2f} "
            f"{run['xr_calls_ms_mean']:>12.3f} {ratio:>6.2f} {run['hand_gap_mm_max']:>12.4f} "
            f"{run['step_gap_mm_median']:>17.2f} {run['step_gap_mm_max']:>8.2f}"
        )
    heaviest = runs[0]["xr_calls_ms_by_function"]
    print("inside pyopenxr, ms a frame (90 Hz, 1 m/s): " + ", ".join(
        f"{name} {ms:.3f}" for name, ms in list(heaviest.items())[:5]))  # fmt: skip
    print(json.dumps({"runs": runs}))


if __name__ == "__main__":
    main()
