"""Other players as a client sees them: simple shapes drawn where the host puts another
player's head, hands and body.

An avatar is only drawn (a ``Figure`` of its part's shape beside it): it has no ``RigidBody``
and no ``Colliders``, so the client's physics never meets it, its telemetry never records it
(it is neither a prop nor an opponent) and it is never sent back to the host as a moving body.
The networking client spawns one per part of each remote player, places it each frame (its
``Transform``), and despawns it when the player leaves.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(slots=True)
class Avatar:
    """One part (`part`: ``head``, ``left_hand``, ``right_hand``, ``body``) of another player
    (`player`, their name in the match)."""

    player: str
    part: str


__all__ = ["Avatar"]
