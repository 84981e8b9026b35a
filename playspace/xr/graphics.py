"""The session's graphics binding: the GL context current on this thread, as OpenXR takes it.

An OpenXR session renders through the application's own GL context: the runtime hands out
swapchain images as GL textures of that context, so ``xrCreateSession`` is given a *graphics
binding* that names the context current on the calling thread. playspace draws with OpenGL,
and there are three ways to name a GL context, one per windowing API:

- **EGL** (``XR_MNDX_egl_enable``, Linux): a context with no window and no X server at all,
  ModernGL's standalone EGL context. Monado and WiVRn offer it; SteamVR does not.
- **GLX** (``XR_KHR_opengl_enable`` on Xlib, Linux): a window's context on an X server (or
  XWayland). What SteamVR on Linux takes, and Monado too.
- **WGL** (``XR_KHR_opengl_enable`` on Win32, Windows): a window's context, named by its device
  context (``HDC``, the window's drawing surface) and its GL rendering context (``HGLRC``),
  both read from ``opengl32.dll``'s ``wglGetCurrentDC``/``wglGetCurrentContext``. SteamVR
  and Meta's runtime (Quest Link) take it.

Every binding also needs ``XR_KHR_opengl_enable`` itself: its
``xrGetOpenGLGraphicsRequirementsKHR`` must be called before the session is created, and the
swapchain images come back as ``XrSwapchainImageOpenGLKHR``. No OpenXR runtime runs on macOS
(and pyopenxr does not import there), so there is no binding for it.

**The GLX FBConfig.** An X server shows pixels through *visuals* (pixel layouts of windows);
GLX describes each layout GL can draw into -- color, depth and stencil bits, double buffering,
which drawables (window, pixmap, pbuffer) and which X visual -- as a *framebuffer
configuration*, a ``GLXFBConfig``. A context is created for one FBConfig, and GLX lets it share
objects with, or be made current on, only what was made from a compatible one. So
``XrGraphicsBindingOpenGLXlibKHR`` names the FBConfig and its visual id next to the display, the
drawable and the context: a runtime that makes its own context to share the application's
textures must make it from that config, and the specification requires a valid one whatever
the runtime does with it. pyopenxr's structure leaves the FBConfig NULL by default, and
runtimes check: Monado refuses a NULL FBConfig and a visual id of 0 with
``XR_ERROR_GRAPHICS_DEVICE_INVALID`` ("glxFBConfig is NULL", "visualid is 0") before anything
else (it then makes the application's own context current on the application's drawable to
import the swapchain images). GLX has no call that returns the FBConfig of a context, only its
id and screen (``glXQueryContext``), so :func:`_current_glx` lists that screen's configs and
takes the one with that id (``glXChooseFBConfig`` with only the id found nothing on Mesa for a
config without a window visual). A config's visual id is 0 when it cannot draw into windows:
ModernGL's standalone GLX context has such a config (a pbuffer's), which is why a GLX session
needs a real window's context (a glfw window's: see :mod:`playspace.loops.gl`), and why that
case is refused here with a message that says so rather than by the runtime.

The choices that need no GL and no runtime are pure functions here (:func:`choose_binding`,
:func:`needed_extensions`, :func:`missing_extensions_message`, :func:`wgl_binding`) and are
tested on any platform; pyopenxr is imported only by the functions that build a binding, so
importing this module loads neither pyopenxr nor GL.
"""

from __future__ import annotations

import ctypes
import enum
import sys
from collections.abc import Collection
from ctypes import POINTER, byref, c_int, c_void_p
from typing import Any

from playspace.xr.state import FailureKind, XrUnavailable

OPENGL_ENABLE = "XR_KHR_opengl_enable"
EGL_ENABLE = "XR_MNDX_egl_enable"
GL_CHOICES = ("auto", "egl", "glx")  # what ``playspace run --vr --gl`` takes

_EGL_CONFIG_ID, _EGL_NONE = 0x3028, 0x3038


class BindingKind(enum.Enum):
    """How a GL context is named to OpenXR (the value is how the user reads it)."""

    EGL = "EGL"
    GLX = "GLX"
    WGL = "WGL"

    @property
    def windowed(self) -> bool:
        """Whether the context must belong to a window (GLX, WGL); EGL needs none."""
        return self is not BindingKind.EGL


def window_binding(platform: str) -> BindingKind | None:
    """The binding of a window's GL context on `platform` (``sys.platform``): GLX on Linux
    (Xlib), WGL on Windows, None where OpenXR has no GL binding (macOS)."""
    if platform.startswith("linux"):
        return BindingKind.GLX
    if platform == "win32":
        return BindingKind.WGL
    return None


