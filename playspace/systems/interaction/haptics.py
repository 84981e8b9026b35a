"""Haptic feedback for what happens: grab, release and hit buzz the hands they are about, in
the hands of the player this process shows (``LocalPlayer``: the headset's controllers buzz;
another player's grab on a host is not felt here).

:class:`HapticsPlugin` gives grab, release and hit their short default pulses
(:data:`DEFAULT_PULSES`, by event ``kind``), so every game gets that feedback without set-up;
a game changes the shapes by passing its own table. The plugin takes the event types from its
caller, so this module depends only on the ECS and the components: any event type with a
``kind`` class attribute and a ``hand`` entity (the hand that grabbed or let go) or an
``object`` entity (the held object that hit something: the hands holding it buzz) works.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TypeAlias

from playspace.components import DeviceRole
from playspace.components.haptics import HapticPulse, HapticQueue
from playspace.components.interaction import Hand, Holding
from playspace.components.rig import LocalPlayer, Rig
from playspace.ecs import Phase, World

PulseShape: TypeAlias = tuple[
    float, float, float
]  # amplitude, duration (s), frequency (Hz, 0: default)

# Short ticks for grab and release (felt, not noticed), a firm knock for a hit: shapes in the
# range Godot XR Tools and XRI use for the same events (amplitude 0.2-1, 10-100 ms).
DEFAULT_PULSES: dict[str, PulseShape] = {
    "grabbed": (0.4, 0.02, 0.0),
    "released": (0.2, 0.015, 0.0),
    "hit": (0.9, 0.06, 0.0),
}


def pulse_for(
    kind: str, hand: DeviceRole, pulses: Mapping[str, PulseShape] = DEFAULT_PULSES
) -> HapticPulse | None:
    """The pulse an event of `kind` plays on `hand`, or None when the table has none."""
    shape = pulses.get(kind)
    return None if shape is None else HapticPulse(hand, *shape)


def _hands_of(world: World, event: object, local: set[int]) -> list[DeviceRole]:
    """The hands of the players numbered `local` an event is about: its `hand` entity's
    side, or the sides of the hands holding its `object`."""
    hand = getattr(event, "hand", None)
    if isinstance(hand, int):
        component = world.try_get(hand, Hand)
        return [] if component is None or component.player not in local else [component.side]
    held = getattr(event, "object", None)
    if isinstance(held, int):
        return [
            h.side
            for _, (h, holding) in world.query(Hand, Holding)
            if holding.object == held and h.player in local
        ]
    return []


class HapticsPlugin:
    """Play `pulses` (by event ``kind``) on the hands that `events` are about; adds the
    :class:`HapticQueue` resource that the headset loop drains."""

    def __init__(
        self, events: Iterable[type[object]], pulses: Mapping[str, PulseShape] = DEFAULT_PULSES
    ) -> None:
        self.events: tuple[type[object], ...] = tuple(events)
        self.pulses = dict(pulses)
        for kind in self.pulses:  # a bad shape fails here, not at the first grab
            pulse_for(kind, DeviceRole.LEFT_HAND, self.pulses)

    def build(self, world: World) -> None:
        world.insert_resource(HapticQueue())
        for kind in self.events:
            world.add_event(kind)
        world.add_system(
            self,
            phase=Phase.LATE,
            reads=(*self.events, Hand, Holding, Rig, LocalPlayer),
            writes=(HapticQueue,),
            name="haptic_feedback",
        )

    def run(self, world: World) -> None:
        """Turn this frame's events into pulses (LATE: after every fixed step that sent one)."""
        queue = world.resource(HapticQueue)
        local = {rig.player for _, (rig, _) in world.query(Rig, LocalPlayer)}
        for kind in self.events:
            name = str(getattr(kind, "kind", ""))
            for event in world.read_events(kind, reader=self):
                for hand in _hands_of(world, event, local):
                    pulse = pulse_for(name, hand, self.pulses)
                    if pulse is not None:
                        queue.send(pulse)
