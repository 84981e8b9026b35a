"""The order opaque batches are drawn in: nearest first.

A pixel covered by something nearer is not shaded again when the nearer thing was drawn first:
the depth test runs before the surface's shader, and a renderer skips a block of pixels that all
fail it (a GPU's early depth test; llvmpipe shades 4x4 blocks and skips those all behind). So
drawing the counter before the wall behind it saves shading the wall where the counter is, and
the order changes nothing else in the picture (only which of two surfaces at exactly the same
depth wins). Engines sort their opaque queue so (Unity's front-to-back opaque sorting).

A batch is many instances of one mesh and material: it goes by its nearest instance's origin,
one numpy pass over every instance's place, once a frame. Measured on the kitchen at 1280x720
(llvmpipe, 2 cores, high): 40 -> 36 ms, low 13.9 -> 13.3 ms.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from playspace.render.instances import Batch


def nearest_first(batches: Sequence[Batch], eye: tuple[float, float, float]) -> list[int]:
    """The indices of `batches` (each with opaque instances) by their nearest instance to
    `eye`, nearest first; ties keep the given order."""
    if len(batches) < 2:
        return list(range(len(batches)))
    places = [part[:, 12:15] for b in batches for part in (b.scenery, b.moving) if len(part)]
    counts = np.array([b.opaque_count for b in batches])
    starts = np.concatenate(([0], np.cumsum(counts[:-1])))
    away = np.concatenate(places) - np.asarray(eye, dtype=np.float32)
    nearest = np.minimum.reduceat(np.einsum("ij,ij->i", away, away), starts)
    order: list[int] = np.argsort(nearest, kind="stable").tolist()
    return order
