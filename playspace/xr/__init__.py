"""OpenXR glue (bevy_oxr's split): the runtime's calls and records, and nothing of the world.

The pure layer, importable and tested without a runtime:

- :mod:`~playspace.xr.state`: the session-state machine (what to do on each event, how to
  quit without crashing the runtime) and the three ways opening fails;
- :mod:`~playspace.xr.bindings`: the action set and the suggested bindings per controller;
- :mod:`~playspace.xr.mapping`: action states and located poses to the input frame;
- :mod:`~playspace.xr.views`: located eyes to view and projection matrices.

The thin layer over pyopenxr (the only modules that import ``xr``): :mod:`~playspace.xr.backend`
(instance, session, spaces, actions, events), :mod:`~playspace.xr.graphics` (the session's GL
binding: EGL, GLX, WGL), :mod:`~playspace.xr.display` (swapchains, frames) and
:mod:`~playspace.xr.errors`. What drives a world in a headset is
:mod:`playspace.loops.headset`; ``playspace doctor`` is :mod:`playspace.cli.doctor`.

This package imports nothing of the app, the scenes, the systems or the renderer; importing
it loads neither pyopenxr nor GL.
"""
