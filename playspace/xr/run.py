"""``playspace run SCENE.toml --vr``: the scene in a headset, driven by the OpenXR frame loop.

:func:`run_vr` opens an OpenXR session, builds the world on an
:class:`~playspace.xr.source.OpenXRSource` and hands control to :class:`VrLoop`, which runs
one world frame per headset frame:

1. poll the runtime's events and carry out what the :class:`SessionLifecycle` says;
2. while the session runs: wait for the frame, sync the actions and locate head and hands for
   the frame's *predicted display time*, map them into the input frame;
3. advance the world by the time between predicted display times, play its haptic pulses;
4. locate the eyes for that same display time, place them through the rig's origin, draw each
   with the caller's ``render_eye`` and submit the frame (an empty one while not visible).

When no session opens it prints one line, naming which of the three failures it was (no
OpenXR runtime, no headset, the runtime refused the session) and how to run the desktop
preview instead, and returns 2: no traceback, and well within a second when there is no
runtime at all.

The loop talks to the backend through :class:`XrBackend`, so its whole life (begin, frames,
exit, loss) is tested with a scripted stand-in for the runtime.
"""

from __future__ import annotations

import logging
import sys
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Protocol, TextIO

from playspace.app import TargetError, build_world, load_target
from playspace.components import Transform
from playspace.components.interaction import GrabSettings
from playspace.components.rig import Rig
from playspace.ecs import World
from playspace.example import headless_command
from playspace.scene import SceneError
from playspace.spatial import Pose
from playspace.systems.grab.events import GRAB_EVENTS
from playspace.systems.rig.events import RecenterRequested
from playspace.xr.bindings import com_offset_for, profile_name
from playspace.xr.haptics import HapticPulse, HapticQueue, HapticsPlugin
from playspace.xr.mapping import ActionStates, FloorEstimate, LocatedPoses, map_input
from playspace.xr.source import OpenXRSource
from playspace.xr.state import (
    Command,
    FailureKind,
    InteractionProfileChanged,
    ReferenceSpaceChanged,
    SessionLifecycle,
    XrEvent,
    XrFailed,
    XrLost,
    XrUnavailable,
)
from playspace.xr.views import EyeTarget, EyeView, FrameTiming, RenderEye, eye_matrices

EXIT_GRACE = 3.0  # seconds the runtime gets to stop the session after an exit request
IDLE_POLL = 0.05  # seconds between event polls while the session is not running
INPUT_ONLY_HZ = 90.0  # the loop's rate without a display to pace it

_WHAT_TO_DO = {
    FailureKind.NO_RUNTIME: "install and start one (SteamVR, Monado, Meta's) or set "
    "XR_RUNTIME_JSON to its manifest",
    FailureKind.NO_HEADSET: "connect the headset, switch it on and check the runtime sees it",
    FailureKind.SESSION_REFUSED: "the runtime's log says why",
}


class XrFrames(Protocol):
    """The display calls of :class:`~playspace.xr.display.XrDisplay`."""

    def wait_frame(self) -> FrameTiming | None: ...
    def locate_views(self, at: int) -> list[EyeView]: ...
    def end_frame(
        self, frame: FrameTiming, draw: Callable[[int, EyeTarget], None] | None
    ) -> None: ...


class XrBackend(Protocol):
    """What the loop needs of :class:`~playspace.xr.backend.OpenXRBackend`."""

    runtime: str
    headset: str
    stage: bool

    @property
    def display(self) -> XrFrames | None: ...
    def poll_events(self) -> list[XrEvent]: ...
    def begin(self) -> None: ...
    def end(self) -> None: ...
    def request_exit(self) -> None: ...
    def destroy(self) -> None: ...
    def interaction_profile(self) -> str | None: ...
    def now(self) -> int: ...
    def sync(self, at: int) -> tuple[ActionStates, LocatedPoses]: ...
    def apply_haptics(self, pulses: list[HapticPulse]) -> None: ...


def failure_message(error: XrUnavailable, scene: Path | str) -> str:
    """The one line a failed ``--vr`` run prints: what failed, why, and the way around it."""
    return (
        f"playspace run --vr: {error.kind.value} ({error.detail}); {_WHAT_TO_DO[error.kind]}. "
        f"To run without a headset, use the desktop preview: playspace run {scene} "
        f"(or headless: {headless_command(scene)})"
    )


