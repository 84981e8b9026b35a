"""The desktop preview: the world in a window, played through the XR simulator.

``playspace run SCENE.toml`` opens it (``docs/preview.md``); ``playspace run SCENE --trace
FILE`` plays a recording in it (:mod:`playspace.loops.viewer`). The window is moderngl-window's,
glfw by default (``MODERNGL_WINDOW=pyglet`` picks another backend); the loop is ours, not the
library's (:mod:`playspace.loops.preview`), so a frame is always: poll events, move the world
(the simulator and ``world.advance`` by the frame's wall time, or the trace player's steps),
:meth:`Preview.draw` the camera's view at the window's current aspect and the overlay, swap.

Keys and mouse buttons go to the controls by name (moderngl-window's key names in lower case,
``mouse_left``, ``mouse_right``), so the simulator knows nothing of windows. The window keeps
keys of its own: F5 switches the camera (the head's, a spectator's behind the player, the
scene's own when its file has a ``[camera]`` table), M frees
or captures the mouse, F11 toggles full screen, Esc closes; the loop may add more (F3, the
physics debug view) as :data:`Action` s. glfw's gamepads drive opponents: connected pads are
read each sample, none gives none.

This module imports moderngl-window and glfw, so only the preview run imports it.
"""

from __future__ import annotations

import re
import textwrap
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any, Protocol

import glfw
import moderngl_window
import numpy as np
from moderngl_window.context.base import BaseWindow
from moderngl_window.text.bitmapped.text_2d import TextWriter2D

from playspace.components.debug import LiveStatus
from playspace.components.drawn import DrawnView
from playspace.components.input import Gamepad, PadButton
from playspace.ecs import World
from playspace.render.cameras import CAMERAS, Camera, camera_named, has_scene_camera
from playspace.render.capture import U8Image
from playspace.render.passes import add_standard_passes
from playspace.render.quality import AUTO, quality_named
from playspace.render.renderer import Renderer
from playspace.render.views import View

SIZE = (1280, 720)
TEXT_SIZE = 16.0  # pixels: the height of a line of overlay text
CHAR_ASPECT = 77 / 159  # width over height of moderngl-window's bitmapped font (VeraMono)
MARGIN = 6.0  # pixels between the overlay and the window's edge
SLOWEST = 3  # systems named in the overlay
SMOOTHING = 0.1  # how much of each new frame time the overlay's figure takes in
STICK_DEADZONE = 0.1  # a resting gamepad stick reads a little off centre: not a move
MOUSE_BUTTONS = {1: "mouse_left", 2: "mouse_right"}  # moderngl-window numbers them from 1
CAMERA_KEY = "f5"  # Minecraft's key for its third-person view
WINDOW_KEYS = "M mouse | F11 full screen | Esc quit"
PAD_BUTTONS = {  # glfw's gamepad button indices
    glfw.GAMEPAD_BUTTON_A: PadButton.A,
    glfw.GAMEPAD_BUTTON_B: PadButton.B,
    glfw.GAMEPAD_BUTTON_X: PadButton.X,
    glfw.GAMEPAD_BUTTON_Y: PadButton.Y,
    glfw.GAMEPAD_BUTTON_LEFT_BUMPER: PadButton.LEFT_SHOULDER,
    glfw.GAMEPAD_BUTTON_RIGHT_BUMPER: PadButton.RIGHT_SHOULDER,
    glfw.GAMEPAD_BUTTON_BACK: PadButton.BACK,
    glfw.GAMEPAD_BUTTON_START: PadButton.START,
    glfw.GAMEPAD_BUTTON_LEFT_THUMB: PadButton.LEFT_STICK,
    glfw.GAMEPAD_BUTTON_RIGHT_THUMB: PadButton.RIGHT_STICK,
}


class PreviewError(RuntimeError):
    """The preview window could not open; the message says why and what to run instead."""


Action = tuple[str, Callable[[], None]]
"""A key the loop gives the window: its words in the help line ("F3 physics") and what it
does when pressed."""


class Controls(Protocol):
    """What the window's keys and mouse drive: the XR simulator
    (``playspace.systems.input.simulator``) or a trace being played
    (:class:`playspace.loops.viewer.TracePlayer`). The loop moves them each frame."""

    def key_down(self, name: str) -> None: ...
    def key_up(self, name: str) -> None: ...
    def mouse_moved(self, dx: float, dy: float) -> None: ...
    def mouse_scrolled(self, dy: float) -> None: ...
    def help_line(self) -> str: ...


