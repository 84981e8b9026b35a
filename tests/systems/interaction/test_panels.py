"""World-space panels: the aim ray's hit, a trigger click that changes a setting through the
ray, what the renderer shows (the panel, the beam and the cursor), and the settings example."""

from __future__ import annotations

import math
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from imgui_bundle import imgui
from moderngl import Context

from playspace import spatial
from playspace.app import build_world
from playspace.app.game import load_example
from playspace.app.replay import replay_source
from playspace.components import Transform
from playspace.components.comfort import VignetteSettings
from playspace.components.drawn import DrawnView
from playspace.components.input import DevicePose, HandInput, InputFrame
from playspace.components.panels import Panel, PanelDrawing, Pointer
from playspace.components.rig import RigSettings, TurnMode
from playspace.ecs import World
from playspace.formats.scene import load_scene
from playspace.render.capture import Offscreen
from playspace.render.comfort import Comfort
from playspace.render.panels import PanelPass, PointerLook
from playspace.render.projection import perspective
from playspace.render.views import View
from playspace.spatial import Pose
from playspace.systems.panels import PanelsPlugin, add_panel_content, panel_hit
from tests.ecs_helpers import raised_in_a_system
from tests.rig_helpers import Run, head_at, rig_of, rig_world

ROOT = Path(__file__).resolve().parents[3]
PANEL_AT = (0.0, 1.3, -1.0)
HAND_AT = (0.2, 1.1, -0.2)
BACKGROUND = (0.9, 0.2, 0.6, 1.0)

# The hit ------------------------------------------------------------------------------------


def hit(origin: tuple[float, float, float], towards: tuple[float, float, float], **kw: object):  # type: ignore[no-untyped-def]
    """The hit of a ray from `origin` towards the point `towards` on a 0.6 x 0.4 m panel at
    (0, 1, -1) turned 90 degrees to face +X."""
    panel = Pose(spatial.vec3(0.0, 1.0, -1.0), spatial.yaw_rotation(math.pi / 2))
    o, t = spatial.vec3(*origin), spatial.vec3(*towards)
    direction = (t - o) / spatial.length(t - o)
    return panel_hit(o, direction, panel, (0.6, 0.4), 5.0, **kw)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("towards", "uv"),
    [
        ((0.0, 1.0, -1.0), (0.5, 0.5)),  # the centre
        # the corners, a millimetre inside: top left, seen from +X (-Z is to the right) ...
        ((0.0, 1.199, -0.701), (0.0, 0.0)),
        ((0.0, 0.801, -1.299), (1.0, 1.0)),  # ... bottom right
        ((0.0, 1.199, -1.299), (1.0, 0.0)),  # ... top right
    ],
)
def test_the_hit_says_where_on_the_panel_the_ray_lands(
    towards: tuple[float, float, float], uv: tuple[float, float]
) -> None:
    found = hit((2.0, 1.0, -1.0), towards)
    assert found is not None
    distance, u, v = found
    assert (u, v) == pytest.approx(uv, abs=0.003)  # 1 mm of 0.6 and 0.4 m
    assert distance == pytest.approx(math.dist((2.0, 1.0, -1.0), towards))


def test_a_ray_misses_a_panel_behind_it_beside_it_from_behind_or_out_of_reach() -> None:
    assert hit((2.0, 1.0, -1.0), (3.0, 1.0, -1.0)) is None  # the panel is behind the ray
    assert hit((2.0, 1.0, -1.0), (0.0, 1.0, -1.31)) is None  # past its right edge
    assert hit((2.0, 1.0, -1.0), (0.0, 1.21, -1.0)) is None  # above its top edge
    assert hit((-2.0, 1.0, -1.0), (0.0, 1.0, -1.0)) is None  # at its back
    assert hit((6.0, 1.0, -1.0), (0.0, 1.0, -1.0)) is None  # 6 m away, 5 m of reach
    # past the edge, but the plane is what a held press follows
    off = hit((2.0, 1.0, -1.0), (0.0, 1.0, -1.45), bounded=False)
    assert off is not None and off[1] == pytest.approx(1.25)


