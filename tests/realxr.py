"""Running ``playspace`` against a real OpenXR runtime: Monado, with its ``remote`` driver.

The tests that use this run only where ``XR_RUNTIME_JSON`` names a runtime manifest (CI sets it
when a Monado build sits beside the checkout). Once it is set, anything that keeps the runtime
from being used is a failure, not a skip: a missing manifest or service variant, a runtime
that is not Monado, a session that never comes up.

What the runtime needs (facts of Monado as built for these machines):

- ``XRT_COMPOSITOR_NULL=1``: the null compositor (no display, no GPU; frames are composited
  by Mesa's software Vulkan and dropped). ``NULL_COMPOSITOR_HZ`` sets its frame rate (90, 72,
  ...), a change to upstream Monado, which fixes the null compositor at 20 Hz.
- ``P_OVERRIDE_ACTIVE_CONFIG=remote``: a headset and two Valve Index controllers, driven over
  TCP port 4242 by ``playspace run --vr --drive TRACE`` (:mod:`playspace.xr.monado`).
- ``XRT_LOG=warning`` and ``XR_LOADER_DEBUG=none`` keep the runtime's and the loader's stderr
  short (Monado still logs some lines of its own; the tests look only at playspace's).
- The out-of-process variant (``service/`` beside the in-process manifest) runs
  ``service/bin/monado-service``; an application reaches it through ``service/monado.json``
  and the same ``XDG_RUNTIME_DIR`` (the service's socket lives there). ``service/bin/monado-ctl
  -p ID`` makes client ID the primary application: it is then FOCUSED and every other
  application goes back to SYNCHRONIZED, without input.

Port 4242 is one per machine: the remote driver of a second runtime cannot listen while the
first holds it (Monado then fails silently, and the feeder would drive the other runtime). So
every run holds :func:`remote_port`, a lock file that serialises the runs of all test sessions
on the machine, and waits for the port to be free before starting.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import functools
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from playspace.formats.telemetry import parse_telemetry, read_telemetry

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
RUNTIME_JSON = os.environ.get("XR_RUNTIME_JSON", "")
REMOTE_PORT = 4242
LOCK = Path(tempfile.gettempdir()) / "playspace-monado-remote-4242.lock"
PORT_WAIT = 120.0  # seconds to wait for another session's runtime to let the port go
CALL = re.compile(r"\bxr[A-Z]\w+")  # an OpenXR call named in a message

needs_runtime = pytest.mark.xr  # conftest checks for the runtime (tests.needs.need_runtime)


def runtime_manifest() -> Path:
    """The in-process runtime's manifest; a failure when ``XR_RUNTIME_JSON`` names none."""
    path = Path(RUNTIME_JSON).resolve()
    if not path.is_file():
        pytest.fail(f"XR_RUNTIME_JSON={RUNTIME_JSON}: no such runtime manifest")
    return path


def service_dir() -> Path:
    """The service variant beside the in-process runtime (``service/``); a failure if absent."""
    service = runtime_manifest().parent / "service"
    for needed in ("monado.json", "bin/monado-service", "bin/monado-ctl"):
        if not (service / needed).exists():
            pytest.fail(
                f"{service / needed} is missing: the real-runtime tests need Monado's service "
                "variant beside XR_RUNTIME_JSON's manifest"
            )
    return service


def vr_env(hz: int, manifest: Path | None = None, **extra: str) -> dict[str, str]:
    """The environment of one headset run at a `hz` display, on `manifest` (the in-process
    runtime by default)."""
    env = dict(os.environ)
    env.update(
        XR_RUNTIME_JSON=str(manifest or runtime_manifest()),
        XRT_COMPOSITOR_NULL="1",
        NULL_COMPOSITOR_HZ=str(hz),
        XRT_LOG="warning",
        XR_LOADER_DEBUG="none",
        P_OVERRIDE_ACTIVE_CONFIG="remote",
        PYTHONUNBUFFERED="1",  # stdout lines arrive as printed: tests wait for them
    )
    env.update(extra)
    return env


def _port_free() -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # TIME_WAIT is free
        try:
            probe.bind(("0.0.0.0", REMOTE_PORT))
        except OSError as error:
            if error.errno == errno.EADDRINUSE:
                return False
            raise
        return True


