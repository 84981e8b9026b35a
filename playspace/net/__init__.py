"""Networked play over Eclipse Zenoh (``docs/networking.md``): an authoritative host, clients
that play their own rig locally, the messages between them. The only package that imports
zenoh; a run without networking never loads it.
"""

from playspace.net.client import Client, Impairment, RemoteView, play
from playspace.net.host import Host, InputQueue
from playspace.net.session import DEFAULT_ENDPOINT, NetError, Network
from playspace.net.wire import State, WireError, decode_input, decode_state, encode_input

__all__ = [
    "DEFAULT_ENDPOINT",
    "Client",
    "Host",
    "Impairment",
    "InputQueue",
    "NetError",
    "Network",
    "RemoteView",
    "State",
    "WireError",
    "decode_input",
    "decode_state",
    "encode_input",
    "play",
]
