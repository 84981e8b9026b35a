"""Turning a checked :class:`Scene` into entities, and the physics plugin it asks for.

Scenery is static geometry (``Transform`` + ``Colliders`` on the environment layer, no body):
one entity a table, so a flight of stairs is one entity whose collider parts are its steps,
part ``i`` being step ``i`` counted from 0 at the bottom. Props are dynamic bodies, or kinematic
ones (a ``Mover`` moves those with a ``path``: a lift), opponents kinematic ones that stay where
their Transform puts them. A climbable box or prop is marked ``Climbable``. An entity whose
table said how it looks (or whose glTF mesh has a material) also gets a :class:`Appearance`; one
that said nothing gets none, so the renderer draws it in its kind's color. An Appearance is for the
renderer only: physics and telemetry never read it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, replace

from playspace import spatial
from playspace.app.models import ModelKind, SpawnedModel, spawn_model, visual_of
from playspace.components import Appearance, SceneCamera, Transform
from playspace.components.audio import Sound, SoundBank, SurfaceSound
from playspace.components.interactables import Dial, Lever, PushButton
from playspace.components.joints import Joint, JointKind, Spring
from playspace.components.locomotion import Climbable
from playspace.components.movers import Mover
from playspace.components.physics import (
    BodyKind,
    Box,
    Collider,
    Colliders,
    RigidBody,
)
from playspace.components.scene import Grabbable, Opponent, PlayerStart, Prop, Scenery
from playspace.components.sockets import Socket
from playspace.components.text import Label
from playspace.ecs import World
from playspace.formats.models import BodyExtras, Model
from playspace.formats.scene.model import (
    Scene,
    SceneAttach,
    SceneBox,
    SceneError,
    SceneHeard,
    SceneJoint,
    SceneMesh,
    SceneModel,
    SceneOpponent,
    SceneProp,
    SceneRamp,
    SceneSocket,
    SceneStairs,
    Triple,
)
from playspace.spatial import Pose, Quat
from playspace.systems.audio import default_sounds
from playspace.systems.physics import DEFAULT_LAYERS, Layers, PhysicsPlugin, reach_below

ENVIRONMENT = "environment"
OPPONENTS = "opponents"
RAMP_THICKNESS = 0.1  # metres below the slope; thick enough that a dropped prop does not tunnel

_X = spatial.vec3(1.0, 0.0, 0.0)
_Z = spatial.vec3(0.0, 0.0, 1.0)


@dataclass(frozen=True, slots=True)
class SpawnedScene:
    """The entities a scene became: by name, and by kind in file order."""

    entities: dict[str, int]
    statics: tuple[int, ...]
    props: tuple[int, ...]
    opponents: tuple[int, ...]
    sockets: tuple[int, ...] = ()

    def __getitem__(self, name: str) -> int:
        return self.entities[name]


def euler_rotation(degrees: Triple) -> Quat:
    """A scene file's ``rotation = [x, y, z]`` in degrees: about z first, then x, then y, each
    about the world's axes (Unity's and Godot's order), so ``[0, y, 0]`` is a plain heading."""
    x, y, z = (math.radians(a) for a in degrees)
    tilt = spatial.multiply(spatial.from_axis_angle(_X, x), spatial.from_axis_angle(_Z, z))
    return spatial.multiply(spatial.yaw_rotation(y), tilt)


def heading(direction: Triple) -> Quat:
    """The turn about +Y that points forward (-Z) along a horizontal unit `direction`."""
    return spatial.yaw_rotation(math.atan2(-direction[0], -direction[2]))


def physics_plugin_for(scene: Scene) -> PhysicsPlugin:
    """The physics the scene's ``[physics]`` table asks for, its extra layers included."""
    settings = scene.physics
    return PhysicsPlugin(
        gravity=settings.gravity,
        kill_height=settings.kill_height,
        fall_policy=settings.fall_policy,
        layers=Layers(DEFAULT_LAYERS + settings.layers),
    )


