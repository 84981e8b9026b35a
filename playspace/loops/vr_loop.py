"""The headset frame loop: one world frame per headset frame, and the session's whole life.

:class:`VrLoop` runs DESIGN.md's frame against an OpenXR runtime (``playspace.loops.headset``
composes it with a world, a display and a runtime):

1. poll the runtime's events and carry out what the :class:`SessionLifecycle` says;
2. while the session runs: wait for the frame, sync the actions and locate head and hands for
   the frame's *predicted display time*, map them into the input frame;
3. advance the world by the time between predicted display times: INPUT reads that frame,
   each fixed step takes the poses of its own time from between the frames around it
   (:class:`~playspace.systems.input.LiveSource`), LATE places what is drawn;
4. locate the eyes for that same display time, place them through the rig's origin, draw each
   with ``render_eye`` and submit the frame (an empty one while not visible, or when the
   runtime says not to render).

The world is built at the first frame, when the display's rate is known: by default the fixed
rate is the headset's refresh rate (``XR_FB_display_refresh_rate`` where the runtime offers it,
else the predicted display period), and it follows a change of rate mid-session. The world gets
the :class:`~playspace.components.session.HeadsetSession` resource, kept in step with the
runtime's session state. The loop talks to the runtime through :class:`XrBackend`, so its whole
life (begin, frames, exit, loss, failure) is tested with a scripted stand-in for the runtime.
"""

from __future__ import annotations

import contextlib
import functools
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Protocol, TextIO

from playspace.components import Transform
from playspace.components.haptics import HapticPulse, HapticQueue
from playspace.components.input import HandInput, InputFrame, InputSource
from playspace.components.interaction import GrabSettings
from playspace.components.session import HeadsetSession
from playspace.ecs import World
from playspace.loops.paced import advance
from playspace.spatial import Pose
from playspace.systems.input import LiveSource
from playspace.systems.player.events import RecenterRequested
from playspace.systems.player.players import local_rig
from playspace.xr.bindings import com_offset_for, profile_name
from playspace.xr.mapping import (
    ActionStates,
    FloorEstimate,
    LocatedPoses,
    MappedInput,
    map_input,
)
from playspace.xr.state import (
    Command,
    InteractionProfileChanged,
    ReferenceSpaceChanged,
    RefreshRateChanged,
    SessionLifecycle,
    XrEvent,
    XrFailed,
    XrLost,
)
from playspace.xr.views import EyeTarget, EyeView, FrameTiming, RenderEye, eye_pose

EXIT_GRACE = 3.0  # seconds the runtime gets to stop the session after an exit request
IDLE_POLL = 0.05  # seconds between event polls while the session is not running
INPUT_ONLY_HZ = 90.0  # the loop's rate without a display to pace it

Build = Callable[[InputSource, float], World]
"""Makes the world to run on an input source at a fixed rate (steps a second)."""


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
    def abandon(self) -> None: ...
    def interaction_profile(self) -> str | None: ...
    def refresh_rate(self) -> float | None: ...
    def now(self) -> int: ...
    def sync(self, at: int) -> tuple[ActionStates, LocatedPoses]: ...
    def apply_haptics(self, pulses: list[HapticPulse]) -> None: ...


