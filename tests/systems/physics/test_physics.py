"""Physics on real Rapier: bodies and shapes, layers, events, queries, bad input."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import FrozenInstanceError, replace

import numpy as np
import pytest

from playspace import spatial
from playspace.components import Transform
from playspace.components.physics import (
    ApplyImpulse,
    BodyCommands,
    BodyKind,
    Box,
    Capsule,
    Collider,
    Colliders,
    ColliderSurfaces,
    ConvexHull,
    Cylinder,
    PreviousTransform,
    RigidBody,
    SetVelocity,
    Sphere,
    TriangleMesh,
)
from playspace.ecs import Phase, World
from playspace.spatial import Pose
from playspace.systems.physics import (
    ContactBegan,
    ContactEnded,
    FallPolicy,
    FellOutOfWorld,
    Layers,
    PhysicsError,
    Quarantined,
    SensorEntered,
    SensorExited,
    convert,
    sync,
)
from playspace.systems.physics.commands import teleport_body
from playspace.systems.physics.engine import Body, Physics
from playspace.systems.sets import FixedSet
from tests.ecs_helpers import raised_in_a_system
from tests.physics_helpers import ball, floor, physics, physics_world, static

SHAPES = [
    Sphere(0.1),
    Box((0.2, 0.3, 0.4)),
    Capsule(0.1, 0.5),
    Cylinder(0.1, 0.3),
    ConvexHull(((0, 0, 0), (0.2, 0, 0), (0, 0.2, 0), (0, 0, 0.2), (0.2, 0.2, 0.2))),
]


def collect(world: World, kind: type) -> list:  # type: ignore[type-arg]
    """An events log filled by a game system in the `game` set (after the physics step)."""
    seen: list[object] = []

    def log(w: World) -> None:
        seen.extend(w.read_events(kind, reader=log))

    world.add_system(log, phase=Phase.FIXED, in_set=FixedSet.GAME, name=f"log_{kind.__name__}")
    return seen


@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: type(s).__name__)
def test_each_shape_falls_and_comes_to_rest_on_the_floor(shape: object) -> None:
    world = physics_world()
    floor(world)
    body = world.spawn(
        Transform(position=spatial.vec3(0, 1.0, 0)),
        RigidBody(mass=1.0),
        Colliders(Collider(shape)),  # type: ignore[arg-type]
    )
    world.step(180)
    y = world.get(body, Transform).position.y
    assert 0.0 < y < 0.45
    linear, _ = physics(world).velocity(body)
    assert spatial.length(linear) < 0.05
    rb = physics(world).bodies[body].rigid_body
    assert rb.mass == pytest.approx(1.0, rel=1e-4)


def test_a_triangle_mesh_is_static_ground() -> None:
    world = physics_world()
    mesh = TriangleMesh(((-5, 0, -5), (5, 0, -5), (5, 0, 5), (-5, 0, 5)), ((0, 2, 1), (0, 3, 2)))
    static(world, mesh, spatial.vec3(0, 0, 0))
    b = ball(world, spatial.vec3(0, 1, 0))
    world.step(120)
    assert world.get(b, Transform).position.y == pytest.approx(0.1, abs=0.02)


def test_each_hull_built_leaves_its_surface_for_the_renderer() -> None:
    world = physics_world(gravity=(0.0, 0.0, 0.0))
    points = ((0, 0, 0), (0.2, 0, 0), (0, 0.2, 0), (0, 0, 0.2), (0.2, 0.2, 0.2), (0.05, 0.05, 0.05))
    bodies = [
        world.spawn(
            Transform(position=spatial.vec3(x, 0, 0)),
            RigidBody(),
            Colliders(Collider(ConvexHull(points))),
        )
        for x in (0.0, 1.0)
    ]
    world.step(1)
    surfaces = world.resource(ColliderSurfaces)
    assert list(surfaces.hulls) == [ConvexHull(points)]  # equal hulls, one surface
    vertices, triangles = surfaces.hulls[ConvexHull(points)]
    assert not vertices.flags.writeable and not triangles.flags.writeable
    used = {tuple(v) for v in vertices[np.unique(triangles)].tolist()}
    assert used <= {tuple(p) for p in np.asarray(points, dtype=np.float32).tolist()}
    corners = vertices.astype(np.float64)[triangles]
    outward = np.cross(corners[:, 1] - corners[:, 0], corners[:, 2] - corners[:, 0])
    inside = vertices.mean(axis=0)  # the hull is convex: the mean of its points is inside it
    assert (np.einsum("ij,ij->i", outward, corners[:, 0] - inside) > 0).all()  # counter-clockwise
    volume = np.einsum("ij,ij->i", corners[:, 0], np.cross(corners[:, 1], corners[:, 2])).sum() / 6
    assert physics(world).mass(bodies[0]) == pytest.approx(1000.0 * volume, rel=1e-4)


def test_density_decides_mass_when_no_mass_is_given() -> None:
    world = physics_world()
    cube = world.spawn(
        Transform(), RigidBody(), Colliders(Collider(Box((0.1, 0.1, 0.1)), density=500.0))
    )
    world.step(1)
    rb = physics(world).bodies[cube].rigid_body
    assert rb.mass == pytest.approx(0.5, rel=1e-4)


def test_mass_is_spread_over_solid_parts_and_sensors_weigh_nothing() -> None:
    world = physics_world()
    entity = world.spawn(
        Transform(),
        RigidBody(mass=3.0),
        Colliders(
            Collider(Sphere(0.1)),
            Collider(Sphere(0.1), offset=spatial.Pose(spatial.vec3(0.3, 0, 0), spatial.identity())),
            Collider(Sphere(0.5), sensor=True),
        ),
    )
    world.step(1)
    rb = physics(world).bodies[entity].rigid_body
    assert rb.mass == pytest.approx(3.0, rel=1e-4)
    assert rb.local_center_of_mass.x == pytest.approx(0.15, abs=1e-4)


def test_dynamic_transforms_are_written_back_and_the_previous_pose_kept() -> None:
    world = physics_world()
    b = ball(world, spatial.vec3(0, 5, 0))
    world.step(10)
    now = world.get(b, Transform).position.y
    before = world.get(b, PreviousTransform).position.y
    assert now < before < 5.0
    # one step of free fall at the speed of step 10, to within float error
    assert before - now == pytest.approx(9.81 * 10 / 90 / 90, rel=0.05)


def test_a_body_that_falls_asleep_stops_interpolating() -> None:
    world = physics_world()
    floor(world)
    b = ball(world, spatial.vec3(0, 0.3, 0))
    world.step(400)
    assert physics(world).sleeping(b)
    assert world.get(b, PreviousTransform).position == world.get(b, Transform).position


def test_a_falling_body_fixed_in_place_stops_interpolating() -> None:
    world = physics_world()
    b = ball(world, spatial.vec3(0, 5, 0))
    world.step(30)
    world.get_mut(b, RigidBody).kind = BodyKind.FIXED
    world.step(2)
    assert world.get(b, PreviousTransform).position == world.get(b, Transform).position


def test_a_body_made_kinematic_interpolates_from_where_it_was_taken() -> None:
    world = physics_world()
    b = ball(world, spatial.vec3(0, 5, 0))
    world.step(30)  # falling: well away from where it spawned
    taken = spatial.Vec3(world.get(b, Transform).position)
    world.get_mut(b, RigidBody).kind = BodyKind.KINEMATIC
    world.get(b, Transform).position = taken + spatial.vec3(0.1, 0, 0)  # a hand moves it
    world.step(1)
    assert world.get(b, PreviousTransform).position == taken  # not the spawn point


def test_kinematic_body_follows_its_transform_and_pushes_with_real_velocity() -> None:
    world = physics_world()
    floor(world)
    pusher = world.spawn(
        Transform(position=spatial.vec3(-1.0, 0.25, 0)),
        RigidBody(kind=BodyKind.KINEMATIC),
        Colliders(Collider(Box((0.2, 0.5, 1.0)))),
    )
    crate = world.spawn(
        Transform(position=spatial.vec3(0.0, 0.2, 0)),
        RigidBody(mass=2.0),
        Colliders(Collider(Box((0.4, 0.4, 0.4)), friction=0.2)),
    )
    world.step(5)
    speed = 2.0  # m/s
    for _ in range(45):
        world.get(pusher, Transform).position.x += speed / 90
        world.step(1)
    pushed = physics(world).bodies[pusher].rigid_body
    assert pushed.translation.x == pytest.approx(-1.0 + speed * 0.5, abs=1e-4)
    assert world.get(crate, Transform).position.x > 0.1
    linear, _ = physics(world).velocity(crate)
    assert linear.x == pytest.approx(speed, rel=0.25)


def test_changing_body_kind_at_run_time_takes_effect_next_step() -> None:
    world = physics_world()
    b = ball(world, spatial.vec3(0, 2, 0))
    world.step(1)
    world.get_mut(b, RigidBody).kind = BodyKind.KINEMATIC
    world.step(30)
    y_held = world.get(b, Transform).position.y
    assert y_held == pytest.approx(2.0, abs=0.01)
    world.get_mut(b, RigidBody).kind = BodyKind.DYNAMIC
    world.step(30)
    assert world.get(b, Transform).position.y < y_held - 0.3


def test_layer_matrix_decides_what_collides() -> None:
    layers = Layers()
    layers.add("ghosts")
    layers.set_collides("ghosts", "environment", False)
    world = physics_world(layers=layers)
    floor(world)
    solid = ball(world, spatial.vec3(-1, 1, 0))
    ghost = ball(world, spatial.vec3(1, 1, 0), layer="ghosts")
    world.step(90)
    assert world.get(solid, Transform).position.y == pytest.approx(0.1, abs=0.02)
    assert world.get(ghost, Transform).position.y < -1.0


def ball_at_rest(world: World) -> tuple[int, int]:
    """A ball settled on a floor, as (floor, ball): what the edits below must let fall."""
    ground = floor(world)
    b = ball(world, spatial.vec3(0, 0.5, 0))
    world.step(90)
    assert world.get(b, Transform).position.y == pytest.approx(0.1, abs=0.02)
    return ground, b


def falls_through(world: World, b: int) -> bool:
    world.step(45)
    return world.get(b, Transform).position.y < -0.5


def set_part(world: World, entity: int, index: int, **fields: object) -> None:
    """Put a collider like part `index` of `entity`, with `fields`, in its place."""
    parts = world.get_mut(entity, Colliders).parts
    parts[index] = replace(parts[index], **fields)  # type: ignore[arg-type]


def test_changing_a_layer_at_run_time_takes_effect_next_step() -> None:
    world = physics_world()
    _, b = ball_at_rest(world)
    set_part(world, b, 0, layer="held")  # held passes through the environment
    assert falls_through(world, b)


def test_a_collider_replaced_by_an_equal_one_is_kept_and_the_new_one_followed() -> None:
    """An equal collider in a part's place builds nothing anew (what it touches is not
    touched anew); the engine follows the new one from then on."""
    world = physics_world()
    _, b = ball_at_rest(world)
    built = physics(world).bodies[b].parts[0]
    set_part(world, b, 0)  # equal, but another object
    world.step(1)
    assert physics(world).bodies[b].parts[0] is built  # not built again
    assert built.collider is world.get(b, Colliders).parts[0]
    set_part(world, b, 0, layer="held")
    assert falls_through(world, b)


def test_a_replaced_part_keeps_its_share_of_the_bodys_given_mass() -> None:
    world = physics_world()
    b = world.spawn(
        Transform(position=spatial.vec3(0, 5, 0)),
        RigidBody(mass=2.0),
        Colliders(Collider(Sphere(0.1)), Collider(Box((0.4, 0.4, 0.4)))),
    )
    world.step(1)
    world.get_mut(b, Colliders).parts[1] = Collider(Box((0.2, 0.2, 0.2)))  # the box shrinks
    world.step(1)
    assert physics(world).bodies[b].rigid_body.mass == pytest.approx(2.0, rel=1e-5)


def test_a_static_collider_moved_to_another_layer_stops_holding_things_up() -> None:
    layers = Layers()
    layers.add("cloud")
    layers.set_collides("cloud", "props", False)
    world = physics_world(layers=layers)
    ground, b = ball_at_rest(world)
    set_part(world, ground, 0, layer="cloud")
    assert falls_through(world, b)


def test_changing_the_matrix_at_run_time_regroups_every_collider() -> None:
    world = physics_world()
    _, b = ball_at_rest(world)
    world.resource(Layers).set_collides("props", "environment", False)
    assert falls_through(world, b)


def test_an_unknown_layer_is_a_clear_error_and_nothing_is_added() -> None:
    world = physics_world()
    world.spawn(Transform(), RigidBody(), Colliders(Collider(Sphere(0.1), layer="lava")))
    with raised_in_a_system(PhysicsError, r"entity 1: unknown layer 'lava'; known layers:"):
        world.step(1)
    assert physics(world).counts()[0] == 0


def test_sensor_enter_and_exit_in_order_with_entities() -> None:
    world = physics_world(gravity=(0.0, 0.0, 0.0))
    zone = world.spawn(
        Transform(), Colliders(Collider(Box((1, 1, 1)), sensor=True, layer="environment"))
    )
    entered, exited = collect(world, SensorEntered), collect(world, SensorExited)
    mover = ball(world, spatial.vec3(-2, 0, 0))
    world.step(1)
    world.resource(BodyCommands).send(SetVelocity(mover, spatial.vec3(3.0, 0, 0)))
    world.step(150)
    assert entered == [SensorEntered(zone, mover, 0, 0)]
    assert exited == [SensorExited(zone, mover, 0, 0)]


def test_a_sensor_on_a_kinematic_hand_sees_static_geometry() -> None:
    world = physics_world()
    wall = static(world, Box((0.1, 2, 2)), spatial.vec3(0, 1, 0))
    hand = world.spawn(
        Transform(position=spatial.vec3(-0.5, 1, 0)),
        RigidBody(kind=BodyKind.KINEMATIC),
        Colliders(Collider(Sphere(0.08), sensor=True, layer="hands")),
    )
    entered = collect(world, SensorEntered)
    for _ in range(40):
        world.get(hand, Transform).position.x += 0.025
        world.step(1)
    assert entered == [SensorEntered(hand, wall, 0, 0)]


def test_contact_began_and_ended_for_colliders_that_report_them() -> None:
    world = physics_world()
    ground = floor(world)
    bouncy = world.spawn(
        Transform(position=spatial.vec3(0, 1, 0)),
        RigidBody(mass=0.2),
        Colliders(Collider(Sphere(0.1), restitution=0.9, report_contacts=True)),
    )
    began, ended = collect(world, ContactBegan), collect(world, ContactEnded)
    world.step(60)
    assert began and {began[0].a, began[0].b} == {bouncy, ground}
    world.step(30)
    assert ended and {ended[0].a, ended[0].b} == {bouncy, ground}


def test_despawn_frees_the_body_and_reports_the_exit() -> None:
    world = physics_world(gravity=(0.0, 0.0, 0.0))
    zone = world.spawn(Transform(), Colliders(Collider(Sphere(1.0), sensor=True)))
    inside = ball(world, spatial.vec3(0, 0, 0))
    exited = collect(world, SensorExited)
    world.step(3)
    world.despawn(inside)
    world.step(2)
    assert inside not in physics(world).bodies
    assert physics(world).counts()[0] == 1
    assert exited == [SensorExited(zone, inside, 0, 0)]


def test_ray_cast_filters_by_layer_and_reports_entity_point_and_normal() -> None:
    world = physics_world()
    ground = floor(world)
    crate = world.spawn(
        Transform(position=spatial.vec3(0, 0.5, 0)),
        RigidBody(kind=BodyKind.FIXED),
        Colliders(Collider(Box((1, 1, 1)))),
    )
    world.step(1)
    down = spatial.vec3(0, -1, 0)
    hit = physics(world).ray_cast(spatial.vec3(0, 3, 0), down, 10.0)
    assert hit is not None and hit.entity == crate
    assert hit.point.y == pytest.approx(1.0, abs=1e-4) and hit.normal.y == pytest.approx(1.0)
    assert hit.distance == pytest.approx(2.0, abs=1e-4)
    through = physics(world).ray_cast(spatial.vec3(0, 3, 0), down, 10.0, layers=["environment"])
    assert through is not None and through.entity == ground
    assert physics(world).ray_cast(spatial.vec3(0, 3, 0), down, 1.0) is None
    skip = physics(world).ray_cast(spatial.vec3(0, 3, 0), down, 10.0, exclude=crate)
    assert skip is not None and skip.entity == ground


def test_shape_cast_and_overlap_return_entities() -> None:
    world = physics_world()
    wall = static(world, Box((0.2, 2, 2)), spatial.vec3(2, 1, 0))
    prop = ball(world, spatial.vec3(0, 1, 0), radius=0.2, gravity_scale=0.0)
    world.step(1)
    p = physics(world)
    hit = p.shape_cast(
        Sphere(0.1),
        spatial.vec3(0, 1, 0.0),
        spatial.identity(),
        spatial.vec3(1, 0, 0),
        5.0,
        layers=["environment"],
    )
    assert hit is not None and hit.entity == wall
    assert hit.distance == pytest.approx(2 - 0.1 - 0.1, abs=1e-3)
    assert hit.normal.x == pytest.approx(-1.0, abs=1e-3)
    assert p.overlap(Sphere(0.5), spatial.vec3(0, 1, 0), spatial.identity()) == [(prop, 0)]
    assert p.overlap(Sphere(0.5), spatial.vec3(0, 1, 0), spatial.identity(), ["environment"]) == []


def shots_through_a_thin_wall(ccd: bool) -> int:
    """A 2 cm ball at 30 m/s at a 5 cm wall (a kinematic body: fixed walls are caught even
    without CCD), from four starting offsets; how many end up behind the wall."""
    through = 0
    for start in (0.0, 0.07, 0.13, 0.21):
        world = physics_world(gravity=(0.0, 0.0, 0.0))
        world.spawn(
            Transform(position=spatial.vec3(1.0, 0, 0)),
            RigidBody(kind=BodyKind.KINEMATIC),
            Colliders(Collider(Box((0.05, 2, 2)))),
        )
        shot = ball(world, spatial.vec3(start, 0, 0), radius=0.01, mass=0.01, ccd=ccd)
        world.step(1)
        world.resource(BodyCommands).send(SetVelocity(shot, spatial.vec3(30.0, 0, 0)))
        world.step(30)
        through += world.get(shot, Transform).position.x > 1.0
    return through


def test_fast_small_ball_with_ccd_does_not_tunnel_through_a_thin_wall() -> None:
    assert shots_through_a_thin_wall(ccd=True) == 0


def test_without_ccd_the_same_ball_tunnels_so_the_test_above_means_something() -> None:
    assert shots_through_a_thin_wall(ccd=False) >= 1


@pytest.mark.parametrize(
    ("policy", "respawned"), [(FallPolicy.REMOVE, False), (FallPolicy.RESPAWN, True)]
)
def test_a_body_below_the_kill_height_is_reported_and_handled(
    policy: FallPolicy, respawned: bool
) -> None:
    world = physics_world(kill_height=-5.0, fall_policy=policy)
    b = ball(world, spatial.vec3(0, 1, 0))
    fell = collect(world, FellOutOfWorld)
    world.step(120)
    assert len(fell) == 1 and fell[0].entity == b and fell[0].respawned is respawned
    assert fell[0].position.y < -5.0
    if respawned:
        assert world.exists(b)
        assert world.get(b, Transform).position.y > -5.0
    else:
        assert not world.exists(b)
        assert b not in physics(world).bodies


def test_a_non_finite_body_is_quarantined_reported_and_given_back(
    caplog: pytest.LogCaptureFixture,
) -> None:
    world = physics_world()
    b = ball(world, spatial.vec3(0, 1, 0))
    quarantined = collect(world, Quarantined)
    world.step(1)
    physics(world).bodies[b].rigid_body.linvel = (math.nan, 0.0, 0.0)  # type: ignore[assignment]  # rapier3d takes a tuple
    world.step(2)
    assert quarantined == [Quarantined(b)]
    assert "quarantined" in caplog.text
    assert all(math.isfinite(c) for c in world.get(b, Transform).position)
    world.step(30)  # enabled again where it was: it falls as a ball does, not lost for good
    assert world.get(b, Transform).position.y < 0.9


@pytest.mark.parametrize(
    "position", [spatial.vec3(math.nan, 0, 0), spatial.vec3(0, math.inf, 0)], ids=["nan", "inf"]
)
def test_a_non_finite_transform_is_refused_by_name(position: spatial.Vec3) -> None:
    world = physics_world()
    world.spawn(Transform(position=position), RigidBody(), Colliders(Collider(Sphere(0.1))))
    with raised_in_a_system(PhysicsError, r"entity 1: its Transform is not finite"):
        world.step(1)
    assert physics(world).counts()[0] == 0
    assert physics(world).counts()[1] == 0


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: Sphere(0.0), "sphere radius must be a finite number > 0, got 0.0"),
        (lambda: Sphere(-1.0), "sphere radius must be a finite number > 0"),
        (lambda: Box((1.0, math.nan, 1.0)), "box size y must be a finite number > 0, got nan"),
        (lambda: Capsule(0.3, 0.5), "capsule height .* at least twice its radius"),
        (lambda: Cylinder(0.1, math.inf), "cylinder height must be a finite number > 0"),
        (lambda: RigidBody(mass=0.0), "body mass must be a finite number > 0"),
        (lambda: RigidBody(mass=-2.0), "body mass must be a finite number > 0"),
        (lambda: RigidBody(mass=math.nan), "body mass must be a finite number > 0"),
        (lambda: Collider(Sphere(0.1), friction=-1.0), "friction must be a finite number >= 0"),
        (lambda: ConvexHull(((0, 0, 0),)), "convex hull needs at least 4 points"),
        (lambda: Colliders(), "Colliders needs at least one Collider"),
    ],
)
def test_bad_sizes_and_masses_are_errors_where_they_are_written(make: object, message: str) -> None:
    with pytest.raises((ValueError, TypeError), match=message):
        make()  # type: ignore[operator]


def test_velocity_and_impulse_commands_reject_non_finite_input() -> None:
    world = physics_world()
    b = ball(world, spatial.vec3(0, 1, 0))
    world.step(1)
    with pytest.raises(ValueError, match=f"entity {b}: velocity must be finite"):
        SetVelocity(b, spatial.vec3(math.nan, 0, 0))
    with pytest.raises(ValueError, match=f"entity {b}: impulse must be finite"):
        ApplyImpulse(b, spatial.vec3(0, math.inf, 0))
    with pytest.raises(ValueError, match=f"entity {b}: teleport position must be finite"):
        teleport_body(world, b, spatial.vec3(0, math.nan, 0))
    assert spatial.length(world.get(b, Transform).position - spatial.vec3(0, 1, 0)) < 0.01
    with pytest.raises(PhysicsError, match="entity 99 has no body"):
        physics(world).velocity(99)


def test_collider_parts_appended_at_run_time_are_created() -> None:
    world = physics_world(gravity=(0.0, 0.0, 0.0))
    wall = static(world, Box((0.2, 2, 2)), spatial.vec3(0.5, 0, 0))
    b = ball(world, spatial.vec3(0, 0, 0))
    entered = collect(world, SensorEntered)
    world.step(2)
    world.get_mut(b, Colliders).parts.append(Collider(Sphere(0.6), sensor=True, layer="props"))
    world.step(2)
    assert entered == [SensorEntered(b, wall, 1, 0)]


def test_the_layer_docstring_example_runs() -> None:
    import doctest

    from playspace.systems.physics import layers

    assert doctest.testmod(layers).failed == 0


def test_bodies_made_inside_each_other_drift_apart_instead_of_flying() -> None:
    """Thirty crates spawned at one point flew apart at 18 m/s; now no faster than Rapier's
    own penetration correction (3 m/s), and a ball made clear of everything falls freely."""
    world = physics_world()
    floor(world)
    crates = [
        world.spawn(
            Transform(position=spatial.vec3(0, 0.5, 0)),
            RigidBody(mass=1.0),
            Colliders(Collider(Box((0.3, 0.3, 0.3)))),
        )
        for _ in range(30)
    ]
    falling = ball(world, spatial.vec3(5.0, 3.0, 0.0))
    fastest = fall = 0.0
    for _ in range(300):
        world.step(1)
        speeds = [spatial.length(physics(world).velocity(c)[0]) for c in crates]
        fastest = max(fastest, *speeds)
        fall = max(fall, spatial.length(physics(world).velocity(falling)[0]))
    assert fastest <= 3.1
    assert fall > 6.0  # 3 m of free fall: about 7.7 m/s, not held to the settling speed
    spread = [world.get(c, Transform).position for c in crates]
    assert max(math.hypot(p.x, p.z) for p in spread) > 0.3  # apart, not left inside each other


def test_a_hull_given_lists_is_a_value_like_one_given_tuples() -> None:
    from playspace.components.physics import ConvexHull

    corners = [[x, y, z] for x in (0, 1) for y in (0, 1) for z in (0, 1)]
    as_lists = ConvexHull(corners)  # type: ignore[arg-type]  # a game without mypy does this
    assert as_lists == ConvexHull(tuple((float(x), float(y), float(z)) for x, y, z in corners))
    assert hash(as_lists)


def test_a_change_the_world_records_reaches_the_engine_and_nothing_else_is_looked_at(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A level at rest costs no look at its bodies: only a body whose components were changed
    through ``world.get_mut`` is brought up to date, once whatever was changed of it, and the
    change reaches the engine before the next step, asleep or not."""
    looked: list[int] = []
    bring_up = sync._apply_changes

    def looking(physics: Physics, body: Body, regroup: bool) -> bool:
        looked.append(body.entity)
        return bring_up(physics, body, regroup)

    monkeypatch.setattr(sync, "_apply_changes", looking)
    world = physics_world()
    floor(world)
    b = ball(world, spatial.vec3(0, 0.2, 0))
    world.step(240)
    engine = physics(world)
    assert engine.sleeping(b) and looked == []
    set_part(world, b, 0, layer="held")  # held objects pass through the floor
    world.step(1)
    assert looked == [b] and engine.layer_of(b, 0) == "held"
    world.get(b, Colliders)  # only read
    world.step(1)
    assert looked == [b]
    world.get_mut(b, RigidBody).kind = BodyKind.KINEMATIC
    world.get_mut(b, Colliders).parts.append(Collider(Sphere(0.1), sensor=True, layer="probe"))
    world.step(1)
    assert looked == [b, b]
    assert engine.bodies[b].kind is BodyKind.KINEMATIC and len(engine.bodies[b].parts) == 2
    del world.get_mut(b, Colliders).parts[1:]
    world.step(1)
    assert len(engine.bodies[b].parts) == 1 and engine.counts()[1] == 2  # floor and ball