def gamepad_from_state(axes: Sequence[float], buttons: Sequence[int]) -> Gamepad:
    """A Gamepad from glfw's gamepad state (six axes, fifteen buttons). glfw's sticks read +y
    pulled back; a Gamepad's read +y pushed forward, as a controller's stick does."""

    def stick(x: float, y: float) -> tuple[float, float]:
        return (0.0, 0.0) if x * x + y * y < STICK_DEADZONE**2 else (float(x), -float(y))

    return Gamepad(
        stick(axes[glfw.GAMEPAD_AXIS_LEFT_X], axes[glfw.GAMEPAD_AXIS_LEFT_Y]),
        stick(axes[glfw.GAMEPAD_AXIS_RIGHT_X], axes[glfw.GAMEPAD_AXIS_RIGHT_Y]),
        frozenset(button for index, button in PAD_BUTTONS.items() if buttons[index]),
    )


def poll_gamepads() -> tuple[Gamepad, ...]:
    """The connected gamepads glfw knows a mapping for, in joystick order (glfw must be
    initialised: the glfw window does that)."""
    pads = []
    for joystick in range(glfw.JOYSTICK_1, glfw.JOYSTICK_LAST + 1):
        if glfw.joystick_present(joystick):
            state = glfw.get_gamepad_state(joystick)
            if state is not None:
                pads.append(gamepad_from_state(state.axes, state.buttons))
    return tuple(pads)


def frame_view(world: World, size: tuple[int, int], camera: Camera | None = None) -> View | None:
    """The `camera`'s view (the head's by default) for a framebuffer of `size`, its aspect
    that of the window now (so a resize never stretches the picture); None while the window
    has no area (minimised)."""
    width, height = size
    if width <= 0 or height <= 0:
        return None
    return (camera or camera_named("head")).view(world, width / height)


def stats_line(world: World, frame_seconds: float, steps: int | None = None) -> str:
    """Frame time, fixed steps this frame (`steps`, else what the world's last frame ran) and
    the slowest systems of their last run."""
    ran = [spec for spec in world.schedule.all() if spec.stats.calls]
    ran.sort(key=lambda spec: spec.stats.last_ns, reverse=True)
    slowest = ", ".join(f"{s.name} {s.stats.last_ns / 1e6:.2f} ms" for s in ran[:SLOWEST])
    if steps is None:
        steps = world.fixed_time.steps_this_frame
    return (
        f"frame {frame_seconds * 1e3:.1f} ms, {steps} fixed step{'' if steps == 1 else 's'}, "
        f"slowest: {slowest or 'none yet'}"
    )


def fade_line(world: World) -> str | None:
    """Why the view is dark, when it is because the player walked into something: a newcomer
    who sees the preview go black otherwise thinks it crashed. None while the view is clear,
    or dark for another reason (a teleport's blink)."""
    view = world.try_resource(DrawnView)
    if view is None or view.walled_in is None or view.fade < 0.5:
        return None
    return (
        f"the view is dark: your head is {view.walled_in:.2f} m from your body, inside "
        "something the body cannot walk into; step back (S) toward it"
    )


def live_line(world: World) -> str | None:
    """What the last save of the game's files did, while it is shown (a failed one until the
    next good save)."""
    status = world.try_resource(LiveStatus)
    if status is None or not status.line or world.time.elapsed >= status.until:
        return None
    return status.line


def _glfw_reason(message: Warning | str) -> str:
    """glfw's words without pyGLFW's wrapping: ``(65550) b'X11: ...'`` is ``X11: ...``."""
    text = str(message)
    found = re.fullmatch(r"\(\d+\) b(['\"])(.*)\1", text, re.DOTALL)
    return found.group(2) if found else text


