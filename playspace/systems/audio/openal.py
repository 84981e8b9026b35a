"""OpenAL Soft through ctypes: the calls playspace's audio makes, and nothing else.

OpenAL Soft is the engine (HRTF, distance models, Doppler, EFX filters, and a *loopback* device
that mixes into memory on request, which is how headless runs and tests hear the world). The
library comes from the ``cyal`` wheel, which ships OpenAL Soft 1.23 for Linux, Windows and
macOS, or else from the system (Debian's ``libopenal1``). cyal's own Cython API has no loopback
device, so the calls are made here, on the same library, with ctypes: a binding of the dozen
functions used, each checked (``alGetError``) where a failure would otherwise pass in silence.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import sys
from pathlib import Path
from typing import Any

# alc
ALC_DEVICE_SPECIFIER = 0x1005
ALC_ALL_DEVICES_SPECIFIER = 0x1013  # ALC_ENUMERATE_ALL_EXT: every device, by full name
ALC_FREQUENCY = 0x1007
ALC_REFRESH = 0x1008
ALC_DEVICE_LATENCY_SOFT = 0x1601
ALC_HRTF_SOFT = 0x1992
ALC_HRTF_STATUS_SOFT = 0x1993
ALC_HRTF_ENABLED_SOFT = 0x0001
ALC_FORMAT_CHANNELS_SOFT = 0x1990
ALC_FORMAT_TYPE_SOFT = 0x1991
ALC_STEREO_SOFT = 0x1501
ALC_SHORT_SOFT = 0x1402
ALC_FLOAT_SOFT = 0x1406
ALC_OUTPUT_LIMITER_SOFT = 0x199A
ALC_FALSE = 0
# al
AL_NONE = 0
AL_PITCH = 0x1003
AL_POSITION = 0x1004
AL_VELOCITY = 0x1006
AL_LOOPING = 0x1007
AL_BUFFER = 0x1009
AL_GAIN = 0x100A
AL_ORIENTATION = 0x100F
AL_SOURCE_STATE = 0x1010
AL_PLAYING = 0x1012
AL_REFERENCE_DISTANCE = 0x1020
AL_ROLLOFF_FACTOR = 0x1021
AL_MAX_DISTANCE = 0x1023
AL_SOURCE_RELATIVE = 0x0202
AL_FORMAT_MONO16 = 0x1101
AL_FORMAT_MONO_FLOAT32 = 0x10010
AL_DISTANCE_MODEL = 0xD000
AL_INVERSE_DISTANCE_CLAMPED = 0xD002
AL_DIRECT_CHANNELS_SOFT = 0x1033
AL_SPEED_OF_SOUND = 0xC003
# EFX: a low-pass filter on a source's direct path (occlusion)
AL_DIRECT_FILTER = 0x20005
AL_FILTER_TYPE = 0x8001
AL_FILTER_LOWPASS = 0x0001
AL_LOWPASS_GAIN = 0x0001
AL_LOWPASS_GAINHF = 0x0002


class OpenALError(RuntimeError):
    """OpenAL could not be loaded or refused a call; the message says which and why."""


def _candidates() -> list[str]:
    """Where OpenAL Soft may be: the cyal wheel's copy first, then the system's."""
    found: list[str] = []
    try:
        import cyal  # its wheel ships the library beside its modules

        folder = Path(cyal.__file__).parent
        names = {"win32": "OpenAL32.dll", "darwin": "libopenal.1.dylib"}
        found.append(str(folder / names.get(sys.platform, "libopenal.so.1")))
    except ImportError:
        pass
    system = ctypes.util.find_library("openal") or ctypes.util.find_library("OpenAL32")
    if system:
        found.append(system)
    found.append("libopenal.so.1")
    return found


SETTINGS = Path(__file__).with_name("alsoft.conf")  # how soon the speakers play (its notes)


class OpenAL:
    """The library and its extension functions, loaded once (:func:`openal`). OpenAL Soft
    reads its settings as it starts: playspace's (:data:`SETTINGS`) unless ``ALSOFT_CONF``
    already names a file."""

    def __init__(self) -> None:
        os.environ.setdefault("ALSOFT_CONF", str(SETTINGS))
        errors = []
        for path in _candidates():
            try:
                self.lib = ctypes.CDLL(path)
                break
            except OSError as error:
                errors.append(f"{path}: {error}")
        else:
            raise OpenALError("OpenAL Soft is not installed: " + "; ".join(errors))
        lib = self.lib
        c_void_p, c_int, c_uint, c_float = (
            ctypes.c_void_p,
            ctypes.c_int,
            ctypes.c_uint,
            ctypes.c_float,
        )
        self._sign(lib.alcOpenDevice, c_void_p, ctypes.c_char_p)
        self._sign(lib.alcCloseDevice, ctypes.c_char, c_void_p)
        self._sign(lib.alcCreateContext, c_void_p, c_void_p, ctypes.POINTER(c_int))
        self._sign(lib.alcMakeContextCurrent, ctypes.c_char, c_void_p)
        self._sign(lib.alcDestroyContext, None, c_void_p)
        self._sign(lib.alcGetProcAddress, c_void_p, c_void_p, ctypes.c_char_p)
        self._sign(lib.alcGetIntegerv, None, c_void_p, c_int, c_int, ctypes.POINTER(c_int))
        self._sign(lib.alcGetError, c_int, c_void_p)
        self._sign(lib.alcIsExtensionPresent, ctypes.c_char, c_void_p, ctypes.c_char_p)
        self._sign(lib.alcGetString, ctypes.c_char_p, c_void_p, c_int)
        # the same function where it answers a list: names one after another, each ending in
        # a NUL, and an empty one last (ctypes' c_char_p would stop at the first)
        self._string_list = ctypes.CFUNCTYPE(c_void_p, c_void_p, c_int)(("alcGetString", lib))
        self._sign(lib.alGetError, c_int)
        self._sign(lib.alGetProcAddress, c_void_p, ctypes.c_char_p)
        self._sign(lib.alGenSources, None, c_int, ctypes.POINTER(c_uint))
        self._sign(lib.alDeleteSources, None, c_int, ctypes.POINTER(c_uint))
        self._sign(lib.alGenBuffers, None, c_int, ctypes.POINTER(c_uint))
        self._sign(lib.alDeleteBuffers, None, c_int, ctypes.POINTER(c_uint))
        self._sign(lib.alBufferData, None, c_uint, c_int, c_void_p, c_int, c_int)
        self._sign(lib.alSourcei, None, c_uint, c_int, c_int)
        self._sign(lib.alSourcef, None, c_uint, c_int, c_float)
        self._sign(lib.alSource3f, None, c_uint, c_int, c_float, c_float, c_float)
        self._sign(lib.alGetSourcei, None, c_uint, c_int, ctypes.POINTER(c_int))
        self._sign(lib.alSourcePlay, None, c_uint)
        self._sign(lib.alSourceStop, None, c_uint)
        self._sign(lib.alListener3f, None, c_int, c_float, c_float, c_float)
        self._sign(lib.alListenerfv, None, c_int, ctypes.POINTER(c_float))
        self._sign(lib.alListenerf, None, c_int, c_float)
        self._sign(lib.alDistanceModel, None, c_int)
        self._sign(lib.alSpeedOfSound, None, c_float)
        self.loopback_open = self._extension("alcLoopbackOpenDeviceSOFT", c_void_p, ctypes.c_char_p)
        self.render_samples = self._extension(
            "alcRenderSamplesSOFT", None, c_void_p, c_void_p, c_int
        )
        self.gen_filters = self._al_extension("alGenFilters", None, c_int, ctypes.POINTER(c_uint))
        self.delete_filters = self._al_extension(
            "alDeleteFilters", None, c_int, ctypes.POINTER(c_uint)
        )
        self.filteri = self._al_extension("alFilteri", None, c_uint, c_int, c_int)
        self.filterf = self._al_extension("alFilterf", None, c_uint, c_int, c_float)
        self.get_integer64 = self._extension(
            "alcGetInteger64vSOFT", None, c_void_p, c_int, c_int, ctypes.POINTER(ctypes.c_int64),
            needed=False,
        )  # fmt: skip

    @staticmethod
    def _sign(function: Any, restype: Any, *argtypes: Any) -> None:
        function.restype, function.argtypes = restype, list(argtypes)

    def _extension(self, name: str, restype: Any, *argtypes: Any, needed: bool = True) -> Any:
        """The ALC extension function `name`; None for one not `needed` that is missing."""
        address = self.lib.alcGetProcAddress(None, name.encode())
        if not address:
            if not needed:
                return None
            raise OpenALError(f"this OpenAL has no {name} (OpenAL Soft 1.19 or later has it)")
        return ctypes.CFUNCTYPE(restype, *argtypes)(address)

    def device_latency(self, device: int) -> float | None:
        """Seconds a device takes to play what OpenAL has mixed, as OpenAL Soft reports it
        (``ALC_SOFT_device_clock``); None from a library that does not say."""
        if self.get_integer64 is None or not self.lib.alcIsExtensionPresent(
            device, b"ALC_SOFT_device_clock"
        ):
            return None
        value = ctypes.c_int64(0)
        self.get_integer64(device, ALC_DEVICE_LATENCY_SOFT, 1, ctypes.byref(value))
        return value.value / 1e9

    def output_devices(self) -> list[str]:
        """The names of the devices sound can play through, as :attr:`AudioSettings.device`
        takes them (each device's full name where the library can say it)."""
        every = self.lib.alcIsExtensionPresent(None, b"ALC_ENUMERATE_ALL_EXT")
        address = self._string_list(
            None, ALC_ALL_DEVICES_SPECIFIER if every != b"\0" else ALC_DEVICE_SPECIFIER
        )
        names: list[str] = []
        while address:
            name = ctypes.string_at(address)
            if not name:
                break
            names.append(name.decode(errors="replace"))
            address += len(name) + 1
        return names

    def _al_extension(self, name: str, restype: Any, *argtypes: Any) -> Any:
        address = self.lib.alGetProcAddress(name.encode())
        if not address:
            raise OpenALError(f"this OpenAL has no {name} (EFX)")
        return ctypes.CFUNCTYPE(restype, *argtypes)(address)

    def check(self, doing: str) -> None:
        """Raise if the last calls failed, saying what was being done."""
        error = self.lib.alGetError()
        if error:
            raise OpenALError(f"OpenAL failed {doing}: error 0x{error:04x}")


_LOADED: list[OpenAL] = []
_KEPT: list[object] = []  # callbacks handed to C, kept alive


def quiet_alsa() -> None:
    """ALSA writes its own errors to standard error when it finds no sound card (OpenAL
    tries it on Linux); playspace says "no sound" once instead, so ALSA's are sent nowhere."""
    name = ctypes.util.find_library("asound")
    if name is None or _KEPT:
        return
    try:
        asound = ctypes.CDLL(name)
    except OSError:
        return
    handler = ctypes.CFUNCTYPE(
        None, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p
    )(lambda *said: None)
    _KEPT.append(handler)
    asound.snd_lib_error_set_handler(handler)


def openal() -> OpenAL:
    """The library, loaded on first use (a world without sound never loads it)."""
    if not _LOADED:
        _LOADED.append(OpenAL())
    return _LOADED[0]