@pytest.mark.parametrize(
    "change",
    ["pop", "remove", "insert", "add in place", "clear", "reverse", "sort", "assign"],
)
def test_every_change_to_a_bodys_parts_reaches_the_engine(change: str) -> None:
    """Not only appending, replacing and cutting: any list operation on ``Colliders.parts``
    (a sensor popped off, one inserted, the list assigned anew) reaches the engine, whose
    colliders are the component's after the next step."""
    world = physics_world()
    floor(world)
    b = ball(world, spatial.vec3(0, 0.2, 0))
    probe = Collider(Sphere(0.3), sensor=True, layer="probe")
    world.get_mut(b, Colliders).parts.append(probe)
    world.step(2)
    engine = physics(world)
    colliders = world.get_mut(b, Colliders)
    parts = colliders.parts
    extra = Collider(Sphere(0.4), sensor=True, layer="held")
    if change == "pop":
        parts.pop()
    elif change == "remove":
        parts.remove(probe)
    elif change == "insert":
        parts.insert(1, extra)
    elif change == "add in place":
        parts += [extra]
    elif change == "clear":
        parts.clear()
        parts.append(probe)  # only the probe: the ball's solid sphere is gone
    elif change == "reverse":
        parts.reverse()
    elif change == "sort":
        parts.sort(key=lambda part: part.sensor, reverse=True)
    else:
        colliders.parts = [extra]
    world.step(1)
    built = [engine.layer_of(b, i) for i in range(len(engine.bodies[b].parts))]
    assert built == [part.layer for part in colliders.parts]
    assert [part.collider for part in engine.bodies[b].parts] == list(colliders.parts)


