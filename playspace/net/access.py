"""Zenoh access control for a match whose players are known by name: what each may send and
see, enforced by the engine on every link, before anything reaches Python.

A player is known by the name it proves (its per-player token, Zenoh's user and password
authentication with the name as the user; with TLS, its certificate's common name as well).
Everything is refused by default; each player may

- publish input only under its own name (``input/<name>/*``), and declare a liveliness token
  only as itself (``players/<name>/*``, ``observers/<name>/*``): it can neither speak for
  another player nor hold another's name;
- subscribe to the match's state and events, ask for the newest state and whether the host is
  there: all within its own session (``playspace/<session>/``), never another match's;
- receive what the host sends in that session.

A message the engine refuses never arrives: Zenoh drops it on the link, and these Python
bindings expose no counter of such drops (Zenoh's statistics are a build feature the wheels
lack), so what the host counts (:attr:`~playspace.net.host.Host.refused`) is what gets past
the engine; ``RUST_LOG=zenoh::net::routing::interceptor::access_control=trace`` shows the
engine's decisions.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

_SESSION_WIDE = (
    "declare_subscriber",
    "declare_liveliness_subscriber",
    "liveliness_query",
    "query",
    "declare_queryable",
    "reply",
)


def access_control(session: str, players: Iterable[str], *, tls: bool) -> dict[str, Any]:
    """The ``access_control`` section of a Zenoh configuration for `session` (a session's
    name, or ``*`` for a relay that carries every match) and the named `players`."""
    root = f"playspace/{session}"
    rules: list[dict[str, Any]] = [
        rule("session", "ingress", _SESSION_WIDE, [f"{root}/**"]),
        rule("session out", "egress", (*_SESSION_WIDE, "put", "liveliness_token"), [f"{root}/**"]),
    ]
    subjects: list[dict[str, Any]] = []
    policies: list[dict[str, Any]] = []
    for name in players:
        own = f"own {name}"
        rules.append(rule(f"{own} input", "ingress", ("put",), [f"{root}/input/{name}/*"]))
        rules.append(rule(f"{own} presence", "ingress", ("liveliness_token",),
                           [f"{root}/players/{name}/*", f"{root}/observers/{name}/*"]))  # fmt: skip
        subject: dict[str, Any] = {"id": name, "usernames": [name]}
        if tls:
            subject["cert_common_names"] = [name]
        subjects.append(subject)
        policies.append({
            "rules": ["session", "session out", f"{own} input", f"{own} presence"],
            "subjects": [name],
        })  # fmt: skip
    return {
        "enabled": True,
        "default_permission": "deny",
        "rules": rules,
        "subjects": subjects,
        "policies": policies,
    }


def rule(name: str, flow: str, messages: Iterable[str], keys: list[str]) -> dict[str, Any]:
    """One allowing rule of Zenoh's access control, named `name`."""
    return {
        "id": name,
        "permission": "allow",
        "flows": [flow],
        "messages": list(messages),
        "key_exprs": keys,
    }
