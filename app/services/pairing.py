"""Pairing: which of the people waiting to "Play now" sit down together, and when. Pure: given
the entries waiting and the time, the tables to form now (``app.services.queue`` keeps the
entries, ``app.services.queue_tables`` writes the tables).

- **Choices that must agree**: the game, the speed, rated or not. A table's size is one that
  every person at it accepts.
- **Ratings**: each person is matched by one number, in points (``ratings.matching_points``).
  A person accepts anyone within their gap (``accepted_gap``), which widens the longer they
  wait; two people sit together only when each accepts the other.
- **Nobody waits forever**: once a person has waited ``ANYONE_AFTER`` they accept any rating
  and anyone accepts them, so an outlier is not passed over while later arrivals near each
  other keep being seated.
- **Oldest first**: the person who has waited longest is seated first, with the people
  closest to their rating. Later arrivals cannot take the people an older one is holding
  on to.
- **Larger tables**: the largest table its people accept is formed at once. A smaller one
  waits for more people until its oldest person has waited ``HOLD_FOR_LARGER``, and for as
  long the people in it are held for it.
- **Bots**: a person who allows bots, and has waited the time they chose, is seated with the
  people near them who allow bots of the same level and have waited theirs, and bots fill
  the seats up to the smallest size everyone at the table accepts.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime

# The gap a person accepts on arriving, in points, and how fast it widens.
GAP_START = 100.0
GAP_PER_SECOND = 20.0
# After this long a person accepts, and is accepted by, any rating.
ANYONE_AFTER = 60.0
# How long a table smaller than its people accept waits for more people.
HOLD_FOR_LARGER = 10.0


def accepted_gap(waited: float) -> float:
    """The rating gap (points) accepted after ``waited`` seconds; ``inf`` for any."""
    if waited >= ANYONE_AFTER:
        return math.inf
    return GAP_START + GAP_PER_SECOND * max(0.0, waited)


@dataclass(frozen=True)
class Entry:
    """One person waiting, with the choices they made."""

    player_id: str
    game: str
    speed: str
    rated: bool
    fewest: int
    most: int
    rating: float
    joined_at: datetime
    # Seconds after which bots may fill seats (None: never), and their level.
    bots_after: float | None = None
    bot_level: str | None = None

    def waited(self, now: datetime) -> float:
        return (now - self.joined_at).total_seconds()

    def bots_now(self, now: datetime) -> bool:
        return self.bots_after is not None and self.waited(now) >= self.bots_after


@dataclass(frozen=True)
class Table:
    """People who sit down together now, and the bots that fill the seats they leave."""

    people: tuple[Entry, ...]
    bots: int = 0
    bot_level: str | None = None

    @property
    def size(self) -> int:
        return len(self.people) + self.bots

    @property
    def game(self) -> str:
        return self.people[0].game

    def spread(self) -> float:
        ratings = [e.rating for e in self.people]
        return max(ratings) - min(ratings)


def together(a: Entry, b: Entry, now: datetime) -> bool:
    """Whether ``a`` and ``b`` accept each other's rating now: each within the other's gap,
    or either has waited ``ANYONE_AFTER``."""
    waited = a.waited(now), b.waited(now)
    if max(waited) >= ANYONE_AFTER:
        return True
    return abs(a.rating - b.rating) <= accepted_gap(min(waited))


def form(entries: list[Entry], now: datetime) -> list[Table]:
    """The tables to form now from ``entries``; whoever is in none of them waits on."""
    groups: dict[tuple[str, str, bool], list[Entry]] = defaultdict(list)
    for entry in entries:
        groups[entry.game, entry.speed, entry.rated].append(entry)
    tables: list[Table] = []
    for key in sorted(groups, key=str):
        tables += _form_group(groups[key], now)
    return tables


def _oldest_first(entry: Entry) -> tuple:
    return (entry.joined_at, entry.player_id)


def _form_group(group: list[Entry], now: datetime) -> list[Table]:
    """Tables of one game, speed and rating choice: each person, oldest first, is seated with
    the people nearest their rating, or holds them for a larger table, or waits."""
    taken: set[str] = set()
    tables: list[Table] = []
    for anchor in sorted(group, key=_oldest_first):
        if anchor.player_id in taken:
            continue
        free = [e for e in group if e.player_id not in taken]
        table = _people(anchor, free, now)
        if table is not None:
            full = table.size == min(e.most for e in table.people)
            if full or anchor.waited(now) >= HOLD_FOR_LARGER or anchor.bots_now(now):
                tables.append(table)
            taken.update(e.player_id for e in table.people)
        elif anchor.bots_now(now):
            table = _with_bots(anchor, free, now)
            tables.append(table)
            taken.update(e.player_id for e in table.people)
    return tables


def _nearest(anchor: Entry, free: list[Entry], now: datetime) -> list[Entry]:
    """The people ``anchor`` could sit with, nearest rating first (then oldest)."""
    others = [
        e
        for e in free
        if e.player_id != anchor.player_id
        and e.fewest <= anchor.most
        and anchor.fewest <= e.most
        and together(anchor, e, now)
    ]
    return sorted(others, key=lambda e: (abs(e.rating - anchor.rating), *_oldest_first(e)))


def _people(anchor: Entry, free: list[Entry], now: datetime) -> Table | None:
    """The largest table of people that ``anchor`` can sit at now, or None."""
    nearest = _nearest(anchor, free, now)
    for size in range(anchor.most, max(anchor.fewest, 2) - 1, -1):
        people = [anchor]
        for other in nearest:
            if other.fewest <= size <= other.most and all(together(other, p, now) for p in people):
                people.append(other)
                if len(people) == size:
                    return Table(tuple(people))
    return None


def _with_bots(anchor: Entry, free: list[Entry], now: datetime) -> Table:
    """``anchor`` and the people near them who allow bots of the same level now, and bots
    up to the smallest size they all accept."""
    people = [anchor]
    fewest, most = anchor.fewest, anchor.most
    for other in _nearest(anchor, free, now):
        if len(people) >= most:
            break
        if not other.bots_now(now) or other.bot_level != anchor.bot_level:
            continue
        lo, hi = max(fewest, other.fewest), min(most, other.most)
        if lo <= hi and len(people) < hi and all(together(other, p, now) for p in people):
            people.append(other)
            fewest, most = lo, hi
    return Table(tuple(people), max(fewest, len(people)) - len(people), anchor.bot_level)