@contextlib.contextmanager
def remote_port() -> Iterator[None]:
    """Hold the machine's remote-driver port for the runs inside: a lock against other test
    sessions, then a wait for the port to be free (a runtime that just exited, or one started
    by hand, still holds it)."""
    with open(LOCK, "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        deadline = time.monotonic() + PORT_WAIT
        while not _port_free():
            if time.monotonic() > deadline:
                pytest.fail(
                    f"port {REMOTE_PORT} stayed in use for {PORT_WAIT:g} s: another Monado with "
                    "the remote driver (or a monado-service) is running on this machine"
                )
            time.sleep(0.2)
        yield


@dataclass
class Run:
    """A finished ``playspace`` process."""

    args: list[str]
    returncode: int
    stdout: str
    stderr: str
    seconds: float  # wall time, start to exit

    @property
    def own_errors(self) -> list[str]:
        """playspace's own lines on stderr (the runtime writes lines of its own there)."""
        return [line for line in self.stderr.splitlines() if line.startswith("playspace")]

    def describe(self) -> str:
        """For assertion messages: what ran and what it said."""
        tail = "\n".join(self.stderr.splitlines()[-15:])
        return (
            f"playspace {' '.join(self.args)} -> exit {self.returncode} in {self.seconds:.1f} s"
            f"\nstdout:\n{self.stdout}\nstderr (last lines):\n{tail}"
        )

    def frames_drawn(self) -> int | None:
        found = re.search(r"(\d+) frames drawn", self.stdout)
        return int(found.group(1)) if found else None


def _command(args: Sequence[str | Path]) -> list[str]:
    return [sys.executable, "-m", "playspace.cli", *map(str, args)]


def playspace(*args: str | Path, env: dict[str, str] | None = None, timeout: float = 120) -> Run:
    """Run ``playspace ARGS`` to the end in the repository root."""
    started = time.monotonic()
    done = subprocess.run(
        _command(args),
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    return Run(
        list(map(str, args)),
        done.returncode,
        done.stdout,
        done.stderr,
        time.monotonic() - started,
    )


BARE_SCENE = """[scene]
name = "bare"

[[box]]
name = "floor"
size = [4, 0.2, 4]
position = [0, -0.1, 0]
"""
PROBE_SECONDS = 3.0
KEPT_RATE = 0.8  # of the display's frames, drawn by a session of the bare scene


@functools.cache
def bare_rate(hz: int) -> float:
    """Frames a second a headset session of a bare scene (a floor) draws at a `hz` display on
    this machine: what the runtime and the software renderer allow, before any game's work."""
    with tempfile.TemporaryDirectory() as directory:
        scene = Path(directory) / "bare.toml"
        scene.write_text(BARE_SCENE)
        with remote_port():
            run = playspace("run", scene, "--vr", "--seconds", str(PROBE_SECONDS), env=vr_env(hz))
    frames = run.frames_drawn()
    assert run.returncode == 0 and frames is not None, run.describe()
    return frames / PROBE_SECONDS


def needs_display_rate(hz: int) -> None:
    """Skip a test whose figures hold only at the display's rate (a throw read from the frames'
    poses) on a machine that cannot draw even a bare scene near it: Monado's null compositor
    composites every frame on Mesa's software Vulkan, and a slow or busy machine falls to a
    third of the rate before playspace does any work of its own. Where the bare scene keeps
    the rate, the test runs, and a game that cannot is a failure."""
    rate = bare_rate(hz)
    if rate < KEPT_RATE * hz:
        pytest.skip(
            f"this machine draws a bare scene at {rate:.0f} frames a second of a {hz} Hz "
            f"display (under {KEPT_RATE:.0%}): too slow for a throw read from the frames' poses"
        )


class Live:
    """A ``playspace`` process running in the background, its stdout read line by line."""

    def __init__(self, *args: str | Path, env: dict[str, str]) -> None:
        self.args = list(map(str, args))
        self.started = time.monotonic()
        self.process = subprocess.Popen(
            _command(args),
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        self.lines: list[tuple[float, str]] = []  # (monotonic time, line)
        self._stderr: list[str] = []
        self._stdout_closed = False
        self._changed = threading.Condition()
        self._readers = [
            threading.Thread(target=self._read_stdout, daemon=True),
            threading.Thread(target=self._read_stderr, daemon=True),
        ]
        for reader in self._readers:
            reader.start()

    def _read_stdout(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            with self._changed:
                self.lines.append((time.monotonic(), line.rstrip("\n")))
                self._changed.notify_all()
        with self._changed:
            self._stdout_closed = True
            self._changed.notify_all()

    def _read_stderr(self) -> None:
        assert self.process.stderr is not None
        self._stderr.extend(self.process.stderr)

    def wait_for_line(self, pattern: str, timeout: float = 60) -> float:
        """When a stdout line matching `pattern` was printed; a failure after `timeout`."""
        found = re.compile(pattern)
        deadline = time.monotonic() + timeout
        with self._changed:
            while True:
                for at, line in self.lines:
                    if found.search(line):
                        return at
                if self._stdout_closed or time.monotonic() > deadline:
                    break
                self._changed.wait(0.2)
        pytest.fail(f"no line matching {pattern!r}:\n{self.finish(10).describe()}")

    def signal(self, number: int) -> None:
        self.process.send_signal(number)

    def __enter__(self) -> Live:
        return self

    def __exit__(self, *exc: object) -> None:
        """Leave nothing running: a test that failed half-way kills the process."""
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()

    def finish(self, timeout: float = 60) -> Run:
        """Wait for the process to end (killing it after `timeout`), and what it did."""
        try:
            self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        for reader in self._readers:
            reader.join(5)
        return Run(
            self.args,
            self.process.returncode,
            "\n".join(line for _, line in self.lines) + "\n",
            "".join(self._stderr),
            time.monotonic() - self.started,
        )


class Service:
    """``monado-service`` running for the tests, with its own ``XDG_RUNTIME_DIR``.

    :meth:`env` is the environment of an application that uses it; :meth:`ctl` runs
    ``monado-ctl`` against it; :meth:`kill` ends it with SIGKILL, as a crash would.
    """

    def __init__(self, hz: int, directory: Path) -> None:
        self.dir = service_dir()
        self.runtime_dir = directory
        self.hz = hz
        self.log = open(directory / "monado-service.log", "w")  # noqa: SIM115
        self.process = subprocess.Popen(
            [str(self.dir / "bin/monado-service")],
            env=vr_env(
                hz, self.dir / "monado.json", XDG_RUNTIME_DIR=str(directory), XRT_NO_STDIN="1"
            ),
            stdin=subprocess.DEVNULL,
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 20
        while not (directory / "monado_comp_ipc").exists():
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                pytest.fail(f"monado-service did not start: {self.read_log()}")
            time.sleep(0.05)

    def env(self, **extra: str) -> dict[str, str]:
        return vr_env(
            self.hz, self.dir / "monado.json", XDG_RUNTIME_DIR=str(self.runtime_dir), **extra
        )

    def ctl(self, *args: str) -> str:
        done = subprocess.run(
            [str(self.dir / "bin/monado-ctl"), *args],
            env=self.env(),
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
        )
        assert done.returncode == 0, f"monado-ctl {' '.join(args)}: {done.stdout}{done.stderr}"
        return done.stdout

    def clients(self) -> dict[str, int]:
        """Client ids by application name (``monado-ctl`` lists them)."""
        found = re.findall(r"id: (\d+)\t.*\t(\S+)$", self.ctl(), re.MULTILINE)
        return {name: int(number) for number, name in found}

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()

    def read_log(self) -> str:
        self.log.flush()
        return (self.runtime_dir / "monado-service.log").read_text(errors="replace")[-3000:]


@contextlib.contextmanager
def service(hz: int, directory: Path) -> Iterator[Service]:
    running = Service(hz, directory)
    try:
        yield running
    finally:
        running.stop()


@dataclass
class Telemetry:
    """A telemetry v1 file, read for what a player would notice."""

    header: dict[str, Any]
    rows: list[dict[str, Any]] = field(repr=False)

    @classmethod
    def read(cls, path: Path) -> Telemetry:
        return cls(*read_telemetry(path))

    @classmethod
    def parse(cls, text: str) -> Telemetry:
        return cls(*parse_telemetry(text))

    def events(self, *kinds: str) -> list[tuple[float, dict[str, Any]]]:
        """(time, event) of the given types, in order."""
        return [(row["t"], e) for row in self.rows for e in row["events"] if e["type"] in kinds]

    def name(self, entity: int) -> str:
        for row in self.rows:
            for thing in row["objects"]:
                if thing["id"] == entity:
                    return str(thing["name"])
        return f"entity {entity}"

    def happenings(self, *kinds: str) -> list[tuple[str, str]]:
        """Each event of `kinds` as (type, name of the object it is about), in order."""
        return [(e["type"], self.name(e["object"])) for _, e in self.events(*kinds)]

    def ghost_steps(self) -> int:
        return sum(any(thing["ghost"] for thing in row["objects"]) for row in self.rows)

    def release_speeds(self) -> list[float]:
        return [sum(v * v for v in e["linear"]) ** 0.5 for _, e in self.events("released")]

    def still_spans(self, device: str, least: float) -> list[tuple[float, float]]:
        """The (start, end) times of the stretches, `least` seconds or longer, in which
        `device` (``left_hand``...) did not move at all: where its tracking was held."""
        spans: list[tuple[float, float]] = []
        start: float | None = None
        end = 0.0
        for before, row in zip(self.rows, self.rows[1:], strict=False):
            if row[device]["p"] == before[device]["p"]:
                start = before["t"] if start is None else start
                end = row["t"]
            elif start is not None:
                if end - start >= least:
                    spans.append((start, end))
                start = None
        if start is not None and end - start >= least:
            spans.append((start, end))
        return spans
