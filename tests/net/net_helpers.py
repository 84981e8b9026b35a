"""A host stepping in real time on a thread of its own while a test's clients join it."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator

from playspace.net import Client, Host
from playspace.net.session import paced


@contextlib.contextmanager
def hosting(host: Host) -> Iterator[dict[str, Client]]:
    """`host` stepping at 90 Hz until the block ends; then the clients put in the dict
    yielded are closed, and the host."""
    stop = threading.Event()
    thread = threading.Thread(target=lambda: paced(host.step, 90.0, None, stop.is_set))
    clients: dict[str, Client] = {}
    thread.start()
    try:
        yield clients
    finally:
        stop.set()
        thread.join()
        for client in clients.values():
            client.close()
        host.close()
