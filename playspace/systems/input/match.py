"""Recording a match: every player's input in one trace file (format version 3), so that
``playspace run TARGET --headless --trace MATCH`` replays the whole match.

A :class:`MatchRecorder` wraps each player's input source (:meth:`MatchRecorder.source_for`);
the tracking system samples every player once per fixed step at the step's time (the first
player first), and each wrapped source hands the recorder the frame the world got. All the
frames of one step make one line: the first player's as the line's own keys, the others'
under ``"players"``. A line is complete only once the step's last player is sampled, so the
recorder holds the newest line and writes it when a later step's first sample comes, when
:meth:`MatchRecorder.flush` says the step is over, or on :meth:`MatchRecorder.close`. Each line
is flushed to the file as it is written, so a host killed mid-match loses at most the step in
hand (none if it calls :meth:`~MatchRecorder.flush` after each step).

A player is in the recording from the first line that has them (the step they were spawned
in: players join at a step's start) to the last (they left at the next step's start); the line
they arrive on gives their name and start, which is what a replay needs to spawn them again at
the same step and place (:class:`~playspace.systems.player.Arrival`).

Lines key the players by the numbers the world gave them (``Rig.player``, telemetry's
``player``). The world gives a joining player the number after the highest of those in the
world as the step starts (one leaving at that step still counts: a rig is removed after the
step), in the order the roster lists the arrivals. Every player present is sampled each step,
so the recorder gives the same numbers from what it sampled, without asking the world: the
first source wrapped is player 0, and a player sampled for the first time gets the number after
the highest of those on the line before and on this one, in the order their sources were
wrapped.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from types import TracebackType

from playspace.components.input import InputFrame, InputSource
from playspace.components.scene import PlayerStart
from playspace.formats.trace import MATCH_VERSION, PlayerFrame, StartPoint, TraceWriter
from playspace.systems.input.sources import Recorder


@dataclass(eq=False, slots=True)
class _Seat:
    """One player's stay as recorded: who they are, and their number once a line has had
    them (None before)."""

    order: int  # wrapped as the n-th source: the roster's order of arrival
    name: str
    start: StartPoint | None
    player: int | None = None


@dataclass(frozen=True, slots=True)
class _SeatSink:
    """Where a player's :class:`Recorder` puts the frames the world sampled: the match's line
    of their time, as that player's."""

    recorder: MatchRecorder
    seat: _Seat

    def write(self, frame: InputFrame) -> None:
        self.recorder._take(self.seat, frame.time, frame)


class MatchRecorder:
    """Records every player of a match into one trace file (see the module).

    Make one with :meth:`open` (or around a :class:`TraceWriter` made with
    ``version=MATCH_VERSION``), wrap player 0's source and each joining player's with
    :meth:`source_for`, and :meth:`close` it when the match ends (it is a context manager).
    The recorder owns the writer: closing it writes the line in hand and closes the file.
    """

    def __init__(self, writer: TraceWriter) -> None:
        if writer.version != MATCH_VERSION:
            raise ValueError(
                f"{writer.path}: a match is recorded as trace version {MATCH_VERSION}: "
                f"TraceWriter(path, fixed_hz, version={MATCH_VERSION}) or MatchRecorder.open"
            )
        self.writer = writer
        self.lines = 0  # lines written
        self._seats = 0  # sources wrapped
        self._time: float | None = None  # the time of the line in hand
        self._line: dict[_Seat, InputFrame] = {}
        self._before: set[int] = set()  # the players on the last line written
        self._written: float | None = None  # the time of the last line written

    @classmethod
    def open(cls, path: str | os.PathLike[str], fixed_hz: float | None = None) -> MatchRecorder:
        """A recorder writing a new match trace at `path` (replacing it), stepped at
        `fixed_hz` (written in the header, so a replay runs at it)."""
        return cls(TraceWriter(path, fixed_hz, version=MATCH_VERSION))

    def source_for(
        self, source: InputSource, name: str = "", start: PlayerStart | None = None
    ) -> InputSource:
        """`source`, recorded: the first call's is player 0's (the world's first player, the
        lines' own keys); each later one is a player joining as `name` at `start` (None: the
        scene's start), as the :class:`~playspace.systems.player.Arrival` that carries the
        returned source says. Wrap the joining players' sources in the order their arrivals
        go into the roster, and every player's: the numbers follow from that (see the
        module)."""
        where = None if start is None else StartPoint(start.position, start.yaw)
        self._seats += 1
        return Recorder(source, _SeatSink(self, _Seat(self._seats - 1, name, where)))

    def _take(self, seat: _Seat, time: float, frame: InputFrame) -> None:
        """Keep `frame` for `seat`'s player on the line of `time`; a sample at a time
        already written, or a second one of a player at the line's time, is not kept."""
        if self._written is not None and time <= self._written:
            return
        if self._time is not None and time > self._time:
            self.flush()
        if self._time is None:
            self._time = time
        if time == self._time and seat not in self._line:
            self._line[seat] = frame

    def flush(self) -> None:
        """Write the line in hand: all of a step's samples have been taken (a host may call
        this after each step, so a crash loses nothing that was stepped)."""
        if self._time is None:
            return
        line, time = self._line, self._time
        self._line, self._time = {}, None
        known = {s.player for s in line if s.player is not None}
        highest = max(known | self._before, default=-1)
        arriving = sorted((s for s in line if s.player is None), key=lambda s: s.order)
        for number, seat in enumerate(arriving, highest + 1):
            seat.player = number
        frames = {seat.player: frame for seat, frame in line.items() if seat.player is not None}
        if 0 not in frames:
            raise ValueError(
                f"{self.writer.path}: the first player was not sampled at t={time!r}, but "
                f"players {sorted(frames)} were: every line is the first player's sample"
            )
        others = {
            seat.player: PlayerFrame(
                frame,
                seat.name if seat in arriving else None,
                seat.start if seat in arriving else None,
            )
            for seat, frame in line.items()
            if seat.player
        }
        self.writer.write(frames[0], others)
        self._before = set(frames)
        self._written = time
        self.lines += 1

    def close(self) -> None:
        """Write the line in hand and close the file."""
        try:
            self.flush()
        finally:
            self.writer.close()

    def __enter__(self) -> MatchRecorder:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()
