"""The lobby: which matches are running where a player can reach them, across machines.

Each host answers a query on ``playspace/<session>/lobby`` (:func:`announce`) with a small
JSON object saying what it plays and how full it is; a lister asks ``playspace/*/lobby``
(:func:`list_matches`) and every host it reaches answers, directly or through a relay
(:mod:`playspace.net.relay`): Zenoh routes the query, the lobby keeps no list of its own, so a
match is listed exactly while its host runs. The key sits inside the match's own key space, so
a host's access control for its session covers it. An answer names no secret: only whether
the match asks for a password or players' tokens.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import zenoh

from playspace.net.session import NetError, Network, check_name

if TYPE_CHECKING:
    from playspace.net.host import Host

LOBBY = "lobby"  # the last segment of a match's lobby key
ACCESS = ("open", "password", "tokens")  # what a match asks of a player, besides TLS


@dataclass(frozen=True, slots=True, order=True)
class Match:
    """One match as its host describes it: `session`, the `target` it plays (the example's or
    scene's name), `seats` in all, `seated` players (the host's own among them when it plays)
    and players `waiting` for a seat, and its `access`: one of :data:`ACCESS`."""

    session: str
    target: str
    seats: int
    seated: int
    waiting: int
    access: str

    def __str__(self) -> str:
        waiting = f", {self.waiting} waiting" if self.waiting else ""
        asks = "" if self.access == "open" else f" ({self.access})"
        return f"{self.session}: {self.target}, {self.seated}/{self.seats} seats{waiting}{asks}"


@dataclass(frozen=True, slots=True)
class Listing:
    """What a lister heard: the `matches`, sorted by session, and how many answers were
    `skipped` as not a lobby's (a wrong or hostile peer must not stop the listing)."""

    matches: tuple[Match, ...]
    skipped: int


def host_entry(host: Host) -> dict[str, Any]:
    """What `host` tells the lobby now, read under its lock (Zenoh's thread asks)."""
    with host.lock:
        seated = len(host.seats) + (host.name is not None)  # the host's own player: seat 0
        waiting = len(host.waiting)
    target = host.example.name if host.example is not None else host.scene.name
    return {"target": target, "seats": host.players, "seated": seated, "waiting": waiting}


def announce(
    session: zenoh.Session, network: Network, describe: Callable[[], dict[str, Any]]
) -> zenoh.Queryable[None]:
    """Answer the lobby's queries on `session` for `network`'s match, each with `describe()`
    (``target``, ``seats``, ``seated``, ``waiting``: :func:`host_entry`) as it is then, and
    the session and what it asks of a player. The queryable lives as long as the session."""
    # a host that proves a token of its own plays behind a relay that asks players for theirs
    tokens = network.tokens is not None or bool(network.user)
    access = "tokens" if tokens else "password" if network.password else "open"
    key = network.key(LOBBY)

    def answer(query: zenoh.Query) -> None:
        entry = {**describe(), "session": network.session, "access": access}
        query.reply(key, json.dumps(entry, separators=(",", ":")))

    return session.declare_queryable(key, answer)


def list_matches(network: Network, timeout: float = 2.0) -> Listing:
    """The matches whose hosts answer within `timeout` seconds on `network` (its endpoints,
    TLS and credentials; its session is not used: every session is asked). NetError when the
    network reaches nobody, so "no matches" is never said of an endpoint where nothing is."""
    session = network.open()
    try:
        if not (session.info.routers_zid() or session.info.peers_zid()):
            where = ", ".join((*network.connect, *network.listen)) or "no endpoint"
            raise NetError(f"nothing answers at {where}: no relay or host there")
        matches, skipped = [], 0
        replies = session.get(
            f"playspace/*/{LOBBY}", target=zenoh.QueryTarget.ALL,
            consolidation=zenoh.ConsolidationMode.NONE, timeout=timeout,
        )  # fmt: skip
        for reply in replies:
            match = _decode(reply)
            skipped += match is None
            if match is not None:
                matches.append(match)
        return Listing(tuple(sorted(set(matches))), skipped)
    finally:
        session.close()  # type: ignore[no-untyped-call]


def _decode(reply: zenoh.Reply) -> Match | None:
    """The match in `reply`, or None for anything that is not exactly a lobby's answer from
    the session its key names (an error, bad JSON, a missing or ill-typed field)."""
    if reply.ok is None:
        return None
    try:
        entry = json.loads(reply.ok.payload.to_bytes())
        match = Match(**{name: entry[name] for name in Match.__dataclass_fields__})
        check_name(match.session, "session")
    except (ValueError, TypeError, KeyError, NetError):  # JSONDecodeError is a ValueError
        return None
    counts = (match.seats, match.seated, match.waiting)
    sound = all(type(n) is int and 0 <= n <= 1000 for n in counts) and match.access in ACCESS
    named = isinstance(match.target, str) and 0 < len(match.target) <= 200
    if not (sound and named and str(reply.ok.key_expr) == f"playspace/{match.session}/{LOBBY}"):
        return None
    return match
