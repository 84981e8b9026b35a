"""What drives a world: each loop composes a world, an input source and a display.

- :mod:`~playspace.loops.replay`: headless, from a recorded trace, one fixed step a frame
  (deterministic: the same inputs write the same telemetry);
- :mod:`~playspace.loops.preview`: the desktop window, played through the XR simulator;
- :mod:`~playspace.loops.viewer`: a recorded trace played in that window, stepped as the
  headless replay steps it, with pause, single steps, speed and seeking;
- :mod:`~playspace.loops.headset` and :mod:`~playspace.loops.vr_loop`: a headset through
  OpenXR, one world frame per display frame; :mod:`~playspace.loops.gl` makes the GL context
  the session binds and :mod:`~playspace.loops.eyes` draws the eyes.

The systems never know which loop runs them. Importing this package loads nothing of GL or
OpenXR: each loop imports what it needs.
"""
