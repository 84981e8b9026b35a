"""The session's graphics bindings: which one a platform and a runtime call for, the messages
when one cannot be had, WGL's structure, EGL from a standalone context, GLX from a hidden glfw
window under a private Xvfb, and (where ``XR_RUNTIME_JSON`` names a runtime) a whole headset run
through GLX against it.

The X tests start their own Xvfb and skip, saying why, where it is not installed. The runtime
tests skip only when ``XR_RUNTIME_JSON`` is unset: when it is set, a runtime that cannot be
used is a failure.
"""

from __future__ import annotations

import ctypes
import importlib.util
import os
import re
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from ctypes import wintypes
from pathlib import Path
from types import ModuleType, SimpleNamespace
from typing import Any, cast

import pytest

from playspace.ecs import World
from playspace.loops.gl import DrawnCount, choose_gl, headset_gl, offered_extensions
from playspace.spatial import Pose
from playspace.xr import graphics
from playspace.xr.graphics import (
    EGL_ENABLE,
    OPENGL_ENABLE,
    BindingKind,
    choose_binding,
    missing_extensions_message,
    needed_extensions,
    wgl_binding,
)
from playspace.xr.state import FailureKind, XrUnavailable
from playspace.xr.views import EyeTarget, Fov
from tests.cli_helpers import playspace
from tests.needs import need_program, need_runtime

ROOT = Path(__file__).resolve().parents[2]
MONADO = {OPENGL_ENABLE, EGL_ENABLE, "XR_MND_headless"}  # what Monado offers, in part
STEAMVR = {OPENGL_ENABLE, "XR_KHR_vulkan_enable2"}  # no EGL: GLX on Linux, WGL on Windows

# --- which binding: pure -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("requested", "platform", "offered", "expected"),
    [
        ("auto", "linux", MONADO, BindingKind.EGL),  # no window, no X server needed
        ("auto", "linux", STEAMVR, BindingKind.GLX),
        ("auto", "linux", None, BindingKind.EGL),  # no runtime: the run says so next
        ("auto", "win32", STEAMVR, BindingKind.WGL),
        ("auto", "win32", MONADO, BindingKind.WGL),  # EGL is Linux's
        ("auto", "win32", None, BindingKind.WGL),
        ("egl", "linux", STEAMVR, BindingKind.EGL),  # as asked: the session says what it lacks
        ("glx", "linux", MONADO, BindingKind.GLX),
    ],
)
def test_the_binding_follows_the_platform_and_the_runtimes_extensions(
    requested: str, platform: str, offered: set[str] | None, expected: BindingKind
) -> None:
    assert choose_binding(requested, platform, offered) is expected


@pytest.mark.parametrize(
    ("requested", "platform", "kind", "words"),
    [
        ("egl", "win32", FailureKind.SESSION_REFUSED, "XR_MNDX_egl_enable) is for Linux"),
        ("glx", "win32", FailureKind.SESSION_REFUSED, "through WGL: use --gl auto"),
        ("auto", "darwin", FailureKind.NO_RUNTIME, "not on darwin, where no OpenXR runtime"),
        ("glx", "darwin", FailureKind.NO_RUNTIME, "not on darwin"),
    ],
)
def test_a_binding_the_platform_cannot_have_is_refused_with_what_to_do(
    requested: str, platform: str, kind: FailureKind, words: str
) -> None:
    with pytest.raises(XrUnavailable) as caught:
        choose_binding(requested, platform, MONADO)
    assert caught.value.kind is kind
    assert words in caught.value.detail


def test_an_unknown_choice_is_a_programming_error() -> None:
    with pytest.raises(ValueError, match="auto, egl, glx"):
        choose_binding("vulkan", "linux", MONADO)


def test_only_auto_asks_the_runtime() -> None:
    asked: list[str] = []

    def offered() -> set[str]:
        asked.append("asked")
        return STEAMVR

    assert choose_gl("glx", "linux", offered) is BindingKind.GLX
    assert choose_gl("egl", "linux", offered) is BindingKind.EGL
    assert asked == []
    assert choose_gl("auto", "linux", offered) is BindingKind.GLX
    assert asked == ["asked"]


