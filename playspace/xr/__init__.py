"""OpenXR: playspace in a headset (DESIGN.md, "Input, traces and telemetry"; bevy_oxr's split).

The pure layer, importable and tested without a runtime:

- :mod:`~playspace.xr.state`: the session-state machine (``SessionState``, what to do on each
  event, how to quit without crashing the runtime) and the three ways opening fails;
- :mod:`~playspace.xr.bindings`: the action set and the suggested bindings per controller;
- :mod:`~playspace.xr.mapping`: action states and located poses to the input frame;
- :mod:`~playspace.xr.views`: located eyes to view and projection matrices;
- :mod:`~playspace.xr.haptics`: pulses on a hand, and the default ones for grab, release, hit;
- :mod:`~playspace.xr.source`: the input source the XR loop feeds.

The thin layer over pyopenxr (the only modules that import ``xr``): :mod:`~playspace.xr.backend`
(instance, session, spaces, actions, events) and :mod:`~playspace.xr.display` (GL binding,
swapchains, frames). :mod:`~playspace.xr.run` is the ``--vr`` entry point and
:mod:`~playspace.xr.doctor` the ``playspace doctor`` report.

Importing this package loads neither pyopenxr nor GL.
"""
