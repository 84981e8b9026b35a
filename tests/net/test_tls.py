"""A match over mutual TLS: the party's players get in; a client the party's authority did not
sign, or one without TLS, gets no link, and the host plays on."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from playspace.net import Client, Host, NetError, Network, Tls
from playspace.net.certs import make_party
from playspace.net.client import Standing
from tests.cli_helpers import playspace
from tests.net.net_helpers import hosting

ROOT = Path(__file__).resolve().parents[2]
SNOWBALL = ROOT / "examples" / "snowball.py"


def _port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_only_the_partys_players_get_in(tmp_path: Path) -> None:
    party = make_party(tmp_path / "party", ["alice"])
    other = make_party(tmp_path / "other", ["mallory"])
    endpoint = f"tls/127.0.0.1:{_port()}"
    host_tls = Tls(party.authority, *party.host)
    host = Host(SNOWBALL, Network("s", listen=[endpoint], tls=host_tls), players=2)
    with hosting(host) as clients:
        alice_tls = Tls(party.authority, *party.players["alice"])
        alice = clients["alice"] = Client(Network("s", connect=[endpoint], tls=alice_tls), "alice")
        alice.wait_for_host(10.0)
        assert alice.wait_for_seat(10.0) == Standing(number=0)
        mallory_tls = Tls(other.authority, *other.players["mallory"])
        mallory = Client(Network("s", connect=[endpoint], tls=mallory_tls), "mallory")
        clients["mallory"] = mallory
        with pytest.raises(NetError, match="no host"):
            mallory.wait_for_host(3.0)
        plain = clients["eve"] = Client(Network("s", connect=[f"tcp/{endpoint[4:]}"]), "eve")
        with pytest.raises(NetError, match="no host"):
            plain.wait_for_host(2.0)
        steps = host.world.fixed_time.step
        assert alice.standing == Standing(number=0) and "mallory" not in host.present
        assert "eve" not in host.present
    assert host.world.fixed_time.step >= steps  # it played on throughout


def test_tls_files_are_checked_and_endpoints_must_be_tls(tmp_path: Path) -> None:
    party = make_party(tmp_path, ["alice"])
    with pytest.raises(NetError, match=r"key .*missing\.key: no such file"):
        Tls(party.authority, party.host[0], tmp_path / "missing.key")
    with pytest.raises(NetError, match="every endpoint is tls/HOST:PORT, got tcp/"):
        Network("s", listen=["tcp/127.0.0.1:7447"], tls=Tls(party.authority, *party.host))
    with pytest.raises(NetError, match="certificate authority already"):
        make_party(tmp_path, ["bob"])


def test_playspace_certs_writes_the_party_and_says_how_to_use_it(tmp_path: Path) -> None:
    done = playspace("certs", str(tmp_path / "p"), "--player", "ann", "--player", "ben")
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in (tmp_path / "p").iterdir()) == [
        "ann.key", "ann.pem", "ann.token", "ben.key", "ben.pem", "ben.token", "ca.key",
        "ca.pem", "host.key", "host.pem", "tokens",
    ]  # fmt: skip
    assert "--tls-cert" in done.stdout and "ann:" in done.stdout
    for secret in ("ann.key", "ann.token", "tokens"):  # the owner's only
        assert (tmp_path / "p" / secret).stat().st_mode & 0o077 == 0
    again = playspace("certs", str(tmp_path / "p"), "--player", "cy")
    assert again.returncode == 2 and "already" in again.stderr


def test_a_match_with_a_password_lets_in_only_who_knows_it() -> None:
    endpoint = f"tcp/127.0.0.1:{_port()}"
    host = Host(SNOWBALL, Network("w", listen=[endpoint], password="open sesame"), players=2)
    with hosting(host) as clients:
        for name, password in (("ann", "wrong"), ("eve", None)):
            client = clients[name] = Client(
                Network("w", connect=[endpoint], password=password), name
            )
            with pytest.raises(NetError, match="no host"):
                client.wait_for_host(2.0)
        ben = clients["ben"] = Client(
            Network("w", connect=[endpoint], password="open sesame"), "ben"
        )
        ben.wait_for_host(10.0)
        assert ben.wait_for_seat(10.0) == Standing(number=0)
        assert host.present == {"ben"}
    with pytest.raises(NetError, match="no ':'"):
        Network("w", password="a:b")


def test_across_machines_a_match_is_encrypted_unless_told_plain() -> None:
    beyond = playspace("host", SNOWBALL, "--listen", "tcp/0.0.0.0:7491", "--seconds", "0.2")
    assert beyond.returncode == 2
    assert "tcp/0.0.0.0:7491 reaches beyond this machine unencrypted" in beyond.stderr
    assert "--plain" in beyond.stderr and "Traceback" not in beyond.stderr
    named = playspace("join", SNOWBALL, "--connect", "tcp/lan-host:7447", "--trace", "x.jsonl")
    assert named.returncode == 2 and "tcp/lan-host:7447 reaches beyond" in named.stderr
    port = _port()
    plain = playspace(
        "host", SNOWBALL, "--listen", f"tcp/0.0.0.0:{port}", "--plain", "--seconds", "0.2"
    )
    assert plain.returncode == 0, plain.stderr
    here = playspace("host", SNOWBALL, "--listen", f"tcp/127.0.0.1:{_port()}", "--seconds", "0.2")
    assert here.returncode == 0, here.stderr
