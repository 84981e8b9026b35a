"""Behaviour, one concern a package: input (sources, the gate, tracking, placing tracked
devices), player (the rig's providers: follow, turn, move, teleport, slope, jump, climb),
interaction (grab, hold, layers, throw, sockets, joints, haptics), physics (the only rapier3d
user), panels, late placement of what is drawn (``drawn``) and telemetry. The fixed step's
sets, which order the plugins against each other, are :mod:`playspace.systems.sets`.

Nothing here loads GL or OpenXR: a headless world imports only this and what it needs.
"""
