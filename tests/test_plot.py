"""Comfort plots from telemetry."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from test_examples import EXAMPLES, replay

from playspace.plot import PlotError, plot_telemetry


@pytest.fixture
def telemetry(tmp_path: Path) -> Path:
    import json

    steps = replay(EXAMPLES / "stairs.toml", EXAMPLES / "traces" / "stairs.jsonl")
    path = tmp_path / "stairs.jsonl"
    header = {"format": "playspace-telemetry", "version": 1, "fixed_hz": 90}
    path.write_text("\n".join(json.dumps(r) for r in [header, *steps]) + "\n")
    return path


def test_plot_writes_a_png(telemetry: Path, tmp_path: Path) -> None:
    out = tmp_path / "stairs.png"
    plot_telemetry(telemetry, out)
    data = out.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 20_000


def test_bad_telemetry_names_the_file_and_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"format": "playspace-trace", "version": 1}\n')
    with pytest.raises(PlotError, match=r"bad.jsonl:1: not a playspace telemetry file"):
        plot_telemetry(bad, tmp_path / "x.png")
    bad.write_text('{"format": "playspace-telemetry", "version": 1}\n{not json\n')
    with pytest.raises(PlotError, match=r"bad.jsonl:2: not JSON"):
        plot_telemetry(bad, tmp_path / "x.png")


HEADER = '{"format": "playspace-telemetry", "version": 1}\n'
POSES = '"head": {"p": [0, 1.6, 0]}, "body": {"p": [0, 0, 0]}, "origin": {"p": [0, 0, 0]}'


@pytest.mark.parametrize(
    ("step", "message"),
    [
        ("[1, 2]", r"bad.jsonl:2: step: expected an object"),
        ('{"step": 0}', r"bad.jsonl:2: t: expected a number"),
        ('{"t": 0, "head": {"p": [0, 1]}}', r"bad.jsonl:2: head.p: expected three numbers"),
        ('{"t": 0, ' + POSES + ', "events": [{}]}', r"events\[0\]: expected a type"),
        ('{"t": 0, ' + POSES + ', "events": [{"type": "release"}]}', r"events\[0\].linear"),
        ("[" * 100_000, r"bad.jsonl:2: not"),
    ],
)
def test_a_step_the_plot_cannot_read_is_named(tmp_path: Path, step: str, message: str) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text(HEADER + step + "\n")
    with pytest.raises(PlotError, match=message):
        plot_telemetry(bad, tmp_path / "x.png")


def test_binary_input_and_a_wrong_output_are_named(telemetry: Path, tmp_path: Path) -> None:
    binary = tmp_path / "b.jsonl"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(PlotError, match=r"b.jsonl: not a text file"):
        plot_telemetry(binary, tmp_path / "x.png")
    with pytest.raises(PlotError, match=r"the plot is a PNG"):
        plot_telemetry(telemetry, tmp_path / "x.txt")
    with pytest.raises(PlotError, match=r"no such folder"):
        plot_telemetry(telemetry, tmp_path / "missing" / "x.png")


def test_without_matplotlib_the_message_names_the_extra(
    telemetry: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    with pytest.raises(PlotError, match=r"pip install 'playspace\[plot\]'"):
        plot_telemetry(telemetry, tmp_path / "x.png")


def test_the_plot_command(telemetry: Path, tmp_path: Path) -> None:
    from cli_helpers import playspace

    out = tmp_path / "p.png"
    done = playspace("plot", telemetry, "--out", out)
    assert done.returncode == 0, done.stderr
    assert out.read_bytes()[:4] == b"\x89PNG"
    bad = playspace("plot", tmp_path / "none", "--out", out)
    assert bad.returncode == 2 and "cannot read" in bad.stderr