def choose_binding(
    requested: str, platform: str, extensions: Collection[str] | None
) -> BindingKind:
    """The binding a headset run should draw through.

    `requested` is ``--gl``'s value (:data:`GL_CHOICES`), `platform` is ``sys.platform`` and
    `extensions` what the runtime offers, None when there is no runtime to ask. ``auto`` takes
    EGL on Linux when the runtime offers ``XR_MNDX_egl_enable`` (no window, no X server
    needed), else the platform's window binding. Without a runtime it takes EGL on Linux, the
    cheapest context, so that the run goes on to say "no OpenXR runtime". ``egl`` and ``glx``
    are taken as asked, where the platform has them. Raises XrUnavailable with what to do
    instead: SESSION_REFUSED when the platform cannot have what was asked (``--gl egl`` or
    ``glx`` on Windows), NO_RUNTIME where OpenXR has no GL binding at all (macOS).
    """
    if requested not in GL_CHOICES:
        raise ValueError(f"--gl takes one of {', '.join(GL_CHOICES)}, not {requested!r}")
    linux = platform.startswith("linux")
    window = window_binding(platform)
    if window is None:  # macOS: no runtime to bind to at all
        raise XrUnavailable(FailureKind.NO_RUNTIME, no_context_message(platform))
    if requested == "egl":
        if not linux:
            raise XrUnavailable(
                FailureKind.SESSION_REFUSED,
                f"--gl egl: OpenXR's EGL binding (XR_MNDX_egl_enable) is for Linux; on {platform} "
                f"the session binds a window's context ({window.value}): use --gl auto",
            )
        return BindingKind.EGL
    if requested == "glx":
        if not linux:
            raise XrUnavailable(
                FailureKind.SESSION_REFUSED,
                f"--gl glx: GLX is X11's; on {platform} the session binds a window's context "
                f"through {window.value}: use --gl auto",
            )
        return BindingKind.GLX
    if linux and (extensions is None or EGL_ENABLE in extensions):
        return BindingKind.EGL
    return window


def needed_extensions(kind: BindingKind) -> tuple[str, ...]:
    """The instance extensions a session drawing through `kind` needs: ``XR_KHR_opengl_enable``
    always (graphics requirements, GL swapchain images), and ``XR_MNDX_egl_enable`` for EGL."""
    return (OPENGL_ENABLE, EGL_ENABLE) if kind is BindingKind.EGL else (OPENGL_ENABLE,)


def missing_extensions_message(kind: BindingKind, missing: Collection[str]) -> str:
    """Why a session drawing through `kind` cannot open when the runtime lacks `missing`
    (a subset of :func:`needed_extensions`), and what to do about it."""
    lacking = ", ".join(sorted(missing))
    said = (
        f"rendering to the headset through {kind.value} needs {lacking}, which this runtime "
        "does not offer"
    )
    if OPENGL_ENABLE in missing:
        return f"{said}: playspace draws with OpenGL, and this runtime takes other graphics APIs"
    if kind is BindingKind.EGL:
        return f"{said}: draw with a window's context instead (--gl glx, or --gl auto)"
    return said


def no_context_message(platform: str) -> str:
    """Why no binding can be made on `platform` when no GL context is current (or, on a
    platform without OpenXR, at all)."""
    if window_binding(platform) is None:
        return (
            f"playspace binds OpenGL to OpenXR on Linux (EGL, GLX) and Windows (WGL), not on "
            f"{platform}, where no OpenXR runtime runs"
        )
    return (
        "no GL context is current to render with: make an EGL context or a window's GL "
        "context current on this thread before opening the session"
    )


def wgl_binding(binding_type: Any, hdc: int | None, hglrc: int | None) -> Any:
    """The Win32 binding (``xr.GraphicsBindingOpenGLWin32KHR``, passed as `binding_type` so
    that this builds and is tested anywhere) for device context `hdc` and GL rendering context
    `hglrc`, as ``wglGetCurrentDC``/``wglGetCurrentContext`` return them (0 or None: none)."""
    if not hglrc:
        raise XrUnavailable(
            FailureKind.SESSION_REFUSED,
            "no WGL context is current on this thread (wglGetCurrentContext returned NULL): "
            "make the window's GL context current before opening the session",
        )
    if not hdc:
        raise XrUnavailable(
            FailureKind.SESSION_REFUSED,
            "the current WGL context has no device context (wglGetCurrentDC returned NULL): "
            "it must be current on a window's HDC",
        )
    return binding_type(h_dc=hdc, h_glrc=hglrc)


