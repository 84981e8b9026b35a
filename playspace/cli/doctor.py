"""``playspace doctor``: what this machine offers a playspace run, one line per finding.

Each check says what it found or why it found nothing, so a user who cannot start a run sees
the missing piece: the OpenXR runtime (and whether it sees a headset), the GL driver (and
whether it draws both eyes in one pass), the sound device (and how soon it plays a sound), a
display for the preview window, gamepads. No check raises; a missing piece is a line.

The GL and sound checks are probes passed in (`gl_probe`, `sound_probe`), so a test can stand
in for the driver.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable, Mapping
from typing import Any


def add(commands: Any) -> None:
    doctor = commands.add_parser(
        "doctor",
        help="say what this machine offers: OpenXR runtime, GL, sound, display, gamepads",
    )
    doctor.set_defaults(handler=handle, usage=doctor)


def handle(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    print("\n".join(doctor_report(gl_probe, sound_probe=sound_probe)))
    return 0


def gl_probe() -> str:
    """The GL renderer of a standalone EGL context (no window needed), and how it draws a
    headset's two eyes (the path the renderer takes: one pass or two)."""
    from playspace.render import create_context
    from playspace.render.stereo import stereo_path

    ctx = create_context()
    try:
        major, minor = divmod(ctx.version_code // 10, 10)
        stereo = stereo_path(ctx).describe()
        found = f"{ctx.info['GL_RENDERER']}, OpenGL {major}.{minor} (EGL, no window)"
        return f"{found}; both eyes: {stereo}"
    finally:
        ctx.release()


def sound_probe() -> str:
    """The sound device a preview or a headset run opens (the default one), how soon it
    plays a sound, as OpenAL Soft reports it, and every device ``--audio-device`` can name."""
    from playspace.components.audio import AudioSettings
    from playspace.systems.audio.engine import AudioEngine

    engine = AudioEngine(AudioSettings(), loopback=False)
    try:
        latency = engine.latency()
        heard = (
            "how soon it plays a sound is not reported"
            if latency is None
            else f"a sound is heard {latency * 1e3:.0f} ms after it starts"
        )
        devices = "; ".join(engine.lib.output_devices()) or "none listed"
        return f"{engine.describe()}; {heard}; devices (--audio-device): {devices}"
    finally:
        engine.close()


def doctor_report(
    gl_probe: Callable[[], str] | None = None,
    environ: Mapping[str, str] = os.environ,
    sound_probe: Callable[[], str] | None = None,
) -> list[str]:
    """Lines for people: OpenXR loader and runtime, GL renderer, sound, display, gamepads.

    `gl_probe` returns the GL renderer's description (creating a context to ask it) or raises
    with why it could not; without one the GL line says it was not checked. `sound_probe`
    does the same for the sound device, after the GL line.
    """
    lines = _openxr_lines(environ)
    lines += [_gl_line(gl_probe)]
    if sound_probe is not None:
        lines.append(_sound_line(sound_probe))
    lines += [_display_line(environ), *_gamepad_lines(environ)]
    return lines


def _openxr_lines(environ: Mapping[str, str]) -> list[str]:
    from playspace.xr.state import XrUnavailable

    try:
        from playspace.xr import backend
    except (ImportError, OSError, NotImplementedError) as error:  # no loader (macOS has none)
        return [f"OpenXR loader: cannot be loaded ({error})"]
    lines = [f"OpenXR loader: bundled with pyopenxr {backend.PYOPENXR_VERSION}"]
    manifest = environ.get("XR_RUNTIME_JSON")
    chosen = f"XR_RUNTIME_JSON={manifest}" if manifest else "the system's active runtime"
    try:
        report = backend.probe_runtime()
    except XrUnavailable as error:
        return [*lines, f"OpenXR runtime: none, looked for {chosen} ({error.detail})"]
    return [
        *lines,
        f"OpenXR runtime: {report.runtime} ({chosen})",
        f"OpenXR extensions ({len(report.extensions)}): {', '.join(report.extensions)}",
        f"OpenXR headset: {report.headset}",
    ]


def _gl_line(gl_probe: Callable[[], str] | None) -> str:
    if gl_probe is None:
        return "GL: not checked"
    try:
        return f"GL: {gl_probe()}"
    except Exception as error:  # any driver failure is a finding, not a crash
        return f"GL: failed ({type(error).__name__}: {error})"


def _sound_line(sound_probe: Callable[[], str]) -> str:
    from playspace.systems.audio.openal import OpenALError

    try:
        return f"sound: {sound_probe()}"
    except OpenALError as error:
        return f"sound: none ({error}): runs are silent"
    except Exception as error:  # any library failure is a finding, not a crash
        return f"sound: failed ({type(error).__name__}: {error})"


def _display(environ: Mapping[str, str]) -> str | None:
    for name in ("WAYLAND_DISPLAY", "DISPLAY"):
        if environ.get(name):
            return f"{name}={environ[name]}"
    return None


def _display_line(environ: Mapping[str, str]) -> str:
    found = _display(environ)
    if found is None:
        return "display: none ($DISPLAY and $WAYLAND_DISPLAY unset): no preview window"
    return f"display: {found}"


def _gamepad_lines(environ: Mapping[str, str]) -> list[str]:
    """The gamepads glfw sees; glfw needs a display to start at all."""
    if _display(environ) is None:
        return ["gamepads: need a display"]
    import glfw

    if not glfw.init():
        return ["gamepads: glfw could not start on this display"]
    try:
        found = []
        for joystick in range(glfw.JOYSTICK_1, glfw.JOYSTICK_LAST + 1):
            if not glfw.joystick_present(joystick):
                continue
            if glfw.joystick_is_gamepad(joystick):
                found.append(f"gamepad {joystick + 1}: {glfw.get_gamepad_name(joystick)}")
            else:
                name: object = glfw.get_joystick_name(joystick)  # bytes, whatever the stub says
                text = name.decode(errors="replace") if isinstance(name, bytes) else str(name)
                found.append(f"gamepad {joystick + 1}: {text} (no gamepad mapping)")
    finally:
        glfw.terminate()
    return found or ["gamepads: none connected"]
