"""Cameras: where the preview and captures look from.

- ``head``: the eyes of the player this process shows, where LATE drew their head this
  frame (``DrawnView``: what a headset shows). The renderer's head marker is then around the
  camera and, culled from inside, unseen.
- ``spectator``: a third-person view, behind and above the player's head along the head's
  heading, looking at the head, so the head marker and the hands are in the picture. It follows
  smoothly: the point it looks at and its heading each close a fixed share of their distance to
  the head's per second (an exponential follow, the same at any frame rate), so the small
  shakes of a tracked head and the sudden turn of a snap turn reach the picture as an easy
  glide, not a jolt. It does not keep out of walls (that would need the physics world, which
  drawing never touches): in a tight room it may look through a wall behind the player.
- ``scene``: the scene's own camera, fixed where its ``[camera]`` table puts it (the
  :class:`~playspace.components.camera.SceneCamera` resource), whatever the player does: the
  view a scene's author chose to show it from (the README's pictures are taken from it). Only
  a scene with that table has it.

A camera reads the world and never writes it; what a camera remembers between frames (the
spectator's smoothed place) lives in the camera object, which the preview or a capture owns.
The world's clock tells the camera how much time passed since the last picture: a clock that
went back (a replay sought back, a new world) or jumped more than :data:`SNAP_AFTER` (a seek
forward, a capture of one frame) puts the spectator straight at its place, with no glide.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Protocol

from playspace import spatial
from playspace.components import SceneCamera
from playspace.components.drawn import DrawnView
from playspace.ecs import World
from playspace.render.views import View, preview_view
from playspace.spatial import Pose, Vec3

CAMERAS = ("head", "spectator", "scene")  # the names `--camera` takes; the first is the default
BEHIND = 1.8  # metres behind the head, along its heading
ABOVE = 0.6  # metres above the head
FOLLOW_TIME = 0.25  # seconds for the spectator to close 63% of the way to where it should be
SNAP_AFTER = 0.5  # seconds between two pictures after which the spectator does not glide


class Camera(Protocol):
    """Where a picture of the world is taken from."""

    @property
    def name(self) -> str: ...

    def view(self, world: World, aspect: float) -> View: ...


def head_pose(world: World) -> Pose:
    """The shown player's head where LATE drew it this frame (``DrawnView``), so the camera and
    the hands are drawn at one instant; the world's origin, looking down -Z, when the world
    has no player to show."""
    view = world.try_resource(DrawnView)
    head = None if view is None else view.head
    return head if head is not None else Pose.identity()


class HeadCamera:
    """The player's eyes."""

    name = "head"

    def view(self, world: World, aspect: float) -> View:
        return preview_view(head_pose(world), aspect)


@dataclass(slots=True)
class SpectatorCamera:
    """Behind and above the player's head, looking at it, following smoothly (see the module's
    docstring). `behind` and `above` in metres, `follow_time` in seconds."""

    behind: float = BEHIND
    above: float = ABOVE
    follow_time: float = FOLLOW_TIME
    _target: Vec3 | None = field(default=None, init=False)  # the smoothed point looked at
    _heading: float = field(default=0.0, init=False)  # the smoothed yaw, radians
    _time: float = field(default=0.0, init=False)  # the world time of the last picture

    @property
    def name(self) -> str:
        return "spectator"

    def view(self, world: World, aspect: float) -> View:
        head = head_pose(world)
        heading = spatial.yaw(head.rotation)
        now = world.time.elapsed
        passed = now - self._time
        if self._target is None or not 0.0 <= passed <= SNAP_AFTER:
            p = head.position
            self._target, self._heading = spatial.vec3(p.x, p.y, p.z), heading
        else:
            share = 1.0 - math.exp(-passed / self.follow_time)
            self._target = self._target + (head.position - self._target) * share
            turn = (heading - self._heading + math.pi) % math.tau - math.pi  # the short way
            self._heading += turn * share
        self._time = now
        return preview_view(self.pose(), aspect)

    def pose(self) -> Pose:
        """Where the camera is now and how it is turned: behind and above the smoothed point
        along the smoothed heading, looking at that point."""
        assert self._target is not None, "the spectator has not seen the world yet"
        offset = spatial.rotate(
            spatial.yaw_rotation(self._heading), spatial.vec3(0.0, self.above, self.behind)
        )
        eye = self._target + offset
        return Pose(eye, spatial.look_rotation(self._target - eye))


class FixedCamera:
    """The scene's own camera: where its :class:`SceneCamera` resource stands, looking at its
    point. A world without one has no such view: ValueError (a run asked for ``--camera
    scene`` checks the scene before it starts)."""

    name = "scene"

    def view(self, world: World, aspect: float) -> View:
        camera = world.try_resource(SceneCamera)
        if camera is None:
            raise ValueError(
                "the scene has no [camera] table: there is no scene camera to draw from"
            )
        forward = camera.look_at - camera.position
        pose = Pose(camera.position, spatial.look_rotation(forward))
        return preview_view(pose, aspect, camera.fov)


def has_scene_camera(world: World) -> bool:
    """Whether the world's scene has its own camera (a ``[camera]`` table)."""
    return world.try_resource(SceneCamera) is not None


def camera_named(name: str) -> Camera:
    """A fresh camera of one of the :data:`CAMERAS`; ValueError naming them for another."""
    if name == "head":
        return HeadCamera()
    if name == "spectator":
        return SpectatorCamera()
    if name == "scene":
        return FixedCamera()
    raise ValueError(f"no camera named {name!r}: expected one of {', '.join(CAMERAS)}")
