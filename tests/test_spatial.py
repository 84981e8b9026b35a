"""Poses and quaternions: algebraic properties, hand-checked cases, and per-entity = batched."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from playspace import spatial as S
from playspace.spatial import Pose, Quat, Vec3

TOL = 1e-9
examples = settings(max_examples=60, deadline=None)

unit_floats = st.floats(-1.0, 1.0, allow_nan=False)
bounded = st.floats(-100.0, 100.0, allow_nan=False)
quats = (
    st.tuples(unit_floats, unit_floats, unit_floats, unit_floats)
    .filter(lambda c: math.fsum(x * x for x in c) > 1e-2)
    .map(lambda c: S.normalize(S.quat(*c)))
)
vectors = st.tuples(bounded, bounded, bounded).map(lambda c: S.vec3(*c))
directions = vectors.filter(lambda v: math.hypot(v.x, v.y, v.z) > 1e-3)
poses = st.builds(Pose, vectors, quats)
angles = st.floats(-math.pi, math.pi, allow_nan=False)
fractions = st.floats(0.0, 1.0, allow_nan=False)


def xyzw(q: Quat) -> npt.NDArray[np.float64]:
    return np.array(S.quat_to_xyzw(q))


def xyz(v: Vec3) -> npt.NDArray[np.float64]:
    return np.array([v.x, v.y, v.z])


def rotation_gap(a: npt.ArrayLike, b: npt.ArrayLike) -> float:
    """Largest component difference between quaternion rows, taking q and -q as equal."""
    a, b = np.atleast_2d(a), np.atleast_2d(b)
    return float(np.minimum(np.abs(a - b).max(axis=-1), np.abs(a + b).max(axis=-1)).max())


def same_rotation(a: Quat, b: Quat, tol: float = TOL) -> bool:
    return rotation_gap(xyzw(a), xyzw(b)) <= tol


def close(a: Vec3, b: Vec3, tol: float = TOL) -> bool:
    return bool(np.abs(xyz(a) - xyz(b)).max() <= tol)


def angle_between(a: Quat, b: Quat) -> float:
    return S.to_axis_angle(S.multiply(S.inverse(a), b))[1]


def wrapped(a: float) -> float:
    """``a`` wrapped into [-pi, pi), to compare headings across the +-pi seam."""
    return (a + math.pi) % (2.0 * math.pi) - math.pi


def pitch(angle: float) -> Quat:
    return S.from_axis_angle(S.vec3(1, 0, 0), angle)


# --- construction and conventions ---------------------------------------------------------


def test_quat_takes_and_gives_components_in_openxr_order() -> None:
    q = S.quat(0.1, 0.2, 0.3, 0.4)
    assert S.quat_to_xyzw(q) == (0.1, 0.2, 0.3, 0.4)
    assert (q.x, q.y, q.z, q.w) == (0.1, 0.2, 0.3, 0.4)
    assert S.quat_from_xyzw(np.array([0.1, 0.2, 0.3, 0.4])) == q
    assert S.quat_from_xyzw([0, 0, 0, 1]) == S.identity()
    assert S.vec3_from(np.array([1.0, 2.0, 3.0])) == S.vec3(1, 2, 3)
    with pytest.raises(ValueError):
        S.vec3_from([1.0, 2.0])


def test_identity_objects_are_fresh_each_time() -> None:
    q = S.identity()
    q.x = 1.0  # glm objects are mutable; nobody else may see this
    assert S.identity() == S.quat(0, 0, 0, 1)
    pose = Pose.identity()
    pose.position.x = 5.0
    assert Pose.identity().position == S.vec3(0, 0, 0)


# --- hand-computed cases ------------------------------------------------------------------


def test_a_quarter_turn_about_up_takes_forward_to_the_left() -> None:
    turn = S.from_axis_angle(S.vec3(0, 1, 0), math.pi / 2)
    assert close(S.rotate(turn, S.vec3(0, 0, -1)), S.vec3(-1, 0, 0))
    assert same_rotation(turn, S.yaw_rotation(math.pi / 2))
    assert S.yaw(turn) == pytest.approx(math.pi / 2)


def test_compose_of_two_known_poses() -> None:
    # A rig origin one metre along +X, turned a quarter left; a hand two metres ahead of it.
    origin = Pose(S.vec3(1, 0, 0), S.yaw_rotation(math.pi / 2))
    hand = Pose(S.vec3(0, 0, -2), S.yaw_rotation(math.pi / 2))
    world = S.compose(origin, hand)
    assert close(world.position, S.vec3(-1, 0, 0))
    assert same_rotation(world.rotation, S.yaw_rotation(math.pi))
    assert close(S.transform_point(origin, S.vec3(0, 1, -2)), S.vec3(-1, 1, 0))
    assert close(S.transform_direction(origin, S.vec3(0, 1, -2)), S.vec3(-2, 1, 0))


def test_multiply_applies_the_right_hand_rotation_first() -> None:
    yaw90, pitch90 = S.yaw_rotation(math.pi / 2), pitch(math.pi / 2)
    # Pitch -Z up to +Y first; the yaw then leaves +Y alone.
    assert close(S.rotate(S.multiply(yaw90, pitch90), S.vec3(0, 0, -1)), S.vec3(0, 1, 0))
    # Yaw -Z to -X first; pitching about X leaves -X alone.
    assert close(S.rotate(S.multiply(pitch90, yaw90), S.vec3(0, 0, -1)), S.vec3(-1, 0, 0))


def test_lerp_pose_halfway() -> None:
    a = Pose(S.vec3(0, 0, 0), S.identity())
    b = Pose(S.vec3(2, 4, -6), S.yaw_rotation(1.0))
    mid = S.lerp_pose(a, b, 0.5)
    assert close(mid.position, S.vec3(1, 2, -3))
    assert same_rotation(mid.rotation, S.yaw_rotation(0.5))


# --- algebraic properties -----------------------------------------------------------------


@examples
@given(poses)
def test_a_pose_composed_with_its_inverse_is_the_identity(pose: Pose) -> None:
    for composed in (S.compose(pose, S.invert(pose)), S.compose(S.invert(pose), pose)):
        assert close(composed.position, S.vec3(0, 0, 0))
        assert same_rotation(composed.rotation, S.identity())


@examples
@given(poses, vectors)
def test_invert_undoes_transform_point(pose: Pose, p: Vec3) -> None:
    assert close(S.transform_point(S.invert(pose), S.transform_point(pose, p)), p)


@examples
@given(quats, vectors)
def test_rotation_keeps_lengths(q: Quat, v: Vec3) -> None:
    assert math.hypot(*xyz(S.rotate(q, v))) == pytest.approx(math.hypot(*xyz(v)), abs=TOL)


@examples
@given(quats, quats, quats)
def test_multiply_is_associative(a: Quat, b: Quat, c: Quat) -> None:
    left = S.multiply(S.multiply(a, b), c)
    right = S.multiply(a, S.multiply(b, c))
    assert rotation_gap(xyzw(left), xyzw(right)) <= TOL


@examples
@given(quats, st.floats(0.1, 10.0))
def test_inverse_times_q_is_the_identity_even_unnormalised(q: Quat, scale: float) -> None:
    assert same_rotation(S.multiply(S.inverse(q), q), S.identity())
    scaled = S.quat(*(scale * c for c in S.quat_to_xyzw(q)))
    assert rotation_gap(xyzw(S.multiply(scaled, S.inverse(scaled))), xyzw(S.identity())) <= TOL


@examples
@given(quats, quats)
def test_slerp_ends_at_its_ends_and_halves_the_angle(a: Quat, b: Quat) -> None:
    assert same_rotation(S.slerp(a, b, 0.0), a)
    assert same_rotation(S.slerp(a, b, 1.0), b)
    mid = S.slerp(a, b, 0.5)
    assert math.hypot(*xyzw(mid)) == pytest.approx(1.0)
    assert angle_between(a, mid) == pytest.approx(0.5 * angle_between(a, b), abs=1e-7)
    assert angle_between(mid, b) == pytest.approx(0.5 * angle_between(a, b), abs=1e-7)


@examples
@given(quats)
def test_slerp_takes_the_short_way_round(a: Quat) -> None:
    b = S.multiply(a, S.yaw_rotation(0.2))
    minus_b = S.quat(*(-c for c in S.quat_to_xyzw(b)))
    assert same_rotation(S.slerp(a, minus_b, 0.5), S.multiply(a, S.yaw_rotation(0.1)))


@examples
@given(directions, st.floats(-2 * math.pi, 2 * math.pi, allow_nan=False))
def test_axis_angle_round_trip(axis: Vec3, angle: float) -> None:
    q = S.from_axis_angle(axis, angle)
    back_axis, back_angle = S.to_axis_angle(q)
    assert 0.0 <= back_angle <= math.pi
    assert math.hypot(*xyz(back_axis)) == pytest.approx(1.0)
    assert same_rotation(S.from_axis_angle(back_axis, back_angle), q)
    if 1e-3 < angle < math.pi - 1e-3:
        assert back_angle == pytest.approx(angle)
        assert close(back_axis, axis / math.hypot(*xyz(axis)), 1e-7)


def test_no_rotation_reports_the_up_axis() -> None:
    assert S.to_axis_angle(S.identity()) == (S.vec3(0, 1, 0), 0.0)
    axes, angles_ = S.to_axis_angle_many([[0, 0, 0, 1], [0, 0, 0, -1]])
    np.testing.assert_array_equal(axes, [[0, 1, 0], [0, 1, 0]])
    np.testing.assert_array_equal(angles_, [0, 0])


@examples
@given(st.floats(-math.pi, math.pi, allow_nan=False, exclude_min=True))
def test_yaw_of_yaw_rotation_round_trips(a: float) -> None:
    assert wrapped(S.yaw(S.yaw_rotation(a)) - a) == pytest.approx(0.0, abs=1e-12)


def test_yaw_at_the_seam() -> None:
    assert S.yaw(S.yaw_rotation(math.pi)) == pytest.approx(math.pi)
    assert S.yaw(S.identity()) == 0.0


@examples
@given(angles, st.floats(-math.pi / 2, math.pi / 2))
def test_yaw_ignores_pitch_even_straight_up_and_down(heading: float, tilt: float) -> None:
    q = S.multiply(S.yaw_rotation(heading), pitch(tilt))
    assert math.isfinite(S.yaw(q))
    assert wrapped(S.yaw(q) - heading) == pytest.approx(0.0, abs=1e-9)


def test_yaw_looking_straight_down_and_up_is_the_heading_and_continuous() -> None:
    for tilt in (-math.pi / 2, math.pi / 2):
        assert S.yaw(S.multiply(S.yaw_rotation(0.7), pitch(tilt))) == pytest.approx(0.7)
        nearby = [S.yaw(S.multiply(S.yaw_rotation(0.7), pitch(tilt + d))) for d in (-1e-6, 1e-6)]
        assert nearby == pytest.approx([0.7, 0.7], abs=1e-9)


@examples
@given(directions, st.one_of(st.none(), vectors))
def test_look_rotation_points_forward_and_is_unit(forward: Vec3, up: Vec3 | None) -> None:
    q = S.look_rotation(forward, up)
    assert math.hypot(*xyzw(q)) == pytest.approx(1.0, abs=1e-12)
    unit_forward = forward / math.hypot(*xyz(forward))
    assert close(S.rotate(q, S.vec3(0, 0, -1)), unit_forward, 1e-9)
    world_up = S.vec3(0, 1, 0) if up is None else up
    side = np.cross(xyz(unit_forward), xyz(world_up))
    if np.linalg.norm(side) > 1e-6:  # up not parallel: +Y leans toward up, +X is level with it
        assert float(np.dot(xyz(S.rotate(q, S.vec3(0, 1, 0))), xyz(world_up))) > 0.0
        assert abs(float(np.dot(xyz(S.rotate(q, S.vec3(1, 0, 0))), xyz(world_up)))) < 1e-7 * (
            1.0 + float(np.linalg.norm(xyz(world_up)))
        )


@pytest.mark.parametrize("forward", [(0, -1, 0), (0, 3, 0), (2, 0, 0)])
def test_look_rotation_along_up_is_still_a_rotation(forward: tuple[float, float, float]) -> None:
    up = S.vec3(*forward)  # as parallel as it gets
    for q in (S.look_rotation(S.vec3(*forward)), S.look_rotation(S.vec3(*forward), up)):
        assert math.hypot(*xyzw(q)) == pytest.approx(1.0)
        assert close(S.rotate(q, S.vec3(0, 0, -1)), S.vec3(*forward) / math.hypot(*forward))
    # Looking straight down with +Y up is a plain pitch: heading 0, no roll.
    assert same_rotation(S.look_rotation(S.vec3(0, -1, 0)), pitch(-math.pi / 2))


# --- validation ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("components", "message"),
    [
        ((0.0, 0.0, 0.0, 0.0), "zero length"),
        ((math.nan, 0.0, 0.0, 1.0), "non-finite"),
        ((0.0, math.inf, 0.0, 1.0), "non-finite"),
    ],
)
def test_normalize_rejects_what_a_lost_tracker_reports(
    components: tuple[float, float, float, float], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        S.normalize(S.quat(*components))
    rows = [[0.0, 0.0, 0.0, 1.0], list(components)]
    with pytest.raises(ValueError, match=rf"row 1 has {message}"):
        S.normalize_many(rows)


def test_normalize_accepts_tiny_and_huge_finite_quaternions() -> None:
    for scale in (1e-200, 1e200):
        expected = S.quat(math.sqrt(0.5), 0.0, 0.0, math.sqrt(0.5))
        assert same_rotation(S.normalize(S.quat(scale, 0.0, 0.0, scale)), expected)
        rows_ = np.array([[scale, 0, 0, scale], [0, 0, 0, 2]])
        expected_rows = np.array([[math.sqrt(0.5), 0, 0, math.sqrt(0.5)], [0, 0, 0, 1]])
        np.testing.assert_allclose(S.normalize_many(rows_), expected_rows)


def test_zero_directions_raise() -> None:
    with pytest.raises(ValueError, match="rotation axis"):
        S.from_axis_angle(S.vec3(0, 0, 0), 1.0)
    with pytest.raises(ValueError, match="forward"):
        S.look_rotation(S.vec3(0, 0, 0))
    with pytest.raises(ValueError, match="row 2"):
        S.from_axis_angle_many([[0, 1, 0], [1, 0, 0], [0, 0, 0]], [0.1, 0.2, 0.3])
    with pytest.raises(ValueError, match="forward at row 1"):
        S.look_rotation_many([[0, 0, -1], [0, 0, 0]])


def test_batched_forms_check_shapes() -> None:
    with pytest.raises(ValueError, match=r"\(\.\.\., 4\)"):
        S.rotate_many([[0, 0, 1]], [[1, 0, 0]])
    with pytest.raises(ValueError, match=r"\(\.\.\., 3\)"):
        S.rotate_many([[0, 0, 0, 1]], [[1, 0, 0, 0]])


def test_batched_forms_broadcast_one_rotation_over_many() -> None:
    turn = S.quat_to_xyzw(S.yaw_rotation(math.pi / 2))
    out = S.rotate_many(turn, [[0, 0, -1], [1, 0, 0]])
    np.testing.assert_allclose(out, [[-1, 0, 0], [0, 0, -1]], atol=1e-15)
    assert out.dtype == np.float64
    assert S.from_axis_angle_many([0, 1, 0], [0.0, math.pi]).shape == (2, 4)


# --- per entity and batched agree ---------------------------------------------------------


@dataclass(frozen=True)
class Rows:
    """The same random inputs as glm values (for per-entity calls) and as numpy arrays."""

    qa: list[Quat]
    qb: list[Quat]
    va: list[Vec3]
    vb: list[Vec3]
    t: list[float]

    def quats(self, qs: list[Quat]) -> npt.NDArray[np.float64]:
        return np.array([S.quat_to_xyzw(q) for q in qs])

    def vecs(self, vs: list[Vec3]) -> npt.NDArray[np.float64]:
        return np.array([xyz(v) for v in vs])


@st.composite
def rows(draw: st.DrawFn) -> Rows:
    n = draw(st.integers(1, 6))
    qa, qb = (draw(st.lists(quats, min_size=n, max_size=n)) for _ in range(2))
    va = draw(st.lists(directions, min_size=n, max_size=n))
    vb = draw(st.lists(vectors, min_size=n, max_size=n))
    return Rows(qa, qb, va, vb, draw(st.lists(fractions, min_size=n, max_size=n)))


Compare = Callable[[Rows], None]


def quats_agree(per_entity: list[Quat], batched: npt.ArrayLike) -> None:
    assert rotation_gap(np.array([S.quat_to_xyzw(q) for q in per_entity]), batched) <= TOL


def vecs_agree(per_entity: list[Vec3], batched: npt.NDArray[np.float64]) -> None:
    np.testing.assert_allclose(np.array([xyz(v) for v in per_entity]), batched, atol=TOL, rtol=0)


def _multiply(r: Rows) -> None:
    got = S.multiply_many(r.quats(r.qa), r.quats(r.qb))
    quats_agree([S.multiply(a, b) for a, b in zip(r.qa, r.qb, strict=True)], got)


def _inverse(r: Rows) -> None:
    quats_agree([S.inverse(q) for q in r.qa], S.inverse_many(r.quats(r.qa)))


def _rotate(r: Rows) -> None:
    got = S.rotate_many(r.quats(r.qa), r.vecs(r.vb))
    vecs_agree([S.rotate(q, v) for q, v in zip(r.qa, r.vb, strict=True)], got)


def _normalize(r: Rows) -> None:
    raw = [S.quat(*(3.0 * c for c in S.quat_to_xyzw(q))) for q in r.qa]
    quats_agree([S.normalize(q) for q in raw], S.normalize_many(r.quats(raw)))


def _from_axis_angle(r: Rows) -> None:
    angles_ = [4.0 * math.pi * (t - 0.5) for t in r.t]
    got = S.from_axis_angle_many(r.vecs(r.va), angles_)
    quats_agree([S.from_axis_angle(v, a) for v, a in zip(r.va, angles_, strict=True)], got)


def _to_axis_angle(r: Rows) -> None:
    axes, angles_ = S.to_axis_angle_many(r.quats(r.qa))
    expected = [S.to_axis_angle(q) for q in r.qa]
    vecs_agree([axis for axis, _ in expected], axes)
    np.testing.assert_allclose([a for _, a in expected], angles_, atol=TOL, rtol=0)


def _yaw(r: Rows) -> None:
    gaps = [wrapped(S.yaw(q) - y) for q, y in zip(r.qa, S.yaw_many(r.quats(r.qa)), strict=True)]
    np.testing.assert_allclose(gaps, 0.0, atol=TOL)


def _slerp(r: Rows) -> None:
    got = S.slerp_many(r.quats(r.qa), r.quats(r.qb), r.t)
    quats_agree([S.slerp(a, b, t) for a, b, t in zip(r.qa, r.qb, r.t, strict=True)], got)
    got = S.slerp_many(r.quats(r.qa), r.quats(r.qb), r.t[0])
    quats_agree([S.slerp(a, b, r.t[0]) for a, b in zip(r.qa, r.qb, strict=True)], got)


def _compose(r: Rows) -> None:
    a = [Pose(p, q) for p, q in zip(r.vb, r.qa, strict=True)]
    b = [Pose(p, q) for p, q in zip(r.va, r.qb, strict=True)]
    p, q = S.compose_many(r.vecs(r.vb), r.quats(r.qa), r.vecs(r.va), r.quats(r.qb))
    expected = [S.compose(x, y) for x, y in zip(a, b, strict=True)]
    vecs_agree([e.position for e in expected], p)
    quats_agree([e.rotation for e in expected], q)


def _invert(r: Rows) -> None:
    p, q = S.invert_many(r.vecs(r.vb), r.quats(r.qa))
    expected = [S.invert(Pose(p, q)) for p, q in zip(r.vb, r.qa, strict=True)]
    vecs_agree([e.position for e in expected], p)
    quats_agree([e.rotation for e in expected], q)


def _transform_points(r: Rows) -> None:
    got = S.transform_points_many(r.vecs(r.va), r.quats(r.qa), r.vecs(r.vb))
    poses_ = [Pose(p, q) for p, q in zip(r.va, r.qa, strict=True)]
    vecs_agree([S.transform_point(x, v) for x, v in zip(poses_, r.vb, strict=True)], got)


def _transform_directions(r: Rows) -> None:
    got = S.transform_directions_many(r.quats(r.qa), r.vecs(r.vb))
    poses_ = [Pose(S.vec3(0, 0, 0), q) for q in r.qa]
    vecs_agree([S.transform_direction(x, v) for x, v in zip(poses_, r.vb, strict=True)], got)


def _look_rotation(r: Rows) -> None:
    quats_agree([S.look_rotation(f) for f in r.va], S.look_rotation_many(r.vecs(r.va)))
    got = S.look_rotation_many(r.vecs(r.va), r.vecs(r.vb))
    quats_agree([S.look_rotation(f, u) for f, u in zip(r.va, r.vb, strict=True)], got)


AGREEMENT: dict[str, Compare] = {
    "multiply": _multiply,
    "inverse": _inverse,
    "rotate": _rotate,
    "normalize": _normalize,
    "from_axis_angle": _from_axis_angle,
    "to_axis_angle": _to_axis_angle,
    "yaw": _yaw,
    "slerp": _slerp,
    "compose": _compose,
    "invert": _invert,
    "transform_points": _transform_points,
    "transform_directions": _transform_directions,
    "look_rotation": _look_rotation,
}


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(AGREEMENT))
@settings(max_examples=40, deadline=None)
@given(r=rows())
def test_batched_and_per_entity_forms_agree(name: str, r: Rows) -> None:
    AGREEMENT[name](r)


def test_look_rotation_forms_agree_along_up() -> None:
    forward = [[0, -1, 0], [0, 2, 0], [1, 0, 0], [0, 0, -1]]
    up = [[0, 1, 0], [0, 1, 0], [3, 0, 0], [0, 0, 0]]
    expected = [
        S.look_rotation(S.vec3_from(f), S.vec3_from(u)) for f, u in zip(forward, up, strict=True)
    ]
    quats_agree(expected, S.look_rotation_many(forward, up))


def test_nlerp_unit_many_draws_unit_rotations_the_short_way_round() -> None:
    """Between steps a body is drawn at the normalised lerp of its two rotations: unit rows,
    equal to normalising the lerp by hand, and the short way round even when the second pose
    comes with the opposite sign (the same rotation, as a physics engine may report it)."""
    rng = np.random.default_rng(3)
    a = S.normalize_many(rng.normal(size=(50, 4)))
    b = S.normalize_many(a + rng.normal(size=(50, 4)) * 0.05)
    b[::2] *= -1.0  # half of them flipped: the same rotations
    for t in (0.0, 0.25, 0.5, 1.0):
        rows = S.nlerp_unit_many(a, b, t)
        np.testing.assert_allclose(np.linalg.norm(rows, axis=1), 1.0, rtol=0, atol=1e-15)
        np.testing.assert_allclose(rows, S.normalize_many(S.nlerp_many(a, b, t)), atol=1e-15)
        # never further from `a` than the rotation between the two (the long way: near 180)
        assert (np.abs(np.einsum("ij,ij->i", rows, a)) > 0.99).all()


def test_rows_become_pyglm_objects_and_back_unchanged() -> None:
    """The write-back makes a step's vectors and quaternions from rows in one call each: the
    same objects, bit for bit, as building them one by one, and copies (the rows they came
    from can be reused)."""
    rng = np.random.default_rng(5)
    positions, rotations = rng.normal(size=(20, 3)), S.normalize_many(rng.normal(size=(20, 4)))
    vectors, quaternions = S.vec3s_from_rows(positions), S.quats_from_rows(rotations)
    assert vectors == [Vec3(*row) for row in positions.tolist()]
    assert quaternions == [S.quat(*row) for row in rotations.tolist()]
    assert np.array_equal(S.vec3_rows(vectors), positions)
    assert np.array_equal(S.quat_rows(quaternions), rotations)
    positions[0, 0] = rotations[0, 3] = 99.0
    assert vectors[0].x != 99.0 and quaternions[0].w != 99.0
    assert S.vec3s_from_rows(np.zeros((0, 3))) == []
    assert S.quats_from_rows(np.zeros((0, 4))) == []
