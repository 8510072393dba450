"""The speeds a table is played at, in one place: what a host chooses for a lobby, what a person
chooses to "Play now", and what open tables are listed by.

A speed is a pace and a bank (``app.services.clock.Bank``):

- **real time**: a bank per person plus time added per move, as a chess clock has: everyone
  plays in one sitting;
- **turn-based**: days a move, and a few days to spare in the bank, so one busy day does not
  lose a game: people come back to the table when it is their turn;
- **untimed**: no clock at all.

A speed is an id matched as it is: people sit together only when they chose the same one. A
table made before speeds had names has none (``speed`` null) and keeps its per-move clock,
``turn_seconds`` seconds for each decision; a script may still ask for one.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any, Literal

from app.services.clock import Bank

Pace = Literal["real time", "turn-based", "untimed"]
MINUTE, HOUR, DAY = 60, 3600, 86400


@dataclass(frozen=True)
class Speed:
    id: str
    pace: Pace
    name: str
    bank: Bank | None

    @property
    def words(self) -> str:
        """As the lobby, the invite page, the table and "Your tables" say it."""
        if self.pace == "untimed":
            return "Untimed"
        return f"{self.pace.capitalize()} · {self.name}"


def _turn_based(days: int, spare: int) -> Speed:
    plural = "s" if days > 1 else ""
    return Speed(
        f"{days}d",
        "turn-based",
        f"{days} day{plural} a move, {spare} to spare",
        Bank(start=(days + spare) * DAY, add=days * DAY, most=(days + spare) * DAY),
    )


SPEEDS = {
    speed.id: speed
    for speed in (
        # A bank may grow to twice its start, so quick moves buy time for a hard one later.
        Speed("3m", "real time", "3 min + 15 s a move", Bank(3 * MINUTE, 15, 6 * MINUTE)),
        Speed("10m", "real time", "10 min + 30 s a move", Bank(10 * MINUTE, 30, 20 * MINUTE)),
        Speed("20m", "real time", "20 min + 1 min a move", Bank(20 * MINUTE, MINUTE, 40 * MINUTE)),
        # A weekend to spare for a day a move; as many days as a move has for the longer ones.
        _turn_based(1, 2),
        _turn_based(3, 3),
        _turn_based(7, 7),
        Speed("untimed", "untimed", "no clock", None),
    )
}
DEFAULT = "3m"


def per_move(seconds: int) -> str:
    """A per-move clock in words: "45 s per move", "3 min per move", "1 day per move"."""
    if seconds < MINUTE:
        return f"{seconds} s per move"
    if seconds < HOUR:
        return f"{round(seconds / MINUTE)} min per move"
    if seconds < DAY:
        return f"{round(seconds / HOUR)} h per move"
    days = round(seconds / DAY)
    return f"{days} day{'s' if days > 1 else ''} per move"


@dataclass(frozen=True)
class TableClock:
    """What a lobby or a game stores of its clock: a named speed, or a per-move clock (a table
    made before speeds had names, or a script's), or neither (untimed)."""

    speed: str | None
    turn_seconds: int | None

    @property
    def named(self) -> Speed | None:
        return SPEEDS.get(self.speed) if self.speed is not None else None

    @functools.cached_property
    def bank(self) -> Bank | None:
        if self.named is not None:
            return self.named.bank
        return Bank.per_move(self.turn_seconds) if self.turn_seconds is not None else None

    @property
    def pace(self) -> Pace:
        if self.named is not None:
            return self.named.pace
        if self.turn_seconds is None:
            return "untimed"
        return "turn-based" if self.turn_seconds >= HOUR else "real time"

    @property
    def words(self) -> str:
        if self.named is not None:
            return self.named.words
        return "Untimed" if self.turn_seconds is None else per_move(self.turn_seconds)


def shown(speed: str | None, turn_seconds: int | None) -> dict[str, Any]:
    """A lobby's or a game's speed as the API gives it (``app.schemas.TableSpeed``)."""
    held = table_clock(speed, turn_seconds)
    return {
        "speed": held.speed,
        "pace": held.pace,
        "speed_name": held.words,
        "turn_seconds": held.turn_seconds,
    }


# One per clock: a move and each seat's view of it ask for the table's bank.
@functools.lru_cache(maxsize=256)
def table_clock(speed: str | None, turn_seconds: int | None) -> TableClock:
    return TableClock(speed, turn_seconds if speed is None else None)


def speed_of(speed: str | None, turn_seconds: int | None) -> str | None:
    """The named speed a seek is listed under: its own, untimed for no clock at all, None for
    a per-move clock."""
    if speed is not None:
        return speed
    return "untimed" if turn_seconds is None else None