def current_binding_kind(platform: str = sys.platform) -> BindingKind | None:
    """The binding of the GL context current on this thread: EGL when an EGL context is
    current, else the platform's window binding (GLX, WGL); None on Linux when no context is
    current at all, or where OpenXR has no GL binding."""
    if platform.startswith("linux"):
        if _egl_current() is not None:
            return BindingKind.EGL
        return BindingKind.GLX if _glx_current() else None
    return window_binding(platform)


def require_binding_extensions(offered: Collection[str]) -> BindingKind:
    """The binding of the context current on this thread, once the runtime is known to offer
    what it needs (`offered`); XrUnavailable(SESSION_REFUSED) saying what is missing, or that
    no context is current, before anything of the session is made."""
    kind = current_binding_kind()
    if kind is None:
        raise XrUnavailable(FailureKind.SESSION_REFUSED, no_context_message(sys.platform))
    missing = [e for e in needed_extensions(kind) if e not in offered]
    if missing:
        raise XrUnavailable(FailureKind.SESSION_REFUSED, missing_extensions_message(kind, missing))
    return kind


def current_gl_binding(egl_enabled: bool) -> Any:
    """The graphics binding of the GL context current on this thread (EGL, GLX or WGL), its
    FBConfig filled in for GLX; XrUnavailable(SESSION_REFUSED) saying why when there is none.

    `egl_enabled` says whether the instance has ``XR_MNDX_egl_enable`` (an EGL context is
    refused without it)."""
    kind = current_binding_kind()
    if kind is None:
        raise XrUnavailable(FailureKind.SESSION_REFUSED, no_context_message(sys.platform))
    if kind is BindingKind.EGL:
        if not egl_enabled:
            raise XrUnavailable(
                FailureKind.SESSION_REFUSED, missing_extensions_message(kind, [EGL_ENABLE])
            )
        return _current_egl()
    if kind is BindingKind.GLX:
        return _current_glx()
    return _current_wgl()


def _pyopenxr() -> Any:
    """pyopenxr, imported only here: choosing a binding loads no OpenXR."""
    import xr  # type: ignore[import-untyped]

    return xr


def _pyopenxr_linux() -> tuple[Any, Any]:
    """pyopenxr and its Linux types (whose GLX ones are PyOpenGL's)."""
    import xr.platform.linux as xr_linux  # type: ignore[import-untyped]

    return _pyopenxr(), xr_linux


# --- EGL --------------------------------------------------------------------------------------


def _egl() -> Any | None:
    """libEGL, or None where it is not installed."""
    try:
        egl = ctypes.CDLL("libEGL.so.1")
    except OSError:
        return None
    egl.eglGetCurrentContext.restype = c_void_p
    egl.eglGetCurrentDisplay.restype = c_void_p
    return egl


def _egl_current() -> Any | None:
    """libEGL when an EGL context is current on this thread, else None."""
    egl = _egl()
    return egl if egl is not None and egl.eglGetCurrentContext() else None


def _current_egl() -> Any:
    """The EGL binding: the current display and context, and the EGLConfig the context was
    made with (found by its id, which is all ``eglQueryContext`` tells)."""
    xr, xr_linux = _pyopenxr_linux()
    egl = _egl_current()
    if egl is None:
        raise XrUnavailable(FailureKind.SESSION_REFUSED, "no EGL context is current")
    context, display = egl.eglGetCurrentContext(), egl.eglGetCurrentDisplay()
    egl.eglQueryContext.argtypes = [c_void_p, c_void_p, c_int, POINTER(c_int)]
    egl.eglChooseConfig.argtypes = [
        c_void_p,
        POINTER(c_int),
        POINTER(c_void_p),
        c_int,
        POINTER(c_int),
    ]
    config_id, config, count = c_int(), c_void_p(), c_int()
    egl.eglQueryContext(display, context, _EGL_CONFIG_ID, byref(config_id))
    wanted = (c_int * 3)(_EGL_CONFIG_ID, config_id.value, _EGL_NONE)
    if not egl.eglChooseConfig(display, wanted, byref(config), 1, byref(count)) or not count.value:
        raise XrUnavailable(
            FailureKind.SESSION_REFUSED,
            f"the current EGL context's config (id {config_id.value}) was not found",
        )
    return xr.GraphicsBindingEGLMNDX(
        get_proc_address=ctypes.cast(egl.eglGetProcAddress, xr.PFN_xrEglGetProcAddressMNDX),
        display=ctypes.cast(c_void_p(display), xr_linux.EGLDisplay),
        config=ctypes.cast(config, xr_linux.EGLConfig),
        context=ctypes.cast(c_void_p(context), xr_linux.EGLContext),
    )


