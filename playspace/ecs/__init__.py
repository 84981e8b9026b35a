"""The runtime core: a world on esper, resources, buffered events, phases and a fixed clock.

It knows nothing of VR; everything else in playspace is built from these parts::

    from dataclasses import dataclass
    from playspace.ecs import Phase, World, system

    @dataclass(slots=True)
    class Height:
        metres: float

    @system(Phase.FIXED)
    def sink(world: World) -> None:
        for _, (height,) in world.query(Height):
            height.metres -= 0.1 * world.fixed_time.dt

    world = World(fixed_hz=90)
    world.add_system(sink)
    world.spawn(Height(1.7))
    world.step(90)  # one second, exactly
"""

from playspace.ecs.clock import FixedClock, FixedTime, Time
from playspace.ecs.conditions import (
    Condition,
    all_of,
    any_changed,
    any_of,
    any_with,
    not_,
    on_event,
    resource_exists,
)
from playspace.ecs.errors import (
    ComponentError,
    MissingComponent,
    MissingResource,
    PluginError,
    ScheduleError,
    SystemFailed,
)
from playspace.ecs.events import EventQueue
from playspace.ecs.schedule import Phase, Schedule, SystemSet, SystemSpec, SystemStats, system
from playspace.ecs.world import WORLDS_LOCK, Despawned, Plugin, World

__all__ = [
    "WORLDS_LOCK",
    "ComponentError",
    "Condition",
    "Despawned",
    "EventQueue",
    "FixedClock",
    "FixedTime",
    "MissingComponent",
    "MissingResource",
    "Phase",
    "Plugin",
    "PluginError",
    "Schedule",
    "ScheduleError",
    "SystemFailed",
    "SystemSet",
    "SystemSpec",
    "SystemStats",
    "Time",
    "World",
    "all_of",
    "any_changed",
    "any_of",
    "any_with",
    "not_",
    "on_event",
    "resource_exists",
    "system",
]