@pytest.mark.parametrize(
    ("parts", "refused"),
    [([], "entity 2: Colliders needs at least one Collider"), ([Sphere(0.1)], "part 0 must")],
)
def test_parts_a_body_cannot_be_made_of_are_refused_at_the_step_naming_the_body(
    parts: list[object], refused: str
) -> None:
    """A list the constructor would refuse, assigned as a body's parts, stops the step that
    would build it with a message that names the entity and what is wrong."""
    world = physics_world()
    floor(world)
    b = ball(world, spatial.vec3(0, 0.2, 0))
    world.step(1)
    world.get_mut(b, Colliders).parts = parts  # type: ignore[assignment]
    with raised_in_a_system(PhysicsError, refused):
        world.step(1)


def test_a_body_given_a_mass_keeps_it_whatever_its_parts_become() -> None:
    """Given 2 kg, a dumbbell weighs 2 kg with one end made a sensor and solid again, an end
    grown, a part added or cut, or a density set; the mass is spread by volume over the
    solid parts each time, so its centre of mass follows them. Given 5 kg through get_mut
    (an inspector's edit), it weighs 5 kg from the next step."""
    world = physics_world(gravity=(0.0, 0.0, 0.0))
    end = Pose(spatial.vec3(0.5, 0.0, 0.0), spatial.identity())
    b = world.spawn(
        Transform(),
        RigidBody(mass=2.0),
        Colliders(Collider(Sphere(0.1)), Collider(Sphere(0.1), offset=end)),
    )
    world.step(1)
    engine = physics(world)
    seen = []

    def cut_made_a_sensor() -> None:  # built solid, cut as a sensor in the same step
        set_part(world, b, -1, sensor=True)
        world.get_mut(b, Colliders).parts.pop()

    def given_more_and_reshaped() -> None:  # a mass given anew is the body's, spread again
        world.get_mut(b, RigidBody).mass = 5.0
        set_part(world, b, 0, shape=Sphere(0.1))

    changes: list[Callable[[], object]] = [
        lambda: set_part(world, b, 1, sensor=True),
        lambda: set_part(world, b, 1, sensor=False),
        lambda: set_part(world, b, 0, shape=Sphere(0.2)),  # 8 times the volume
        lambda: world.get_mut(b, Colliders).parts.append(Collider(Sphere(0.2), offset=end)),
        cut_made_a_sensor,
        lambda: set_part(world, b, 0, density=50.0),
        given_more_and_reshaped,
    ]
    for change in changes:
        change()
        world.step(1)
        seen.append((engine.mass(b), engine.local_center_of_mass(b).x))
    assert [mass for mass, _ in seen] == pytest.approx([2.0] * 6 + [5.0])
    centres = [0.0, 0.25, 0.5 / 9, 0.5 * 9 / 17, 0.5 / 9, 0.5 / 9, 0.25]
    assert [x for _, x in seen] == pytest.approx(centres)