# A click through the ray ------------------------------------------------------------------


def toggle_turning(world: object) -> None:
    """A panel of one button as large as the panel: a click anywhere on it switches turning."""
    settings = world.resource(RigSettings)  # type: ignore[attr-defined]
    if imgui.button("Turning", imgui.ImVec2(-1.0, -1.0)):
        smooth = settings.turn_mode is TurnMode.SNAP
        settings.turn_mode = TurnMode.SMOOTH if smooth else TurnMode.SNAP


def aiming(
    target: tuple[float, float, float], pulled: Callable[[float], bool]
) -> Callable[[float], InputFrame]:
    """The right hand at :data:`HAND_AT` aimed at `target`, its trigger pulled while
    `pulled(t)`."""
    hand = spatial.vec3(*HAND_AT)
    aim = spatial.look_rotation(spatial.vec3(*target) - hand)

    def script(t: float) -> InputFrame:
        right = HandInput(DevicePose(Pose(hand, aim)), trigger=1.0 if pulled(t) else 0.0)
        return head_at(0.0, 1.7, 0.0, right=right)

    return script


def label(world: object) -> None:
    """A panel that says what it is and has nothing to click."""
    imgui.text("Menu")


def panel_world(
    script: Callable[[float], InputFrame],
    content: str = "turning",
    resolution: tuple[int, int] = (600, 400),
) -> tuple[Run, int]:
    """A rig driven by `script` and a panel at :data:`PANEL_AT` showing `content`."""
    run = rig_world(script, plugins=(PanelsPlugin(),))
    add_panel_content(run.world, "turning", toggle_turning, writes=(RigSettings,))
    add_panel_content(run.world, "label", label)
    entity = run.world.spawn(
        Transform(spatial.vec3(*PANEL_AT)),
        Panel(content, background=BACKGROUND, resolution=resolution),
    )
    return run, entity


@pytest.mark.parametrize(
    ("target", "turns"),
    [(PANEL_AT, True), ((0.0, 1.3 + 0.25, -1.0), False), ((0.5, 0.0, -1.0), False)],
    ids=["on the panel", "just above it", "at the floor"],
)
def test_a_trigger_click_through_the_aim_ray_changes_the_setting(
    target: tuple[float, float, float], turns: bool
) -> None:
    run, panel = panel_world(aiming(target, lambda t: 0.3 < t < 0.45))
    run.world.step(60)
    pointer = run.world.get(rig_of(run.world).right_hand, Pointer)
    assert (pointer.panel == panel) is turns
    expected = TurnMode.SMOOTH if turns else TurnMode.SNAP
    assert run.world.resource(RigSettings).turn_mode is expected


def test_a_press_that_began_off_the_panel_does_not_click_it() -> None:
    """The trigger pulled while aiming at the floor, the ray swept onto the panel while it is
    held, and let go there: the press did not begin on the panel, so that is not a click."""
    hand = spatial.vec3(*HAND_AT)

    def script(t: float) -> InputFrame:
        target = (0.5, 0.0, -1.0) if t < 0.3 else PANEL_AT
        aim = spatial.look_rotation(spatial.vec3(*target) - hand)
        right = HandInput(DevicePose(Pose(hand, aim)), trigger=1.0 if 0.1 < t < 0.5 else 0.0)
        return head_at(0.0, 1.7, 0.0, right=right)

    run, _ = panel_world(script)
    run.world.step(60)
    assert run.world.resource(RigSettings).turn_mode is TurnMode.SNAP


def test_a_held_press_keeps_its_panel_past_the_edge() -> None:
    """Aim at the panel, press, then swing the ray off its right edge while holding: the
    panel keeps the pointer, its mouse beyond the edge (a slider dragged past its end)."""
    hand = spatial.vec3(*HAND_AT)

    def script(t: float) -> InputFrame:
        x = 0.0 if t < 0.3 else 0.6
        aim = spatial.look_rotation(spatial.vec3(x, 1.3, -1.0) - hand)
        right = HandInput(DevicePose(Pose(hand, aim)), trigger=1.0 if t > 0.2 else 0.0)
        return head_at(0.0, 1.7, 0.0, right=right)

    run, panel = panel_world(script)
    run.world.step(45)
    pointer = run.world.get(rig_of(run.world).right_hand, Pointer)
    assert pointer.captured == panel and pointer.pixel is not None
    assert pointer.pixel[0] > 600  # 0.6 m right of centre on a 0.6 m, 600 px panel: 900 px


