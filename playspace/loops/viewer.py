"""The trace viewer: a recording played in the preview window as a video player plays a film.

``playspace run SCENE --trace FILE`` with a display. The world is built and stepped exactly as
the headless replay builds and steps it (:class:`~playspace.loops.replay.Replay`: the same
plugins on a fresh :class:`~playspace.systems.input.ReplaySource`, one fixed step a frame of
the world), so the window shows, step for step, what ``--headless`` computes and its telemetry
reports. Only how many steps a window frame runs depends on the wall clock: at speed 1 as many
as the frame's wall time holds, at 2x twice as many; paused, none.

Keys follow mpv's: Space pauses and plays; ``.`` steps one fixed step forward and ``,`` one
back (pausing first); Left and Right seek 5 s; Home and End go to the start and the end;
``[`` / ``]`` (or ``-`` / ``=``) halve and double the speed between 0.25x and 4x, Backspace
sets 1x. Seeking forward steps the world without drawing; seeking back builds the world again
and replays it from the start to the target, which is exact because a replay is deterministic
(a few seconds of a long trace take a moment; keyframes would make it faster). At the trace's
end the viewer pauses on the last step, as a video player stops on the last frame, and the
window stays open until Esc; Space there plays it again from the start.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from moderngl_window.context.base import BaseWindow

from playspace.app.replay import Replay, prepare_replay
from playspace.components.debug import PhysicsDebug
from playspace.ecs import World
from playspace.ecs.clock import frame_ns
from playspace.loops.preview import PreviewRun, debug_actions, drive_window
from playspace.loops.replay import show_physics_debug
from playspace.render.preview import Preview, preview_window
from playspace.systems.audio import Audio, AudioPlugin
from playspace.systems.drawn import place_drawn

SPEEDS = (0.25, 0.5, 1.0, 2.0, 4.0)
SEEK = 5.0  # seconds that Left and Right jump
LONGEST_FRAME = 0.25  # wall seconds a frame plays at most: after a hitch the film does not jump
HELP = "Space play/pause | . , step | Left/Right 5 s | Home/End | [ ] speed | Backspace 1x"


class TracePlayer:
    """Plays a :class:`Replay` frame by frame: the viewer's controls (the keys of the module's
    docstring) and its clock. :attr:`world` is the world shown now; a seek back replaces it."""

    def __init__(self, replay: Replay, audio_device: str | None = None) -> None:
        self.replay, self.audio_device = replay, audio_device
        self.world = self._world()
        self.paused = False
        self.speed = 1.0
        self._playhead = 0  # the trace time the picture should show, integer nanoseconds

    @property
    def step(self) -> int:
        """Fixed steps run so far: the picture shows the world at the end of the last one."""
        return self.world.clock.steps

    @property
    def at_end(self) -> bool:
        return self.step >= self.replay.steps

    def play(self, seconds: float) -> int:
        """A window frame of `seconds` of wall time passed: run the fixed steps it brings at
        the current speed (none while paused); return how many ran. Reaching the end pauses."""
        if self.paused:
            return 0
        self._playhead += round(frame_ns(min(seconds, LONGEST_FRAME)) * self.speed)
        clock = self.world.clock
        due = self.step
        while due < self.replay.steps and clock.boundary(due + 1) <= self._playhead:
            due += 1
        ran = self._run_to(due)
        if self.at_end:
            self.paused = True
            self.world.resource(Audio).muted = True
        return ran

    def seek(self, step: int) -> None:
        """Show the world at the end of fixed step `step` (clamped to the trace): forward by
        stepping, back by replaying from the start. Playing or paused, it stays so; the steps
        run to get there are not heard."""
        self.world.resource(Audio).muted = True
        self._run_to(max(0, min(step, self.replay.steps)))  # a new world may come of it
        self.world.resource(Audio).muted = self.paused
        self._playhead = self.world.clock.boundary(self.step)

    def _run_to(self, step: int) -> int:
        if step < self.step:
            debug = self.world.try_resource(PhysicsDebug)
            self.world.close()
            self.world = self._world()
            if debug is not None and debug.shown:  # what the player chose to see stays
                show_physics_debug(self.world)
        ran = step - self.step
        if ran:
            for _ in range(ran):
                self.replay.step(self.world)
            place_drawn(self.world, alpha=1.0)  # the step's end, as telemetry reports it
        return ran

    def _world(self) -> World:
        """A world of the replay, heard through the speakers (:attr:`audio_device`, else the
        default device) while it plays."""
        return self.replay.world([AudioPlugin(output="device", device=self.audio_device)])

    def key_down(self, name: str) -> None:
        """A key pressed in the window (moderngl-window's name in lower case)."""
        hz = self.replay.fixed_hz
        if name == "space":
            if self.paused and self.at_end:
                self.seek(0)  # play it again, as a video player does
            self.paused = not self.paused
            self.world.resource(Audio).muted = self.paused
        elif name in ("period", "comma"):
            self.paused = True
            self.seek(self.step + (1 if name == "period" else -1))
        elif name in ("left", "right"):
            self.seek(self.step + round(SEEK * hz) * (1 if name == "right" else -1))
        elif name == "home":
            self.seek(0)
        elif name == "end":
            self.seek(self.replay.steps)
        elif name in ("left_bracket", "minus", "right_bracket", "equal"):
            faster = name in ("right_bracket", "equal")
            index = SPEEDS.index(self.speed) + (1 if faster else -1)
            self.speed = SPEEDS[max(0, min(index, len(SPEEDS) - 1))]
        elif name == "backspace":
            self.speed = 1.0
        if self.at_end:
            self.paused = True

    def key_up(self, name: str) -> None:
        """Keys act when pressed; a release does nothing."""

    def mouse_moved(self, dx: float, dy: float) -> None:
        """The recording moves the head: the mouse does not."""

    def mouse_scrolled(self, dy: float) -> None:
        """Nothing to scroll."""

    def help_line(self) -> str:
        return HELP

    def status_line(self) -> str:
        """Where the film is, how fast it plays, and whether it is paused or over."""
        hz, total = self.replay.fixed_hz, self.replay.steps
        state = "end (Space plays again)" if self.at_end else "paused" if self.paused else "playing"
        return (
            f"trace {self.step / hz:.2f} / {total / hz:.2f} s (step {self.step} of {total}), "
            f"speed {self.speed:g}x, {state}"
        )


def run_viewer(
    player: TracePlayer,
    window: BaseWindow,
    *,
    camera: str = "head",
    quality: str = "auto",
    frames: int | None = None,
    screenshot: Path | None = None,
    stop: Callable[[], bool] | None = None,
) -> PreviewRun:
    """Play `player` in `window` until it is closed (Esc), `frames` frames have been drawn or
    `stop` says so; `screenshot` saves the last frame."""
    actions = debug_actions(lambda: player.world)
    preview = Preview(
        player.world, player, window, camera=camera, quality=quality, actions=actions,
        capture_mouse=False,
    )  # fmt: skip

    def frame(seconds: float) -> int:
        ran = player.play(seconds)
        preview.world = player.world
        preview.draw(seconds, ran, player.status_line())
        return ran

    return drive_window(preview, frame, frames=frames, screenshot=screenshot, stop=stop)


def view_trace(
    target: Path,
    trace: Path | None,
    *,
    fixed_hz: float | None = None,
    seed: int = 0,
    seconds: float | None = None,
    camera: str = "head",
    quality: str = "auto",
    debug_physics: bool = False,
    frames: int | None = None,
    screenshot: Path | None = None,
    stop: Callable[[], bool] | None = None,
    audio_device: str | None = None,
) -> tuple[PreviewRun, TracePlayer]:
    """Play `trace` through a scene or an example (its own trace when None) in the preview
    window, as the headless replay would (`fixed_hz`, `seed`, `seconds` as there), heard
    through `audio_device` (else the default sound device); what the window did and the
    player as it was left. Raises what loading the target or the trace raises (before any
    window opens), PreviewError when no window opens."""
    replay = prepare_replay(target, trace, seconds, fixed_hz, seed)
    name = trace.name if trace is not None else target.name
    with preview_window(f"playspace: {target.name}, {name}") as window:
        player = TracePlayer(replay, audio_device)
        if debug_physics:
            show_physics_debug(player.world)
        run = run_viewer(
            player, window, camera=camera, quality=quality, frames=frames,
            screenshot=screenshot, stop=stop,
        )  # fmt: skip
    return run, player
