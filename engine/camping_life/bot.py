"""Camping Life bots. They decide only from the view dict and the legal moves.

The heuristic bot values a card by how much placing it at its best cell raises its lead
(its terrain points plus the missions it can see: the open ones and its own secret one). It
stakes its big coins on the cards worth most to it (or most worth denying the opponent) and
its small coins on the table, unless a next-round card is worth more than the row.
"""

from __future__ import annotations

import random
from functools import lru_cache

from engine.camping_life.cards import CARDS
from engine.camping_life.moves import BidCard, BidTable, Move, Pick, Place
from engine.camping_life.scoring import (CELLS, COLS, NEIGHBOURS, TERRAIN_SCORES, area_of,
                                         mission_points)
from engine.core import random_bot

Cells = tuple[int | None, ...]

# What a card may still be worth later (a road waits for a house, a forest for a campfire).
PROMISE = {"road": 0.4, "house": 0.5, "forest": 0.4, "campfire": 0.3, "pool": 0.3, "tent": 0.0}


def _cells(seat_view: dict) -> Cells:
    return tuple(None if c is None else c["id"] for row in seat_view["area"] for c in row)


def _free(cells: Cells) -> list[int]:
    if all(c is None for c in cells):
        return list(range(CELLS))
    return [i for i in range(CELLS)
            if cells[i] is None and any(cells[j] is not None for j in NEIGHBOURS[i])]


@lru_cache(maxsize=65536)
def _lead(mine: Cells, theirs: Cells, missions: tuple[int, ...]) -> float:
    """My terrain points plus my mission points minus the opponent's mission points."""
    a, b = area_of(mine), area_of(theirs)
    lead = float(sum(score(a) for score in TERRAIN_SCORES.values()))
    for m in missions:
        pts = mission_points(CARDS[m], [a, b])
        lead += pts[0] - pts[1]
    return lead


@lru_cache(maxsize=65536)
def _best_cell(mine: Cells, theirs: Cells, missions: tuple[int, ...], card: int
               ) -> tuple[float, int]:
    """The most my lead can grow by placing ``card``, and where (room for growth breaks ties)."""
    free = _free(mine)
    if not free:
        return 0.0, -1
    base = _lead(mine, theirs, missions)
    best = None
    for i in free:
        after = mine[:i] + (card,) + mine[i + 1:]
        room = sum(1 for j in NEIGHBOURS[i] if mine[j] is None) * 0.01
        gain = _lead(after, theirs, missions) - base + room
        if best is None or gain > best[0]:
            best = (gain, i)
    return best[0] + PROMISE[CARDS[card].kind], best[1]


def _worth(view: dict, seat: int, card: int) -> float:
    """What ``card`` is worth to ``seat`` as the bot can judge it from ``view``."""
    me = view["you"]
    missions = [m["id"] for m in view["open_missions"]]
    if seat == me:
        missions.append(view["secret_mission"]["id"])
    seats = view["seats"]
    return _best_cell(_cells(seats[seat]), _cells(seats[1 - seat]), tuple(missions), card)[0]


def heuristic_bot(view: dict, legal: list[Move], rng: random.Random) -> Move:
    first = legal[0]
    me = view["you"]
    if isinstance(first, Place):
        seats = view["seats"]
        missions = tuple([m["id"] for m in view["open_missions"]]
                         + [view["secret_mission"]["id"]])
        _, cell = _best_cell(_cells(seats[me]), _cells(seats[1 - me]), missions, first.card)
        return next(m for m in legal if m.row * COLS + m.col == cell)
    if isinstance(first, Pick):
        return max(legal, key=lambda m: _worth(view, me, m.card))
    held = sorted({m.coin for m in legal})
    if isinstance(first, BidTable):
        return _table_coin(view, legal, held)
    return _card_bid(view, legal, held, rng)


def _desire(view: dict, card: int) -> float:
    me = view["you"]
    return _worth(view, me, card) + 0.5 * _worth(view, 1 - me, card)


def _card_bid(view: dict, legal: list[Move], held: list[int], rng: random.Random) -> Move:
    me = view["you"]
    scored = []
    for slot in view["row"]:
        card = slot["card"]["id"]
        mine = sum(b["coin"] for b in slot["bids"] if b["seat"] == me)
        theirs = sum(1 for b in slot["bids"] if b["seat"] != me)
        # A card I already hold well is worth less of my next coin; a contested one more.
        value = _desire(view, card) - 0.25 * mine + 0.3 * theirs + rng.random() * 0.05
        scored.append((value, card))
    scored.sort(reverse=True)
    card = scored[0][1]
    coin = held[-1] if len(held) > 1 else held[0]
    return BidCard(card=card, coin=coin)


def _table_coin(view: dict, legal: list[Move], held: list[int]) -> Move:
    me = view["you"]
    row = max((_desire(view, s["card"]["id"]) for s in view["row"]), default=0.0)
    spare = max((_worth(view, me, c["id"]) for c in view["next_round"]), default=0.0)
    # The table decides the next-round card: worth a bigger coin when that card is the prize.
    coin = held[-1] if spare > row + 1 else held[0]
    return BidTable(coin=coin)


__all__ = ["heuristic_bot", "random_bot"]
