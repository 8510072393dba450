"""The search bot's knowledge of Camping Life: what a seat cannot see, what a position is
worth, and a quick way to play on.

A seat does not see the draw pile's order, the face-down missions (the pile and the other
player's secret one), nor the value of the other player's coins lying face down (on the cards
of the row and on the table) or still in hand: it knows only which coins are left among them.
A determinization deals each of these anew; the evaluation scores both play areas with the
missions of that determinization and adds what the empty cells and the coins still promise.
"""

from __future__ import annotations

import math
import random
from functools import lru_cache

from engine.camping_life import area as play_area
from engine.camping_life.bot import _best_cell
from engine.camping_life.cards import CARDS
from engine.camping_life.moves import Move, Place
from engine.camping_life.rules import placing
from engine.camping_life.scoring import area_of, id_terrain_points, mission_points
from engine.camping_life.state import Bid, CampingLifeState
from engine.core import Game, Rng, copy_model
from engine.search import Searcher

Cells = tuple[int | None, ...]

# What each card in a play area, a won card still to place and a coin point in hand are worth
# in points, and how unsure a lead is (plus so much per empty cell): fitted to the outcomes of
# games between heuristic bots. How many places a won card is tried at in the tree.
CARD_WORTH = 0.2
WON_CARD = 1.0
COIN_WORTH = 0.1
SPREAD = 1.0
SPREAD_PER_CELL = 0.5
PLACES_TRIED = 4


class CampingLifeSearcher(Searcher[CampingLifeState, Move]):
    def determinize(
        self, state: CampingLifeState, seat: int, rng: random.Random
    ) -> CampingLifeState:
        other = 1 - seat
        f = state.__dict__
        # The terrain cards face down: the draw pile, and the discard pile under its top card.
        discard = f["discard"]
        shown = discard[-1:]
        terrain = sorted([*f["draw"], *discard[:-1]])
        rng.shuffle(terrain)
        drawn = len(f["draw"])
        # The missions face down: the pile and the other player's secret one.
        missions = sorted([*f["mission_pile"], f["secret_missions"][other]])
        rng.shuffle(missions)
        secret = f["secret_missions"].copy()
        secret[other] = missions[0]
        # The other player's coins not turned over: on the cards, on the table, in hand.
        theirs = [b for b in f["card_bids"] if b.seat == other]
        hidden = f["hidden_table"][other]
        coins = sorted(
            [*f["coins"][other], *(b.coin for b in theirs), *(() if hidden is None else (hidden,))]
        )
        rng.shuffle(coins)
        dealt = iter(coins)
        card_bids = [
            Bid(seat=other, card=b.card, coin=next(dealt)) if b.seat == other else b
            for b in f["card_bids"]
        ]
        hidden_table = f["hidden_table"].copy()
        if hidden is not None:
            hidden_table[other] = next(dealt)
        hands = f["coins"].copy()
        hands[other] = list(dealt)
        return copy_model(
            state,
            {
                "draw": terrain[:drawn],
                "discard": [*terrain[drawn:], *shown],
                "mission_pile": missions[1:],
                "secret_missions": secret,
                "card_bids": card_bids,
                "hidden_table": hidden_table,
                "coins": hands,
                "rng": Rng.from_seed(rng.getrandbits(64)),
            },
        )

    def evaluate(self, state: CampingLifeState, seat: int) -> list[float]:
        f = state.__dict__
        areas = f["areas"]
        missions = (*f["open_missions"], *f["secret_missions"])
        points = _points(tuple(areas[0]), tuple(areas[1]), missions)
        empty = [a.count(None) for a in areas]
        lead = points[0] - points[1] + CARD_WORTH * (empty[1] - empty[0])
        lead += COIN_WORTH * (sum(f["coins"][0]) - sum(f["coins"][1]))
        for p in f["placements"]:
            lead += WON_CARD if p.seat == 0 else -WON_CARD
        spread = SPREAD + SPREAD_PER_CELL * min(empty)
        first = 1 / (1 + math.exp(-lead / spread))
        return [first, 1 - first]

    def moves(
        self, game: Game[CampingLifeState, Move], state: CampingLifeState, actor: int
    ) -> list[Move]:
        """The legal moves; for placing a won card, only its few best cells."""
        legal = super().moves(game, state, actor)
        if not isinstance(legal[0], Place) or len(legal) <= PLACES_TRIED:
            return legal
        mine, theirs, missions = _seen(state, actor)
        base = _lead(mine, theirs, missions)

        def gain(m: Move) -> float:
            assert isinstance(m, Place)  # every move now places the card
            after = tuple(play_area.place(mine, m.row, m.col, m.card))
            return _lead(after, theirs, missions) - base

        return sorted(legal, key=gain, reverse=True)[:PLACES_TRIED]

    def rollout_move(
        self,
        game: Game[CampingLifeState, Move],
        state: CampingLifeState,
        actor: int,
        legal: list[Move],
        rng: random.Random,
    ) -> Move:
        """A won card goes where the heuristic bot puts it (its best cell for the points the
        seat can count); coins go anywhere, as the other player's are unknown."""
        if isinstance(legal[0], Place):
            mine, theirs, missions = _seen(state, actor)
            best = None
            for card in dict.fromkeys(placing(state)):
                gain, cell = _best_cell(mine, theirs, missions, card)
                if best is None or gain > best[0]:
                    best = (gain, card, cell)
            assert best is not None  # there is a card to place
            _, card, cell = best
            return next(
                m
                for m in legal
                if isinstance(m, Place) and (m.card, (m.row, m.col)) == (card, cell)
            )
        return legal[rng.randrange(len(legal))]


def _seen(state: CampingLifeState, actor: int) -> tuple[Cells, Cells, tuple[int, ...]]:
    f = state.__dict__
    areas = f["areas"]
    missions = (*f["open_missions"], f["secret_missions"][actor])
    return tuple(areas[actor]), tuple(areas[1 - actor]), missions


@lru_cache(maxsize=65536)
def _lead(mine: Cells, theirs: Cells, missions: tuple[int, ...]) -> float:
    points = _points(mine, theirs, missions)
    return points[0] - points[1]


@lru_cache(maxsize=65536)
def _points(first: Cells, second: Cells, missions: tuple[int, ...]) -> tuple[int, int]:
    """Both play areas' points, terrain and missions."""
    areas = [area_of(first), area_of(second)]
    totals = [id_terrain_points(first), id_terrain_points(second)]
    for m in missions:
        pts = mission_points(CARDS[m], areas)
        totals[0] += pts[0]
        totals[1] += pts[1]
    return totals[0], totals[1]
