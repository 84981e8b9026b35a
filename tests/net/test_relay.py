"""Matches across the internet: a relay (a Zenoh router) between two sites, several matches
behind it, and the lobby that lists them (``playspace join --list``)."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path

import pytest
import zenoh

from playspace.cli import main
from playspace.net import Client, Host, NetError, Network, play
from playspace.net.client import Standing
from playspace.net.lobby import Match, list_matches
from playspace.net.relay import Relay
from tests.cli_helpers import playspace
from tests.net.net_helpers import hosting
from tests.net.test_tls import ROOT, SNOWBALL, _port

TRACE = ROOT / "examples" / "traces" / "snowball.jsonl"
SITE_B = "127.0.0.2"  # a second loopback address: the other site


def _port_on(address: str) -> int:
    with socket.socket() as probe:
        probe.bind((address, 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def two_sites() -> Iterator[tuple[str, str]]:
    """A relay on two loopback addresses standing for two sites: one for each."""
    here, there = f"tcp/127.0.0.1:{_port()}", f"tcp/{SITE_B}:{_port_on(SITE_B)}"
    relay = Relay([here, there])
    yield here, there
    relay.close()


def _answering(key: str, answer: bytes) -> Callable[[zenoh.Query], None]:
    """A queryable's handler that answers `answer` on `key`."""
    return lambda query: query.reply(key, answer)


def test_a_match_runs_through_a_relay_between_two_sites(two_sites: tuple[str, str]) -> None:
    here, there = two_sites
    host = Host(SNOWBALL, Network("r", connect=[here], mode="client"), players=2)
    with hosting(host) as clients:
        alice = clients["alice"] = Client(Network("r", connect=[there], mode="client"), "alice")
        alice.wait_for_host(10.0)
        assert alice.wait_for_seat(10.0) == Standing(number=0)
        play(alice, SNOWBALL, TRACE, seconds=1.0)
        assert host.queues["alice"].taken > 0  # the host played her input...
        assert alice.remote.states and alice.received > 0  # ...and she drew its states
        assert alice.session.info.peers_zid() == []  # never straight to the host


def test_two_matches_behind_one_relay_are_listed_with_their_seats(
    two_sites: tuple[str, str],
) -> None:
    here, there = two_sites
    one = Host(SNOWBALL, Network("one", connect=[here], mode="client"), players=2)
    two = Host(SNOWBALL, Network("two", connect=[there], mode="client"), players=1)
    bogus = Network("bad", connect=[here], mode="client").open()
    answers = [b"not json", b'{"session": "one"}', json.dumps({  # the last: another's key
        "session": "one", "target": "x", "seats": 1, "seated": 0, "waiting": 0, "access": "open"
    }).encode()]  # fmt: skip
    for n, answer in enumerate(answers):
        key = f"playspace/bad{n}/lobby"
        bogus.declare_queryable(key, _answering(key, answer))
    with hosting(one) as in_one, hosting(two) as in_two:
        in_one["alice"] = Client(Network("one", connect=[there], mode="client"), "alice")
        for name in ("bob", "cy"):  # one seat: bob sits, cy waits
            in_two[name] = Client(Network("two", connect=[here], mode="client"), name)
            in_two[name].wait_for_host(10.0)
            in_two[name].wait_for_seat(10.0)
        in_one["alice"].wait_for_host(10.0)
        in_one["alice"].wait_for_seat(10.0)
        listing = list_matches(Network(connect=[there], mode="client"), timeout=2.0)
        assert listing.matches == (
            Match("one", "snowball", seats=2, seated=1, waiting=0, access="open"),
            Match("two", "snowball", seats=1, seated=1, waiting=1, access="open"),
        )
        assert listing.skipped == 3
        assert str(listing.matches[1]) == "two: snowball, 1/1 seats, 1 waiting"
    bogus.close()  # type: ignore[no-untyped-call]
    assert (
        list_matches(Network(connect=[here], mode="client"), timeout=1.0).matches == ()
    )  # hosts gone


