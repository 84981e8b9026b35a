"""A match whose players are known by their tokens: Zenoh's access control lets each publish
only its own input and hold only its own name; what it refuses never reaches the host."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from playspace.net import Client, Host, NetError, Network, encode_input
from playspace.net.access import access_control
from playspace.systems.input import standing_frame
from tests.cli_helpers import playspace
from tests.net.net_helpers import hosting
from tests.net.test_tls import ROOT, SNOWBALL, _port

TOKENS = {"alice": "alice-secret", "bob": "bob-secret"}


def _forged(ticket: bytes) -> bytes:
    return encode_input(ticket, [(1, standing_frame())])


def test_a_player_can_publish_only_its_own_input_and_hold_only_its_own_name() -> None:
    endpoint = f"tcp/127.0.0.1:{_port()}"
    host = Host(SNOWBALL, Network("a", listen=[endpoint], tokens=TOKENS), players=2)
    with hosting(host) as clients:
        for name in TOKENS:
            network = Network("a", connect=[endpoint], user=name, password=TOKENS[name])
            clients[name] = Client(network, name)
            clients[name].wait_for_host(10.0)
            clients[name].wait_for_seat(10.0)
            clients[name].send(1, standing_frame())  # its seat takes this client's ticket
        bob = clients["bob"]
        # alice's own session, as a modified client would use it
        rogue = Network("a", connect=[endpoint], user="alice", password=TOKENS["alice"]).open()
        try:
            time.sleep(0.3)
            wrong = os.urandom(16)
            for _ in range(5):  # on bob's key, as bob's client: the engine refuses them
                rogue.put(f"playspace/a/input/bob/{bob.id}", _forged(wrong))
            token = rogue.liveliness().declare_token(f"playspace/a/players/bob/{'0' * 16}")
            time.sleep(0.5)
            assert host.refused["claimed"] == 0 and host.refused["name"] == 0
            # the control: on alice's own key the same message gets through, and the host
            # refuses it itself (its ticket is not alice's client's)
            rogue.put(f"playspace/a/input/alice/{clients['alice'].id}", _forged(wrong))
            deadline = time.monotonic() + 3.0
            while host.refused["claimed"] == 0 and time.monotonic() < deadline:
                time.sleep(0.05)
            assert host.refused["claimed"] == 1
            token.undeclare()  # type: ignore[no-untyped-call]
        finally:
            rogue.close()  # type: ignore[no-untyped-call]
        assert host.present == {"alice", "bob"}
        for name, network in (
            ("eve", Network("a", connect=[endpoint])),  # no token
            ("mallory", Network("a", connect=[endpoint], user="mallory", password="x")),
            ("bob", Network("a", connect=[endpoint], user="bob", password="alice-secret")),
        ):
            stranger = clients[f"stranger {name}"] = Client(network, name)
            with pytest.raises(NetError, match="no host"):
                stranger.wait_for_host(2.0)


def test_tokens_are_checked_when_the_network_is_made() -> None:
    with pytest.raises(NetError, match="one password or players' tokens"):
        Network("a", password="x", tokens=TOKENS)
    with pytest.raises(NetError, match="player 'a b'"):
        Network("a", tokens={"a b": "x"})
    with pytest.raises(NetError, match="player bob's token has no ':'"):
        Network("a", tokens={"bob": "x:y"})
    with pytest.raises(NetError, match="a token needs a password"):
        Network("a", user="bob")
    with pytest.raises(NetError, match="plays as bob"):
        Client(Network("a", connect=["tcp/127.0.0.1:1"], user="bob", password="t"), "alice")


def test_the_rules_keep_each_player_to_its_own_keys_in_its_own_session(tmp_path: Path) -> None:
    rules = access_control("fight", ["ann"], tls=True)
    assert rules["default_permission"] == "deny"
    own = {r["id"]: r["key_exprs"] for r in rules["rules"]}
    assert own["own ann input"] == ["playspace/fight/input/ann/*"]
    assert all(k.startswith("playspace/fight/") for keys in own.values() for k in keys)
    assert rules["subjects"] == [{"id": "ann", "usernames": ["ann"], "cert_common_names": ["ann"]}]


def test_a_host_given_tokens_lets_in_the_player_who_proves_one(tmp_path: Path) -> None:
    made = playspace("certs", str(tmp_path / "p"), "--player", "ann")
    assert made.returncode == 0, made.stderr
    assert "ann: --tls-ca" in made.stdout and "--token-file" in made.stdout
    port = _port()
    host = subprocess.Popen(
        [sys.executable, "-m", "playspace.cli", "host", str(SNOWBALL),
         "--listen", f"tcp/127.0.0.1:{port}", "--tokens", str(tmp_path / "p" / "tokens"),
         "--seconds", "20"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        trace = str(ROOT / "examples" / "traces" / "snowball.jsonl")
        join = ("join", SNOWBALL, "--connect", f"tcp/127.0.0.1:{port}", "--trace", trace,
                "--seconds", "0.5")  # fmt: skip
        token = str(tmp_path / "p" / "ann.token")
        joined = playspace(*join, "--player", "ann", "--token-file", token)
        assert joined.returncode == 0, joined.stderr
        assert "joined session 'playspace' as ann" in joined.stdout
        stranger = playspace(*join, "--player", "bob", "--token-file", token)
        assert stranger.returncode == 2 and "no host" in stranger.stderr
    finally:
        host.terminate()
        host.communicate(timeout=20)
    (tmp_path / "bad").write_text("ann:x\nbob\n")
    bad = playspace("host", SNOWBALL, "--tokens", str(tmp_path / "bad"), "--seconds", "0.1")
    assert bad.returncode == 2 and "bad:2: expected NAME:TOKEN, got 'bob'" in bad.stderr
