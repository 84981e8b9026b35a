"""Which bodies each client hears of, within a byte budget: interest management.

Sixteen players are 64 moving parts (a head, two hands and a body each), and a tracked head
is never still: every part in every state would be 2 kB a state, 180 kB/s a client at 90 Hz,
and grow with each player. So each client gets a state of its own, holding the bodies that
matter most to it and fit its budget, and the bandwidth a client stays flat as players join.

How a body's turn comes (the priority accumulator of Glenn Fiedler's *State Synchronization*,
as Unreal's ``NetPriority`` and Source's do): each state, every body whose newest pose this
client has not had :data:`REPEAT` times gains a weight, ``(1 + speed / FAST) / (1 + (d /
NEAR)²)`` with `d` its distance from the client's head (a spectator's: the stage); the bodies
with the most gained go, as many as fit, and start again from nothing. So a near, fast body
(a snowball on its way, a hand throwing) goes nearly every state and a far one by turns, yet
none starves. A body that came to rest goes :data:`REPEAT` times (a lost state costs
nothing) and then not again. A client's own parts are never sent but on a full state: it
draws its own rig from its own input.

Numpy throughout: the host does this for every client every state, and a Python loop over
sixteen clients' bodies would cost more than the world's step.
"""

from __future__ import annotations

import itertools

import numpy as np

from playspace.net.wire import BODY, RESUMED
from playspace.spatial import Pose, quat_rows, vec3_rows

NEAR = 4.0  # metres at which a still body's weight halves
FAST = 1.0  # m/s of speed that double a body's weight
REPEAT = 3  # times a body's newest pose goes to a client: a lost state costs nothing


class BodyTable:
    """The host's moving bodies this state as arrays, each body in a slot it keeps while it
    lives (so every client's bookkeeping lines up with it): `poses` where each stands now and
    `was` where it stood at the state before, `changed` those that moved between."""

    def __init__(self) -> None:
        self.slots: dict[int, int] = {}  # entity: its slot
        self.free: list[int] = []
        self.records = np.zeros(0, BODY)  # this state's, ready to send
        self.poses = np.zeros((0, 7), np.float32)  # p and q, this state's
        self.was = np.zeros((0, 7), np.float32)  # ...and at the state before (NaN: not there)
        self.alive = np.zeros(0, bool)
        self.changed = np.zeros(0, bool)
        self.speed = np.zeros(0, np.float32)
        self.fresh = np.zeros(0, bool)  # slots taken (or taken again) this state

    def __len__(self) -> int:
        return len(self.alive)

    def update(self, poses: dict[int, Pose], interval: float) -> None:
        """This state's `poses`, `interval` seconds after the last."""
        for entity in [e for e in self.slots if e not in poses]:
            slot = self.slots.pop(entity)
            self.alive[slot] = False
            self.free.append(slot)
        taken = [self._take(entity) for entity in poses if entity not in self.slots]
        now = self.poses.copy()
        if poses:  # one gather a field: a row written at a time costs ten times as much
            slots = np.array([self.slots[entity] for entity in poses], np.intp)
            now[slots, :3] = vec3_rows([pose.position for pose in poses.values()])
            now[slots, 3:] = quat_rows([pose.rotation for pose in poses.values()])
        self.fresh = np.zeros(len(self), bool)
        self.fresh[taken] = True
        moved = np.sqrt(((now[:, :3] - self.poses[:, :3]) ** 2).sum(1))
        self.changed = self.alive & (self.fresh | (now != self.poses).any(1))
        self.speed = np.where(self.fresh, 0.0, moved / max(interval, 1e-6)).astype(np.float32)
        self.records["p"] = now[:, :3]
        self.records["q"] = now[:, 3:]
        self.was, self.poses = self.poses, now

    def _take(self, entity: int) -> int:
        """A slot for `entity`: a freed one, else a new one at the end."""
        if self.free:
            slot = self.free.pop()
        else:
            slot = len(self)
            self.records = np.resize(self.records, slot + 1)
            self.poses = np.resize(self.poses, (slot + 1, 7))
            self.alive = np.resize(self.alive, slot + 1)
        self.slots[entity] = slot
        self.records["entity"][slot] = entity
        self.alive[slot] = True
        self.poses[slot] = np.nan  # nothing was there: it changed
        return slot


