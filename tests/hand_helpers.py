"""Tracked hands posed for a test: a right hand palm down, fingers curled as said."""

from __future__ import annotations

from playspace.components.input import (
    HandJoints,
)
from playspace.systems.input import hands

_Triple = tuple[float, float, float]


def hand(
    at: _Triple = (0.0, 0.0, 0.0),
    curls: tuple[float, float, float, float, float] = (0.0,) * 5,
    pinched: bool = False,
) -> HandJoints:
    """A right hand, palm down and fingers forward (-Z), its palm joint at `at`, each finger
    (thumb, index, middle, ring, little) curled as said; `pinched` puts the thumb tip on the
    index tip."""
    return hands.posed_hand(at, curls, 1.0 if pinched else 0.0)
