"""A table's clock: each acting person's deadline, each person's bank of time, the seats the bot
plays while their person is away, and when the game next needs the server (its ``due_at``).
Pure: every function is given the time.

Every timed table runs on a ``Bank`` (``app.services.speeds`` names them): each person starts
with ``start`` seconds; while they are to act their bank runs down to a deadline; when that
deadline ends (they moved, or no longer have to act) what was left plus ``add`` is their bank
again, never more than ``most``. A per-move clock (the tables made before speeds had names)
is the bank whose three numbers are equal: every decision gets the same time afresh. A step
they may still take back, and taking one back, leave the deadline where it was
(``engine.undo.keeps_turn``) and add nothing, so stepping and taking back in a loop never puts
it off. When it runs out the seat is marked away and the stand-in bot moves for it, then keeps
playing it at bot pace until the person makes a move or says they are back; they come back
with a full ``start`` bank. While every person at the table is away, nobody is left to play
for: the bots wait, and the game is aborted once the last of them has been away for
``abandon_after`` seconds.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Literal

# Who made a move: the seat's person, a bot seat or the bot standing in for an away person,
# or the bot standing in because the person's time ran out (which marks the seat away).
PlayedBy = Literal["person", "bot", "clock"]


@dataclass(frozen=True)
class Timing:
    bot_delay: float
    abandon_after: float


@dataclass(frozen=True)
class Due:
    """What is due now: ``abort`` the abandoned game, or a bot ``move`` for ``seat``."""

    action: Literal["abort", "move"]
    seat: int | None = None
    played_by: PlayedBy = "bot"


@dataclass(frozen=True)
class Bank:
    """Seconds a person starts with, gets back after each decision, and may hold at most."""

    start: int
    add: int
    most: int

    @classmethod
    def per_move(cls, seconds: int) -> Bank:
        return cls(seconds, seconds, seconds)


@dataclass
class Clock:
    deadlines: dict[int, datetime] = field(default_factory=dict)
    away: dict[int, datetime] = field(default_factory=dict)
    # Whole seconds in the bank of each person not acting now (missing: a full ``start``).
    banks: dict[int, int] = field(default_factory=dict)
    # When each acting person's time for this decision started (their reminders' measure).
    since: dict[int, datetime] = field(default_factory=dict)

    @classmethod
    def load(cls, data: dict[str, Any] | None) -> Clock:
        data = data or {}
        return cls(
            deadlines={int(k): _time(v) for k, v in data.get("deadlines", {}).items()},
            away={int(k): _time(v) for k, v in data.get("away", {}).items()},
            banks={int(k): int(v) for k, v in data.get("banks", {}).items()},
            since={int(k): _time(v) for k, v in data.get("since", {}).items()},
        )

    def dump(self) -> dict[str, Any]:
        return {
            "deadlines": {str(k): v.isoformat() for k, v in sorted(self.deadlines.items())},
            "away": {str(k): v.isoformat() for k, v in sorted(self.away.items())},
            "banks": {str(k): v for k, v in sorted(self.banks.items())},
            "since": {str(k): v.isoformat() for k, v in sorted(self.since.items())},
        }

    def left(self, seat: int, bank: Bank | None, now: datetime) -> int | None:
        """Whole seconds ``seat`` has left: to its deadline while it acts, else its bank;
        None on an untimed table or for a seat the bot plays."""
        if bank is None or seat in self.away:
            return None
        deadline = self.deadlines.get(seat)
        if deadline is not None:
            return max(0, int((deadline - now).total_seconds()))
        return self.banks.get(seat, bank.start)

    def away_since(self) -> datetime | None:
        return min(self.away.values(), default=None)


def _time(text: str) -> datetime:
    return datetime.fromisoformat(text)


def _deadline(now: datetime, seconds: int) -> datetime:
    """``seconds`` from now, on the next whole second: views show it without fractions."""
    later = now + timedelta(seconds=seconds)
    return later.replace(microsecond=0) + timedelta(seconds=1 if later.microsecond else 0)


def started(acting: list[int], people: set[int], bank: Bank | None, now: datetime) -> Clock:
    """The clock of a new game: every acting person's time starts."""
    return _deadlines(Clock(), acting, people, bank, now, mover=None)