@contextmanager
def preview_window(
    title: str, size: tuple[int, int] = SIZE, backend: str = "glfw"
) -> Iterator[BaseWindow]:
    """A resizable OpenGL 3.3 core window (``MODERNGL_WINDOW`` overrides `backend`), made the
    active moderngl-window context and destroyed on leaving; PreviewError, with the windowing
    system's reason, if it cannot open. Open it before writing anything, so a machine that
    cannot show it is left as it was."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", glfw.GLFWError)  # glfw says why as a warning
        try:
            window_class = moderngl_window.get_local_window_cls(backend)
            window = window_class(
                title=title, size=size, resizable=True, vsync=True, gl_version=(3, 3)
            )
        except Exception as error:  # each backend fails in its own words, with bare Exceptions
            said = [_glfw_reason(w.message) for w in caught if w.category is glfw.GLFWError]
            reasons = said or [str(error) or type(error).__name__]
            raise PreviewError(f"could not open a window: {'; '.join(reasons)}") from error
    moderngl_window.activate_context(window=window)
    try:
        yield window
    finally:
        window.destroy()


@dataclass(frozen=True, slots=True)
class Overlay:
    """The preview's own text for one frame: each line with where it is drawn (the middle of
    its first character, in pixels up from the window's bottom left, as moderngl-window's
    text writer takes it), and `top`, the pixels down from the window's top edge that the
    lines at the top cover: the game's screen text goes below them."""

    lines: tuple[tuple[str, tuple[float, float]], ...]
    top: float


def overlay_layout(top: Sequence[str], bottom: Sequence[str], size: tuple[int, int]) -> Overlay:
    """`top` (the help, then why the view is dark) from the window's top left down, and
    `bottom` (the loop's status, the figures) with its last line at the bottom margin."""
    x = MARGIN + TEXT_SIZE * CHAR_ASPECT / 2
    first = size[1] - MARGIN - TEXT_SIZE / 2
    down = [(line, (x, first - row * TEXT_SIZE)) for row, line in enumerate(top)]
    up = [
        (line, (x, MARGIN + TEXT_SIZE / 2 + (len(bottom) - 1 - row) * TEXT_SIZE))
        for row, line in enumerate(bottom)
    ]
    return Overlay((*down, *up), MARGIN + len(top) * TEXT_SIZE if top else 0.0)


