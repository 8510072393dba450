"""Shared helpers: play areas drawn as text, and states arranged for a scenario."""

from __future__ import annotations

import pytest

from engine.camping_life import GAME
from engine.camping_life.cards import CARDS, Card
from engine.camping_life.moves import BidTable
from engine.camping_life.state import CampingLifeState
from engine.core import play

# One letter per card: W is a forest with a road, U a pool and Y a tent with an umbrella.
LETTERS = {
    "R": lambda c: c.kind == "road",
    "P": lambda c: c.kind == "pool" and not c.umbrella,
    "U": lambda c: c.kind == "pool" and c.umbrella,
    "F": lambda c: c.kind == "forest" and not c.road,
    "W": lambda c: c.kind == "forest" and c.road,
    "T": lambda c: c.kind == "tent" and not c.umbrella,
    "Y": lambda c: c.kind == "tent" and c.umbrella,
    "C": lambda c: c.kind == "campfire",
    "H": lambda c: c.kind == "house",
}


def make_grid(text: str) -> list[Card | None]:
    """A play area from 3 lines of 4 letters ("." is an empty cell), distinct real cards."""
    rows = [line.split() for line in text.strip().splitlines()]
    assert len(rows) == 3 and all(len(r) == 4 for r in rows), text
    used: set[int] = set()
    area: list[Card | None] = []
    for letter in (x for r in rows for x in r):
        if letter == ".":
            area.append(None)
            continue
        card = next(c for c in CARDS if LETTERS[letter](c) and c.id not in used)
        used.add(card.id)
        area.append(card)
    return area


@pytest.fixture
def grid():
    return make_grid


def take(state: CampingLifeState, kind: str, *, umbrella: bool = False) -> int:
    """Move one card of ``kind`` from wherever it lies among the unseen cards; return its id."""
    for pile in (state.draw, state.row, state.next_round):
        for card in pile:
            if CARDS[card].kind == kind and CARDS[card].umbrella == umbrella:
                pile.remove(card)
                return card
    raise LookupError(kind)


def arrange(row: list[str], next_round: list[str], seed: int = 0) -> CampingLifeState:
    """A fresh game, Red starting, whose first row and next-round cards are of the given
    kinds."""
    s = GAME.setup(2, GAME.options(None), seed)
    s.starter = s.bidder = 0
    s.draw += s.row + s.next_round
    s.row, s.next_round = [], []
    s.row = [take(s, k) for k in row]
    s.next_round = [take(s, k) for k in next_round]
    return s


@pytest.fixture
def arranged():
    return arrange


def before_the_last_table_coin() -> tuple[CampingLifeState, BidTable]:
    """A round bid to its last step: Blue, the second bidder, is to put the third bidding
    turn's table coin down, which turns both over ("Table coins turned over: Red 2, Blue 4")
    and gives Blue the higher total (9 to 3) and the pick; and that table coin. Red's other 2
    lies on a card, face down."""
    s = arrange(["pool", "house", "forest", "pool"], ["tent", "campfire"])
    row = list(s.row)
    bids = {
        0: [(row[0], 4, 0), (row[1], 3, 1), (row[2], 2, 2)],
        1: [(row[3], 0, 2), (row[3], 1, 3), (row[3], 2, 4)],
    }
    for turn in range(3):
        for seat in (0, 1):
            card, coin, table = bids[seat][turn]
            s = play(GAME, s, seat, {"type": "bid_card", "card": card, "coin": coin})
            if (turn, seat) != (2, 1):
                s = play(GAME, s, seat, {"type": "bid_table", "coin": table})
    return s, BidTable(coin=4)
