"""The OpenXR input source: the frame the XR loop mapped last, handed to the tracking system.

OpenXR input arrives once a display frame (after ``xrSyncActions``, located for the predicted
display time), while the world samples its source once a fixed step. :class:`OpenXRSource` is
the hand-over between the two: the frame loop :meth:`~OpenXRSource.update`s it, and every
``sample(time)`` in between returns that latest frame, stamped with the step's time as the
other sources stamp theirs, so the throw's velocity history sees one clock.

While the session is not FOCUSED (the runtime's menu or another app has the controllers) the
source is paused: the head still moves the view, but the hands read as untracked and at rest,
so a press meant for the system menu never grabs or moves the player.
"""

from __future__ import annotations

from dataclasses import replace

from playspace.components.input import HandInput, InputFrame
from playspace.xr.mapping import MappedInput, TrackingStatus


class OpenXRSource:
    """Input from the headset, as the XR frame loop last mapped it; never ends."""

    duration: float | None = None

    def __init__(self) -> None:
        self._mapped = MappedInput(InputFrame())
        self._paused = True  # until the session is FOCUSED
        self._frame = self._visible(self._mapped.frame)

    @property
    def paused(self) -> bool:
        return self._paused

    @property
    def tracking(self) -> TrackingStatus:
        """How well the runtime knew each device in the latest frame (valid is usable;
        tracked means measured, not inferred)."""
        return self._mapped.tracking

    @property
    def latest(self) -> MappedInput:
        """The latest mapped input, aim poses included, as the runtime reported it."""
        return self._mapped

    def update(self, mapped: MappedInput) -> None:
        """Take this display frame's input (the XR loop calls this once a frame)."""
        self._mapped = mapped
        self._frame = self._visible(mapped.frame)

    def pause(self) -> None:
        self._paused = True
        self._frame = self._visible(self._mapped.frame)

    def resume(self) -> None:
        self._paused = False
        self._frame = self._visible(self._mapped.frame)

    def sample(self, time: float) -> InputFrame:
        frame = self._frame
        return frame if frame.time == time else replace(frame, time=time)

    def _visible(self, frame: InputFrame) -> InputFrame:
        return replace(frame, left=HandInput(), right=HandInput()) if self._paused else frame
