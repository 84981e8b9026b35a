"""The OpenXR session's life, as a pure state machine: events in, commands out.

OpenXR tells an application what to do through session-state events; the application must
answer each one with the right call at the right time (``xrBeginSession`` on READY,
``xrEndSession`` on STOPPING, ...). :class:`SessionLifecycle` holds that knowledge apart from
the calls themselves, so every sequence a runtime can send, including losing the session and
being told to exit, is tested without a headset. The frame loop feeds it events and carries out
the :class:`Command` values it returns, in order.

The states (``XrSessionState``)::

    IDLE -> READY -> SYNCHRONIZED -> VISIBLE -> FOCUSED     the runtime brings the app up
    FOCUSED -> VISIBLE -> SYNCHRONIZED -> STOPPING -> IDLE  ... and takes it down again
    LOSS_PENDING                                            the session is about to be lost
    EXITING                                                 the runtime wants the app to quit

Input reaches the world only while FOCUSED: in VISIBLE the runtime's own menu has the
controllers, and presses meant for it must not grab or teleport.

Quitting follows what Monado needs, as seen against it: destroying a session that is still
running can crash the runtime, so the app asks (``xrRequestExitSession``), waits for STOPPING,
ends the session, and destroys it only once it has stopped. ``xrEndSession`` is only valid in
STOPPING, so END_SESSION is asked for there and nowhere else; :meth:`SessionLifecycle.give_up`
is the last resort for a runtime that never answers.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from playspace.components.session import SessionState


class Command(Enum):
    """What the frame loop must do next, in the order given."""

    BEGIN_SESSION = "begin_session"  # xrBeginSession: start the frame loop
    END_SESSION = "end_session"  # xrEndSession: the frame loop has stopped
    REQUEST_EXIT = "request_exit"  # xrRequestExitSession: ask the runtime to stop us
    DESTROY = "destroy"  # destroy the session and the instance
    PAUSE_INPUT = "pause_input"  # hands go neutral in the world
    RESUME_INPUT = "resume_input"
    STOP = "stop"  # leave the loop; nothing more will be asked


# Events from the runtime, as plain data (the backend turns XrEventDataBuffer into these).


@dataclass(frozen=True, slots=True)
class StateChanged:
    state: SessionState


@dataclass(frozen=True, slots=True)
class InstanceLossPending:
    """The runtime is going away (it crashed, updated or was closed)."""


@dataclass(frozen=True, slots=True)
class ReferenceSpaceChanged:
    """The tracking space moved, usually because the player recentered."""


@dataclass(frozen=True, slots=True)
class InteractionProfileChanged:
    """Other controllers (or none) are bound now: the frame loop asks which."""


@dataclass(frozen=True, slots=True)
class RefreshRateChanged:
    """The display's refresh rate changed (``XR_FB_display_refresh_rate``), to `hz`."""

    hz: float


XrEvent = (
    StateChanged
    | InstanceLossPending
    | ReferenceSpaceChanged
    | InteractionProfileChanged
    | RefreshRateChanged
)


class FailureKind(Enum):
    """Why no session could be opened, in the words the user reads."""

    NO_RUNTIME = "no OpenXR runtime"
    NO_HEADSET = "no headset"
    SESSION_REFUSED = "the runtime refused the session"


LOST = "the OpenXR session was lost"


class XrUnavailable(Exception):
    """No session: `kind` says which step failed, `detail` what the runtime said."""

    def __init__(self, kind: FailureKind, detail: str) -> None:
        super().__init__(f"{kind.value}: {detail}")
        self.kind = kind
        self.detail = detail


class XrFailed(Exception):
    """The runtime failed a call while the session ran: no frame loop goes on from that.

    `step` names the call (``xrWaitFrame``), `detail` what the runtime said. `gone` is True
    when the runtime itself went away (``XR_ERROR_INSTANCE_LOST``: a crashed or killed
    service): its handles must then be left alone, since destroying them calls into a
    runtime that is no longer there.
    """

    def __init__(self, step: str, detail: str, gone: bool = False) -> None:
        super().__init__(f"{step}: {detail}")
        self.step = step
        self.detail = detail
        self.gone = gone


class XrLost(Exception):
    """A call answered that the session is being lost (``XR_SESSION_LOSS_PENDING``)."""