def test_no_runtime_offers_nothing_and_auto_takes_egl(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    manifest = tmp_path / "runtime.json"
    manifest.write_text(
        '{"file_format_version": "1.0.0", "runtime": {"library_path": "./libnothing.so"}}'
    )
    monkeypatch.setenv("XR_RUNTIME_JSON", str(manifest))
    assert offered_extensions() is None
    assert choose_gl("auto", "linux") is BindingKind.EGL


def test_each_binding_needs_opengl_enable_and_egl_its_own_extension_too() -> None:
    assert needed_extensions(BindingKind.EGL) == (OPENGL_ENABLE, EGL_ENABLE)
    assert needed_extensions(BindingKind.GLX) == (OPENGL_ENABLE,)
    assert needed_extensions(BindingKind.WGL) == (OPENGL_ENABLE,)
    assert [kind.windowed for kind in BindingKind] == [False, True, True]


def test_missing_extensions_say_which_and_the_way_around() -> None:
    egl = missing_extensions_message(BindingKind.EGL, [EGL_ENABLE])
    assert egl.startswith("rendering to the headset through EGL needs XR_MNDX_egl_enable")
    assert "--gl glx" in egl
    no_gl = missing_extensions_message(BindingKind.WGL, [OPENGL_ENABLE])
    assert "through WGL needs XR_KHR_opengl_enable" in no_gl and "OpenGL" in no_gl
    both = missing_extensions_message(BindingKind.EGL, [OPENGL_ENABLE, EGL_ENABLE])
    assert "XR_KHR_opengl_enable, XR_MNDX_egl_enable" in both
    assert "--gl glx" not in both  # a window would not help a runtime without OpenGL


def test_the_no_context_messages_name_the_platform() -> None:
    assert "no GL context is current" in graphics.no_context_message("linux")
    assert "not on darwin" in graphics.no_context_message("darwin")
    assert "--gl glx" in graphics.no_window_visual_message(65)


# --- WGL: pyopenxr's own Windows structure, built here from given handles ----------------------


@pytest.fixture
def win32_binding_type(monkeypatch: pytest.MonkeyPatch) -> Any:
    """pyopenxr's ``GraphicsBindingOpenGLWin32KHR`` as its Windows module defines it, loaded on
    this platform: the module needs only PyOpenGL's ``WGL.HGLRC``, a ``HANDLE`` as PyOpenGL's
    WGL types define it, which is stubbed in (PyOpenGL's WGL will not load off Windows)."""
    import OpenGL  # type: ignore[import-untyped]

    xr = graphics._pyopenxr()

    stub = ModuleType("OpenGL.WGL")
    stub.HGLRC = wintypes.HANDLE  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "OpenGL.WGL", stub)
    monkeypatch.setattr(OpenGL, "WGL", stub, raising=False)
    source = Path(xr.__file__).parent / "platform" / "windows.py"
    spec = importlib.util.spec_from_file_location("xr.platform.windows", source)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)  # not put into sys.modules
    spec.loader.exec_module(module)
    return module.GraphicsBindingOpenGLWin32KHR


def test_the_wgl_binding_carries_the_current_dc_and_context(win32_binding_type: Any) -> None:
    xr = graphics._pyopenxr()
    binding = wgl_binding(win32_binding_type, 0x1234_5678_9A, 0x0BAD_F00D)
    assert binding.type == xr.StructureType.GRAPHICS_BINDING_OPENGL_WIN32_KHR
    assert (binding.h_dc, binding.h_glrc) == (0x1234_5678_9A, 0x0BAD_F00D)
    assert binding.next is None
    # XrGraphicsBindingOpenGLWin32KHR: type (4 bytes, padded to 8), next, HDC, HGLRC
    pointer = ctypes.sizeof(ctypes.c_void_p)
    assert ctypes.sizeof(binding) == 4 * pointer
    raw = (ctypes.c_void_p * 4).from_buffer_copy(bytes(binding))
    assert (raw[2], raw[3]) == (0x1234_5678_9A, 0x0BAD_F00D)


@pytest.mark.parametrize(
    ("hdc", "hglrc", "words"),
    [
        (0x10, None, "wglGetCurrentContext returned NULL"),
        (0x10, 0, "wglGetCurrentContext returned NULL"),
        (0, 0x20, "wglGetCurrentDC returned NULL"),
    ],
)
def test_a_missing_wgl_handle_is_refused_before_the_runtime_sees_it(
    win32_binding_type: Any, hdc: int, hglrc: int | None, words: str
) -> None:
    with pytest.raises(XrUnavailable) as caught:
        wgl_binding(win32_binding_type, hdc, hglrc)
    assert caught.value.kind is FailureKind.SESSION_REFUSED and words in caught.value.detail


# --- EGL: from ModernGL's standalone context ---------------------------------------------------


