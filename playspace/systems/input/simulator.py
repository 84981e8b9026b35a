"""The XR device simulator: keyboard and mouse play a headset and two controllers.

Like Unity's XR Device Simulator, it lets a desktop drive the rig the way a headset would: the
mouse turns the head, WASD walks *physically* (the head moves in tracking space, so the body
follows it and walls fade the view exactly as in a real room), and keys hold each hand's grip,
trigger, stick and buttons. It is an input source like any other, so every rig feature
(snap turn, teleport, smooth movement, grab and throw) runs unchanged under it.

This module is pure logic, with no window and no GL: the preview window forwards its events
here by name and calls :meth:`Simulator.update` once a frame; the rig samples it once per fixed
step. Key names are moderngl-window's key names in lower case (``"w"``, ``"tab"``, ``"up"``,
``"enter"``); the mouse buttons are ``"mouse_left"`` and ``"mouse_right"``.

A key pressed and released between two fixed steps (a quick tap, or xdotool's) still reaches
the rig: a release only takes effect once a sample has seen the press, and once samples have
seen it down for :data:`SHORTEST_PRESS` of world time (a finger's quickest press). Each step
sees the stick between two window frames, so a tap held for one frame only would reach the
steps as a ramp that may never pass the flick threshold; held that long it spans frames. That
is what makes a tap of Z a snap turn however the frames and steps fall.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Literal

from playspace import spatial
from playspace.components.input import Button, DevicePose, Gamepad, HandInput, InputFrame
from playspace.spatial import Pose, Quat, Vec3

WALK_SPEED = 1.2  # m/s: an unhurried physical walk
CROUCH_SPEED = 1.0  # m/s the head goes down (Q) or up (E)
HEAD_HEIGHT = 1.7  # metres: standing eye height at the start
# radians: the head starts looking 20 degrees down, as a player at a counter or a bench looks
# at their hands and what lies before them, not at the wall beyond
START_PITCH = math.radians(-20.0)
HEIGHT_RANGE = (0.4, 2.2)  # metres: from lying low to tiptoes
LOOK_RATE = 0.003  # radians of head turn per pixel of mouse motion
MAX_PITCH = math.radians(85.0)  # past straight up or down the view turns over: stop short
HAND_RATE = 0.002  # metres of hand motion per pixel, in hand mode
WHEEL_STEP = 0.05  # metres a hand moves away per wheel notch, in hand mode
REACH = 1.0  # metres: a hand stays within arm's reach of the eyes
LONGEST_UPDATE = 0.25  # seconds: a stalled frame walks no further than the world's clock allows
Hand = Literal["left", "right"]
# Where the hands rest, from the eyes in the head's heading: held out low in front, so the
# preview shows them (a 90 degree view sees 45 degrees down).
REST: dict[Hand, Vec3] = {
    "left": spatial.vec3(-0.2, -0.3, -0.45),
    "right": spatial.vec3(0.2, -0.3, -0.45),
}

# The bindings, by key name; the help line is made from these, so it says what the keys do.
WALK = {"w": (0.0, -1.0), "a": (-1.0, 0.0), "s": (0.0, 1.0), "d": (1.0, 0.0)}  # x, z
DOWN, UP = "q", "e"  # crouch, stand up
SWITCH_HAND, HAND_MODE, RESET_HANDS = "tab", "h", "r"
MOVE = {"up": (0.0, 1.0), "down": (0.0, -1.0), "left": (-1.0, 0.0), "right": (1.0, 0.0)}
GRIP = ("g", "mouse_left")
TRIGGER = ("t", "mouse_right")
SNAP = {"z": -1.0, "c": 1.0}  # the right stick flicked left or right
SHORTEST_PRESS = 0.05  # seconds a key counts as down, however quickly it was tapped
TELEPORT = "x"  # held: the right stick forward (aim); released: the stick back (go)
PRIMARY, SECONDARY, STICK_CLICK, MENU = "b", "n", "v", "enter"
FACE_BUTTONS: dict[Hand, tuple[Button, Button]] = {
    "left": (Button.X, Button.Y),
    "right": (Button.A, Button.B),
}
LABELS = {"mouse_left": "LMB", "mouse_right": "RMB"}  # as a key is written for the player
ARROWS = {"up", "down", "left", "right"}


def keys(*names: str) -> str:
    """Keys as the help writes them: ``G/LMB``, ``Tab``; the four arrow keys are ``arrows``,
    letters that share one job run together (``WASD``)."""
    if set(names) == ARROWS:
        return "arrows"
    if len(names) > 2 and all(len(name) == 1 for name in names):
        return "".join(names).upper()
    return "/".join(
        LABELS.get(name, name.upper() if len(name) == 1 else name.title()) for name in names
    )


def no_gamepads() -> Sequence[Gamepad]:
    """The gamepad poller until a window sets one: no pads (a headless run has none)."""
    return ()


@dataclass(slots=True)
class _Head:
    position: Vec3 = field(default_factory=lambda: spatial.vec3(0.0, HEAD_HEIGHT, 0.0))
    yaw: float = 0.0  # radians, positive to the left, as spatial.yaw measures it
    pitch: float = START_PITCH  # radians, positive looking up

    def heading(self) -> Quat:
        return spatial.yaw_rotation(self.yaw)

    def rotation(self) -> Quat:
        pitch = spatial.from_axis_angle(spatial.vec3(1.0, 0.0, 0.0), self.pitch)
        return spatial.multiply(self.heading(), pitch)


class Simulator:
    """An input source played from the keyboard and mouse; see the module docstring.

    `gamepads` is called once a sample for the pads that drive opponents (the preview sets
    it to its glfw poller). :attr:`hand` is the hand the grip, trigger and button keys act on;
    :attr:`hand_mode` makes the mouse move that hand instead of turning the head.
    """

    duration: float | None = None  # a live session never ends by itself

    def __init__(self, gamepads: Callable[[], Sequence[Gamepad]] = no_gamepads) -> None:
        self.gamepads = gamepads
        self.head = _Head()
        self.hands = dict(REST)  # offsets from the eyes, in the head's heading
        self.hand: Hand = "right"
        self.hand_mode = False
        self._held: set[str] = set()
        self._unseen: set[str] = set()  # pressed since the last sample
        self._released: set[str] = set()  # let go too soon: released when seen long enough
        self._now = 0.0  # the time of the newest sample
        self._seen_at: dict[str, float] = {}  # when a sample first saw each key held down

    # Events from the window ----------------------------------------------------------------

    def key_down(self, name: str) -> None:
        """A key (or mouse button) went down; names the simulator does not use are ignored."""
        if name == SWITCH_HAND:
            self.hand = "left" if self.hand == "right" else "right"
        elif name == HAND_MODE:
            self.hand_mode = not self.hand_mode
        elif name == RESET_HANDS:
            self.hands = dict(REST)
        self._held.add(name)
        self._unseen.add(name)
        self._released.discard(name)
        self._seen_at.pop(name, None)

    def key_up(self, name: str) -> None:
        """A key went up: at once, or once a sample has seen it down and it has been down for
        :data:`SHORTEST_PRESS`."""
        if not self._down_long_enough(name, self._now):
            self._released.add(name)
        else:
            self._held.discard(name)

    def mouse_moved(self, dx: float, dy: float) -> None:
        """Mouse motion in pixels (+x right, +y down): turns the head, or moves the hand."""
        if not (math.isfinite(dx) and math.isfinite(dy)):
            return
        if self.hand_mode:
            self._move_hand(spatial.vec3(dx * HAND_RATE, -dy * HAND_RATE, 0.0))
            return
        head = self.head
        head.yaw = math.remainder(head.yaw - dx * LOOK_RATE, math.tau)
        head.pitch = min(MAX_PITCH, max(-MAX_PITCH, head.pitch - dy * LOOK_RATE))

    def mouse_scrolled(self, dy: float) -> None:
        """Wheel notches (+ away from the user): in hand mode, the hand's distance ahead."""
        if self.hand_mode and math.isfinite(dy):
            self._move_hand(spatial.vec3(0.0, 0.0, -dy * WHEEL_STEP))

    def _move_hand(self, by: Vec3) -> None:
        moved = self.hands[self.hand] + by
        reach = spatial.length(moved)
        self.hands[self.hand] = moved if reach <= REACH else moved * (REACH / reach)

    def update(self, dt: float) -> None:
        """Walk and crouch for the `dt` seconds of the frame by the keys held."""
        if not math.isfinite(dt) or dt <= 0:
            return
        dt = min(dt, LONGEST_UPDATE)
        x, z = self._axes(WALK)
        head = self.head
        if x or z:
            step = WALK_SPEED * dt / math.hypot(x, z)
            head.position = head.position + spatial.rotate(
                head.heading(), spatial.vec3(x * step, 0.0, z * step)
            )
        rise = (UP in self._held) - (DOWN in self._held)
        if rise:
            low, high = HEIGHT_RANGE
            height = min(high, max(low, head.position.y + rise * CROUCH_SPEED * dt))
            head.position = spatial.vec3(head.position.x, height, head.position.z)

    # The input source --------------------------------------------------------------------

    def sample(self, time: float) -> InputFrame:
        """The simulated devices now, stamped with `time`; lets go first of keys tapped long
        enough before."""
        self._now = time
        due = {key for key in self._released if self._down_long_enough(key, time)}
        self._held -= due
        self._released -= due
        head = self.head
        rotation = head.rotation()
        frame = InputFrame(
            time,
            DevicePose(Pose(head.position, rotation)),
            self._hand_input("left", rotation, self._axes(MOVE)),
            self._hand_input("right", rotation, self._right_stick()),
            tuple(self.gamepads()),
        )
        for key in self._unseen:
            self._seen_at[key] = time
        self._unseen.clear()
        return frame

    def _down_long_enough(self, key: str, time: float) -> bool:
        """Whether samples have seen `key` held for SHORTEST_PRESS by `time`."""
        return time - self._seen_at.get(key, math.inf) >= SHORTEST_PRESS

    def _axes(self, keys: dict[str, tuple[float, float]]) -> tuple[float, float]:
        x = sum((keys[key][0] for key in self._held if key in keys), 0.0)
        y = sum((keys[key][1] for key in self._held if key in keys), 0.0)
        return (x, y)

    def _right_stick(self) -> tuple[float, float]:
        turn = sum((SNAP[key] for key in self._held if key in SNAP), 0.0)
        return (turn, 1.0 if TELEPORT in self._held else 0.0)

    def _hand_input(self, hand: Hand, rotation: Quat, stick: tuple[float, float]) -> HandInput:
        """A hand where it rests from the eyes, pointing where the head looks (so the
        teleport arc goes where the player looks), with the selected hand's controls."""
        head = self.head
        pose = Pose(head.position + spatial.rotate(head.heading(), self.hands[hand]), rotation)
        if hand != self.hand:
            return HandInput(DevicePose(pose), stick=stick)
        held = self._held
        primary, secondary = FACE_BUTTONS[hand]
        keys = {
            PRIMARY: primary,
            SECONDARY: secondary,
            STICK_CLICK: Button.STICK,
            MENU: Button.MENU,
        }
        return HandInput(
            DevicePose(pose),
            grip=1.0 if any(key in held for key in GRIP) else 0.0,
            trigger=1.0 if any(key in held for key in TRIGGER) else 0.0,
            stick=stick,
            buttons=frozenset(button for key, button in keys.items() if key in held),
        )

    def help_line(self) -> str:
        """The keys, one line, with the selected hand and what the mouse moves."""
        mode = "hand" if self.hand_mode else "head"
        said = (
            "mouse look",
            f"{keys(*WALK)} walk",
            f"{keys(DOWN, UP)} down/up",
            f"{keys(SWITCH_HAND)} hand ({self.hand})",
            f"{keys(HAND_MODE)} mouse moves hand ({mode}; wheel: depth, "
            f"{keys(RESET_HANDS)}: reset)",
            f"{keys(*GRIP)} grip",
            f"{keys(*TRIGGER)} trigger",
            f"{keys(*SNAP)} snap turn",
            f"hold {keys(TELEPORT)} teleport",
            f"{keys(*MOVE)} move",
            f"{keys(PRIMARY, SECONDARY)} buttons, {keys(STICK_CLICK)} stick, {keys(MENU)} menu",
        )
        return " | ".join(said)
