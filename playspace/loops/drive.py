"""A recorded trace played into Monado's remote driver (``--drive``, ``playspace drive``).

The driver (:class:`~playspace.xr.monado.RemoteDriver`) sends whatever input frames it is
given; this gives it a trace's, with the velocities a tracker would have measured
(:func:`~playspace.systems.input.velocities.with_velocities`) and the hands' curls read from
their joints.
"""

from __future__ import annotations

from typing import Any

from playspace.components.input import HandJoints
from playspace.formats.trace import Trace
from playspace.spatial import Pose
from playspace.systems.input.hands import finger_curls, palm_pose
from playspace.systems.input.sources import ReplaySource
from playspace.systems.input.velocities import with_velocities
from playspace.xr.monado import Curls, RemoteDriver


def hand_shape(joints: HandJoints) -> tuple[Curls, Pose]:
    """A tracked hand's finger curls and palm pose, as the driver's packet carries them."""
    return finger_curls(joints), palm_pose(joints)


def trace_driver(trace: Trace, **options: Any) -> RemoteDriver:
    """A driver that plays `trace` (its clock from ``start_clock``); `options` are the
    driver's own (port, hz, connect_seconds, clock)."""
    replay = ReplaySource(with_velocities(trace))
    span = (trace.samples[0].time, trace.duration)
    return RemoteDriver(replay.sample, span, hand_shape, **options)