def after_move(
    clock: Clock,
    acting: list[int],
    people: set[int],
    mover: int,
    played_by: PlayedBy,
    bank: Bank | None,
    now: datetime,
    keeps_turn: bool = False,
) -> Clock:
    """The clock once ``mover`` has moved and ``acting`` must act next. A person's own move
    brings them back; a seat that keeps acting keeps its deadline unless it just moved, and
    the mover keeps its own when its move ``keeps_turn`` (a step it may take back, or one
    taken back). Time running out empties the mover's bank: it comes back full."""
    away = dict(clock.away)
    banks = dict(clock.banks)
    if played_by == "person":
        away.pop(mover, None)
    elif played_by == "clock":
        away.setdefault(mover, now)
        banks.pop(mover, None)
    restarted = None if keeps_turn else mover
    return _deadlines(
        Clock(clock.deadlines, away, banks, clock.since), acting, people, bank, now, restarted
    )


def back(clock: Clock, seat: int, acting: list[int], bank: Bank | None, now: datetime) -> Clock:
    """``seat``'s person is back: the bot stops, and their full bank starts if they are to
    act."""
    away = {s: t for s, t in clock.away.items() if s != seat}
    deadlines = dict(clock.deadlines)
    banks = {s: b for s, b in clock.banks.items() if s != seat}
    since = dict(clock.since)
    if seat in acting and bank is not None:
        deadlines[seat] = _deadline(now, bank.start)
        since[seat] = now
    return Clock(deadlines, away, banks, since)


def _deadlines(
    clock: Clock,
    acting: list[int],
    people: set[int],
    bank: Bank | None,
    now: datetime,
    mover: int | None,
) -> Clock:
    """Each acting person's deadline: the one it had, or one from its bank for ``mover`` (whose
    decision earned ``add``) and for a seat that had none. A deadline that ends (its seat
    moved or acts no more) puts what was left, plus ``add``, back in the bank."""
    if bank is None:
        return Clock({}, clock.away, clock.banks)
    banks = dict(clock.banks)
    for seat, deadline in clock.deadlines.items():
        if (seat == mover or seat not in acting) and seat not in clock.away:
            left = max(0, int((deadline - now).total_seconds()))
            banks[seat] = min(bank.most, left + bank.add)
    deadlines, since = {}, {}
    for seat in acting:
        if seat in people and seat not in clock.away:
            kept = clock.deadlines.get(seat) if seat != mover else None
            if kept is None:
                kept = _deadline(now, banks.pop(seat, bank.start))
                since[seat] = now
            else:
                banks.pop(seat, None)
                since[seat] = clock.since.get(seat, now)
            deadlines[seat] = kept
    return Clock(deadlines, clock.away, banks, since)


def _abandoned_at(clock: Clock, people: set[int], timing: Timing) -> datetime | None:
    """When the game is aborted, if every person is away now."""
    if not people or not people <= clock.away.keys():
        return None
    return max(clock.away[s] for s in people) + timedelta(seconds=timing.abandon_after)


def due_at(
    clock: Clock, acting: list[int], people: set[int], timing: Timing, now: datetime
) -> datetime | None:
    """When the server must next act on this (active) game by itself; None: only when asked.
    Bots and away seats move ``bot_delay`` after the change that made them due."""
    abandoned = _abandoned_at(clock, people, timing)
    if abandoned is not None:
        return abandoned
    times = [
        now + timedelta(seconds=timing.bot_delay)
        if seat not in people or seat in clock.away
        else clock.deadlines.get(seat)
        for seat in acting
    ]
    return min((t for t in times if t is not None), default=None)


def what_is_due(
    clock: Clock, acting: list[int], people: set[int], timing: Timing, now: datetime
) -> Due | None:
    """The one thing to do now on a game whose ``due_at`` has come, if anything."""
    abandoned = _abandoned_at(clock, people, timing)
    if abandoned is not None:
        return Due("abort") if abandoned <= now else None
    for seat in sorted(acting):
        if seat not in people or seat in clock.away:
            return Due("move", seat, "bot")
        deadline = clock.deadlines.get(seat)
        if deadline is not None and deadline <= now:
            return Due("move", seat, "clock")
    return None
