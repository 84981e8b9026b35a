"""Import hints in node names, as Godot's scene importer reads them: a suffix after a ``-``
says what the node becomes in physics (``Counter-col``, ``Mug-rigid``, ``Helper-noimp``).

A level designer who knows Godot names nodes this way in Blender already; the same files
import here unchanged. The suffix is read case-blind and dropped from the entity's name.
"""

from __future__ import annotations

from enum import Enum


class Hint(Enum):
    """What a node's name asks for (the value is the suffix)."""

    NONE = ""  # drawn, nothing collides
    NO_IMPORT = "noimp"  # skipped, with everything under it
    COLLIDER = "col"  # drawn, and static triangles exactly as drawn
    CONVEX = "convcol"  # drawn, and a static convex hull of it
    COLLIDER_ONLY = "colonly"  # static triangles, not drawn
    CONVEX_ONLY = "convcolonly"  # a static convex hull, not drawn
    BOX = "boxcol"  # drawn, and the box around it
    SPHERE = "spherecol"  # drawn, and the sphere around it
    CAPSULE = "capsulecol"  # drawn, and the upright capsule around it
    RIGID = "rigid"  # a dynamic body of it and its children

    @property
    def collides(self) -> bool:
        return self not in (Hint.NONE, Hint.NO_IMPORT, Hint.RIGID)

    @property
    def drawn(self) -> bool:
        return self not in (Hint.NO_IMPORT, Hint.COLLIDER_ONLY, Hint.CONVEX_ONLY)


_BY_SUFFIX = {hint.value: hint for hint in Hint if hint is not Hint.NONE}


def split_hint(name: str) -> tuple[str, Hint]:
    """The node's name without its hint, and the hint (NONE when the last ``-`` part is not
    one: ``left-hand`` is a name)."""
    base, dash, suffix = name.rpartition("-")
    hint = _BY_SUFFIX.get(suffix.lower()) if dash else None
    return (base, hint) if hint is not None else (name, Hint.NONE)
