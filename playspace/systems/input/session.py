"""Run conditions on the headset session (:class:`~playspace.components.session.HeadsetSession`)."""

from __future__ import annotations

from playspace.components.session import HeadsetSession
from playspace.ecs import World


def session_focused(world: World) -> bool:
    """True while the headset session is FOCUSED, or when no headset drives the world (headless
    and preview runs): a run condition for systems that act on the player's controls."""
    session = world.try_resource(HeadsetSession)
    return session is None or session.focused