def open_backend(app_name: str, graphics: bool) -> XrBackend:
    """The real OpenXR backend; XrUnavailable when no session opens (pyopenxr is imported
    here, so a run that never gets this far never loads the loader)."""
    try:
        from playspace.xr.backend import OpenXRBackend
    except (ImportError, OSError) as error:
        raise XrUnavailable(FailureKind.NO_RUNTIME, f"the OpenXR loader failed: {error}") from error
    return OpenXRBackend(app_name, graphics)


def run_vr(
    target: Path | str,
    *,
    plugins: Iterable[object] = (),
    eyes: Callable[[World], RenderEye] | None = None,
    seconds: float | None = None,
    fixed_hz: float = 90.0,
    seed: int = 0,
    app_name: str | None = None,
    opener: Callable[[str, bool], XrBackend] = open_backend,
    out: TextIO | None = None,
) -> int:
    """Run a scene or an example module (``.toml`` or ``.py``, as ``playspace run`` takes) in
    the headset until the runtime or `seconds` ends it, with the game's `plugins` added as
    :func:`~playspace.app.build_world` adds them; the exit status.

    `eyes(world)` makes the ``render_eye(view, projection, target)`` that draws one eye of that
    world; its GL context must be current. Without it the session is input-only
    (``XR_MND_headless``). The application name the
    runtime shows is `app_name`, else the scene's name. Returns 0; 2 with one message on
    stderr when the scene is bad or no session opens; 1 with one message when the runtime
    failed a call mid-session.
    """
    out = out or sys.stdout
    try:
        scene, example = load_target(Path(target))
    except (SceneError, TargetError) as error:
        print(error, file=sys.stderr)
        return 2
    _show_log_lines()
    try:
        backend = opener(app_name or scene.name, eyes is not None)
    except XrUnavailable as error:
        print(failure_message(error, target), file=sys.stderr)
        return 2
    source = OpenXRSource()
    added = [HapticsPlugin(GRAB_EVENTS), *plugins]
    if example is not None:
        added.append(example.build)
    try:
        world, _ = build_world(scene, source, fixed_hz, seed, added)
        render_eye = eyes(world) if eyes is not None else None
        with world:
            space = "STAGE" if backend.stage else "LOCAL, floor estimated from the head"
            print(f"OpenXR: {backend.runtime}; headset: {backend.headset}; {space}", file=out)
            loop = VrLoop(backend, world, source, render_eye, out)
            reason = loop.run(seconds)
    finally:
        backend.destroy()  # a no-op when the loop already destroyed it
    if loop.lifecycle.failed:
        print(f"playspace run --vr: stopped: {reason}", file=sys.stderr)
        return 1
    print(f"OpenXR: stopped: {reason}", file=out)
    if example is not None and example.summary is not None:
        print(example.summary(world), file=out)
    return 0


def _show_log_lines() -> None:
    """Let the backend's info lines (skipped bindings) reach stderr if nobody set up logging."""
    logger = logging.getLogger("playspace.xr")
    if not logger.handlers and not logging.getLogger().handlers:
        handler = logging.StreamHandler()
        handler.setFormatter(logging.Formatter("%(message)s"))
        logger.addHandler(handler)
        logger.setLevel(logging.INFO)


