"""``playspace certs DIR``: a certificate authority and the host's and players' certificates
for a match over mutual TLS, and the players' tokens (docs/networking.md, Security)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any


def add(commands: Any) -> None:
    certs = commands.add_parser(
        "certs",
        help="make a certificate authority and the host's and players' certificates for a "
        "match over TLS",
    )
    certs.set_defaults(handler=handle, usage=certs)
    certs.add_argument("folder", type=Path, metavar="DIR", help="where to write them (made)")
    certs.add_argument(
        "--player", action="append", default=[], metavar="NAME",
        help="a player to make a certificate for (repeat it); its name is the certificate's",
    )  # fmt: skip
    certs.add_argument(
        "--match", action="append", default=[], metavar="SESSION",
        help="a match behind a relay to make a host token for (repeat it): the relay takes "
        "them all (--hosts hosts), the match's host its own (--token-file SESSION.host-token)",
    )  # fmt: skip
    certs.add_argument(
        "--address", action="append", metavar="HOST",
        help="a host name or IP address players reach the host at (repeat it; default: "
        "localhost and 127.0.0.1)",
    )  # fmt: skip


def handle(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from playspace.net import NetError
    from playspace.net.certs import make_party

    try:
        addresses = args.address or ("localhost", "127.0.0.1")
        party = make_party(args.folder, args.player, addresses, args.match)
    except (NetError, OSError) as error:
        print(f"playspace certs: {error}", file=sys.stderr)
        return 2
    ca = party.authority
    pem, key = party.host
    print(f"wrote the authority {ca} (keep {ca.with_suffix('.key')} to yourself)")
    print(
        f"host: --tls-ca {ca} --tls-cert {pem} --tls-key {key} --listen tls/0.0.0.0:7447"
        f" --tokens {party.tokens}"
    )
    for name, (pem, key) in party.players.items():
        print(
            f"{name}: --tls-ca {ca} --tls-cert {pem} --tls-key {key} --connect tls/HOST:7447"
            f" --player {name} --token-file {party.token[name]}"
        )
    if party.hosts is not None:
        print(f"relay: --tokens {party.tokens} --hosts {party.hosts}")
        for session, token in party.host_token.items():
            print(f"host of {session}: --session {session} --relay HOST:PORT --token-file {token}")
    return 0
