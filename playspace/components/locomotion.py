"""Locomotion providers as data: each way of moving the player, its place and its switches.

As Godot XR Tools' player body runs its movement providers, every fixed step runs the enabled
providers in ascending `order`. An `exclusive` provider that is active (a teleport being aimed,
a climb) takes the step: the providers after it run disabled, so they can let go of what they
were doing but do not move the player. A game adds a mode (climbing, flying) as a provider of
its own without touching the others, and switches one off with ``enabled``.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(slots=True)
class Provider:
    """One locomotion provider: its name (the system's), when it runs among the others, and
    whether it may take the step from those after it."""

    name: str
    order: int
    enabled: bool = True
    exclusive: bool = False


@dataclass(slots=True)
class Locomotion:
    """The providers of the world by name, and which one took this step; a resource."""

    providers: dict[str, Provider] = field(default_factory=dict)
    taken: tuple[int, str] | None = None  # (step, provider) of the exclusive one this step