def spawn_scene(world: World, scene: Scene, known: Mapping[str, int] | None = None) -> SpawnedScene:
    """Spawn every entity of `scene` and insert its :class:`PlayerStart` (and its
    :class:`SceneCamera` when the file has a ``[camera]`` table). `known` are entities already
    in the world by name, that a joint or a socket of `scene` may name (a scene's reload spawns
    only what it added or changed).

    All components are built and the world's layers checked first, so a scene that cannot
    enter this world raises SceneError with nothing spawned.
    """
    statics = (
        [
            (b.name, _looking(_box(b), b.look, b.drawn_as, b.heard, _label(b.label, b.size[1] / 2)))
            for b in scene.boxes
        ]
        + [(s.name, _looking(_stairs(s), s.look)) for s in scene.stairs]
        + [(r.name, _looking(_ramp(r), r.look)) for r in scene.ramps]
        + [(m.name, _looking(_mesh(m), m.look)) for m in scene.meshes]
    )
    props = [
        (
            p.name,
            _looking(_prop(p), p.look, p.drawn_as, p.heard, _label(p.label, reach_below(p.shape))),
        )
        for p in scene.props
    ]
    opponents = [
        (
            o.name,
            _looking(
                _opponent(o), o.look, o.drawn_as, o.heard, _label(o.label, reach_below(o.shape))
            ),
        )
        for o in scene.opponents
    ]
    _check_layers(world, scene)
    entities: dict[str, int] = dict(known or {})

    def spawn(planned: list[tuple[str, tuple[object, ...]]]) -> tuple[int, ...]:
        for name, components in planned:
            entities[name] = world.spawn(*components)
        return tuple(entities[name] for name, _ in planned)

    spawned = SpawnedScene(entities, spawn(statics), spawn(props), spawn(opponents))
    for placed in scene.models:
        made = _model(world, placed)
        entities.update(made.entities)
        bodies = set(made.bodies)
        spawned = replace(
            spawned,
            statics=spawned.statics + tuple(e for e in made.entities.values() if e not in bodies),
            props=spawned.props + tuple(made.bodies),
        )
    for prop in scene.props:  # a joint's other entity, by name, may come later in the file
        if prop.joint is not None and prop.joint.to is not None:
            world.get_mut(entities[prop.name], Joint).to = entities[prop.joint.to]
    sockets = [(s.name, _socket(s, entities)) for s in scene.sockets]  # holding: a prop's entity
    spawned = replace(spawned, sockets=spawn(sockets))
    player = scene.player
    world.insert_resource(
        PlayerStart(
            spatial.vec3(*player.position),
            math.radians(player.yaw),
            player.slope_quantization,
            player.policy,
            player.turn,
        )
    )
    if scene.sounds:  # the scene's own sounds, by name, beside the project's
        bank = world.try_resource(SoundBank)
        if bank is None:
            bank = world.insert_resource(SoundBank(default_sounds()))
        bank.files.update(scene.sounds)
    camera = scene.camera
    if camera is not None:
        world.insert_resource(
            SceneCamera(
                spatial.vec3(*camera.position),
                spatial.vec3(*camera.look_at),
                None if camera.fov is None else math.radians(camera.fov),
            )
        )
    if known:
        own = {name: e for name, e in entities.items() if known.get(name) != e}
        spawned = replace(spawned, entities=own)
    return spawned


BESIDE = 2.0  # metres to the first player's right per seat, for a scene without [[spawn]]
LABEL_ABOVE = 0.03  # metres a shape's label floats over its top
LABEL_HEIGHT = 0.025  # metres a line of it is tall: read at arm's length


def player_start_for(scene: Scene, first: PlayerStart, seat: int) -> PlayerStart:
    """Where the player of `seat` starts (0: the first, at `first`, the scene's start): seat
    n at the scene's n-th ``[[spawn]]``, or, past the last one, :data:`BESIDE` metres times
    `seat` to the first player's right, facing as they do. The other settings are the first's."""
    if seat < 0:
        raise ValueError(f"a seat is a number from 0, got {seat}")
    if seat == 0:
        return first
    if seat <= len(scene.spawns):
        spawn = scene.spawns[seat - 1]
        return replace(first, position=spatial.vec3(*spawn.position), yaw=math.radians(spawn.yaw))
    right = spatial.vec3(math.cos(first.yaw), 0.0, -math.sin(first.yaw))  # -Z turned by yaw
    return replace(first, position=first.position + right * (BESIDE * seat))


def _model(world: World, placed: SceneModel) -> SpawnedModel:
    """A ``[[model]]`` spawned whole, its entities named ``name/node``."""
    at = Pose(spatial.vec3(*placed.position), euler_rotation(placed.rotation))
    kind = ModelKind.DYNAMIC if placed.dynamic else ModelKind.STATIC
    overrides = BodyExtras(placed.grabbable, placed.mass, placed.layer, placed.tags)
    return spawn_model(world, placed.model, at, kind, placed.name, overrides, placed.scale)