class SessionLifecycle:
    """Where the session is and what must happen next.

    `running` is True between BEGIN_SESSION and END_SESSION: only then may the loop call
    ``xrWaitFrame``/``xrBeginFrame``/``xrEndFrame``. `input_active` is True while FOCUSED.
    `finished` is True once STOP was given, and `reason` then says why, for the user;
    `failed` says the runtime broke the session rather than anyone ending it.
    """

    def __init__(self) -> None:
        self.state = SessionState.UNKNOWN
        self.running = False
        self.input_active = False
        self.exit_requested = False
        self.finished = False
        self.failed = False
        self.reason = ""

    @property
    def visible(self) -> bool:
        """Whether what the app renders is shown (the layers are worth drawing)."""
        return self.state in (SessionState.VISIBLE, SessionState.FOCUSED)

    def on_event(self, event: XrEvent) -> list[Command]:
        """The commands an event calls for; events that are not about the session's life
        (recentering, controllers) ask for none here."""
        if self.finished:
            return []
        if isinstance(event, InstanceLossPending):
            return self._shut_down("the OpenXR runtime went away")
        if isinstance(event, StateChanged):
            return self._on_state(event.state)
        return []

    def request_exit(self, reason: str = "the run is over") -> list[Command]:
        """The app wants to quit (time is up, Ctrl-C, the window closed)."""
        if self.finished or self.exit_requested:
            return []
        self.exit_requested = True
        self.reason = reason  # kept for when the session has stopped
        if self.running:
            return [Command.REQUEST_EXIT]  # then wait for STOPPING
        return self._shut_down(reason)

    def give_up(self, reason: str) -> list[Command]:
        """Stop now, whatever the runtime says: it did not answer an exit request in time.
        The session cannot be ended before STOPPING (``XR_ERROR_SESSION_NOT_STOPPING``), so
        this destroys it running: the last resort the module docstring warns about."""
        if self.finished:
            return []
        return self._shut_down(f"{self.reason} ({reason})" if self.reason else reason)

    def lose(self) -> list[Command]:
        """A call said the session is being lost: as the LOSS_PENDING state, destroy and stop."""
        if self.finished:
            return []
        return self._shut_down(LOST)

    def fail(self, error: XrFailed) -> list[Command]:
        """A call failed mid-session. The runtime may still be alive (it refused one frame's
        layers, say), and destroying a running session can crash it: so the first failure
        asks to exit and the session ends in order, with empty frames, as any exit does. A
        second failure (the runtime is gone: every call fails) destroys the session and
        stops. The first error is the reason either way."""
        if self.finished:
            return []
        if self.failed or not self.running or self.exit_requested:
            self.failed = True
            return self._shut_down(self.reason or f"the OpenXR runtime failed ({error})")
        self.failed = True
        self.exit_requested = True
        self.reason = f"the OpenXR runtime failed ({error})"
        return [*self._input_follows(SessionState.UNKNOWN), Command.REQUEST_EXIT]

    def _on_state(self, state: SessionState) -> list[Command]:
        self.state = state
        commands = self._input_follows(state)
        if state is SessionState.READY:
            if self.exit_requested:
                return [*commands, *self._shut_down(self.reason)]
            self.running = True
            commands.append(Command.BEGIN_SESSION)
        elif state is SessionState.STOPPING:
            if self.running:
                self.running = False
                commands.append(Command.END_SESSION)
        elif state is SessionState.IDLE:
            if self.exit_requested and not self.running:
                commands += self._shut_down(self.reason)
        elif state is SessionState.LOSS_PENDING:
            # The session is being lost: ending it would fail; destroy it and stop.
            commands += self._shut_down(LOST)
        elif state is SessionState.EXITING:  # comes after STOPPING and IDLE: already ended
            reason = self.reason if self.exit_requested else "the OpenXR runtime asked to exit"
            commands += self._shut_down(reason)
        return commands

    def _input_follows(self, state: SessionState) -> list[Command]:
        wanted = state is SessionState.FOCUSED
        if wanted == self.input_active:
            return []
        self.input_active = wanted
        return [Command.RESUME_INPUT if wanted else Command.PAUSE_INPUT]

    def _shut_down(self, reason: str) -> list[Command]:
        commands = self._input_follows(SessionState.UNKNOWN)
        self.running = False
        self.finished = True
        self.reason = reason
        return [*commands, Command.DESTROY, Command.STOP]