def test_a_density_set_at_run_time_weighs_a_body_anew() -> None:
    """Without a given mass, the densities decide: doubling one doubles the body's mass."""
    world = physics_world(gravity=(0.0, 0.0, 0.0))
    b = ball(world, spatial.vec3(0, 0, 0), radius=0.1, mass=None)  # type: ignore[arg-type]
    world.step(1)
    before = physics(world).mass(b)
    set_part(world, b, 0, density=2 * world.get(b, Colliders).parts[0].density)
    world.step(1)
    assert before == pytest.approx(1000.0 * 4 / 3 * math.pi * 0.1**3, rel=1e-5)
    assert physics(world).mass(b) == pytest.approx(2 * before, rel=1e-6)


@pytest.mark.parametrize("iced", ["box", "slope"])
def test_a_surface_set_at_run_time_changes_how_it_slides_not_what_it_touches(iced: str) -> None:
    """A box resting on a 20 degree slope (friction 0.6 on 0.5: averaged, 0.55 holds it)
    slides once its friction or the slope's is set to nothing, asleep as it is; the contact it
    reports and the sensor around it see no end and new start (the colliders are changed as
    they are, not rebuilt)."""
    world = physics_world()
    tilt = spatial.from_axis_angle(spatial.vec3(0.0, 0.0, 1.0), math.radians(20.0))
    slope = static(world, Box((10.0, 0.2, 10.0)), spatial.vec3(0.0, 0.0, 0.0), tilt)
    zone = world.spawn(
        Transform(), Colliders(Collider(Box((6.0, 6.0, 6.0)), sensor=True, layer="environment"))
    )
    normal = spatial.rotate(tilt, spatial.vec3(0.0, 0.2, 0.0))
    box = world.spawn(
        Transform(normal, tilt),
        RigidBody(mass=1.0),
        Colliders(Collider(Box((0.2, 0.2, 0.2)), friction=0.6, report_contacts=True)),
    )
    world.step(120)
    began, ended = collect(world, ContactBegan), collect(world, ContactEnded)
    entered, exited = collect(world, SensorEntered), collect(world, SensorExited)
    world.step(60)
    assert physics(world).sleeping(box)
    rested = spatial.Vec3(world.get(box, Transform).position)
    set_part(world, box if iced == "box" else slope, 0, friction=0.0)
    set_part(world, zone, 0, restitution=0.5)
    world.step(60)
    slid = rested - world.get(box, Transform).position
    assert slid.x > 0.05 and slid.y > 0.02  # down the slope (towards -x), by 0.1 m or more
    assert began == ended == entered == exited == []


