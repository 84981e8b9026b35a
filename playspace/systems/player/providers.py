"""Locomotion providers: each way of moving the player is a fixed-step system of its own.

A provider is a function ``move(world, rig, disabled) -> bool`` declared with
:func:`locomotion_provider`; :func:`add_provider` puts it in the ``locomotion`` set, ordered
against the providers already there by its ``order`` (ties by name), and registers it in the
:class:`~playspace.components.locomotion.Locomotion` resource, where a game can switch it off
or move it. Each step an enabled provider runs once for each player (`rig`: that player's
:class:`~playspace.components.rig.Rig`); ``disabled`` is True when an exclusive provider before
it took that player's step, so it can let go of what it was doing without moving the player.
A provider returns True when it is active for the player this step; an exclusive one that does
takes the step from those after it. A provider that carries the player continuously says so in
the origin's :class:`~playspace.components.rig.OriginMotion`, which :func:`locomotion_start`
clears before any provider runs, with the walking speed's scale in
:class:`~playspace.components.rig.MoveState` (a sprint raises it for the step). What a provider
keeps between steps goes on the player (the origin), not in a resource: each player has their
own.

A new mode, in one file::

    @locomotion_provider(order=12, exclusive=True, reads=(HandControls,), writes=(Transform,))
    def fly(world: World, rig: Rig, disabled: bool) -> bool:
        ...
        return flying

    add_provider(world, fly)
"""

from __future__ import annotations

import inspect
import warnings
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from playspace.components.locomotion import Locomotion, Provider
from playspace.components.rig import LocalPlayer, MoveState, OriginMotion, Rig
from playspace.ecs import Phase, PluginError, World, system
from playspace.systems.sets import FixedSet

Move = Callable[[World, Rig, bool], bool]
OneMove = Callable[[World, bool], bool]  # before several players: deprecated, the local player only

LOCOMOTION_START = "locomotion_start"


@dataclass(frozen=True, slots=True)
class ProviderSpec:
    """A provider's function and what it declares, before it is added to a world."""

    move: Move
    name: str
    order: int
    exclusive: bool
    reads: tuple[type, ...]
    writes: tuple[type, ...]


def locomotion_provider(
    order: int,
    *,
    exclusive: bool = False,
    reads: Iterable[type] = (),
    writes: Iterable[type] = (),
    name: str | None = None,
) -> Callable[[Move | OneMove], ProviderSpec]:
    """Declare ``move(world, rig, disabled) -> bool`` a locomotion provider running at `order`
    (lower first: Godot XR Tools' convention), taking the step when `exclusive` and active.

    A ``move(world, disabled)`` of before worlds had several players still works, with a
    DeprecationWarning: it moves the player this process shows only (``LocalPlayer``)."""

    def declare(move: Move | OneMove) -> ProviderSpec:
        read = tuple(reads)
        if len(inspect.signature(move).parameters) == 2:
            warnings.warn(
                f"locomotion provider {move.__name__!r} takes (world, disabled): take "
                "(world, rig, disabled) to move every player; this one moves the player this "
                "process shows only",
                DeprecationWarning,
                stacklevel=2,
            )
            move = _local_player_only(move)  # type: ignore[arg-type]
            read = (*read, LocalPlayer)
        return ProviderSpec(
            move,  # type: ignore[arg-type]
            name or move.__name__,
            order,
            exclusive,
            read,
            tuple(writes),
        )

    return declare


def _local_player_only(move: OneMove) -> Move:
    """A provider of one argument less, run for the player this process shows and skipped
    for the others."""

    def for_the_local(world: World, rig: Rig, disabled: bool) -> bool:
        return move(world, disabled) if world.has(rig.origin, LocalPlayer) else False

    for_the_local.__name__ = move.__name__
    return for_the_local


class _ProviderSystem:
    """The system that runs one provider: enabled or not, disabled or not, taking the step."""

    def __init__(self, spec: ProviderSpec) -> None:
        self.spec = spec

    def run(self, world: World) -> None:
        provider = world.resource(Locomotion).providers[self.spec.name]
        if not provider.enabled:
            return
        for origin, rig in world.each(Rig):
            motion = world.get(origin, OriginMotion)
            disabled = motion.taken_by is not None
            if self.spec.move(world, rig, disabled) and provider.exclusive and not disabled:
                motion.taken_by = provider.name


def add_provider(world: World, spec: ProviderSpec) -> Provider:
    """Add a provider to the world (after the player's plugin); returns its entry in the
    :class:`Locomotion` resource, where ``enabled`` and ``exclusive`` may change at any time
    (its ``order`` places it when it is added)."""
    locomotion = world.try_resource(Locomotion)
    if locomotion is None:
        raise PluginError(f"provider {spec.name!r} needs the player's plugin: add it first")
    if spec.name in locomotion.providers:
        raise PluginError(f"a locomotion provider named {spec.name!r} is already in this world")
    rank = (spec.order, spec.name)
    others = [(p.order, p.name) for p in locomotion.providers.values()]
    world.add_system(
        _ProviderSystem(spec),
        phase=Phase.FIXED,
        in_set=FixedSet.LOCOMOTION,
        name=spec.name,
        after=(LOCOMOTION_START, *(name for o, name in others if (o, name) < rank)),
        before=tuple(name for o, name in others if (o, name) > rank),
        reads=(Locomotion, Rig, *spec.reads),
        writes=(OriginMotion, *spec.writes),
    )
    provider = Provider(spec.name, spec.order, exclusive=spec.exclusive)
    locomotion.providers[spec.name] = provider
    return provider


@system(
    Phase.FIXED,
    in_set=FixedSet.LOCOMOTION,
    name=LOCOMOTION_START,
    reads=(Rig,),
    writes=(OriginMotion, MoveState),
)
def locomotion_start(world: World) -> None:
    """Before any provider: no player's origin has been carried or taken yet this step, and
    walking goes at its own speed until a provider says otherwise."""
    for origin, _ in world.each(Rig):
        motion = world.get(origin, OriginMotion)
        motion.continuous, motion.taken_by = False, None
        world.get(origin, MoveState).speed_scale = 1.0