def test_the_egl_binding_names_the_current_context_and_its_config() -> None:
    with headset_gl(BindingKind.EGL) as gl:
        assert gl.binding is BindingKind.EGL and gl.describe().startswith("EGL (no window; ")
        assert graphics.current_binding_kind() is BindingKind.EGL
        assert graphics.require_binding_extensions(MONADO) is BindingKind.EGL
        with pytest.raises(XrUnavailable, match="needs XR_MNDX_egl_enable"):
            graphics.require_binding_extensions(STEAMVR)
        binding = graphics.current_gl_binding(egl_enabled=True)
        egl = ctypes.CDLL("libEGL.so.1")
        egl.eglGetCurrentContext.restype = egl.eglGetCurrentDisplay.restype = ctypes.c_void_p
        assert ctypes.cast(binding.context, ctypes.c_void_p).value == egl.eglGetCurrentContext()
        assert ctypes.cast(binding.display, ctypes.c_void_p).value == egl.eglGetCurrentDisplay()
        egl.eglGetConfigAttrib.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int]
        egl.eglGetConfigAttrib.argtypes += [ctypes.POINTER(ctypes.c_int)]
        egl.eglQueryContext.argtypes = egl.eglGetConfigAttrib.argtypes
        used, found = ctypes.c_int(), ctypes.c_int()
        display, context = egl.eglGetCurrentDisplay(), egl.eglGetCurrentContext()
        assert egl.eglQueryContext(display, context, 0x3028, ctypes.byref(used))  # CONFIG_ID
        config = ctypes.cast(binding.config, ctypes.c_void_p).value
        assert egl.eglGetConfigAttrib(display, config, 0x3028, ctypes.byref(found))
        assert found.value == used.value != 0
        with pytest.raises(XrUnavailable, match="XR_MNDX_egl_enable"):
            graphics.current_gl_binding(egl_enabled=False)
    assert type(gl.ctx.mglo).__name__ == "InvalidObject"  # released on leaving


def test_frames_and_eyes_drawn_are_counted() -> None:
    drawn = DrawnCount()
    calls: list[int] = []
    clock = SimpleNamespace(frame=0)
    world = cast(World, SimpleNamespace(time=clock))

    def make(world: World) -> Any:
        return lambda pose, fov, target: calls.append(world.time.frame)

    draw = drawn.counting(make)(world)
    eye, fov = Pose.identity(), Fov(-0.5, 0.5, 0.5, -0.5)
    target = EyeTarget(1, None, 8, 8, 0x8C43, None)
    for frame in (0, 0, 1, 1, 2):
        clock.frame = frame
        draw(eye, fov, target)
    assert (drawn.frames, drawn.eyes, calls) == (3, 5, [0, 0, 1, 1, 2])


# --- GLX: a hidden glfw window on a private X server -------------------------------------------


@pytest.fixture(scope="module")
def xvfb() -> Iterator[str]:
    """A fresh X server of its own (Xvfb picks a free display number and tells it), stopped
    afterwards."""
    need_program("Xvfb", "xvfb xauth")
    read, write = os.pipe()
    server = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write), "-screen", "0", "640x480x24", "-nolisten", "tcp"],
        pass_fds=(write,),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    os.close(write)
    try:
        number = b""
        deadline = time.monotonic() + 20
        while not number.endswith(b"\n") and time.monotonic() < deadline:
            chunk = os.read(read, 16)
            if not chunk:
                break
            number += chunk
        if not number.strip().isdigit():
            pytest.fail(f"Xvfb did not start (exit status {server.poll()})")
        yield f":{number.decode().strip()}"
    finally:
        os.close(read)
        server.terminate()
        server.wait(timeout=10)


def python(code: str, env: dict[str, str], timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """Run `code` in a fresh interpreter (GL state and glfw never leak between tests)."""
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True, text=True, timeout=timeout, check=False, cwd=ROOT, env=env,
    )  # fmt: skip


