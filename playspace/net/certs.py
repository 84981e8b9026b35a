"""A small certificate authority for a LAN party: the host's and each player's certificates.

Zenoh's TLS links check both ends against one root (mutual TLS): a client whose certificate
the party's authority did not sign never gets a link, so it can neither read the match nor
send to it, and everything on the wire is encrypted. :func:`make_party` writes, in one folder,
the authority (``ca.pem``; its key ``ca.key`` stays with whoever makes certificates), the
host's pair (``host.pem``, ``host.key``) and one pair a player (``NAME.pem``, ``NAME.key``),
each certificate naming its holder (its common name) and, for the host, the names and
addresses it is reached at. Elliptic-curve keys (P-256), as TLS 1.3 prefers; made with
``cryptography``, not by hand.

It writes each player's token as well (``NAME.token``, the player's; ``tokens``, the host's:
``NAME:TOKEN`` a line): a host given the tokens lets in only players who prove theirs, and
Zenoh's access control keeps each to its own keys (:mod:`playspace.net.access`).
"""

from __future__ import annotations

import datetime
import ipaddress
import os
import secrets
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

from playspace.net.session import NetError, check_name, check_secret

VALID_DAYS = 365
AUTHORITY = "ca"
HOST = "host"


@dataclass(frozen=True, slots=True)
class Party:
    """What :func:`make_party` wrote: the authority, the host's pair, each player's pair."""

    authority: Path
    host: tuple[Path, Path]
    players: dict[str, tuple[Path, Path]]
    tokens: Path  # the host's: every player's token
    token: dict[str, Path]  # each player's own
    hosts: Path | None = None  # a relay's: each match's host token (None: no matches named)
    host_token: dict[str, Path] = field(default_factory=dict)  # each match's host's own


TOKENS = "tokens"
HOSTS = "hosts"


def read_tokens(path: Path) -> dict[str, str]:
    """The players' tokens in `path` (``NAME:TOKEN`` a line, as :func:`make_party` writes
    them; blank lines and ``#`` comments skipped); NetError naming the line otherwise."""
    tokens: dict[str, str] = {}
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        name, colon, token = line.strip().partition(":")
        if not colon or not token:
            raise NetError(f"{path}:{number}: expected NAME:TOKEN, got {line.strip()!r}")
        try:
            check_name(name, "player")
            check_secret(token, f"player {name}'s token")
        except NetError as error:
            raise NetError(f"{path}:{number}: {error}") from None
        if name in tokens:
            raise NetError(f"{path}:{number}: player {name} has a token already")
        tokens[name] = token
    if not tokens:
        raise NetError(f"{path}: no tokens in it (NAME:TOKEN a line)")
    return tokens


def _write_private(path: Path, data: bytes) -> None:
    """A file readable by its owner only."""
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "wb") as file:
        file.write(data)


def _write_tokens(
    folder: Path, names: list[str], listed: str = TOKENS, suffix: str = ".token"
) -> tuple[Path, dict[str, Path]]:
    """A new token for each of `names`: the list (`listed`) and each one's own file."""
    made: Mapping[str, str] = {name: secrets.token_urlsafe(24) for name in names}
    _write_private(folder / listed, "".join(f"{n}:{t}\n" for n, t in made.items()).encode())
    for name, token in made.items():
        _write_private(folder / f"{name}{suffix}", f"{token}\n".encode())
    return folder / listed, {name: folder / f"{name}{suffix}" for name in names}


def make_party(
    folder: Path,
    players: Iterable[str],
    addresses: Iterable[str] = ("localhost", "127.0.0.1"),
    matches: Iterable[str] = (),
) -> Party:
    """Write a new authority and the host's and `players`' certificates into `folder` (made if
    needed), and their tokens; `addresses` are the host names and IP addresses clients reach
    the host at; for each of `matches` (sessions behind a relay) a host token (``hosts``, the
    relay's; ``SESSION.host-token``, that match's host's). Refuses
    a folder that already has an authority (NetError): a second one would make the first
    party's certificates useless without saying so."""
    names = [check_name(name, "player") for name in players]
    sessions = [check_name(name, "session") for name in matches]
    if set(names) & set(sessions):
        raise NetError(
            f"{', '.join(sorted(set(names) & set(sessions)))}: both a player and a match"
        )
    if {HOST, AUTHORITY, TOKENS} & set(names):
        raise NetError(
            f"a player cannot be named {HOST!r}, {AUTHORITY!r} or {TOKENS!r}: those files are taken"
        )
    folder.mkdir(parents=True, exist_ok=True)
    if (folder / f"{AUTHORITY}.pem").exists():
        raise NetError(f"{folder}: has a certificate authority already; use another folder")
    now = datetime.datetime.now(datetime.UTC)
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "playspace party authority")])
    authority = (
        _builder(name, name, key.public_key(), now)
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(
            x509.KeyUsage(False, False, False, False, False, True, True, False, False),
            critical=True,
        )
        .sign(key, hashes.SHA256())
    )
    (folder / f"{AUTHORITY}.pem").write_bytes(authority.public_bytes(serialization.Encoding.PEM))
    _write_key(folder / f"{AUTHORITY}.key", key)
    host = _holder(folder, HOST, authority, key, now, list(addresses))
    made = {player: _holder(folder, player, authority, key, now, []) for player in names}
    party = Party(folder / f"{AUTHORITY}.pem", host, made, *_write_tokens(folder, names))
    if sessions:
        hosts, own = _write_tokens(folder, sessions, HOSTS, ".host-token")
        party = replace(party, hosts=hosts, host_token=own)
    return party


def _builder(
    subject: x509.Name, issuer: x509.Name, public: ec.EllipticCurvePublicKey, now: datetime.datetime
) -> x509.CertificateBuilder:
    return (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(issuer)
        .public_key(public)
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))  # clocks a little apart
        .not_valid_after(now + datetime.timedelta(days=VALID_DAYS))
    )


def _holder(
    folder: Path,
    holder: str,
    authority: x509.Certificate,
    authority_key: ec.EllipticCurvePrivateKey,
    now: datetime.datetime,
    addresses: list[str],
) -> tuple[Path, Path]:
    """One holder's certificate and key, signed by the authority: usable to serve and to
    connect (a peer does both)."""
    key = ec.generate_private_key(ec.SECP256R1())
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, holder)])
    usage = [ExtendedKeyUsageOID.SERVER_AUTH, ExtendedKeyUsageOID.CLIENT_AUTH]
    builder = (
        _builder(subject, authority.subject, key.public_key(), now)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(x509.ExtendedKeyUsage(usage), critical=False)
    )
    if addresses:
        builder = builder.add_extension(
            x509.SubjectAlternativeName([_address(a) for a in addresses]), critical=False
        )
    certificate = builder.sign(authority_key, hashes.SHA256())
    pem, private = folder / f"{holder}.pem", folder / f"{holder}.key"
    pem.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    _write_key(private, key)
    return pem, private


def _address(given: str) -> x509.GeneralName:
    try:
        return x509.IPAddress(ipaddress.ip_address(given))
    except ValueError:
        return x509.DNSName(given)


def _write_key(path: Path, key: ec.EllipticCurvePrivateKey) -> None:
    """A private key, readable by its owner only."""
    data = key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    _write_private(path, data)
