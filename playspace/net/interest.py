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

from dataclasses import dataclass, field

import numpy as np

from playspace.net.wire import BODY, RESUMED
from playspace.spatial import Pose, Vec3, quat_to_xyzw

NEAR = 4.0  # metres at which a still body's weight halves
FAST = 1.0  # m/s of speed that double a body's weight
REPEAT = 3  # times a body's newest pose goes to a client: a lost state costs nothing
_Floats = np.ndarray


class BodyTable:
    """The host's moving bodies this state as arrays, each body in a slot it keeps while it
    lives (so every client's bookkeeping lines up with it); `changed` marks those that moved
    since the state before, `before` holds where each stood then."""

    def __init__(self) -> None:
        self.slots: dict[int, int] = {}  # entity: its slot
        self.free: list[int] = []
        self.records = np.zeros(0, BODY)  # this state's, ready to send
        self.before = np.zeros((0, 7), np.float32)  # p and q now (after update: this state's)
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
        now = self.before.copy()
        for entity, pose in poses.items():
            slot, p = self.slots[entity], pose.position
            now[slot, :3] = (p.x, p.y, p.z)
            now[slot, 3:] = quat_to_xyzw(pose.rotation)
        self.fresh = np.zeros(len(self), bool)
        self.fresh[taken] = True
        moved = np.sqrt(((now[:, :3] - self.before[:, :3]) ** 2).sum(1))
        self.changed = self.alive & (self.fresh | (now != self.before).any(1))
        self.speed = np.where(self.fresh, 0.0, moved / max(interval, 1e-6)).astype(np.float32)
        self.records["p"] = now[:, :3]
        self.records["q"] = now[:, 3:]
        self.was, self.before = self.before, now

    def _take(self, entity: int) -> int:
        """A slot for `entity`: a freed one, else a new one at the end."""
        if self.free:
            slot = self.free.pop()
        else:
            slot = len(self)
            self.records = np.resize(self.records, slot + 1)
            self.before = np.resize(self.before, (slot + 1, 7))
            self.before[slot] = np.nan
            self.alive = np.resize(self.alive, slot + 1)
        self.slots[entity] = slot
        self.records["entity"][slot] = entity
        self.alive[slot] = True
        self.before[slot] = np.nan  # nothing was there: it changed
        return slot


@dataclass(slots=True)
class Interest:
    """What one client has had of each body (by the table's slots), and its gained weight."""

    gained: _Floats = field(default_factory=lambda: np.zeros(0, np.float64))
    copies: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int32))
    had: _Floats = field(default_factory=lambda: np.zeros((0, 7), np.float32))  # as last sent
    own: np.ndarray = field(default_factory=lambda: np.zeros(0, bool))  # its own parts

    def fit(self, table: BodyTable, own: set[int]) -> None:
        """Line up with `table` (grown, or slots taken again) and mark the client's `own`
        entities, before choosing this state's bodies."""
        size = len(table)
        if len(self.gained) < size:
            grow = size - len(self.gained)
            self.gained = np.concatenate([self.gained, np.zeros(grow)])
            self.copies = np.concatenate([self.copies, np.zeros(grow, np.int32)])
            self.had = np.concatenate([self.had, np.full((grow, 7), np.nan, np.float32)])
        self.gained[table.fresh] = 0.0
        self.had[table.fresh] = np.nan
        self.copies[table.changed] = 0
        self.own = np.zeros(size, bool)
        for entity in own:
            slot = table.slots.get(entity)
            if slot is not None:
                self.own[slot] = True


def choose(table: BodyTable, interest: Interest, centre: Vec3, room: int) -> np.ndarray:
    """The slots of the bodies that go to this client this state, at most `room` of them,
    those with the most gained weight (see the module); the others keep what they gained."""
    wanted = table.alive & (interest.copies < REPEAT) & ~interest.own
    where = table.records["p"]
    offset = where - np.array((centre.x, centre.y, centre.z), np.float32)
    near = 1.0 / (1.0 + (offset * offset).sum(1) / (NEAR * NEAR))
    interest.gained += np.where(wanted, (1.0 + table.speed / FAST) * near, 0.0)
    interest.gained[~wanted] = 0.0
    slots = np.flatnonzero(wanted)
    if len(slots) > room:
        if room <= 0:
            return slots[:0]
        slots = slots[np.argpartition(-interest.gained[slots], room - 1)[:room]]
    return np.sort(slots)


def everything(table: BodyTable) -> np.ndarray:
    """The slots of every body there is (a full state)."""
    return np.flatnonzero(table.alive)


def send(table: BodyTable, interest: Interest, slots: np.ndarray) -> tuple[int, bytes]:
    """The `slots`' bodies packed for this client (how many, and their records), each flagged
    :data:`~playspace.net.wire.RESUMED` when it stood where the client last had it until the
    state before; noted as sent."""
    records = table.records[slots]
    stood = (table.was[slots] == interest.had[slots]).all(1) & table.changed[slots]
    records["entity"][stood] |= np.uint32(RESUMED)
    interest.had[slots] = table.before[slots]
    interest.copies[slots] += 1
    interest.gained[slots] = 0.0
    return len(slots), records.tobytes()