def display_env(display: str | None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    if display is not None:
        env["DISPLAY"] = display
    return env


GLX_FROM_A_WINDOW = """
    import ctypes
    from ctypes import byref, c_int, c_void_p
    import glfw
    from playspace.loops.gl import headset_gl
    from playspace.xr import graphics
    from playspace.xr.graphics import BindingKind

    def address(pointer):
        return ctypes.cast(pointer, c_void_p).value or 0

    with headset_gl(BindingKind.GLX) as gl:
        window = glfw.get_current_context()
        assert not glfw.get_window_attrib(window, glfw.VISIBLE)
        assert graphics.current_binding_kind() is BindingKind.GLX
        assert graphics.require_binding_extensions(["XR_KHR_opengl_enable"]) is BindingKind.GLX
        binding = graphics.current_gl_binding(egl_enabled=False)
        assert address(binding.glx_context) == address(glfw.get_glx_context(window))
        assert binding.glx_drawable == glfw.get_glx_window(window)
        assert address(binding.glx_fbconfig) != 0, "the FBConfig was left NULL"
        glx = graphics._pyopenxr_linux()[1].GLX
        used, found, visual = c_int(), c_int(), c_int()
        display = binding.x_display
        glx.glXQueryContext(display, binding.glx_context, glx.GLX_FBCONFIG_ID, byref(used))
        glx.glXGetFBConfigAttrib(display, binding.glx_fbconfig, glx.GLX_FBCONFIG_ID, byref(found))
        glx.glXGetFBConfigAttrib(display, binding.glx_fbconfig, glx.GLX_VISUAL_ID, byref(visual))
        assert found.value == used.value != 0, (found.value, used.value)
        assert binding.visualid == visual.value != 0
        print(gl.describe())
"""


def test_a_hidden_windows_glx_context_binds_with_its_fbconfig_and_visual(xvfb: str) -> None:
    done = python(GLX_FROM_A_WINDOW, display_env(xvfb))
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("GLX (a hidden glfw window; ")


def test_a_standalone_glx_context_without_a_visual_is_refused_with_why(xvfb: str) -> None:
    code = """
        import moderngl
        from playspace.xr import graphics
        from playspace.xr.state import XrUnavailable

        ctx = moderngl.create_standalone_context(require=330)  # GLX, on a pbuffer's config
        assert graphics.current_binding_kind() is graphics.BindingKind.GLX
        try:
            graphics.current_gl_binding(egl_enabled=False)
        except XrUnavailable as error:
            print(error.detail)
    """
    done = python(code, display_env(xvfb))
    assert done.returncode == 0, done.stderr
    assert "made without a window" in done.stdout and "--gl glx" in done.stdout


def test_no_context_at_all_is_refused_with_why() -> None:
    code = """
        from playspace.xr import graphics
        from playspace.xr.state import XrUnavailable

        assert graphics.current_binding_kind() is None
        try:
            graphics.require_binding_extensions(["XR_KHR_opengl_enable"])
        except XrUnavailable as error:
            print(error.detail)
    """
    done = python(code, display_env(None))
    assert done.returncode == 0, done.stderr
    assert "no GL context is current" in done.stdout


def test_gl_glx_without_an_x_display_exits_2_saying_so() -> None:
    done = playspace("run", "examples/kitchen.toml", "--vr", "--gl", "glx", env=display_env(None))
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("playspace run --vr --gl glx: no X display for the window")
    assert "Traceback" not in done.stderr


# --- against a real runtime (XR_RUNTIME_JSON) --------------------------------------------------


@pytest.fixture
def runtime_env() -> dict[str, str]:
    """The environment for a run against the runtime ``XR_RUNTIME_JSON`` names: its own
    simulated headset (not a remote driver whose port another run may hold)."""
    need_runtime()
    env = {k: v for k, v in os.environ.items() if k != "P_OVERRIDE_ACTIVE_CONFIG"}
    env.setdefault("XR_LOADER_DEBUG", "none")
    return env


def drawn_frames(stdout: str, binding: str) -> int:
    found = re.search(rf"^GL: {binding} \(.*\): (\d+) frames drawn", stdout, re.MULTILINE)
    assert found is not None, stdout
    return int(found.group(1))


@pytest.mark.slow
def test_a_headset_run_through_glx_reaches_focused_and_draws(
    xvfb: str, runtime_env: dict[str, str]
) -> None:
    env = {**runtime_env, "DISPLAY": xvfb}
    env.pop("WAYLAND_DISPLAY", None)
    args = ("run", "examples/kitchen.py", "--vr", "--gl", "glx", "--seconds", "2")
    done = playspace(*args, env=env)
    said = f"stdout:\n{done.stdout}\nstderr:\n{done.stderr[-3000:]}"
    assert done.returncode == 0, said
    assert "OpenXR: controllers: " in done.stdout, said  # printed when the session is FOCUSED
    assert "OpenXR: stopped: 2 s are over" in done.stdout, said
    assert "GL: GLX (a hidden glfw window; " in done.stdout, said
    assert drawn_frames(done.stdout, "GLX") >= 20, said  # about 170 at 90 Hz; the machine is slow
    assert "glxFBConfig is NULL" not in done.stderr and "Traceback" not in done.stderr


@pytest.mark.slow
def test_auto_takes_egl_where_the_runtime_offers_it_else_the_window(
    runtime_env: dict[str, str], request: pytest.FixtureRequest
) -> None:
    offered = python(
        "from playspace.xr.backend import runtime_extensions; print(runtime_extensions())",
        runtime_env,
    )
    assert offered.returncode == 0, offered.stderr
    env = {k: v for k, v in runtime_env.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    expected = "EGL"  # and no X display needed: none is given
    if EGL_ENABLE not in offered.stdout:  # SteamVR-like: the window's context, on an X server
        expected, env["DISPLAY"] = "GLX", request.getfixturevalue("xvfb")
    done = playspace("run", "examples/kitchen.py", "--vr", "--seconds", "1", env=env)
    said = f"stdout:\n{done.stdout}\nstderr:\n{done.stderr[-3000:]}"
    assert done.returncode == 0, said
    assert drawn_frames(done.stdout, expected) >= 10, said
