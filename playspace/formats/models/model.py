"""A model as read from its file: nodes in a tree, each with its place in its parent, its
surfaces and looks, its import hint and its extras. Plain data: what becomes of it in a world
is :mod:`playspace.app.models`'s."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from playspace.components.appearance import Appearance
from playspace.components.visual import Surface
from playspace.formats.models.hints import Hint

Triple = tuple[float, float, float]
Quad = tuple[float, float, float, float]


class ModelError(ValueError):
    """A model file that cannot be used; the message names the file, the item and why."""


@dataclass(frozen=True, slots=True)
class BodyExtras:
    """What a body's extras (or a scene's overrides of them) say; None: left out."""

    grabbable: bool | None = None
    mass: float | None = None
    layer: str | None = None
    tags: tuple[str, ...] | None = None


@dataclass(frozen=True, slots=True)
class ModelPart:
    """One primitive of a node's mesh: its triangles, and its material (None: the file gives
    it none, and the palette draws it)."""

    surface: Surface
    look: Appearance | None


@dataclass(frozen=True, slots=True)
class ModelNode:
    """One node: `name` without its hint, where it sits in its parent (`translation`,
    `rotation` as x, y, z, w, `scale`), `extras` as the file's JSON object, and `body` what
    those extras say playspace is to make of it as a body (``grabbable``, ``mass``, ``layer``,
    ``tags``)."""

    index: int
    name: str
    hint: Hint
    parent: int | None
    children: tuple[int, ...]
    translation: Triple
    rotation: Quad
    scale: Triple
    parts: tuple[ModelPart, ...]
    extras: Mapping[str, object]
    body: BodyExtras = BodyExtras()  # what its extras say of it as a body, checked


@dataclass(frozen=True, slots=True)
class Model:
    """A model file's default scene: its `nodes` (indexed as the file indexes them; only those
    under `roots` are placed) and what the reader could not use, in words (`unused`)."""

    path: Path
    nodes: tuple[ModelNode, ...]
    roots: tuple[int, ...]
    unused: tuple[str, ...] = ()

    def walk(self) -> list[ModelNode]:
        """The placed nodes, each parent before its children, in the file's order."""
        found: list[ModelNode] = []
        stack = list(reversed(self.roots))
        while stack:
            node = self.nodes[stack.pop()]
            found.append(node)
            stack.extend(reversed(node.children))
        return found