# --- GLX --------------------------------------------------------------------------------------


def _glx_current() -> bool:
    """Whether a GLX context is current on this thread (asked of libGL, as GLX is)."""
    try:
        gl = ctypes.CDLL("libGL.so.1")
    except OSError:
        return False
    gl.glXGetCurrentContext.restype = c_void_p
    return bool(gl.glXGetCurrentContext())


def _current_glx() -> Any:
    """The Xlib binding of the current GLX context, with its FBConfig and that config's visual
    (see the module's docstring for why both matter and how the config is found)."""
    xr, xr_linux = _pyopenxr_linux()
    glx = xr_linux.GLX  # PyOpenGL's GLX, whose types pyopenxr's binding structure is made of
    context = glx.glXGetCurrentContext()
    if not context:
        raise XrUnavailable(FailureKind.SESSION_REFUSED, "no GLX context is current")
    display = glx.glXGetCurrentDisplay()
    fbconfig_id, screen = c_int(), c_int()
    glx.glXQueryContext(display, context, glx.GLX_FBCONFIG_ID, byref(fbconfig_id))
    glx.glXQueryContext(display, context, glx.GLX_SCREEN, byref(screen))
    fbconfig = _fbconfig_with_id(glx, display, screen.value, fbconfig_id.value)
    if fbconfig is None:
        raise XrUnavailable(
            FailureKind.SESSION_REFUSED,
            f"the current GLX context's FBConfig (id {fbconfig_id.value}) is not among screen "
            f"{screen.value}'s configs",
        )
    visual = c_int()
    glx.glXGetFBConfigAttrib(display, fbconfig, glx.GLX_VISUAL_ID, byref(visual))
    if not visual.value:
        raise XrUnavailable(
            FailureKind.SESSION_REFUSED, no_window_visual_message(fbconfig_id.value)
        )
    return xr.GraphicsBindingOpenGLXlibKHR(
        x_display=display,
        visualid=visual.value,
        glx_fbconfig=fbconfig,
        glx_drawable=glx.glXGetCurrentDrawable(),
        glx_context=context,
    )


def no_window_visual_message(fbconfig_id: int) -> str:
    """Why a GLX context made without a window (FBConfig `fbconfig_id` has no X visual, as
    ModernGL's standalone GLX context's has not) cannot be bound, and what to do."""
    return (
        f"the current GLX context was made without a window (its FBConfig {fbconfig_id} has "
        "no X visual); OpenXR's GLX binding needs a window's context: run with --gl glx, "
        "which opens one, or make your own window's context current"
    )


def _fbconfig_with_id(glx: Any, display: Any, screen: int, fbconfig_id: int) -> Any | None:
    """The GLXFBConfig of `screen` whose GLX_FBCONFIG_ID is `fbconfig_id`, or None."""
    count, value = c_int(), c_int()
    configs = glx.glXGetFBConfigs(display, screen, byref(count))
    found = None
    for index in range(count.value):
        glx.glXGetFBConfigAttrib(display, configs[index], glx.GLX_FBCONFIG_ID, byref(value))
        if value.value == fbconfig_id:  # copy the pointer out: `configs[index]` lives in the list
            address = ctypes.cast(configs[index], c_void_p).value
            found = ctypes.cast(c_void_p(address), glx.GLXFBConfig)  # the config is the display's
            break
    if configs:
        _xfree(configs)  # the list is ours to free
    return found


def _xfree(pointer: Any) -> None:
    try:
        xlib = ctypes.CDLL("libX11.so.6")
    except OSError:  # GLX without Xlib cannot happen; a leaked list of pointers would not hurt
        return
    xlib.XFree.argtypes = [c_void_p]
    xlib.XFree(ctypes.cast(pointer, c_void_p))


# --- WGL --------------------------------------------------------------------------------------


def _current_wgl() -> Any:
    """The Win32 binding of the current WGL context (Windows only)."""
    if sys.platform != "win32":
        raise XrUnavailable(FailureKind.SESSION_REFUSED, f"WGL is Windows', not {sys.platform}'s")
    xr = _pyopenxr()  # on Windows, its top level has Windows' binding types
    opengl32 = ctypes.WinDLL("opengl32")
    opengl32.wglGetCurrentDC.restype = c_void_p
    opengl32.wglGetCurrentContext.restype = c_void_p
    hdc, hglrc = opengl32.wglGetCurrentDC(), opengl32.wglGetCurrentContext()
    return wgl_binding(xr.GraphicsBindingOpenGLWin32KHR, hdc, hglrc)
