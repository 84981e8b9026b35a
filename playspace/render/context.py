"""An OpenGL context without a window, or a clear reason why there is none.

Headless captures and the GL tests draw through EGL, which needs no X server: on a machine
with no GPU, Mesa's software renderer (llvmpipe) does the drawing. The pieces are three
Debian/Ubuntu packages, and a missing one shows up as a terse loader error, so the error
raised here names the package to install.
"""

from __future__ import annotations

from typing import Any

import moderngl

GL_VERSION = 330  # the shaders are GLSL 330 core
PACKAGES = "libegl1 libgl1 libgl1-mesa-dri"


class GLUnavailableError(RuntimeError):
    """No OpenGL context could be made; the message says which driver is missing."""


def _diagnose(detail: str) -> str:
    if "libEGL" in detail:
        return "libEGL, the EGL loader, is missing (Debian/Ubuntu package libegl1)"
    if "libGL" in detail:
        return "libGL is missing (Debian/Ubuntu package libgl1; ModernGL loads it even for EGL)"
    return (
        "EGL started but found no usable driver: Mesa's drivers (package libgl1-mesa-dri) "
        "may be missing, or the GPU driver does not offer OpenGL 3.3 core"
    )


def create_context(**options: str) -> moderngl.Context:
    """A standalone OpenGL 3.3+ core context through EGL (no window, no display needed).

    `options` go to glcontext's EGL backend (``libegl=``, ``libgl=``: which libraries to load,
    ``device_index=``). Raises GLUnavailableError, naming what to install, when that fails.
    """
    settings: dict[str, Any] = {"backend": "egl", **options}  # the stubs mistype **settings
    try:
        return moderngl.create_standalone_context(require=GL_VERSION, **settings)
    except Exception as error:  # glcontext raises bare Exceptions with the loader's words
        detail = str(error) or type(error).__name__
        raise GLUnavailableError(
            f"no OpenGL context for offscreen rendering: {_diagnose(detail)} ({detail}). "
            f"Install {PACKAGES} (apt-get install {PACKAGES}), or run with --no-render."
        ) from error
