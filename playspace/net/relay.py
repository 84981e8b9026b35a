"""A relay: a Zenoh router that hosts and players behind NAT all connect to, so matches run
across the internet with no machine reachable but the relay's. Zenoh routes every message;
the relay writes no transport and knows nothing of a match but its keys, and one relay carries
any number of matches (sessions) and their lobby (:mod:`playspace.net.lobby`).

Those who connect to a relay must be Zenoh *clients*: measured with eclipse-zenoh 1.10, a
router forwards nothing between *peers* connected to it when gossip scouting is off (nor with
it on), while clients reach each other through it at once, and a client connected straight to
a host (a peer) plays as before.

With players' `tokens` the relay asks everyone who connects to prove one (Zenoh's user and
password authentication) and applies the match's access control (:mod:`playspace.net.access`)
to every session it carries (``*`` in its key expressions): each player publishes only its own
input and holds only its own name, in any match. Each match's host proves its own token too
(`hosts`, by session, the session's name as the user) and may declare, publish and answer only
within its own session; it is also asked the lobby's query, which is ``playspace/*/lobby``
(Zenoh checks a query's key expression against a rule by inclusion, so a rule for
``playspace/<session>/**`` alone would hide it from the lobby).
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Mapping, Sequence
from typing import Any

from playspace.net.access import access_control, rule
from playspace.net.lobby import LOBBY
from playspace.net.session import (
    NetError,
    Tls,
    ask_credentials,
    check_name,
    check_secret,
    open_session,
    zenoh_config,
)

_HOSTING = (
    "put",
    "delete",
    "declare_subscriber",
    "declare_queryable",
    "declare_liveliness_subscriber",
    "liveliness_token",
    "liveliness_query",
    "query",
    "reply",
)  # everything a host does within its own session


class Relay:
    """A Zenoh router listening on `listen` (scouting off, the matches' lease), with mutual
    `tls` when given (every endpoint ``tls/HOST:PORT``); with players' `tokens` and the hosts'
    (`hosts`: a token by session), only those who prove one get a link, each kept to its own
    keys (see the module). :meth:`close` stops it."""

    def __init__(
        self,
        listen: Sequence[str],
        tls: Tls | None = None,
        tokens: Mapping[str, str] | None = None,
        hosts: Mapping[str, str] | None = None,
    ) -> None:
        if not listen:
            raise NetError("a relay listens on at least one endpoint")
        plain = [e for e in listen if not e.startswith("tls/")]
        if tls is not None and plain:
            raise NetError(f"with TLS every endpoint is tls/HOST:PORT, got {', '.join(plain)}")
        if (tokens is None) != (hosts is None) or tokens == {} or hosts == {}:
            raise NetError(
                "a relay takes players' tokens and its matches' host tokens together: the "
                "players' to let them in, the hosts' to let their matches in"
            )
        known = {**(tokens or {}), **(hosts or {})}
        for name, token in known.items():
            check_secret(token, f"{check_name(name, 'player or session')}'s token")
        both = sorted(set(tokens or ()) & set(hosts or ()))
        if both:
            raise NetError(f"{', '.join(both)}: both a player and a session; rename one")
        self.listen = tuple(listen)
        config = zenoh_config("router", listen, (), tls)
        if tokens is not None and hosts is not None:
            rules = _with_hosts(access_control("*", tokens, tls=tls is not None), hosts)
            config.insert_json5("access_control", json.dumps(rules))
        with contextlib.ExitStack() as stack:
            if known:
                stack.enter_context(ask_credentials(config, known))
            self.session = open_session(config, "the relay")

    def close(self) -> None:
        self.session.close()  # type: ignore[no-untyped-call]


def _with_hosts(rules: dict[str, Any], hosts: Mapping[str, str]) -> dict[str, Any]:
    """`rules` (the players' access control) with each of `hosts`' sessions' host allowed
    everything within its own session, both ways, and the lobby's query (see the module)."""
    for session in hosts:
        own, who = f"playspace/{session}/**", f"host {session}"
        rules["rules"] += [
            rule(f"{who} in", "ingress", _HOSTING, [own]),
            rule(f"{who} out", "egress", _HOSTING, [own]),
            rule(f"{who} lobby", "egress", ("query",), [f"playspace/*/{LOBBY}"]),
        ]
        rules["subjects"].append({"id": who, "usernames": [session]})
        rules["policies"].append(
            {"rules": [f"{who} in", f"{who} out", f"{who} lobby"], "subjects": [who]}
        )
    return rules