def test_content_that_is_not_registered_is_an_error_naming_it() -> None:
    run, _ = panel_world(aiming(PANEL_AT, lambda t: False))
    run.world.spawn(Transform(), Panel("inventory"))
    with raised_in_a_system(
        LookupError, r"'inventory' is not registered \(registered: label, turning\)"
    ):
        run.world.step(1)


def test_a_world_without_panels_never_loads_dear_imgui() -> None:
    code = (
        "import sys; sys.path.insert(0, 'tests')\n"
        "from rig_helpers import rig_world\n"
        "from playspace.components import Transform\n"
        "from playspace.components.panels import Panel\n"
        "from playspace.ecs import SystemFailed\n"
        "from playspace.systems.input import standing_frame\n"
        "from playspace.systems.panels import PanelsPlugin\n"
        "run = rig_world(lambda t: standing_frame(), plugins=(PanelsPlugin(),))\n"
        "run.world.step(3)\n"
        "print('imgui_bundle' in sys.modules)\n"
        "if sys.argv[1:] == ['panel']:\n"
        "    run.world.spawn(Transform(), Panel('x'))\n"
        "    try:\n"
        "        run.world.step(1)\n"
        "    except SystemFailed:\n"
        "        pass\n"
        "    print('imgui_bundle' in sys.modules)\n"
    )
    without = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert without.stdout.split() == ["False"], without.stderr
    with_one = subprocess.run(
        [sys.executable, "-c", code, "panel"], cwd=ROOT, capture_output=True, text=True
    )
    assert with_one.stdout.split() == ["False", "True"], with_one.stderr


# What is drawn ------------------------------------------------------------------------------

SIZE = (320, 240)
GREY = (0.3, 0.3, 0.3, 1.0)
LOOK = PointerLook(
    ray_color=(1.0, 0.0, 0.0, 1.0),
    ray_width=0.02,
    cursor_color=(0.0, 1.0, 0.0, 1.0),
    cursor_radius=0.03,
)


def picture(gl: Context, run: Run, eye: Pose) -> np.ndarray:
    """The panel pass alone, drawn from `eye` over grey: rows top-down, RGB in [0, 1]."""
    import moderngl

    panels = PanelPass(gl, LOOK)
    target = Offscreen(gl, SIZE)
    try:
        panels.prepare(run.world)
        target.framebuffer.use()
        target.framebuffer.clear(*GREY, depth=1.0)
        gl.enable_only(moderngl.DEPTH_TEST | moderngl.CULL_FACE)
        panels.draw(View(eye, perspective(math.pi / 2, SIZE[0] / SIZE[1])), target.framebuffer)
        gl.enable_only(moderngl.NOTHING)
        image: np.ndarray = target.read() / 255.0
        return image
    finally:
        target.release()
        panels.release()


def where(image: np.ndarray, color: tuple[float, ...]) -> np.ndarray:
    """Which pixels of `image` are `color` (RGB, to 0.05)."""
    found: np.ndarray = np.abs(image - np.array(color[:3])).max(axis=2) < 0.05
    return found


