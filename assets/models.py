"""The examples' models, made from primitives: ``python assets/models.py`` writes each to
``examples/models/NAME.glb`` (the same bytes every run, so the files in the repository are
what this script makes; a test checks they are).

Each model is a list of nodes, each a unit primitive of the renderer (a box of extents 1, a
sphere and a cylinder of radius 1 and height 1) scaled, turned and placed, in a look. Sizes are
metres, in the frame of the scene's shape the model is drawn for (its centre at the origin),
so a prop is drawn where it collides. Change a number here and run the script again.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playspace.components.appearance import Appearance  # noqa: E402
from playspace.formats.models.write import ModelSpec, write_glb  # noqa: E402
from playspace.render import meshes  # noqa: E402

Triple = tuple[float, float, float]
OUT = ROOT / "examples" / "models"


def srgb(hex_color: str, roughness: float = 0.6, metallic: float = 0.0) -> Appearance:
    """A look from a color picker's ``#rrggbb`` (sRGB), as the scene files give colors."""
    rgb = [int(hex_color[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
    return Appearance((linear[0], linear[1], linear[2], 1.0), roughness, metallic)


def part(
    name: str,
    shape: str,
    size: Triple,
    at: Triple,
    look: Appearance | None,
    turn: tuple[Triple, float] | None = None,
    sphere: tuple[int, int] | None = None,
) -> ModelSpec:
    """A primitive (`shape`: box, sphere, cylinder) scaled by `size`, turned by `turn` (an
    axis and degrees) and placed `at`, in `look` (None: the scene's look for the shape, its
    material or color). A sphere has the detail its size shows (:func:`detail`), or the
    segments and rings `sphere` gives: a shell just outside another (a bee's stripe on its
    body) needs the other's, or its facets dip inside it."""
    if shape == "sphere":
        unit = meshes.sphere(*(sphere or detail(size)))
    else:
        unit = {"box": meshes.box, "cylinder": meshes.cylinder}[shape]()
    rotation = (0.0, 0.0, 0.0, 1.0)
    if turn is not None:
        (x, y, z), degrees = turn
        half = math.radians(degrees) / 2
        length = math.sqrt(x * x + y * y + z * z)
        s = math.sin(half) / length
        rotation = (x * s, y * s, z * s, math.cos(half))
    return ModelSpec(name, meshes.surface_of(unit, size), look, at, rotation)


def detail(size: Triple) -> tuple[int, int]:
    """Segments around and rings of a sphere of radii `size`: the full 24 by 12 (576
    triangles) from 8 cm, 16 by 8 (256) under it, 12 by 6 (144) under 3 cm (a bee's eye).
    Every triangle is drawn twice a frame, into the shadow map and the view, and a software
    renderer pays for each: the kitchen's four bees were 23,000 triangles, most of them in
    parts a few centimetres across whose facets no one sees."""
    largest = max(size)
    if largest < 0.03:
        return 12, 6
    if largest < 0.08:
        return 16, 8
    return meshes.SEGMENTS, meshes.RINGS


FULL = (meshes.SEGMENTS, meshes.RINGS)  # a sphere's detail from 8 cm
ALONG_Z = ((1.0, 0.0, 0.0), 90.0)  # a cylinder (along Y) laid along Z
STEEL = srgb("#3a3d42", 0.35, 0.85)
BLACK = srgb("#18191b", 0.5)
WOOD = srgb("#8a5a32", 0.7)
BUN = srgb("#d9a55b", 0.8)
PATTY = srgb("#5b3420", 0.9)
LETTUCE = srgb("#5fae3c", 0.8)
BEE_YELLOW = srgb("#f2c12e", 0.5)
WING = srgb("#e8f0f5", 0.2)
GUNMETAL = srgb("#2b2e33", 0.4, 0.7)
POLYMER = srgb("#1f2124", 0.8)


def pan() -> list[ModelSpec]:
    """A frying pan: a steel disc with a low rim and a black handle (the 0.3 m box it lies in)."""
    return [
        part("Base", "cylinder", (0.125, 0.012, 0.125), (0.0, -0.012, 0.0), STEEL),
        part("Rim", "cylinder", (0.135, 0.03, 0.135), (0.0, 0.0, 0.0), STEEL),
        part("Food", "cylinder", (0.118, 0.031, 0.118), (0.0, 0.001, 0.0), srgb("#2a2a2a", 0.9)),
        part("Handle", "box", (0.14, 0.018, 0.03), (0.2, 0.008, 0.0), BLACK),
    ]


def spatula() -> list[ModelSpec]:
    """A spatula: a thin steel blade and a wooden handle, along Z."""
    return [
        part("Blade", "box", (0.08, 0.006, 0.11), (0.0, -0.004, -0.115), STEEL),
        part("Neck", "box", (0.02, 0.006, 0.05), (0.0, -0.002, -0.04), STEEL),
        part("Handle", "cylinder", (0.012, 0.2, 0.012), (0.0, 0.0, 0.075), WOOD, ALONG_Z),
    ]


def burger() -> list[ModelSpec]:
    """A burger: a bun's bottom, the patty, lettuce and a domed top (0.06 m radius, 0.05 high)."""
    return [
        part("Bottom", "cylinder", (0.058, 0.014, 0.058), (0.0, -0.018, 0.0), BUN),
        part("Patty", "cylinder", (0.061, 0.012, 0.061), (0.0, -0.005, 0.0), PATTY),
        part("Lettuce", "cylinder", (0.063, 0.004, 0.063), (0.0, 0.003, 0.0), LETTUCE),
        part("Top", "sphere", (0.059, 0.02, 0.059), (0.0, 0.006, 0.0), BUN),
    ]


def bee() -> list[ModelSpec]:
    """A bee the size of its 0.12 m ball: a striped yellow body, a black head with eyes, two
    wings and a sting, facing -Z."""
    return [
        part("Body", "sphere", (0.075, 0.07, 0.105), (0.0, 0.0, 0.01), BEE_YELLOW),
        part("Stripe1", "sphere", (0.077, 0.072, 0.018), (0.0, 0.0, -0.01), BLACK, sphere=FULL),
        part("Stripe2", "sphere", (0.072, 0.067, 0.018), (0.0, 0.0, 0.04), BLACK, sphere=FULL),
        part("Stripe3", "sphere", (0.055, 0.05, 0.016), (0.0, 0.0, 0.085), BLACK, sphere=FULL),
        part("Head", "sphere", (0.05, 0.048, 0.045), (0.0, 0.01, -0.11), BLACK),
        part("EyeL", "sphere", (0.018, 0.022, 0.018), (-0.03, 0.02, -0.135), srgb("#3b2a6e", 0.2)),
        part("EyeR", "sphere", (0.018, 0.022, 0.018), (0.03, 0.02, -0.135), srgb("#3b2a6e", 0.2)),
        part("WingL", "sphere", (0.06, 0.004, 0.03), (-0.06, 0.075, 0.0), WING, ((0, 0, 1), 20)),
        part("WingR", "sphere", (0.06, 0.004, 0.03), (0.06, 0.075, 0.0), WING, ((0, 0, 1), -20)),
        part("Sting", "cylinder", (0.008, 0.03, 0.008), (0.0, 0.0, 0.12), BLACK, ALONG_Z),
    ]


def pistol() -> list[ModelSpec]:
    """A pistol in its 0.04 x 0.14 x 0.2 m box: slide and barrel along -Z, the grip below."""
    return [
        part("Slide", "box", (0.034, 0.036, 0.19), (0.0, 0.045, -0.005), GUNMETAL),
        part("Muzzle", "cylinder", (0.007, 0.01, 0.007), (0.0, 0.05, -0.102), BLACK, ALONG_Z),
        part("Frame", "box", (0.03, 0.02, 0.15), (0.0, 0.018, -0.01), POLYMER),
        part("Grip", "box", (0.03, 0.11, 0.045), (0.0, -0.035, 0.06), POLYMER, ((1, 0, 0), -15)),
        part("Guard", "box", (0.008, 0.022, 0.05), (0.0, -0.004, 0.005), POLYMER),
        part("Trigger", "box", (0.006, 0.018, 0.006), (0.0, 0.0, 0.012), GUNMETAL),
    ]


def rifle() -> list[ModelSpec]:
    """A rifle in its 0.05 x 0.08 x 0.8 m box: a wooden stock, a receiver with a scope, and the
    barrel along -Z."""
    return [
        part("Stock", "box", (0.04, 0.075, 0.26), (0.0, -0.01, 0.27), WOOD),
        part("Receiver", "box", (0.045, 0.055, 0.3), (0.0, 0.005, -0.01), GUNMETAL),
        part("Forend", "box", (0.042, 0.04, 0.16), (0.0, -0.005, -0.22), WOOD),
        part("Barrel", "cylinder", (0.011, 0.26, 0.011), (0.0, 0.012, -0.27), BLACK, ALONG_Z),
        part("Scope", "cylinder", (0.016, 0.2, 0.016), (0.0, 0.055, -0.02), BLACK, ALONG_Z),
        part("Grip", "box", (0.03, 0.07, 0.035), (0.0, -0.045, 0.1), POLYMER, ((1, 0, 0), -20)),
    ]


ALONG_X = ((0.0, 0.0, 1.0), 90.0)  # a cylinder (along Y) laid along X
BRASS = srgb("#b08d3c", 0.3, 0.9)
DARK_WOOD = srgb("#6e4a28", 0.75)
RED_KNOB = srgb("#c0392b", 0.4)
MARK = srgb("#f4f1e8", 0.5)


def door() -> list[ModelSpec]:
    """A panelled door (0.76 x 2 m, 4 cm thick; hinged at its -X edge) in the scene's wood,
    with a brass lever handle on both faces at +X."""
    nodes = [part("Leaf", "box", (0.76, 2.0, 0.04), (0.0, 0.0, 0.0), None)]
    for face in (-1, 1):
        for row, height in ((0, 0.45), (1, -0.45)):
            nodes.append(
                part(
                    f"Panel{face}{row}",
                    "box",
                    (0.56, 0.7, 0.01),
                    (0.0, height, face * 0.02),
                    DARK_WOOD,
                )
            )
        nodes.append(
            part(
                f"Rose{face}",
                "cylinder",
                (0.025, 0.01, 0.025),
                (0.3, 0.0, face * 0.025),
                BRASS,
                ALONG_Z,
            )
        )
        nodes.append(
            part(f"Handle{face}", "box", (0.12, 0.018, 0.018), (0.25, 0.0, face * 0.045), BRASS)
        )
    return nodes


def drawer() -> list[ModelSpec]:
    """A drawer (0.66 x 0.14 x 0.3 m, pulled out toward +Z): its front in the scene's wood with a
    knob, and an open box behind it."""
    return [
        part("Front", "box", (0.66, 0.14, 0.02), (0.0, 0.0, 0.14), None),
        part("Knob", "sphere", (0.018, 0.018, 0.018), (0.0, 0.0, 0.165), BRASS),
        part("Bottom", "box", (0.62, 0.01, 0.28), (0.0, -0.065, 0.0), DARK_WOOD),
        part("Back", "box", (0.62, 0.12, 0.01), (0.0, -0.01, -0.145), DARK_WOOD),
        part("Left", "box", (0.01, 0.12, 0.28), (-0.31, -0.01, 0.0), DARK_WOOD),
        part("Right", "box", (0.01, 0.12, 0.28), (0.31, -0.01, 0.0), DARK_WOOD),
    ]


def lever() -> list[ModelSpec]:
    """A lever: a steel rod 0.3 m long (pivoting at its bottom) with a red ball to pull."""
    return [
        part("Rod", "cylinder", (0.01, 0.27, 0.01), (0.0, -0.015, 0.0), None),
        part("Grip", "sphere", (0.025, 0.025, 0.025), (0.0, 0.13, 0.0), RED_KNOB),
        part("Pivot", "cylinder", (0.018, 0.04, 0.018), (0.0, -0.15, 0.0), BLACK, ALONG_X),
    ]


def button() -> list[ModelSpec]:
    """A push button: a round cap (in the scene's color) in a black collar, facing +Z."""
    return [
        part("Cap", "cylinder", (0.021, 0.02, 0.021), (0.0, 0.0, 0.0), None, ALONG_Z),
        part("Collar", "cylinder", (0.025, 0.008, 0.025), (0.0, 0.0, -0.008), BLACK, ALONG_Z),
    ]


def dial() -> list[ModelSpec]:
    """A dial: a ridged steel knob facing +Z with a white pointer to read its step by."""
    nodes = [part("Knob", "cylinder", (0.024, 0.03, 0.024), (0.0, 0.0, 0.0), None, ALONG_Z)]
    nodes.append(part("Pointer", "box", (0.005, 0.018, 0.003), (0.0, 0.011, 0.016), MARK))
    for ridge in range(8):
        angle = math.radians(ridge * 45)
        at = (0.025 * math.cos(angle), 0.025 * math.sin(angle), 0.0)
        nodes.append(part(f"Ridge{ridge}", "box", (0.004, 0.004, 0.028), at, None))
    return nodes


def wrench() -> list[ModelSpec]:
    """An open-ended wrench along X (0.25 m): a flat handle, an open jaw at +X, a ring at -X."""
    return [
        part("Handle", "box", (0.17, 0.012, 0.026), (0.0, 0.0, 0.0), None),
        part("JawTop", "box", (0.04, 0.014, 0.014), (0.1, 0.0, 0.02), None),
        part("JawBottom", "box", (0.04, 0.014, 0.014), (0.1, 0.0, -0.02), None),
        part("JawBack", "box", (0.014, 0.014, 0.054), (0.085, 0.0, 0.0), None),
        part("Ring", "cylinder", (0.024, 0.014, 0.024), (-0.1, 0.0, 0.0), None),
    ]


def hammer() -> list[ModelSpec]:
    """A hammer along X (0.3 m): a wooden handle and a steel head at +X."""
    return [
        part("Handle", "cylinder", (0.014, 0.26, 0.014), (-0.02, 0.0, 0.0), WOOD, ALONG_X),
        part("Head", "box", (0.035, 0.035, 0.1), (0.125, 0.0, 0.0), None),
        part("Face", "cylinder", (0.02, 0.02, 0.02), (0.125, 0.0, 0.058), None, ALONG_Z),
    ]


def pedestal() -> list[ModelSpec]:
    """A table's single leg (its 0.1 x 1.06 m box): a turned column on a wide foot, with a
    plate under the top, in the scene's wood."""
    return [
        part("Column", "cylinder", (0.035, 0.98, 0.035), (0.0, 0.0, 0.0), None),
        part("Foot", "cylinder", (0.22, 0.03, 0.22), (0.0, -0.515, 0.0), None),
        part("Collar", "cylinder", (0.055, 0.06, 0.055), (0.0, -0.47, 0.0), None),
        part("Plate", "cylinder", (0.12, 0.02, 0.12), (0.0, 0.52, 0.0), None),
    ]


def counter() -> list[ModelSpec]:
    """A kitchen counter (its 0.7 x 0.85 x 0.5 m box, the front facing +Z): an oak cabinet on
    a dark plinth, two doors with steel handles, a stone top, and a glass hob with a burner
    where the pan sits."""
    oak, door = srgb("#7b5230", 0.6), srgb("#8d6038", 0.55)
    handle = srgb("#c4c8cc", 0.3, 0.9)
    nodes = [
        part("Plinth", "box", (0.64, 0.06, 0.44), (0.0, -0.395, -0.02), srgb("#2a2623", 0.8)),
        part("Cabinet", "box", (0.68, 0.75, 0.48), (0.0, 0.01, -0.01), oak),
        part("Top", "box", (0.7, 0.04, 0.5), (0.0, 0.405, 0.0), srgb("#d9d5cd", 0.35)),
        part("Hob", "box", (0.34, 0.004, 0.32), (0.0, 0.427, 0.04), srgb("#141416", 0.15)),
        part("Burner", "cylinder", (0.12, 0.002, 0.12), (0.0, 0.429, 0.05), srgb("#7a2a1c", 0.5)),
        part("BurnerCap", "cylinder", (0.09, 0.003, 0.09), (0.0, 0.4295, 0.05), BLACK),
    ]
    for side, x in (("Left", -0.168), ("Right", 0.168)):
        nodes.append(part(f"{side}Door", "box", (0.326, 0.66, 0.016), (x, 0.0, 0.238), door))
        knob_x = x + (0.13 if x < 0 else -0.13)
        nodes.append(part(f"{side}Handle", "cylinder", (0.007, 0.12, 0.007),
                          (knob_x, 0.2, 0.252), handle))  # fmt: skip
    return nodes


def workbench() -> list[ModelSpec]:
    """A workbench (its 0.8 x 0.8 x 1.4 m box, long along Z): a thick top on four legs, a
    shelf below, and a steel vise at the near end of its edge toward +X."""
    nodes = [
        part("Top", "box", (0.8, 0.07, 1.4), (0.0, 0.365, 0.0), None),
        part("Shelf", "box", (0.68, 0.03, 1.28), (0.0, -0.22, 0.0), None),
    ]
    for number, (x, z) in enumerate([(-0.35, -0.65), (0.35, -0.65), (-0.35, 0.65), (0.35, 0.65)]):
        nodes.append(part(f"Leg{number}", "box", (0.07, 0.73, 0.07), (x, -0.035, z), None))
    nodes += [
        part("ViseBody", "box", (0.12, 0.08, 0.16), (0.3, 0.44, -0.5), GUNMETAL),
        part("ViseJaw", "box", (0.12, 0.07, 0.03), (0.3, 0.435, -0.6), GUNMETAL),
        part("ViseScrew", "cylinder", (0.008, 0.12, 0.008), (0.3, 0.43, -0.66), STEEL, ALONG_Z),
    ]
    return nodes


def target() -> list[ModelSpec]:
    """A range target (its 0.6 x 0.6 x 0.04 m board, facing +Z): a card board with a
    bullseye of rings, white and black, a red centre."""
    rings = [(0.27, "#f4f1e8"), (0.215, "#1d1d1f"), (0.16, "#f4f1e8"), (0.105, "#1d1d1f")]
    nodes = [part("Board", "box", (0.6, 0.6, 0.04), (0.0, 0.0, 0.0), srgb("#c9a877", 0.9))]
    for number, (radius, color) in enumerate([*rings, (0.05, "#c8281e")]):
        at = (0.0, 0.0, 0.0205 + 0.0008 * number)  # each a hair before the one behind it
        look = srgb(color, 0.8)
        nodes.append(part(f"Ring{number}", "cylinder", (radius, 0.001, radius), at, look, ALONG_Z))
    return nodes


MODELS: dict[str, Callable[[], list[ModelSpec]]] = {
    "pan": pan,
    "spatula": spatula,
    "burger": burger,
    "bee": bee,
    "pistol": pistol,
    "rifle": rifle,
    "door": door,
    "drawer": drawer,
    "lever": lever,
    "button": button,
    "dial": dial,
    "wrench": wrench,
    "hammer": hammer,
    "pedestal": pedestal,
    "target": target,
    "counter": counter,
    "workbench": workbench,
}


def make(out: Path = OUT) -> list[Path]:
    """Write every model to `out`; the files written."""
    out.mkdir(parents=True, exist_ok=True)
    return [write_glb(out / f"{name}.glb", build()) for name, build in MODELS.items()]


if __name__ == "__main__":
    for path in make():
        print(path.relative_to(ROOT))
