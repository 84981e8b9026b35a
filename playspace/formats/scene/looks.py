"""How a scene's shapes look: the look keys of any shape table and of ``[materials]``.

Every shape table takes ``color``, ``texture``, ``roughness``, ``metallic`` and ``emissive``
(glTF's metallic-roughness terms, see :class:`~playspace.components.appearance.Appearance`), and
``material``, the name of a ``[materials.NAME]`` table holding the same keys once for many
shapes. A shape's own keys override its material's, key by key; a shape that says nothing keeps
no look at all, so the renderer's palette draws it as before.

Colors are linear RGB(A) numbers in [0, 1], as glTF's factors are (``emissive`` may be
brighter than 1), or ``"#rrggbb"`` strings, which are sRGB (what a color picker shows, as in
glTF tools and Unity) and are converted to linear here. A texture is checked to be a PNG or
JPEG file (glTF's two image formats) by its first bytes, but not decoded: the renderer does
that.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from playspace.components.appearance import Appearance
from playspace.formats.images import image_problem
from playspace.formats.numbers import Number, parse_numbers
from playspace.formats.quoting import clipped
from playspace.formats.scene.reader import Table, describe

LOOK_KEYS = ("color", "texture", "roughness", "metallic", "emissive")
UNIT = Number(low=0.0, high=1.0)
LIGHT = Number(low=0.0)  # emissive light may be brighter than 1, as with glTF's emissive strength
_HEX = re.compile(r"#([0-9a-fA-F]{6})([0-9a-fA-F]{2})?")

LookKeys = dict[
    str, Any
]  # Appearance's field names and their values, checked as Appearance checks them


def srgb_to_linear(channel: float) -> float:
    """One sRGB channel in [0, 1] as linear light (the sRGB transfer function's inverse)."""
    if channel <= 0.04045:
        return channel / 12.92
    return float(((channel + 0.055) / 1.055) ** 2.4)


def read_look(t: Table, folder: Path) -> LookKeys:
    """The look keys that `t` gives, each checked; a bad one is reported and left out. Files
    that a key names are found in `folder`, the scene file's."""
    given: LookKeys = {}
    for key in LOOK_KEYS:
        if key not in t.raw:
            t.skip(key)
            continue
        value = _READERS[key](t, key, folder)
        if key not in t.bad:
            given[key] = value
    return given


def look_of(material: LookKeys | None, own: LookKeys) -> Appearance | None:
    """The look of a shape from its material's keys and its own (which win); None when neither
    says anything, so the shape is drawn as one without a look."""
    if material is None and not own:
        return None
    return Appearance(**{**(material or {}), **own})


def _color(t: Table, key: str, folder: Path) -> tuple[float, ...]:
    """Three or four numbers in [0, 1] (alpha 1 when left out) or "#rrggbb[aa]" (sRGB)."""
    rgba = key == "color"
    counts = (3, 4) if rgba else (3,)
    hex_form = 'a "#rrggbb" or "#rrggbbaa" string' if rgba else 'a "#rrggbb" string'
    what = "linear RGB, then alpha" if rgba else "linear RGB"
    number = UNIT if rgba else LIGHT
    expected = f"{describe(number, counts)} ({what}) or {hex_form} (sRGB)"
    t.skip(key)
    value = t.raw[key]
    parsed: tuple[float, ...] | None
    if isinstance(value, str):
        parsed = _from_hex(value, rgba)
    else:
        parsed = parse_numbers(value, counts, number)
    if parsed is None:
        t.reject(key, expected)
        return ()
    return (*parsed, 1.0) if rgba and len(parsed) == 3 else parsed


def _from_hex(text: str, alpha: bool) -> tuple[float, ...] | None:
    found = _HEX.fullmatch(text)
    if found is None or (found[2] and not alpha):
        return None
    digits = found[1] + (found[2] or "")
    channels = [int(digits[i : i + 2], 16) / 255 for i in range(0, len(digits), 2)]
    return tuple(srgb_to_linear(c) for c in channels[:3]) + tuple(channels[3:])  # alpha: linear


def _unit(t: Table, key: str, folder: Path) -> float:
    return t.number(key, UNIT)


def _texture(t: Table, key: str, folder: Path) -> Path:
    """An image file the renderer will read: it must be there now, not at the first frame."""
    name = t.string(key)
    path = folder / name
    problem = None if key in t.bad else image_problem(path)
    if problem is not None:
        expected = "a PNG or JPEG image file"
        t.problem(key, f'expected {expected}, got "{clipped(name)}" ({path}: {problem})')
    return path


_READERS: dict[str, Callable[[Table, str, Path], object]] = {
    "color": _color,
    "emissive": _color,
    "roughness": _unit,
    "metallic": _unit,
    "texture": _texture,
}
