"""Controller presses a loop answers between frames (the headset has no keyboard): each seen
once per press, from the local player's hands as the last fixed step read them.

- both grips held while the left stick is clicked: keep the last 30 s of input (a chord no
  game control uses alone, and one a player makes without looking);
- the left controller's menu button: show or hide the inspector on the wrist (the right
  hand's is the runtime's own).
"""

from __future__ import annotations

from collections.abc import Callable

from playspace.components import HandControls
from playspace.components.input import Button
from playspace.ecs import World
from playspace.systems.player import local_rig

CHORD_GRIP = 0.8  # how far both grips are squeezed for the chord

Held = Callable[[HandControls, HandControls], bool]  # (left, right): whether it is held now


def keep_chord(left: HandControls, right: HandControls) -> bool:
    return left.grip >= CHORD_GRIP and right.grip >= CHORD_GRIP and Button.STICK in left.buttons


def left_menu(left: HandControls, right: HandControls) -> bool:
    return Button.MENU in left.buttons


class Press:
    """`held` of the local player's hands, true once per press (on the frame it begins)."""

    def __init__(self, held: Held) -> None:
        self.held = held
        self._was = False

    def pressed(self, world: World) -> bool:
        rig = local_rig(world)
        if rig is None:
            return False
        left = world.get(rig.left_hand, HandControls)
        held = self.held(left, world.get(rig.right_hand, HandControls))
        fresh = held and not self._was
        self._was = held
        return fresh
