"""A table's clock: each acting person's deadline, the seats the bot plays while their person is
away, and when the game next needs the server (its ``due_at``). Pure: every function is given
the time.

A person has ``turn_seconds`` for each move. When that runs out the seat is marked away and
the heuristic bot moves for it, then keeps playing it at bot pace until the person makes a
move or says they are back. While every person at the table is away, nobody is left to play
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


@dataclass
class Clock:
    deadlines: dict[int, datetime] = field(default_factory=dict)
    away: dict[int, datetime] = field(default_factory=dict)

    @classmethod
    def load(cls, data: dict[str, Any] | None) -> Clock:
        data = data or {}
        return cls(
            deadlines={int(k): _time(v) for k, v in data.get("deadlines", {}).items()},
            away={int(k): _time(v) for k, v in data.get("away", {}).items()},
        )

    def dump(self) -> dict[str, Any]:
        return {
            "deadlines": {str(k): v.isoformat() for k, v in sorted(self.deadlines.items())},
            "away": {str(k): v.isoformat() for k, v in sorted(self.away.items())},
        }

    def away_since(self) -> datetime | None:
        return min(self.away.values(), default=None)


def _time(text: str) -> datetime:
    return datetime.fromisoformat(text)


def _deadline(now: datetime, turn_seconds: int) -> datetime:
    """``turn_seconds`` from now, on the next whole second: views show it without fractions."""
    later = now + timedelta(seconds=turn_seconds)
    return later.replace(microsecond=0) + timedelta(seconds=1 if later.microsecond else 0)


def started(
    acting: list[int], people: set[int], turn_seconds: int | None, now: datetime
) -> Clock:
    """The clock of a new game: every acting person's time starts."""
    return _deadlines(Clock(), acting, people, turn_seconds, now, mover=None)


def after_move(
    clock: Clock,
    acting: list[int],
    people: set[int],
    mover: int,
    played_by: PlayedBy,
    turn_seconds: int | None,
    now: datetime,
) -> Clock:
    """The clock once ``mover`` has moved and ``acting`` must act next. A person's own move
    brings them back; a seat that keeps acting keeps its deadline unless it just moved."""
    away = dict(clock.away)
    if played_by == "person":
        away.pop(mover, None)
    elif played_by == "clock":
        away.setdefault(mover, now)
    return _deadlines(Clock(clock.deadlines, away), acting, people, turn_seconds, now, mover)


def back(
    clock: Clock, seat: int, acting: list[int], turn_seconds: int | None, now: datetime
) -> Clock:
    """``seat``'s person is back: the bot stops, and their time starts if they are to act."""
    away = {s: t for s, t in clock.away.items() if s != seat}
    deadlines = dict(clock.deadlines)
    if seat in acting and turn_seconds is not None:
        deadlines[seat] = _deadline(now, turn_seconds)
    return Clock(deadlines, away)


def _deadlines(
    clock: Clock,
    acting: list[int],
    people: set[int],
    turn_seconds: int | None,
    now: datetime,
    mover: int | None,
) -> Clock:
    deadlines = {}
    if turn_seconds is not None:
        fresh = _deadline(now, turn_seconds)
        for seat in acting:
            if seat in people and seat not in clock.away:
                kept = clock.deadlines.get(seat) if seat != mover else None
                deadlines[seat] = kept or fresh
    return Clock(deadlines, clock.away)


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
