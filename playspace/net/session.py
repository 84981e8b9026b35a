"""Zenoh sessions for a match: where they listen and connect, and the keys a match uses.

Every key of a match sits under ``playspace/<session>/``:

- ``input/<player>``: a client's input messages (:mod:`playspace.net.wire`), to the host;
- ``state``: the host's state after each fixed step (or every n-th), to every client;
- ``state/now``: a query the host answers with its newest state (a client joining late);
- ``players/<player>``: each client's liveliness token: who is there, who left;
- ``host``: the host's liveliness token, which a client waits for before it plays.

Sessions are peers that listen and connect on the endpoints given, with multicast and gossip
scouting off: a match reaches only the machines it names (a test stays on loopback). A link's
lease is one second, so a client that hangs without closing its socket is gone within two.

Zenoh's own log lines are off unless ``RUST_LOG`` (Zenoh's variable: ``RUST_LOG=warn``) asks
for them, and then plain text on standard output, in Zenoh's own format: the Python binding
writes them itself, with no way into Python's logging, and in color codes unless told not to.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import re
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import zenoh

from playspace.net.access import access_control

DEFAULT_ENDPOINT = "tcp/127.0.0.1:7447"
LEASE_MS = 1000
_NAME = re.compile(r"[A-Za-z0-9_-]{1,64}")
_CLIENT_ID = re.compile(r"[0-9a-f]{16}")


class NetError(ValueError):
    """A session or player name, or an endpoint, that a match cannot use."""


def check_name(name: str, what: str) -> str:
    """`name` when it can be one key segment (letters, digits, ``_`` and ``-``, 1-64)."""
    if not _NAME.fullmatch(name):
        raise NetError(f"{what} {name!r}: use 1-64 letters, digits, '_' or '-'")
    return name


def check_client_id(client: str) -> str:
    """`client` when it can be a client's id: 16 lower-case hex digits."""
    if not _CLIENT_ID.fullmatch(client):
        raise NetError(f"client id {client!r}: expected 16 lower-case hex digits")
    return client


@dataclass(frozen=True, slots=True)
class Tls:
    """Mutual TLS: the party's `authority` (its certificate), and this end's `certificate` and
    private `key` (``playspace certs`` makes them all). Both ends check each other against the
    authority: a peer it did not sign gets no link."""

    authority: Path
    certificate: Path
    key: Path

    def __post_init__(self) -> None:
        for what, path in (("authority", self.authority), ("certificate", self.certificate),
                           ("key", self.key)):  # fmt: skip
            if not Path(path).is_file():
                raise NetError(f"TLS {what} {path}: no such file (playspace certs makes them)")


@dataclass(frozen=True, slots=True)
class Network:
    """Which match (`session`) and how to reach it: endpoints to listen on and to connect to
    (Zenoh locators such as ``tcp/127.0.0.1:7447``, or ``tls/HOST:PORT`` with `tls`)."""

    session: str = "playspace"
    listen: Sequence[str] = ()
    connect: Sequence[str] = ()
    tls: Tls | None = None
    password: str | None = None  # the match's, or this player's token (with `user`)
    user: str = ""  # who proves the password: a player's name for its token; "" the match's
    tokens: Mapping[str, str] | None = None  # the host's: each player's token, by name
    mode: str = "peer"  # "client" through a relay: a router passes nothing between peers

    def __post_init__(self) -> None:
        check_name(self.session, "session")
        plain = [e for e in (*self.listen, *self.connect) if not e.startswith("tls/")]
        if self.tls is not None and plain:
            raise NetError(f"with TLS every endpoint is tls/HOST:PORT, got {', '.join(plain)}")
        if self.password is not None:
            check_secret(self.password, "a match's password")
        if self.user:
            check_name(self.user, "player or session")
            if self.password is None:
                raise NetError(f"player {self.user}: a token needs a password (its token)")
        if self.mode not in ("peer", "client"):
            raise NetError(f"mode {self.mode!r}: expected 'peer' or 'client'")
        if self.tokens is not None:
            if self.password is not None:
                raise NetError("a match takes one password or players' tokens, not both")
            if not self.tokens:
                raise NetError("players' tokens: none given")
            for name, token in self.tokens.items():
                check_secret(token, f"player {check_name(name, 'player')}'s token")

    def key(self, *parts: str) -> str:
        return "/".join(("playspace", self.session, *parts))

    def open(self) -> zenoh.Session:
        """A session on exactly these endpoints, scouting off: a peer, or a client of a relay
        (`mode`)."""
        config = zenoh_config(self.mode, self.listen, self.connect, self.tls)
        if self.tokens is not None:
            rules = access_control(self.session, self.tokens, tls=self.tls is not None)
            config.insert_json5("access_control", json.dumps(rules))
        with contextlib.ExitStack() as stack:
            if self.user:  # a player's (or a host's) token: the other end checks it
                _prove(config, self.user, self.password or "")
            elif self.password is not None:  # the match's password: both ways
                _prove(config, PASSWORD_USER, self.password)
                stack.enter_context(ask_credentials(config, {PASSWORD_USER: self.password}))
            elif self.tokens is not None:
                stack.enter_context(ask_credentials(config, self.tokens))
            return open_session(config, "the network session")


