"""The headset session as the world sees it: a resource the headset loop keeps up to date.

A system that must not act while the player is in the runtime's own menu (the controllers
belong to it then) runs only while the session is FOCUSED:
``world.add_system(fire, run_if=session_focused)`` (:mod:`playspace.systems.input.session`).
Headless and preview runs have no session, and such a system runs there as always.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class SessionState(Enum):
    """``XrSessionState``, with the same names and numbers."""

    UNKNOWN = 0
    IDLE = 1
    READY = 2
    SYNCHRONIZED = 3
    VISIBLE = 4
    FOCUSED = 5
    STOPPING = 6
    LOSS_PENDING = 7
    EXITING = 8


@dataclass(slots=True)
class HeadsetSession:
    """The session a headset run drives the world from; a resource.

    `state` follows the runtime's session state; `runtime` and `headset` name them;
    `controllers` is the bound interaction profile's name for people (None before any binds);
    `display_hz` the headset's refresh rate (0 until the first frame says it).
    """

    runtime: str = ""
    headset: str = ""
    state: SessionState = SessionState.UNKNOWN
    controllers: str | None = None
    display_hz: float = 0.0

    @property
    def focused(self) -> bool:
        """Whether the application has the controllers (FOCUSED)."""
        return self.state is SessionState.FOCUSED