def test_a_relay_with_tokens_keeps_players_and_hosts_to_their_own_keys() -> None:
    tokens, hosts = {"alice": "a-token"}, {"one": "1-token", "two": "2-token"}
    here = f"tcp/127.0.0.1:{_port()}"
    relay = Relay([here], tokens=tokens, hosts=hosts)
    as_alice = Network("one", connect=[here], mode="client", user="alice", password="a-token")
    try:
        # `one` proves its token; `two`'s token proved for hosting session `three`
        one = Host(SNOWBALL, replace(as_alice, user="one", password="1-token"))
        three = Host(
            SNOWBALL,
            Network("three", connect=[here], mode="client", user="two", password="2-token"),
        )
        with hosting(one) as clients, hosting(three):
            alice = clients["alice"] = Client(as_alice, "alice")
            alice.wait_for_host(10.0)
            assert alice.wait_for_seat(10.0) == Standing(number=0)
            lost = clients["lost"] = Client(replace(as_alice, session="three"), "alice")
            with pytest.raises(NetError, match="no host"):
                lost.wait_for_host(1.5)  # `three`'s host was kept out of session three
            listing = list_matches(as_alice, timeout=1.0)
            assert [m.session for m in listing.matches] == ["one"]
            # alice speaking for bob in match one: the relay drops it
            rogue = as_alice.open()
            token = rogue.liveliness().declare_token(f"playspace/one/players/bob/{'0' * 16}")
            time.sleep(0.5)
            assert one.present == {"alice"}
            token.undeclare()  # type: ignore[no-untyped-call]
            rogue.close()  # type: ignore[no-untyped-call]
        for stranger in (
            Network(connect=[here], mode="client"),
            replace(as_alice, password="wrong"),
        ):
            with pytest.raises(NetError, match="cannot open"):
                list_matches(stranger, timeout=1.0)
    finally:
        relay.close()
    with pytest.raises(NetError, match="together"):
        Relay([here], tokens=tokens)
    with pytest.raises(NetError, match="alice: both a player and a session"):
        Relay([here], tokens=tokens, hosts={"alice": "x"})


def test_playspace_join_list_through_a_relay(
    two_sites: tuple[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    here, there = two_sites
    host = Host(SNOWBALL, Network("fight", connect=[here], mode="client"), players=2)
    with hosting(host):
        assert main(["join", "--list", "--relay", there]) == 0
    assert capsys.readouterr().out == "fight: snowball, 0/2 seats\n1 matches\n"


def test_playspace_join_list_and_relay_from_the_command_line() -> None:
    # straight to a host: a peer, as `playspace join` reaches one today
    endpoint = f"tcp/127.0.0.1:{_port()}"
    host = Host(SNOWBALL, Network("direct", listen=[endpoint]), players=4)
    with hosting(host):
        listed = playspace("join", "--list", "--connect", endpoint)
    assert listed.returncode == 0, listed.stderr
    assert listed.stdout == "direct: snowball, 0/4 seats\n1 matches\n"
    nothing = playspace("join", "--list", "--connect", f"tcp/127.0.0.1:{_port()}")
    assert nothing.returncode == 2 and "Traceback" not in nothing.stderr
    assert "playspace join --list: nothing answers at tcp/127.0.0.1:" in nothing.stderr
    bare = playspace("join", "--player", "ann")
    assert bare.returncode == 2 and "TARGET is required" in bare.stderr
    port = _port()
    relayed = playspace("relay", "--listen", f"tcp/127.0.0.1:{port}", "--seconds", "0.3")
    assert relayed.returncode == 0, relayed.stderr
    assert relayed.stdout.startswith(f"relaying on tcp/127.0.0.1:{port}: hosts and players")
    exposed = playspace("relay", "--listen", "tcp/0.0.0.0:7491", "--seconds", "0.1")
    assert exposed.returncode == 2 and "reaches beyond this machine" in exposed.stderr


def test_a_party_meets_through_a_relay_from_the_command_line(tmp_path: Path) -> None:
    party = tmp_path / "p"
    made = playspace("certs", party, "--player", "ann", "--match", "fight")
    assert made.returncode == 0, made.stderr
    assert f"relay: --tokens {party / 'tokens'} --hosts {party / 'hosts'}" in made.stdout
    relay = f"tcp/127.0.0.1:{_port()}"
    command = [sys.executable, "-m", "playspace.cli"]

    def start(*args: object) -> subprocess.Popen[str]:
        return subprocess.Popen([*command, *map(str, args)], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)  # fmt: skip

    relaying = start("relay", "--listen", relay, "--tokens", party / "tokens", "--hosts",
                     party / "hosts", "--seconds", "120")  # fmt: skip
    started = [relaying]
    assert relaying.stdout is not None
    assert relaying.stdout.readline().startswith("relaying on")  # up: a client may connect
    hosting = ("host", SNOWBALL, "--session", "fight", "--relay", relay, "--token-file",
               party / "fight.host-token", "--seconds", "120")  # fmt: skip
    started.append(start(*hosting))
    try:
        ann = ("--session", "fight", "--relay", relay, "--player", "ann",
               "--token-file", party / "ann.token")  # fmt: skip
        deadline = time.monotonic() + 60.0  # two interpreters start, one builds a world
        listed = playspace("join", "--list", *ann)
        while "fight: snowball" not in listed.stdout and time.monotonic() < deadline:
            listed = playspace("join", "--list", *ann)
        assert listed.stdout.startswith("fight: snowball, 0/2 seats (tokens)"), (
            listed.stderr,
            started[1].poll(),
        )
        joined = playspace("join", SNOWBALL, *ann, "--trace", TRACE, "--seconds", "0.5")
        assert joined.returncode == 0, joined.stderr
        assert "joined session 'fight' as ann" in joined.stdout and "seated" in joined.stdout
    finally:
        for process in started:
            process.terminate()
            process.communicate(timeout=20)
