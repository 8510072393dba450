"""Camping Life bots. They decide only from the view dict and the legal moves.

The heuristic bot values a card by how much placing it at its best cell raises its lead
(its terrain points plus the missions it can see: the open ones and its own secret one). Each
coin goes where it buys the most: a rough chance of winning the contest (the opponent's
face-down coins counted as average coins) times what the card is worth to it, plus half what
it is worth to the opponent, less a price per coin point so that big coins are kept for the
contests that need them. The table is a contest for the best next-round card.
"""

from __future__ import annotations

import math
import random
from functools import lru_cache
from typing import Any

from engine.camping_life import area as play_area
from engine.camping_life.cards import CARDS
from engine.camping_life.moves import BidCard, BidTable, Move, Pick, Place
from engine.camping_life.scoring import area_of, mission_points, terrain_points

Cells = tuple[int | None, ...]

TURNS = 3
AVERAGE_COIN = 2.0
COIN_PRICE = 0.5  # what a coin point spent now costs the later bids of the round

# What a card may still be worth later (a road waits for a house, a forest for a campfire).
PROMISE = {"road": 0.4, "house": 0.5, "forest": 0.4, "campfire": 0.3, "pool": 0.3, "tent": 0.0}


def _cells(seat_view: dict[str, Any]) -> Cells:
    return tuple(None if c is None else c["id"] for row in seat_view["area"] for c in row)


@lru_cache(maxsize=65536)
def _lead(mine: Cells, theirs: Cells, missions: tuple[int, ...]) -> float:
    """My terrain points plus my mission points minus the opponent's mission points."""
    a, b = area_of(mine), area_of(theirs)
    lead = float(terrain_points(a))
    for m in missions:
        pts = mission_points(CARDS[m], [a, b])
        lead += pts[0] - pts[1]
    return lead


@lru_cache(maxsize=65536)
def _best_cell(
    mine: Cells, theirs: Cells, missions: tuple[int, ...], card: int
) -> tuple[float, tuple[int, int] | None]:
    """The most my lead can grow by placing ``card``, and where (room for growth breaks ties)."""
    cells = play_area.targets(mine)
    if not cells:
        return 0.0, None
    base = _lead(mine, theirs, missions)
    best = None
    for r, c in cells:
        after = tuple(play_area.place(mine, r, c, card))
        room = len(play_area.targets(after)) * 0.01
        gain = _lead(after, theirs, missions) - base + room
        if best is None or gain > best[0]:
            best = (gain, (r, c))
    assert best is not None  # there was a cell
    return best[0] + PROMISE[CARDS[card].kind], best[1]


def _worth(view: dict[str, Any], seat: int, card: int) -> float:
    """What ``card`` is worth to ``seat`` as the bot can judge it from ``view``."""
    me = view["you"]
    missions = [m["id"] for m in view["open_missions"]]
    if seat == me:
        missions.append(view["secret_mission"]["id"])
    seats = view["seats"]
    return _best_cell(_cells(seats[seat]), _cells(seats[1 - seat]), tuple(missions), card)[0]


def heuristic_bot(view: dict[str, Any], legal: list[Move], rng: random.Random) -> Move:
    first = legal[0]
    me = view["you"]
    if isinstance(first, Place):
        seats = view["seats"]
        missions = tuple([m["id"] for m in view["open_missions"]] + [view["secret_mission"]["id"]])
        mine, theirs = _cells(seats[me]), _cells(seats[1 - me])
        # Of the won cards, the one whose best place gains the most goes first.
        places = [m for m in legal if isinstance(m, Place)]  # all of them
        options = []
        for card in dict.fromkeys(m.card for m in places):
            gain, cell = _best_cell(mine, theirs, missions, card)
            options.append((gain, card, cell))
        _, card, cell = max(options, key=lambda o: o[0])
        return next(m for m in places if (m.card, (m.row, m.col)) == (card, cell))
    if isinstance(first, Pick):
        picks = [m for m in legal if isinstance(m, Pick)]  # all of them
        return max(picks, key=lambda m: _worth(view, me, m.card))
    if isinstance(first, BidTable):
        return _table_coin(view, legal, rng)
    return _card_bid(view, legal, rng)


def _desire(view: dict[str, Any], card: int) -> float:
    """Worth to me, plus half its worth to the opponent (what I deny them)."""
    me = view["you"]
    return max(_worth(view, me, card) + 0.5 * _worth(view, 1 - me, card), 0.05)


def _chance(lead: float) -> float:
    """A rough chance of ending a contest ahead by ``lead`` coin points."""
    return 1 / (1 + math.exp(-1.5 * lead))


def _card_bid(view: dict[str, Any], legal: list[Move], rng: random.Random) -> Move:
    me = view["you"]
    opp_bids_left = TURNS - sum(1 for slot in view["row"] for b in slot["bids"] if b["seat"] != me)
    best = None
    for slot in view["row"]:
        card = slot["card"]["id"]
        mine = [b["coin"] for b in slot["bids"] if b["seat"] == me]
        theirs = sum(1 for b in slot["bids"] if b["seat"] != me)
        # Their face-down coins count as average coins; they may still add one.
        expected = AVERAGE_COIN * theirs + (0.7 if opp_bids_left else 0.0) + 0.25
        before = _chance(sum(mine) - expected) if mine else 0.0
        desire = _desire(view, card)
        for coin in sorted({m.coin for m in legal if isinstance(m, BidCard)}):
            gain = desire * (_chance(sum(mine) + coin - expected) - before)
            value = gain - COIN_PRICE * coin + rng.random() * 0.1
            if best is None or value > best[0]:
                best = (value, card, coin)
    assert best is not None  # there was a card and a coin
    return BidCard(card=best[1], coin=best[2])


def _table_coin(view: dict[str, Any], legal: list[Move], rng: random.Random) -> Move:
    me = view["you"]
    mine, theirs = view["seats"][me], view["seats"][1 - me]
    prize = max((_desire(view, c["id"]) for c in view["next_round"]), default=0.0)
    turns_after = TURNS - view["turn"]
    # Their coin of this turn is still to come or face down: count it as average.
    expected = sum(theirs["table_coins"]) + AVERAGE_COIN * (turns_after + 1)
    best = None
    for coin in sorted({m.coin for m in legal if isinstance(m, BidTable)}):
        mine_total = sum(mine["table_coins"]) + coin + AVERAGE_COIN * turns_after
        value = (
            prize * _chance((mine_total - expected) / 2) - COIN_PRICE * coin + rng.random() * 0.1
        )
        if best is None or value > best[0]:
            best = (value, coin)
    assert best is not None  # there was a coin
    return BidTable(coin=best[1])
