"""Input without a headset: trace files (``docs/trace-format.md``) and the sources
that turn a trace or a script into input frames, sampled at the fixed step's time.

Live devices (a headset, the desktop simulator) are read once a display frame through a
:class:`LiveSource`, which hands each fixed step the poses at the step's own time.

Load a recording with :func:`load_trace` and play it with :class:`ReplaySource`; record one
with :class:`TraceWriter`, or pass any source through a :class:`Recorder`; record a whole match
(every player, one file) with a :class:`MatchRecorder`; drive a test with
:class:`ScriptedSource` and the builders :func:`standing_frame`, :func:`hand_input` and
:func:`device_pose`.
"""

from playspace.components.input import InputSource
from playspace.formats.trace import (
    PlayerTrace,
    Trace,
    TraceError,
    TraceWriter,
    load_trace,
    write_trace,
)
from playspace.systems.input.keep import KEEP_SECONDS, KeepLast, save_kept
from playspace.systems.input.live import LiveSource
from playspace.systems.input.match import MatchRecorder
from playspace.systems.input.sources import (
    Polled,
    Recorder,
    ReplaySource,
    ScriptedSource,
    device_pose,
    hand_input,
    standing_frame,
)

__all__ = [
    "KEEP_SECONDS",
    "InputSource",
    "KeepLast",
    "LiveSource",
    "MatchRecorder",
    "PlayerTrace",
    "Polled",
    "Recorder",
    "ReplaySource",
    "ScriptedSource",
    "Trace",
    "TraceError",
    "TraceWriter",
    "device_pose",
    "hand_input",
    "load_trace",
    "save_kept",
    "standing_frame",
    "write_trace",
]