def test_a_colliders_fields_set_at_run_time_rebuild_it_and_bad_values_are_refused() -> None:
    """A ball grown by a collider of a larger shape in its place rests higher, and lower with
    another offset; a value the constructor would refuse is refused where it is written,
    naming it, and the body keeps the collider it had."""
    world = physics_world()
    floor(world)
    b = ball(world, spatial.vec3(0, 0.3, 0), radius=0.1)
    world.step(120)
    resting = world.get(b, Transform).position.y
    set_part(world, b, 0, shape=Sphere(0.3))
    world.step(120)
    grown = world.get(b, Transform).position.y
    assert resting == pytest.approx(0.1, abs=0.01) and grown == pytest.approx(0.3, abs=0.01)
    with pytest.raises(ValueError, match="friction"):
        set_part(world, b, 0, friction=-1.0)
    with pytest.raises(TypeError, match="collider shape must be one of"):
        set_part(world, b, 0, shape="ball")
    with pytest.raises(FrozenInstanceError):
        world.get_mut(b, Colliders).parts[0].friction = 0.1  # type: ignore[misc]
    collider = world.get(b, Colliders).parts[0]
    assert collider.friction == 0.5 and collider.shape == Sphere(0.3)
    set_part(world, b, 0, offset=Pose(spatial.vec3(0.0, 0.2, 0.0), spatial.identity()))
    world.step(120)  # the sphere still rests on the floor: its body 0.2 m under its centre
    assert world.get(b, Transform).position.y == pytest.approx(0.1, abs=0.01)