def _model_layers(scene: Scene) -> set[str]:
    """The layers the scene's models' bodies are on: the scene's word, else their extras'."""
    used = set()
    for placed in scene.models:
        if placed.layer is not None:
            used.add(placed.layer)
            continue
        used.update(n.body.layer for n in placed.model.nodes if n.body.layer is not None)
    return used


def _check_layers(world: World, scene: Scene) -> None:
    """Refuse a scene that uses a layer this world's physics lacks, then add the scene's own."""
    layers = world.try_resource(Layers)
    if layers is None:
        return  # no physics in this world: the colliders are plain data
    used = {p.layer for p in scene.props}
    used.update(_model_layers(scene))
    if scene.boxes or scene.stairs or scene.ramps or scene.meshes or scene.models:
        used.add(ENVIRONMENT)
    if scene.opponents:
        used.add(OPPONENTS)
    missing = sorted(used - set(layers.names) - set(scene.physics.layers))
    if missing:
        raise SceneError(
            [
                f"{scene.path}: this world's physics has no layer '{name}'; its layers: "
                f"{', '.join(layers.names)}"
                for name in missing
            ]
        )
    for name in scene.physics.layers:
        layers.add(name)


def _label(text: str | None, half_height: float) -> Label | None:
    """A shape's label, a little over its top, small enough to read on a control at arm's
    length."""
    if not text:
        return None
    return Label(text, offset=half_height + LABEL_ABOVE, height=LABEL_HEIGHT)


def _looking(
    components: tuple[object, ...],
    look: Appearance | None,
    drawn_as: Model | None = None,
    heard: SceneHeard | None = None,
    label: Label | None = None,
) -> tuple[object, ...]:
    """`components` with how they look and sound: their Appearance, a model drawn in their
    place, the text over them, the sound they play and the material they sound of when
    struck."""
    if look is not None:
        components = (*components, look)
    if drawn_as is not None:
        components = (*components, visual_of(drawn_as))
    if label is not None:
        components = (*components, label)
    if heard is not None and heard.sound is not None:
        components = (*components, Sound(heard.sound))
    if heard is not None and heard.material is not None:
        components = (*components, SurfaceSound(heard.material))
    return components


def _static(name: str, transform: Transform, *parts: Collider) -> tuple[object, ...]:
    return transform, Colliders(*parts), Scenery(name)


def _box(box: SceneBox) -> tuple[object, ...]:
    transform = Transform(spatial.vec3(*box.position), euler_rotation(box.rotation))
    static = _static(box.name, transform, Collider(Box(box.size), layer=ENVIRONMENT))
    return (*static, Climbable()) if box.climbable else static


def _stairs(stairs: SceneStairs) -> tuple[object, ...]:
    """Solid steps: step i is a block from the floor up to (i + 1) * rise, so nothing can get
    under the stairs, its front edge i * run from the foot."""
    steps = []
    for i in range(stairs.steps):
        top = (i + 1) * stairs.rise
        centre = spatial.vec3(0.0, top / 2, -(i + 0.5) * stairs.run)
        steps.append(
            Collider(
                Box((stairs.width, top, stairs.run)),
                offset=Pose(centre, spatial.identity()),
                layer=ENVIRONMENT,
            )
        )
    transform = Transform(spatial.vec3(*stairs.position), heading(stairs.direction))
    return _static(stairs.name, transform, *steps)


def _ramp(ramp: SceneRamp) -> tuple[object, ...]:
    """A slab tilted up by `angle` about the axis across the ramp, its top face the slope."""
    angle = math.radians(ramp.angle)
    half, below = ramp.length / 2, RAMP_THICKNESS / 2
    # the centre of the slope, less half the thickness along the slope's normal
    centre = spatial.vec3(
        0.0,
        half * math.sin(angle) - below * math.cos(angle),
        -half * math.cos(angle) - below * math.sin(angle),
    )
    slab = Collider(
        Box((ramp.width, RAMP_THICKNESS, ramp.length)),
        offset=Pose(centre, spatial.from_axis_angle(_X, angle)),
        layer=ENVIRONMENT,
    )
    transform = Transform(spatial.vec3(*ramp.position), heading(ramp.direction))
    return _static(ramp.name, transform, slab)


