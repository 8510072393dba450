"""The search bot's knowledge of Let's Take a Hike: what a seat cannot see, what a position is
worth, and how to play on below the tree (the heuristic bot's judgement).

Backpacks, scoring piles and the hiking pile are face up; a seat sees the draw and discard
piles only as counts. So a determinization deals the cards of both piles anew, and the
evaluation weighs miles scored against the miles each backpack can still take on hikes.
At three or more players the other seats are played by the heuristic bot in the tree (a tree
over every seat's moves spread the search too thin), and the budget doubles.
"""

from __future__ import annotations

import math
import random

from engine.core import Game, Rng, copy_model
from engine.hike.cards import MILES
from engine.hike.bot import heuristic_bot
from engine.hike.moves import Continue, Discard, DropOut, Move, Pack
from engine.hike.state import HikeState
from engine.hike.view import view as hike_view
from engine.search import Searcher

# What a backpack mile is worth in scored miles until the last cards of the draw pile (it pays
# for the hikes still to come), how many cards those last ones are, how unsure a lead is (plus
# so much per card still to be drawn), and the part of the hiking pile a hiker on it counts as
# won already (shared with the other hikers): fitted to the outcomes of games between
# heuristic bots.
BACKPACK_MILE = 0.4
FULL_PILE = 10
SPREAD = 2.5
SPREAD_PER_CARD = 0.1
PILE_SHARE = 1.0


class HikeSearcher(Searcher[HikeState, Move]):
    model_opponents = True

    def budget_for(self, budget: int, players: int) -> int:
        """Twice the budget at three or more players: the other seats' moves cost steps too,
        and three times at four players took over a second a move."""
        return 2 * budget if players > 2 else budget

    def opponent_move(
        self,
        game: Game[HikeState, Move],
        state: HikeState,
        actor: int,
        legal: list[Move],
        rng: random.Random,
    ) -> Move:
        """The heuristic bot's move on the bare view it reads."""
        return heuristic_bot({"you": actor, **hike_view(state, actor)}, legal, rng)

    def determinize(self, state: HikeState, seat: int, rng: random.Random) -> HikeState:
        """Deal the draw and discard piles anew from their cards: a seat sees both as counts."""
        pool = sorted([*state.draw_pile, *state.discard_pile])
        rng.shuffle(pool)
        drawn = len(state.draw_pile)
        return copy_model(
            state,
            {
                "draw_pile": pool[:drawn],
                "discard_pile": pool[drawn:],
                "rng": Rng.from_seed(rng.getrandbits(64)),
            },
        )

    def evaluate(self, state: HikeState, seat: int) -> list[float]:
        left = len(state.draw_pile)
        worth = BACKPACK_MILE * min(1.0, left / FULL_PILE)
        hike = state.hike
        hikers = hike.hikers if hike is not None else ()
        at_stake = sum(MILES[c] for c in hike.pile) if hike is not None else 0
        values = []
        for p in range(state.players):
            held = sum(MILES[c] for c in state.backpacks[p].values() if c is not None)
            value = sum(MILES[c] for c in state.scoring[p]) + worth * held
            if p in hikers:
                value += PILE_SHARE * at_stake / len(hikers)
            debt = state.debts[p]
            if debt is not None and debt.rule == "miles":
                value -= worth * debt.miles
            values.append(value)
        spread = SPREAD + SPREAD_PER_CARD * left
        top = max(values)
        weights = [math.exp((v - top) / spread) for v in values]
        total = sum(weights)
        return [w / total for w in weights]

    def moves(self, game: Game[HikeState, Move], state: HikeState, actor: int) -> list[Move]:
        """The legal moves less those that never help: where a drawn item is packed (the
        backpack may be rearranged at any time) and dropping out with a smaller card than
        the best one offered."""
        legal = super().moves(game, state, actor)
        first = legal[0]
        if isinstance(first, Pack):
            return [first]
        if state.phase == "decide":
            keep: list[Move] = [m for m in legal if isinstance(m, Continue)]
            drops = [m for m in legal if isinstance(m, DropOut)]
            keep.append(max(drops, key=_scored_miles))
            return keep
        return legal

    def rollout_move(
        self,
        game: Game[HikeState, Move],
        state: HikeState,
        actor: int,
        legal: list[Move],
        rng: random.Random,
    ) -> Move:
        """The heuristic bot's choice where it weighs risks (hiking, joining, going on), on the
        bare view it reads; the cheapest discard otherwise."""
        if state.phase in ("turn", "join", "decide"):
            return heuristic_bot({"you": actor, **hike_view(state, actor)}, legal, rng)
        return _cheapest(state, actor, legal)


def _scored_miles(m: DropOut) -> int:
    return -1 if m.score is None else MILES[m.score]


def _cheapest(state: HikeState, actor: int, legal: list[Move]) -> Move:
    """Packing, or the discard that costs least: for a hike card's miles, the smallest card
    that pays them all, else the biggest; otherwise the card with the fewest miles."""
    first = legal[0]
    if isinstance(first, Pack):
        return first
    debt = state.debts[actor]
    discards = [m for m in legal if isinstance(m, Discard)]  # all of them: nothing is packed
    cards = [m.card for m in discards]
    if debt is not None and debt.rule == "miles":
        paying = [c for c in cards if MILES[c] >= debt.miles]
        pick = min(paying, key=MILES.__getitem__) if paying else max(cards, key=MILES.__getitem__)
    else:
        pick = min(cards, key=MILES.__getitem__)
    return discards[cards.index(pick)]
