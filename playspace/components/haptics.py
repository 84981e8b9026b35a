"""Haptic pulses as data: what a system asks a hand to feel, and the queue a display drains.

A system (or game code) sends a :class:`HapticPulse` to the :class:`HapticQueue` resource; the
headset loop drains the queue once a frame into the runtime (``xrApplyHapticFeedback``).
Without a headset nothing drains it and the queue stays small: it keeps one pulse per hand, the
strongest, because a controller plays one vibration at a time and a newer one replaces the
last anyway.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from playspace.components.tracking import DeviceRole

HANDS = (DeviceRole.LEFT_HAND, DeviceRole.RIGHT_HAND)


@dataclass(frozen=True, slots=True)
class HapticPulse:
    """A vibration to play on one hand: `amplitude` in [0, 1], `duration` in seconds (0: the
    shortest the controller can play), `frequency` in Hz (0: the controller's own)."""

    hand: DeviceRole
    amplitude: float
    duration: float
    frequency: float = 0.0

    def __post_init__(self) -> None:
        if self.hand not in HANDS:
            raise ValueError(f"haptics play on a hand, not on {self.hand.value}")
        if not (math.isfinite(self.amplitude) and 0.0 <= self.amplitude <= 1.0):
            raise ValueError(f"haptic amplitude must be in [0, 1], got {self.amplitude!r}")
        if not (math.isfinite(self.duration) and 0.0 <= self.duration <= 10.0):
            raise ValueError(f"haptic duration must be 0-10 s, got {self.duration!r}")
        if not (math.isfinite(self.frequency) and self.frequency >= 0.0):
            raise ValueError(f"haptic frequency must be >= 0 Hz, got {self.frequency!r}")


@dataclass(slots=True)
class HapticQueue:
    """Pulses waiting for the next frame, at most one per hand; a resource."""

    pending: dict[DeviceRole, HapticPulse] = field(default_factory=dict)

    def send(self, pulse: HapticPulse) -> None:
        """Queue `pulse`; of two for the same hand in one frame the stronger (then the
        longer) one plays."""
        waiting = self.pending.get(pulse.hand)
        if waiting is None or _strength(pulse) > _strength(waiting):
            self.pending[pulse.hand] = pulse

    def drain(self) -> list[HapticPulse]:
        """The pulses to play now, left hand first; the queue is empty afterwards."""
        pulses = [self.pending[hand] for hand in HANDS if hand in self.pending]
        self.pending.clear()
        return pulses


def _strength(pulse: HapticPulse) -> tuple[float, float]:
    return (pulse.amplitude, pulse.duration)