def _tumbling_pile(world: World) -> list[int]:
    floor(world)
    return [
        ball(world, spatial.vec3(0.05 * i, 0.3 + 0.25 * i, 0.03 * i), radius=0.1) for i in range(8)
    ]


def test_poses_are_read_in_one_call_a_body_and_exactly_as_rapier_gives_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The write-back reads a body's pose from the bytes of its isometry (one call, not two,
    and one array for the step): the layout of the pinned rapier3d is recognised, each row is
    the float32 values ``to_tuple`` gives, and a world whose bindings wrote another layout,
    read value by value instead, ends bit for bit where this one does."""
    assert convert.POSES_AS_BYTES
    world = physics_world()
    pile = _tumbling_pile(world)
    world.step(30)
    engine = [physics(world).bodies[e].rigid_body for e in pile]
    expected = [[*rb.rotation.to_tuple(), *rb.translation.to_tuple()] for rb in engine]
    assert convert.read_poses(engine).tolist() == expected
    monkeypatch.setattr(convert, "POSES_AS_BYTES", False)
    assert convert.read_poses(engine).tolist() == expected
    assert convert.read_poses([]).shape == (0, 7)
    by_value = physics_world()
    _tumbling_pile(by_value)
    by_value.step(30)
    for entity in pile:
        for w in (world, by_value):
            assert w.get(entity, Transform).position.y > 0.05  # none fell through the floor
        assert by_value.get(entity, Transform) == world.get(entity, Transform)
        assert by_value.get(entity, PreviousTransform) == world.get(entity, PreviousTransform)
