"""The character capsule on real Rapier: stairs, ramps, walls, ledges."""

from __future__ import annotations

import itertools
import math

import pytest

from playspace import spatial
from playspace.components import Transform
from playspace.components.physics import Box, CharacterBody, CharacterMotion, RigidBody
from playspace.ecs import World
from tests.physics_helpers import floor, physics, physics_world, static

WALK = 1.2  # m/s


def stairs(world: World, rise: float, run: float = 0.3, steps: int = 4) -> None:
    """Solid steps climbing toward -Z from z = -1, the last one a 2 m deep landing."""
    for i in range(steps):
        top = (i + 1) * rise
        depth = run if i < steps - 1 else 2.0
        centre = spatial.vec3(0, top / 2, -1.0 - run * i - depth / 2)
        static(world, Box((2.0, top, depth)), centre)


def ramp(world: World, degrees: float, length: float = 4.0) -> None:
    """A ramp rising toward -Z whose top surface starts at the origin's floor, z = -1."""
    angle = math.radians(degrees)
    tilt = spatial.from_axis_angle(spatial.vec3(1, 0, 0), angle)
    up_slope = spatial.vec3(0, math.sin(angle), -math.cos(angle))
    normal = spatial.rotate(tilt, spatial.vec3(0, 1, 0))
    centre = spatial.vec3(0, 0, -1.0) + up_slope * (length / 2) - normal * 0.05
    static(world, Box((2.0, 0.1, length)), centre, tilt)


def walker(world: World, position: spatial.Vec3 | None = None) -> int:
    return world.spawn(
        Transform(position=position or spatial.vec3(0, 0, 0)), CharacterBody(), CharacterMotion()
    )


def walk(world: World, character: int, direction: spatial.Vec3, seconds: float) -> list[float]:
    """Walk at WALK m/s; return the feet height after every step."""
    heights = []
    for _ in range(round(seconds * 90)):
        world.get(character, CharacterMotion).desired = direction * (WALK / 90)
        world.step(1)
        heights.append(world.get(character, Transform).position.y)
    return heights


FORWARD = spatial.vec3(0, 0, -1)


def test_first_sight_gives_the_character_a_kinematic_capsule_at_its_feet() -> None:
    world = physics_world()
    floor(world)
    c = walker(world, spatial.vec3(0, 0.0, 0))
    world.step(3)
    assert world.has(c, RigidBody)
    hit = physics(world).ray_cast(spatial.vec3(0, 3, 0), spatial.vec3(0, -1, 0), 5.0)
    assert hit is not None and hit.entity == c
    assert hit.point.y == pytest.approx(1.7, abs=0.02)  # the top of a 1.7 m capsule
    motion = world.get(c, CharacterMotion)
    assert motion.grounded
    assert world.get(c, Transform).position.y == pytest.approx(0.0, abs=0.02)


def test_climbs_stairs_of_017_m_steps() -> None:
    world = physics_world()
    floor(world)
    stairs(world, rise=0.17)
    c = walker(world)
    walk(world, c, FORWARD, 2.0)
    feet = world.get(c, Transform).position
    assert feet.z < -2.2  # on the landing
    assert feet.y == pytest.approx(4 * 0.17, abs=0.02)
    assert world.get(c, CharacterMotion).grounded


def test_a_half_metre_step_blocks() -> None:
    world = physics_world()
    floor(world)
    stairs(world, rise=0.5)
    c = walker(world)
    walk(world, c, FORWARD, 2.0)
    feet = world.get(c, Transform).position
    assert feet.y == pytest.approx(0.0, abs=0.02)
    assert feet.z == pytest.approx(-1.0 + 0.2, abs=0.03)  # the capsule's radius from the riser


def test_climbs_a_30_degree_ramp() -> None:
    world = physics_world()
    floor(world)
    ramp(world, 30.0)
    c = walker(world)
    walk(world, c, FORWARD, 2.5)
    feet = world.get(c, Transform).position
    along = -1.0 - feet.z
    assert along > 1.2
    assert feet.y == pytest.approx(along * math.tan(math.radians(30)), abs=0.08)


def test_does_not_climb_a_60_degree_ramp() -> None:
    world = physics_world()
    floor(world)
    ramp(world, 60.0)
    c = walker(world)
    heights = walk(world, c, FORWARD, 2.5)
    assert max(heights) < 0.25
    assert world.get(c, Transform).position.z > -1.3


def test_slides_along_a_wall_it_walks_into_at_an_angle() -> None:
    world = physics_world()
    floor(world)
    static(world, Box((6.0, 2.0, 0.2)), spatial.vec3(0, 1, -1.0))
    c = walker(world)
    diagonal = spatial.vec3(1, 0, -1) / math.sqrt(2.0)
    walk(world, c, diagonal, 2.0)
    feet = world.get(c, Transform).position
    assert feet.z == pytest.approx(-1.0 + 0.1 + 0.2, abs=0.03)  # held off the wall's face
    assert feet.x > 0.8  # and slid along it


def test_walking_off_a_ledge_falls_under_gravity_and_lands() -> None:
    world = physics_world()
    floor(world)
    static(world, Box((2.0, 1.0, 2.0)), spatial.vec3(0, 0.5, 0))
    c = walker(world, spatial.vec3(0, 1.0, 0))
    world.step(5)
    heights = walk(world, c, FORWARD, 1.5)
    assert heights[0] == pytest.approx(1.0, abs=0.02)
    assert heights[-1] == pytest.approx(0.0, abs=0.02)
    drops = [a - b for a, b in itertools.pairwise(heights)]
    assert max(drops) > 0.03, "a fall from 1 m reaches about 4 m/s: 4 cm a step"
    assert world.get(c, CharacterMotion).grounded


def test_motion_reports_what_was_moved_and_consumes_the_desire() -> None:
    world = physics_world()
    floor(world)
    c = walker(world)
    world.step(2)
    world.get(c, CharacterMotion).desired = spatial.vec3(0.01, 0, 0)
    world.step(1)
    motion = world.get(c, CharacterMotion)
    assert motion.moved.x == pytest.approx(0.01, abs=1e-3)
    assert motion.desired == spatial.vec3(0, 0, 0)


@pytest.mark.parametrize("speed", [0.3, 0.5, 1.2, 3.0])
def test_stairs_do_not_stall_at_room_scale_or_smooth_move_speeds(speed: float) -> None:
    """Rapier's autostep stalls a capsule at a step's edge at walking speed; ours does not."""
    world = physics_world()
    floor(world)
    stairs(world, rise=0.2)
    c = walker(world)
    steps = 0
    while world.get(c, Transform).position.z > -2.3 and steps < 2000:
        world.get(c, CharacterMotion).desired = FORWARD * (speed / 90)
        world.step(1)
        steps += 1
    ideal = 2.3 / speed * 90
    assert steps < 1.1 * ideal
    assert world.get(c, Transform).position.y == pytest.approx(0.8, abs=0.01)


def test_characters_coming_and_going_reuse_their_controllers_slots() -> None:
    world = physics_world()
    floor(world)
    for _ in range(20):
        character = walker(world)
        world.step(3)
        world.despawn(character)
        world.step(1)
    assert len(physics(world).controllers) == 1