class Preview:
    """The preview's window, renderer, camera and overlay on one world and its controls.

    `camera` is the one shown first (a name of :data:`~playspace.render.cameras.CAMERAS`);
    F5 switches to the next. `quality` names a preset of :mod:`playspace.render.quality`.
    `actions` are the loop's keys (by name), tried before the controls see a key.
    `capture_mouse`: take the pointer for mouse look (the simulator's), or leave it free (a
    trace being watched). `world` may be replaced between frames (a trace
    sought back plays a new world from its start)."""

    def __init__(
        self,
        world: World,
        controls: Controls,
        window: BaseWindow,
        *,
        camera: str = CAMERAS[0],
        quality: str = AUTO,
        actions: Mapping[str, Action] | None = None,
        capture_mouse: bool = True,
    ) -> None:
        self.world, self.controls, self.window = world, controls, window
        self.cameras = [camera_named(name) for name in CAMERAS]
        self.camera = self.cameras[CAMERAS.index(camera)]  # ValueError for another name
        self.actions = dict(actions or {})
        self.renderer = add_standard_passes(
            Renderer(window.ctx, quality=quality_named(quality, window.ctx))
        )
        self.lines: list[TextWriter2D] = []  # one a line shown, each uploaded when it changes
        self.wrapped: tuple[tuple[str, int], list[str]] | None = None
        self.overlay = Overlay((), 0.0)  # as the last frame laid it out
        self.frame_seconds: float | None = None  # smoothed, for the overlay
        names = {name: getattr(window.keys, name) for name in dir(window.keys) if name.isupper()}
        self._key_names = {key: name.lower() for name, key in names.items()}
        window.key_event_func = self._key
        window.mouse_position_event_func = self._mouse_moved
        window.mouse_drag_event_func = self._mouse_moved
        window.mouse_press_event_func = self._mouse_pressed
        window.mouse_release_event_func = self._mouse_released
        window.mouse_scroll_event_func = self._mouse_scrolled
        window.resize_func = self._resized
        window.mouse_exclusivity = capture_mouse
        # glfw re-centres a captured cursor when the window changes size or capture, and reports
        # the jump as one motion: the first motion after either is not the player's.
        self._jumped = True

    def _key(self, key: Any, action: Any, modifiers: object) -> None:
        name = self._key_names.get(key)
        keys = self.window.keys
        if name is None or action not in (keys.ACTION_PRESS, keys.ACTION_RELEASE):
            return  # a key repeat, or a key with no name
        if action == keys.ACTION_RELEASE:
            self.controls.key_up(name)
            return
        if name == "m":
            self.window.mouse_exclusivity = not self.window.mouse_exclusivity
            self._jumped = True
        if name == CAMERA_KEY:
            self.switch_camera()
        elif name in self.actions:
            self.actions[name][1]()
        else:
            self.controls.key_down(name)

    def switch_camera(self) -> None:
        """Show the next camera: the head's, the spectator's, the scene's own when the scene
        has one (a world without a ``[camera]`` table skips it), then the head's again."""
        at, count = self.cameras.index(self.camera), len(self.cameras)
        for step in range(1, count + 1):
            self.camera = self.cameras[(at + step) % count]
            if self.camera.name != "scene" or has_scene_camera(self.world):
                return

    def help_line(self) -> str:
        """The controls' keys, then the loop's and the window's."""
        own = [words for words, _ in self.actions.values()]
        keys = [self.controls.help_line(), f"F5 camera ({self.camera.name})", *own, WINDOW_KEYS]
        return " | ".join(keys)

    def _resized(self, width: int, height: int) -> None:
        self._jumped = True  # the view follows by itself: each frame reads the window's size

    def _mouse_moved(self, x: int, y: int, dx: int, dy: int) -> None:
        if self._jumped:
            self._jumped = False
            return
        self.controls.mouse_moved(dx, dy)

    def _mouse_pressed(self, x: int, y: int, button: int) -> None:
        if button in MOUSE_BUTTONS:
            self.controls.key_down(MOUSE_BUTTONS[button])

    def _mouse_released(self, x: int, y: int, button: int) -> None:
        if button in MOUSE_BUTTONS:
            self.controls.key_up(MOUSE_BUTTONS[button])

    def _mouse_scrolled(self, dx: float, dy: float) -> None:
        self.controls.mouse_scrolled(dy)

    def draw(self, seconds: float, steps: int, status: str | None = None) -> None:
        """Draw the world as it is now into the window's back buffer, with the overlay: the
        frame took `seconds` and ran `steps` fixed steps; `status` is a line of the loop's
        own (where a trace is, its speed) shown above the figures. The game's screen text
        (a score) starts below the overlay's help."""
        shown = seconds if self.frame_seconds is None else self.frame_seconds
        self.frame_seconds = shown = shown + (seconds - shown) * SMOOTHING
        window = self.window
        size = window.buffer_size
        view = frame_view(self.world, size, self.camera)
        if view is None:
            return
        stats = stats_line(self.world, shown, steps)
        said = [line for line in (live_line(self.world), fade_line(self.world)) if line]
        overlay = self.overlay = self._lay_out(self.help_line(), stats, size, said, status)
        window.fbo.viewport = (0, 0, *size)
        self.renderer.prepare(self.world)
        self.renderer.draw(replace(view, clear_top=overlay.top / size[1]), window.fbo)
        self._write(overlay)

    def _lay_out(
        self,
        help_text: str,
        stats: str,
        size: tuple[int, int],
        why: Sequence[str] = (),
        status: str | None = None,
    ) -> Overlay:
        """The help wrapped to the window, under it the last reload's line and why the view
        is dark when it is, the loop's status and the figures at the bottom
        (:func:`overlay_layout`). The help is wrapped again only when it or the window's width
        changes."""
        columns = max(20, int((size[0] - 2 * MARGIN) // (TEXT_SIZE * CHAR_ASPECT)))
        key = (help_text, columns)
        if self.wrapped is None or self.wrapped[0] != key:
            self.wrapped = (key, textwrap.wrap(help_text, columns))
        said = [wrapped for line in why for wrapped in textwrap.wrap(line, columns)]
        bottom = [line[:columns] for line in (status, stats) if line is not None]
        return overlay_layout([*self.wrapped[1], *said], bottom, size)

    def _write(self, overlay: Overlay) -> None:
        """Draw the overlay's lines; a line goes to the GPU only when its text changes: the
        overlay is drawn every frame, and is the same text nearly always."""
        while len(self.lines) < len(overlay.lines):
            self.lines.append(TextWriter2D())
        for writer, (line, at) in zip(self.lines, overlay.lines, strict=False):
            if writer.text != line:
                writer.text = line
            writer.draw(at, size=TEXT_SIZE)

    def read(self) -> U8Image:
        """What the window shows now, as (height, width, 3) RGB rows, top row first."""
        width, height = self.window.buffer_size
        # The screen's framebuffer keeps the size it was made with: read the window's size now.
        data = self.window.fbo.read((0, 0, width, height), components=3, alignment=1)
        return np.frombuffer(data, dtype=np.uint8).reshape(height, width, 3)[::-1]

    def release(self) -> None:
        """Free the renderer's GPU objects. The overlay's font is one of moderngl-window's
        resources, freed with the window's context."""
        self.renderer.release()
