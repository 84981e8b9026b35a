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
_READ: dict[str | Path, Clip] = {}  # by the path as asked for, and as a Path


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


def read_clip(asked: str | Path, name: str | None = None) -> Clip:
    """The clip in the sound file at `asked`, decoded once (its channels averaged). A
    path given as text is looked up as given first: making a Path costs more than a sound
    played again."""
    known = _READ.get(asked)
    if known is not None:
        return known
    path = Path(asked)
    known = _READ.get(path)
    if known is not None:
        _READ[asked] = known
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
    clip = _READ[path] = _READ[asked] = Clip(name or path.stem, samples, int(rate))
    return clip