class VrLoop:
    """One headset run: the session's life, input into the world, the world onto the eyes.

    `clock` and `sleep` are injectable so a scripted runtime drives it in tests at full speed.
    """

    def __init__(
        self,
        backend: XrBackend,
        world: World,
        source: OpenXRSource,
        render_eye: RenderEye | None = None,
        out: TextIO | None = None,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.backend, self.world, self.source = backend, world, source
        self.render_eye = render_eye
        self.out = out or sys.stdout
        self.clock, self.sleep = clock, sleep
        self.lifecycle = SessionLifecycle()
        self.floor = FloorEstimate(backend.stage)
        self._last_time: int | None = None
        self._exit_asked_at: float | None = None
        self._commands: dict[Command, Callable[[], None]] = {
            Command.BEGIN_SESSION: backend.begin,
            Command.END_SESSION: backend.end,
            Command.REQUEST_EXIT: backend.request_exit,
            Command.DESTROY: backend.destroy,
            Command.PAUSE_INPUT: source.pause,
            Command.RESUME_INPUT: source.resume,
            Command.STOP: lambda: None,  # `lifecycle.finished` ends the loop
        }

    def run(self, seconds: float | None = None) -> str:
        """Loop until the lifecycle stops; why it stopped, for the user."""
        started = self.clock()
        while not self.lifecycle.finished:
            try:
                self._turn(started, seconds)
            except XrLost:
                self._execute(self.lifecycle.lose())
            except XrFailed as error:
                self._execute(self.lifecycle.fail(error))
        return self.lifecycle.reason

    def _turn(self, started: float, seconds: float | None) -> None:
        try:
            if seconds is not None and self.clock() - started >= seconds:
                self._exit(f"{seconds:g} s are over")
            self._step()
        except KeyboardInterrupt:
            self._exit("interrupted")

    def _exit(self, reason: str) -> None:
        if self._exit_asked_at is None:
            self._exit_asked_at = self.clock()
        self._execute(self.lifecycle.request_exit(reason))

    def _step(self) -> None:
        for event in self.backend.poll_events():
            self._execute(self.lifecycle.on_event(event))
            if isinstance(event, ReferenceSpaceChanged):
                self.floor.reset()
                self.world.send(RecenterRequested())  # the rig re-seats the player, snaps floor
            elif isinstance(event, InteractionProfileChanged):
                self._controllers_changed()
        asked = self._exit_asked_at
        if asked is not None and self.clock() - asked > EXIT_GRACE:
            late = f"the runtime did not stop the session within {EXIT_GRACE:g} s"
            self._execute(self.lifecycle.give_up(late))
        if self.lifecycle.finished:
            return
        if self.lifecycle.running:
            self._frame()
        else:
            self.sleep(IDLE_POLL)

    def _execute(self, commands: list[Command]) -> None:
        for command in commands:
            self._commands[command]()

    def _controllers_changed(self) -> None:
        """Show the bound controllers and give the throw their centre of mass."""
        profile = self.backend.interaction_profile()
        settings = self.world.try_resource(GrabSettings)
        if settings is not None:
            settings.com_offset = com_offset_for(profile)
        print(f"OpenXR: controllers: {profile_name(profile)}", file=self.out)

    def _frame(self) -> None:
        display = self.backend.display
        frame = None
        if display is None:
            self.sleep(1.0 / INPUT_ONLY_HZ)  # nothing paces an input-only session
            at = self.backend.now()
        else:
            frame = display.wait_frame()
            if frame is None:
                return  # the session is being lost; the next poll says so
            at = frame.time
        actions, poses = self.backend.sync(at)
        space_height = self.floor.update(poses.head)
        self.source.update(map_input(at / 1e9, actions, poses, space_height))
        period = frame.period if frame is not None else round(1e9 / INPUT_ONLY_HZ)
        elapsed = period if self._last_time is None else at - self._last_time
        self._last_time = at
        self.world.advance(max(elapsed, 0) / 1e9)
        queue = self.world.try_resource(HapticQueue)
        if queue is not None and queue.pending:
            self.backend.apply_haptics(queue.drain())
        if display is not None and frame is not None:
            display.end_frame(frame, self._drawer(display.locate_views(at), space_height))

    def _drawer(
        self, views: list[EyeView], space_height: float
    ) -> Callable[[int, EyeTarget], None] | None:
        """Draw the eyes where they are this frame, through the rig's origin after the step."""
        render_eye = self.render_eye
        if render_eye is None or not views or not self.lifecycle.visible:
            return None
        eyes = eye_matrices(views, self._origin(), space_height)

        def draw(index: int, target: EyeTarget) -> None:
            render_eye(eyes[index].view, eyes[index].projection, target)

        return draw

    def _origin(self) -> Pose:
        origin = self.world.get(self.world.resource(Rig).origin, Transform)
        return Pose(origin.position, origin.rotation)
