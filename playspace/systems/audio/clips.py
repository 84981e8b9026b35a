"""Sound clips read from files: WAV, OGG and FLAC decoded by libsndfile (``soundfile``, whose
wheels carry it), made mono (a sound in the world comes from one point; OpenAL places only mono
sounds) and kept as float32 samples, read once per file.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

CLIP_SUFFIXES = (".wav", ".ogg", ".flac")
_READ: dict[Path, Clip] = {}


class ClipError(ValueError):
    """A sound file that cannot be used; the message names it and why."""


@dataclass(frozen=True, slots=True, eq=False)
class Clip:
    """A decoded sound: its `name`, mono `samples` in [-1, 1] and their `rate` (Hz)."""

    name: str
    samples: npt.NDArray[np.float32]
    rate: int

    @property
    def seconds(self) -> float:
        return len(self.samples) / self.rate


def read_clip(path: Path, name: str | None = None) -> Clip:
    """The clip in the sound file at `path`, decoded once (its channels averaged)."""
    known = _READ.get(path)
    if known is not None:
        return known
    if path.suffix.lower() not in CLIP_SUFFIXES:
        raise ClipError(f"{path}: expected a sound file ({', '.join(CLIP_SUFFIXES)})")
    if not path.is_file():
        raise ClipError(f"no such sound file: {path}")
    import soundfile  # decoding is loaded with the first sound a world plays

    try:
        data, rate = soundfile.read(str(path), dtype="float32", always_2d=True)
    except (RuntimeError, soundfile.LibsndfileError) as error:
        raise ClipError(f"{path}: not a sound libsndfile can read ({error})") from None
    if len(data) == 0:
        raise ClipError(f"{path}: the sound is empty")
    samples = np.ascontiguousarray(data.mean(axis=1), dtype=np.float32)
    if not np.isfinite(samples).all():
        raise ClipError(f"{path}: the sound holds samples that are not numbers")
    samples.setflags(write=False)
    clip = _READ[path] = Clip(name or path.stem, samples, int(rate))
    return clip