class VrLoop:
    """One headset run: the session's life, input into the world, the world onto the eyes.

    `build` makes the world at the first frame, at `fixed_hz` or (None) the display's rate.
    `on_focus` is called the first time the session is FOCUSED (a trace driving the runtime
    starts its clock then). `between` is called with the world before each frame advances
    it (the game's saved files applied, the input kept). `interrupted` says whether Ctrl-C
    was pressed, where the run keeps SIGINT away from the runtime's threads
    (:func:`sigint_polled`). `clock` and `sleep` are injectable so a scripted runtime drives
    it in tests at full speed.
    """

    def __init__(
        self,
        backend: XrBackend,
        build: Build,
        *,
        fixed_hz: float | None = None,
        eyes: Callable[[World], RenderEye] | None = None,
        out: TextIO | None = None,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
        on_focus: Callable[[], None] | None = None,
        interrupted: Callable[[], bool] = lambda: False,
        between: Callable[[World], None] | None = None,
    ) -> None:
        self.on_focus, self.interrupted, self.between = on_focus, interrupted, between
        self.backend, self.build, self.fixed_hz, self.eyes = backend, build, fixed_hz, eyes
        self.out = out or sys.stdout
        self.clock, self.sleep = clock, sleep
        self.lifecycle = SessionLifecycle()
        self.session = HeadsetSession(backend.runtime, backend.headset)
        self.floor = FloorEstimate(backend.stage)
        self.source = LiveSource(self._read)
        self.world: World | None = None
        self.render_eye: RenderEye | None = None
        self.mapped = MappedInput(InputFrame())
        self._profile: str | None = None
        self._controllers: str | None = None  # the last line printed about them
        self._refresh: float | None = None  # the display's rate, where the runtime says it
        self._last_time: int | None = None
        self._next_poll: float | None = None  # input-only pacing: when the next frame is due
        self._exit_asked_at: float | None = None
        self._commands: dict[Command, Callable[[], None]] = {
            Command.BEGIN_SESSION: self._begin,
            Command.END_SESSION: backend.end,
            Command.REQUEST_EXIT: backend.request_exit,
            Command.DESTROY: backend.destroy,
            Command.PAUSE_INPUT: lambda: None,  # `_read` hides the hands while not focused
            Command.RESUME_INPUT: self._focused,
            Command.STOP: lambda: None,  # `lifecycle.finished` ends the loop
        }

    @contextlib.contextmanager
    def closing(self) -> Iterator[VrLoop]:
        """Close the world (when one was built) on leaving."""
        try:
            yield self
        finally:
            if self.world is not None:
                self.world.close()

    def run(self, seconds: float | None = None) -> str:
        """Loop until the lifecycle stops; why it stopped, for the user."""
        started = self.clock()
        while not self.lifecycle.finished:
            try:
                self._turn(started, seconds)
            except XrLost:
                self._recover(self.lifecycle.lose)
            except XrFailed as error:
                if error.gone:
                    self.backend.abandon()
                self._recover(functools.partial(self.lifecycle.fail, error))
        return self.lifecycle.reason

    def _recover(self, decide: Callable[[], list[Command]]) -> None:
        """Carry out what the lifecycle says after a failure or a loss; a call failing on the
        way (the runtime is gone) is one more failure, and that one destroys and stops."""
        try:
            self._execute(decide())
        except (XrLost, XrFailed) as error:
            again = error if isinstance(error, XrFailed) else XrFailed("OpenXR", "session lost")
            if again.gone:
                self.backend.abandon()
            self._execute(self.lifecycle.fail(again))

    def _turn(self, started: float, seconds: float | None) -> None:
        try:
            if self.interrupted():
                self._exit("interrupted")
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
                if self.world is not None:  # the rig re-seats the player, snaps the floor
                    self.world.send(RecenterRequested())
            elif isinstance(event, InteractionProfileChanged):
                self._controllers_changed()
            elif isinstance(event, RefreshRateChanged):
                self._refresh = event.hz
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
        self.session.state = self.lifecycle.state
        for command in commands:
            self._commands[command]()

    def _begin(self) -> None:
        self.backend.begin()
        self._refresh = self.backend.refresh_rate()

    def _focused(self) -> None:
        """The app has the controllers: say which (or that none are bound), once."""
        if self._controllers is None:
            self._controllers_changed()
        if self.on_focus is not None:
            on_focus, self.on_focus = self.on_focus, None
            on_focus()

    def _controllers_changed(self) -> None:
        """Show the bound controllers and give the throw their centre of mass."""
        self._profile = self.backend.interaction_profile()
        self.session.controllers = None if self._profile is None else profile_name(self._profile)
        if self.world is not None:
            self._apply_profile(self.world)
        line = profile_name(self._profile) if self._profile else "none bound"
        if line != self._controllers:
            self._controllers = line
            print(f"OpenXR: controllers: {line}", file=self.out)

    def _apply_profile(self, world: World) -> None:
        settings = world.try_resource(GrabSettings)
        if settings is not None:
            settings.com_offset = com_offset_for(self._profile)

    def _read(self, time: float) -> InputFrame:
        """The frame mapped last, for the world's INPUT phase; the hands at rest and untracked
        while the session is not FOCUSED (the runtime's menu has the controllers), so a press
        meant for it never grabs or moves the player. The head still moves the view."""
        frame = self.mapped.frame
        if not self.lifecycle.input_active:
            frame = replace(frame, left=HandInput(), right=HandInput())
        return replace(frame, time=time)

    def _frame(self) -> None:
        display = self.backend.display
        frame = None
        if display is None:
            at, period = self._paced()
        else:
            frame = display.wait_frame()
            if frame is None:
                return  # the session is being lost; the next poll says so
            at, period = frame.time, frame.period
        world = self._world_at(period)
        actions, poses = self.backend.sync(at)
        space_height = self.floor.update(poses.head)
        self.mapped = map_input(at / 1e9, actions, poses, space_height)
        elapsed = period if self._last_time is None else at - self._last_time
        self._last_time = at
        if self.between is not None:
            self.between(world)
        advance(world, max(elapsed, 0) / 1e9)
        queue = world.try_resource(HapticQueue)
        if queue is not None and queue.pending:
            self.backend.apply_haptics(queue.drain())
        if display is not None and frame is not None:
            drawer = (
                self._drawer(display.locate_views(at), space_height)
                if frame.should_render
                else None
            )
            display.end_frame(frame, drawer)

    def _paced(self) -> tuple[int, int]:
        """An input-only session's frame: nothing paces it, so wait for the next tick of a
        fixed schedule (sleeping only what the work left of the period), then read the
        runtime's clock. A stall restarts the schedule instead of running to catch up."""
        hz = self.fixed_hz or INPUT_ONLY_HZ
        period = 1.0 / hz
        now = self.clock()
        due = now if self._next_poll is None else self._next_poll
        if due > now:
            self.sleep(due - now)
        elif now - due > period:
            due = now
        self._next_poll = due + period
        return self.backend.now(), round(1e9 / hz)

    def _world_at(self, period: int) -> World:
        """The world, built at the first frame; its fixed rate following the display's."""
        display_hz = round(self._refresh or 1e9 / period, 3)  # the runtime says 72.0000076
        self.session.display_hz = display_hz
        hz = self.fixed_hz or display_hz
        world = self.world
        if world is None:
            world = self.world = self.build(self.source, hz)
            world.insert_resource(self.session)
            self._apply_profile(world)
            self.render_eye = self.eyes(world) if self.eyes is not None else None
        elif hz != world.clock.hz:
            world.clock.set_hz(hz)
        return world

    def _drawer(
        self, views: list[EyeView], space_height: float
    ) -> Callable[[int, EyeTarget], None] | None:
        """Draw the eyes where they are this frame, through the rig's origin after the step."""
        render_eye = self.render_eye
        life = self.lifecycle
        if render_eye is None or not views or not life.visible or life.failed:
            return None  # after a failure, only empty frames until the session has stopped
        origin = self._origin()
        poses = [eye_pose(view, origin, space_height) for view in views]

        def draw(index: int, target: EyeTarget) -> None:
            render_eye(poses[index], views[index].fov, target)

        return draw

    def _origin(self) -> Pose:
        assert self.world is not None
        rig = local_rig(self.world)
        if rig is None:
            return Pose.identity()  # no player shown: tracking space is the world
        return self.world.get(rig.origin, Transform).pose()
