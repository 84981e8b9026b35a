"""Networked play over Eclipse Zenoh (``docs/networking.md``): an authoritative host, clients
that play their own rig locally, the messages between them. The only package that imports
zenoh; a run without networking never loads it.
"""

from playspace.net.client import (
    Client,
    Impairment,
    RemoteDrawn,
    RemoteView,
    Standing,
    draw_remote,
    play,
)
from playspace.net.correction import BodyCorrected, Correction, OwnBody, TurnCorrected
from playspace.net.host import Host
from playspace.net.inputs import InputQueue
from playspace.net.session import DEFAULT_ENDPOINT, NetError, Network, Tls
from playspace.net.wire import (
    Events,
    Played,
    State,
    WireError,
    decode_events,
    decode_input,
    decode_state,
    encode_input,
)

__all__ = [
    "DEFAULT_ENDPOINT",
    "BodyCorrected",
    "Client",
    "Correction",
    "Events",
    "Host",
    "Impairment",
    "InputQueue",
    "NetError",
    "Network",
    "OwnBody",
    "Played",
    "RemoteDrawn",
    "RemoteView",
    "Standing",
    "State",
    "Tls",
    "TurnCorrected",
    "WireError",
    "decode_events",
    "decode_input",
    "decode_state",
    "draw_remote",
    "encode_input",
    "play",
]
