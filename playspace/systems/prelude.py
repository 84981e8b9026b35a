"""What every system of a game shares: the fixed step's and the LATE phase's sets, telemetry,
and the events the built-in systems send (``events.Grabbed``, ``events.Hit``: a namespace of
their own)."""

from playspace.systems import events
from playspace.systems.sets import FixedSet, LateSet
from playspace.systems.telemetry import TelemetryPlugin, record_events

__all__ = ["FixedSet", "LateSet", "TelemetryPlugin", "events", "record_events"]