def zenoh_config(
    mode: str, listen: Sequence[str], connect: Sequence[str], tls: Tls | None
) -> zenoh.Config:
    """A Zenoh configuration in `mode` (peer, client or router) on exactly these endpoints,
    scouting off (a match reaches only the machines it names), the match's lease, and mutual
    `tls` when given."""
    config = zenoh.Config()
    config.insert_json5("mode", json.dumps(mode))
    config.insert_json5("listen/endpoints", json.dumps(list(listen)))
    config.insert_json5("connect/endpoints", json.dumps(list(connect)))
    config.insert_json5("scouting/multicast/enabled", "false")
    config.insert_json5("scouting/gossip/enabled", "false")
    config.insert_json5("transport/link/tx/lease", str(LEASE_MS))
    if tls is not None:
        for key, value in (
            ("root_ca_certificate", tls.authority), ("listen_certificate", tls.certificate),
            ("listen_private_key", tls.key), ("connect_certificate", tls.certificate),
            ("connect_private_key", tls.key),
        ):  # fmt: skip
            config.insert_json5(f"transport/link/tls/{key}", json.dumps(str(value)))
        config.insert_json5("transport/link/tls/enable_mtls", "true")
    return config


def open_session(config: zenoh.Config, what: str) -> zenoh.Session:
    """Open `config`'s session (Zenoh's log set up first); NetError naming `what` if not."""
    _zenoh_log()
    try:
        return zenoh.open(config)
    except zenoh.ZError as error:
        raise NetError(f"cannot open {what}: {error}") from None


PASSWORD_USER = "player"  # every end's user name: the password is the match's, not a person's


def check_secret(secret: str, what: str) -> str:
    """`secret` when Zenoh's user and password file can hold it: 1 to 256 characters, no
    ':' and no line breaks."""
    if not (0 < len(secret) <= 256):
        raise NetError(f"{what} is 1 to 256 characters")
    if any(c in secret for c in ":\r\n"):
        raise NetError(f"{what} has no ':' and no line breaks")
    return secret


def _prove(config: zenoh.Config, user: str, password: str) -> None:
    """Zenoh's user and password authentication: this end proves `user`'s `password`."""
    config.insert_json5("transport/auth/usrpwd/user", json.dumps(user))
    config.insert_json5("transport/auth/usrpwd/password", json.dumps(password))


@contextlib.contextmanager
def ask_credentials(config: zenoh.Config, known: Mapping[str, str]) -> Iterator[None]:
    """Zenoh's user and password authentication: this end asks whoever connects to prove one
    of the `known` users' passwords (its dictionary, a file of the owner's only, read as the
    session opens and removed at once)."""
    descriptor, name = tempfile.mkstemp(prefix="playspace-", suffix=".pwd")
    try:
        with os.fdopen(descriptor, "w") as file:
            file.writelines(f"{who}:{secret}\n" for who, secret in known.items())
        config.insert_json5("transport/auth/usrpwd/dictionary_file", json.dumps(name))
        yield
    finally:
        os.unlink(name)


@functools.cache
def _zenoh_log() -> None:
    """Let Zenoh log when ``RUST_LOG`` asks, once a process, before its first session (so no
    Zenoh thread reads the environment while it changes): ``NO_COLOR`` while its formatter is
    made keeps raw color codes out of a terminal's scrollback and out of files."""
    if not os.environ.get("RUST_LOG"):
        return
    before = os.environ.get("NO_COLOR")
    os.environ["NO_COLOR"] = "1"
    try:
        zenoh.init_log_from_env_or("error")  # what RUST_LOG says; errors were it unreadable
    finally:
        if before is None:
            del os.environ["NO_COLOR"]
        else:
            os.environ["NO_COLOR"] = before


def paced(
    step: Callable[[], None], hz: float, steps: int | None, stop: Callable[[], bool] | None
) -> int:
    """Call `step` `hz` times a second of real time (at once while behind) until `steps` have
    run or `stop` says so; how many ran."""
    start = time.perf_counter()
    done = 0
    while steps is None or done < steps:
        if stop is not None and stop():
            break
        wait = start + (done + 1) / hz - time.perf_counter()
        if wait > 0:
            time.sleep(wait)
        step()
        done += 1
    return done