def _mesh(mesh: SceneMesh) -> tuple[object, ...]:
    transform = Transform(spatial.vec3(*mesh.position), euler_rotation(mesh.rotation))
    return _static(mesh.name, transform, Collider(mesh.shape, layer=ENVIRONMENT))


def _prop(prop: SceneProp) -> tuple[object, ...]:
    transform = Transform(spatial.vec3(*prop.position), euler_rotation(prop.rotation))
    body = RigidBody(kind=BodyKind.KINEMATIC) if prop.kinematic else RigidBody(mass=prop.mass)
    components: tuple[object, ...] = (
        transform,
        body,
        Colliders(Collider(prop.shape, layer=prop.layer)),
        Prop(prop.name),
    )
    if prop.grabbable:
        components += (
            Grabbable(
                tags=frozenset(prop.tags),
                second_grip=None if prop.second_grip is None else spatial.vec3(*prop.second_grip),
                attach_left=_attach(prop.attach_left),
                attach_right=_attach(prop.attach_right),
                attach_ease=prop.attach_ease,
                distance_grab=prop.distance_grab,
            ),
        )
    if prop.path is not None:
        start, to = spatial.vec3(*prop.position), spatial.vec3(*prop.path.to)
        components += (Mover(start, to, prop.path.period),)
    if prop.climbable:
        components += (Climbable(),)
    if prop.joint is not None:  # held to the world until spawn_scene names its other entity
        components += (_joint(prop.joint),)
    if prop.lever is not None:
        lever = prop.lever
        components += (Lever(_radians(lever.detents), lever.stiffness, lever.damping),)
    if prop.button is not None:
        button = prop.button
        components += (PushButton(button.press_depth, button.release_depth, button.radius),)
    if prop.dial is not None:
        components += (Dial(math.radians(prop.dial.step)),)
    return components


def _attach(attach: SceneAttach | None) -> Pose | None:
    if attach is None:
        return None
    return Pose(spatial.vec3(*attach.position), euler_rotation(attach.rotation))


def _radians(degrees: tuple[float, ...]) -> tuple[float, ...]:
    return tuple(math.radians(d) for d in degrees)


def _joint(joint: SceneJoint) -> Joint:
    """A prop's Joint in radians; a hinge's limits and spring target are degrees in the file."""
    hinge = joint.kind == "hinge"
    scale = math.radians(1.0) if hinge else 1.0
    limits = None if joint.limits is None else (joint.limits[0] * scale, joint.limits[1] * scale)
    spring = joint.spring
    return Joint(
        JointKind.HINGE if hinge else JointKind.SLIDER,
        anchor=spatial.vec3(*joint.anchor),
        axis=spatial.vec3(*joint.axis),
        limits=limits,
        spring=None
        if spring is None
        else Spring(spring.target * scale, spring.stiffness, spring.damping),
        friction=joint.friction,
    )


def _socket(socket: SceneSocket, entities: dict[str, int]) -> tuple[object, ...]:
    """A socket entity: its Transform and its Socket, which takes in its prop's entity at the
    first step. A holster's pose is its offset from the body, where the first step puts it
    once :class:`~playspace.app.scene_plugins.PlayerScenePlugin` has it carried by the body."""
    pose = Pose(spatial.vec3(*socket.position), euler_rotation(socket.rotation))
    carried = socket.carried_by is not None
    turn = spatial.yaw_rotation(math.radians(socket.snap_yaw))
    return (
        Transform(pose.position, pose.rotation),
        Socket(
            socket.zone,
            snap=Pose(spatial.vec3(*socket.snap_position), turn),
            accepts=frozenset(socket.accepts),
            return_after=socket.return_after,
            offset=pose if carried else Pose.identity(),
            holding=None if socket.holding is None else entities[socket.holding],
        ),
    )


def _opponent(opponent: SceneOpponent) -> tuple[object, ...]:
    """A kinematic body standing at its position: the shape is raised by half its height."""
    lift = spatial.vec3(0.0, reach_below(opponent.shape), 0.0)
    return (
        Transform(
            spatial.vec3(*opponent.position), spatial.yaw_rotation(math.radians(opponent.yaw))
        ),
        RigidBody(kind=BodyKind.KINEMATIC),
        Colliders(Collider(opponent.shape, offset=Pose(lift, spatial.identity()), layer=OPPONENTS)),
        Opponent(opponent.name),
    )