def test_the_panel_its_beam_and_its_cursor_are_drawn(gl: Context) -> None:
    """From beside the hand: the panel shows its interface's background where the quad is,
    a red beam runs from the hand to the panel and a green cursor sits where it lands. The
    hand aimed at the floor draws neither; a hidden panel is not drawn."""
    eye = Pose(spatial.vec3(0.0, 1.3, 0.0), spatial.identity())
    run, panel = panel_world(aiming((0.1, 1.3, -1.0), lambda t: False), "label")
    run.world.step(10)
    image = picture(gl, run, eye)
    # 120 px a metre at 1 m (90 degrees up and down, 240 px): the panel is 72 x 48 px
    middle_y, middle_x = SIZE[1] // 2, SIZE[0] // 2
    left = image[middle_y - 15 : middle_y + 15, middle_x - 30 : middle_x - 10]
    assert where(left, BACKGROUND).all()  # the panel's left half, below its label
    # the cursor: 0.1 m right of the panel's centre, 12 px right of the middle; its bottom
    # right is behind the beam, which comes from the hand below and nearer the eye
    cursor = image[middle_y - 3 : middle_y, middle_x + 10 : middle_x + 14]
    assert where(cursor, LOOK.cursor_color).all()
    assert where(image, LOOK.ray_color).sum() > 100  # the beam, nearer and wider below

    hidden, _ = panel_world(aiming((0.5, 0.0, -1.0), lambda t: False), "label")
    hidden.world.step(10)
    elsewhere = picture(gl, hidden, eye)
    assert not where(elsewhere, LOOK.ray_color).any()
    assert not where(elsewhere, LOOK.cursor_color).any()
    assert where(elsewhere, BACKGROUND).sum() > 0.9 * 72 * 48  # the panel is still there
    run.world.get(panel, Panel).visible = False
    assert not where(picture(gl, run, eye), BACKGROUND).any()


def test_the_interface_is_drawn_on_the_panel_the_right_way_up(gl: Context) -> None:
    """The label Dear ImGui puts at the window's top left shows at the panel's top left: not
    mirrored to the right, not flipped to the bottom."""
    run, panel = panel_world(aiming(PANEL_AT, lambda t: False), "label", resolution=(150, 100))
    run.world.step(10)
    drawing = run.world.get(panel, PanelDrawing)
    assert drawing.commands and drawing.images
    image = picture(gl, run, Pose(spatial.vec3(0.0, 1.3, -0.6), spatial.identity()))
    # 0.4 m away the panel spans x 70..250 and y 60..180: 1.2 screen px per panel px, and the
    # label ("Menu", 20 px high) starts 8 panel px in from the top and the left
    on = ~where(image, BACKGROUND)
    assert (~on[62:178, 72:248]).mean() > 0.8  # mostly the panel's background
    assert on[70:94, 80:128].mean() > 0.1  # the label's letters
    assert not on[146:170, 80:128].any()  # not at the bottom left
    assert not on[70:94, 192:240].any()  # nor at the top right


# The example ------------------------------------------------------------------------------


def test_the_settings_example_chooses_what_its_trace_clicks() -> None:
    """The trace pulls the trigger at the floor (nothing), then clicks Smooth, 45 and the
    slope and vignette checkboxes on the menu; the right stick then turns the player smoothly,
    and the view's edges stay bright, as the player chose."""
    example = load_example(ROOT / "examples" / "settings.py")
    assert example.trace is not None
    source = replay_source(example.trace)
    world, _ = build_world(load_scene(example.scene), source, plugins=[example.build])
    assert source.duration is not None
    world.step(round(source.duration * 90))
    settings = world.resource(RigSettings)
    assert settings.turn_mode is TurnMode.SMOOTH
    assert math.degrees(settings.snap_turn) == pytest.approx(45.0)
    assert settings.slope_quantization == 0.0
    assert example.summary is not None
    chosen = "chosen: turn smooth, snap 45, slope off, vignette off;"
    assert example.summary(world).startswith(chosen)
    origin = world.get(rig_of(world).origin, Transform)
    assert abs(spatial.yaw(origin.rotation)) > 0.5  # turned smoothly, about 90 degrees a second
    assert not world.resource(VignetteSettings).enabled


def test_the_vignette_follows_the_worlds_choice_over_the_renderers() -> None:
    """A menu turns the vignette off in the world; the renderer's own settings (on) give way,
    and without the world's choice they apply."""
    world = World()
    world.insert_resource(DrawnView(carried=True))  # a provider carries the player
    world.insert_resource(VignetteSettings(enabled=False))
    comfort = Comfort(VignetteSettings(ramp=0.0))
    assert comfort.update(world)[0] == 0.0
    world.remove_resource(VignetteSettings)
    assert comfort.update(world)[0] == comfort.settings.strength