class Audience:
    """Every client's bookkeeping, a row each, in matrices lined up with the table's slots:
    what it has had of each body (the pose, how many times), and the weight each has gained.
    One set of array operations chooses and notes every client's bodies at once."""

    def __init__(self) -> None:
        self.clients: list[str] = []  # the rows' clients, in order
        self.gained = np.zeros((0, 0))
        self.copies = np.zeros((0, 0), np.int16)
        self.had = np.zeros((0, 0, 7), np.float32)  # the pose last sent (NaN: none)

    def fit(self, table: BodyTable, clients: list[str]) -> None:
        """Rows for `clients` (a row kept for each client kept), columns for the table's
        slots (a slot taken again starts afresh), the bodies that moved owed again."""
        rows, size = len(clients), len(table)
        if clients != self.clients:
            old = {client: row for row, client in enumerate(self.clients)}
            kept = [(new, old[c]) for new, c in enumerate(clients) if c in old]
            gained, copies = np.zeros((rows, size)), np.zeros((rows, size), np.int16)
            had = np.full((rows, size, 7), np.nan, np.float32)
            width = min(size, self.gained.shape[1])
            for new, was in kept:
                gained[new, :width] = self.gained[was, :width]
                copies[new, :width] = self.copies[was, :width]
                had[new, :width] = self.had[was, :width]
            self.clients, self.gained, self.copies, self.had = list(clients), gained, copies, had
        elif self.gained.shape[1] < size:
            grow = size - self.gained.shape[1]
            self.gained = np.pad(self.gained, ((0, 0), (0, grow)))
            self.copies = np.pad(self.copies, ((0, 0), (0, grow)))
            self.had = np.pad(self.had, ((0, 0), (0, grow), (0, 0)), constant_values=np.nan)
        self.gained[:, table.fresh] = 0.0
        self.had[:, table.fresh] = np.nan
        self.copies[:, table.changed] = 0

    def choose(
        self, table: BodyTable, centres: np.ndarray, own: np.ndarray, full: np.ndarray, room: int
    ) -> np.ndarray:
        """Which bodies go to each client this state, a (clients, slots) mask: on a `full`
        row every body there is; on the others at most `room` of those owed, the most gained
        first (see the module), never the client's `own` parts. `centres` is each client's
        (clients, 3)."""
        owed = table.alive & (self.copies < REPEAT) & ~own
        where = table.records["p"]
        offset = where[None, :, :] - centres[:, None, :].astype(np.float32)
        near = 1.0 / (1.0 + (offset * offset).sum(2) / (NEAR * NEAR))
        self.gained = np.where(owed, self.gained + (1.0 + table.speed / FAST) * near, 0.0)
        chosen = owed.copy()
        if 0 < room < owed.shape[1]:
            ranked = np.where(owed, self.gained, -1.0)
            top = np.argpartition(-ranked, room - 1, axis=1)[:, :room]
            chosen = np.zeros_like(owed)
            np.put_along_axis(chosen, top, True, axis=1)
            chosen &= owed
        elif room <= 0:
            chosen[:] = False
        chosen[full] = table.alive
        return np.asarray(chosen, bool)

    def send(self, table: BodyTable, chosen: np.ndarray) -> list[tuple[int, bytes]]:
        """Each client's chosen bodies packed (how many, and their records), each flagged
        :data:`~playspace.net.wire.RESUMED` when it stood where that client last had it until
        the state before; noted as sent."""
        rows, slots = np.nonzero(chosen)  # by client, then by slot: each message's order
        stood = (table.was[slots] == self.had[rows, slots]).all(1) & table.changed[slots]
        records = table.records.take(slots)
        records["entity"] |= np.where(stood, np.uint32(RESUMED), np.uint32(0))
        self.had[rows, slots] = table.poses[slots]
        self.copies += chosen
        self.gained[chosen] = 0.0
        counts = chosen.sum(1).tolist()
        packed, size = records.tobytes(), records.itemsize
        ends = list(itertools.accumulate(counts))
        return [
            (count, packed[(end - count) * size : end * size])
            for count, end in zip(counts, ends, strict=True)
        ]
