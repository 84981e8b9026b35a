"""Images a file names or embeds: which of glTF's two formats (PNG, JPEG) one is, and a cache
for embedded ones.

Only an image's first bytes are read here: decoding is the renderer's, when it first draws the
texture. An embedded image (a GLB's, a data URI's) is written once to :data:`TEXTURE_CACHE`,
named by its content, since an Appearance names its texture by a file.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path

from playspace.formats.files import MB, input_problem

LARGEST_IMAGE = 256 * MB  # a 8192 x 8192 RGBA texture, uncompressed
# The two image formats glTF 2.0 allows, told by their first bytes as glTF viewers tell them
IMAGE_KINDS = {b"\x89PNG\r\n\x1a\n": ".png", b"\xff\xd8\xff": ".jpg"}
TEXTURE_CACHE = Path(tempfile.gettempdir()) / "playspace-textures"


class ImageError(ValueError):
    """An embedded image that cannot be used; the message says which and why."""


def image_kind(head: bytes) -> str | None:
    """The suffix of the image format whose file starts with `head`, if glTF allows it."""
    return next((kind for magic, kind in IMAGE_KINDS.items() if head.startswith(magic)), None)


def image_problem(path: Path) -> str | None:
    """Why `path` is not a PNG or JPEG file the renderer can decode; None when it is one. Only
    its first bytes are read: decoding is the renderer's, when it first draws the texture."""
    problem = input_problem(path, LARGEST_IMAGE)
    if problem is not None:
        return problem
    with path.open("rb") as file:
        head = file.read(8)
    return None if image_kind(head) else "not a PNG or JPEG image"


def cached_image(data: bytes, who: str) -> Path:
    """An embedded image as a file of the texture cache, written once, named by its content
    (an Appearance names its texture by a file). `who` names the image for an error."""
    kind = image_kind(data[:8])
    if kind is None:
        raise ImageError(f"{who} is not a PNG or JPEG image")
    target = TEXTURE_CACHE / f"{hashlib.sha256(data).hexdigest()[:32]}{kind}"
    if target.is_file() and target.stat().st_size == len(data):
        return target
    part = target.with_name(f"{target.name}.{os.getpid()}.part")
    try:
        TEXTURE_CACHE.mkdir(parents=True, exist_ok=True)
        part.write_bytes(data)
        os.replace(part, target)  # whole or not at all, for any other reader
    except OSError as error:
        raise ImageError(f"cannot write {who} to {target}: {error.strerror}") from None
    return target
