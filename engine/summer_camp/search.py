"""The search bot of Summer Camp: it improves on the heuristic bot by playing each move worth
searching out, the heuristic bot playing every seat after it, on the same re-deal for every
move, and keeps the heuristic bot's own move unless another did clearly better.

Hidden from a seat: the order of its own draw pile, how each opponent's cards are split between
hand, draw pile and discard pile (below its top card), and the order of the activity piles.
What each camper owns is public (every card bought, taken or given is shown to all), as is
what each activity pile still holds, so a re-deal keeps those and shuffles only within them.
"""

from __future__ import annotations

import math
import random
from typing import Any

from engine.core import BaseState, Game, Outcome, Rng
from engine.search import SearchBot, Searcher, Trace, _advance, _fresh
from engine.summer_camp.bot import WORTH, heuristic_bot
from engine.summer_camp.board import (
    FINAL_BRIDGE,
    FIRST_BRIDGE,
    HAND_SIZE,
    LAKE_POINTS,
    SECOND_BRIDGE,
)
from engine.summer_camp.cards import CARD_LIST, COPIES, PRICES
from engine.summer_camp.moves import Move, Play, SpendSnack
from engine.summer_camp.state import SummerCampState
from engine.summer_camp.turn import display_keys, snack_value

# What playing a card is worth, in spaces moved (the bot's worth halved: a space is 2); any
# card may give 1 energy instead.
ENERGY_ONLY = WORTH["energy"] / 2
PLAY_WORTH = {c.key: max(ENERGY_ONLY, WORTH[c.action] * c.amount / 2) for c in CARD_LIST}
POINTS = {c.key: c.points for c in CARD_LIST}
# The order the search plays actions in: cards that bring more cards first.
DRAWS_FIRST = {
    "draw": 0,
    "sing_along": 0,
    "friendship_bracelet": 0,
    "dodgeball": 0,
    "scavenger_hunt": 1,
    "plant_identification": 1,
    "take_display": 1,
    "bird_watching": 1,
    "secret_admirer": 3,
    "bird_feeder": 3,
    "energy": 3,
}
ACTION = {c.key: c.action for c in CARD_LIST}

PACE = 3.0  # spaces a turn a camper makes, to tell how many turns are left
# The weight of each of ``features``, fitted (a logistic regression over the seats) to who won
# games between heuristic bots; a seat's share of the win grows as e to its weighted sum. The
# fit gave spaces moved a small negative weight (they go with the other terms); it is set to a
# small positive one, so that moving never looks bad.
WEIGHTS = [0.2951, 0.1743, 0.03, 0.3598, 0.3664, 0.122, 0.922, 0.0408, 0.1147, 0.0772]


HORIZON = 60
"""Steps the heuristic bot plays after a move before the position is valued, and then on to
the end of the turn in progress (at most as many again): every line is valued between two
turns, when no energy is left over and no hand is half played. A budget too small for one
re-deal at this length shortens it."""
EDGE = 0.03
"""How much more of a win, per re-deal, another move must bring than the heuristic bot's."""
SCALE = 2
"""The search's budget is this many times the shared one (``budget_for``)."""


class SummerCampSearcher(Searcher[SummerCampState, Move]):
    # The search is given this game's states: each method taking a ``BaseState`` asserts it.
    def determinize(self, state: BaseState, seat: int, rng: random.Random) -> SummerCampState:
        assert isinstance(state, SummerCampState)
        s = state.clone()
        for p in range(s.players):
            if p == seat:
                s.draws[p] = _shuffled(s.draws[p], rng)
                continue
            below, top = s.discards[p][:-1], s.discards[p][-1:]
            cards = _shuffled(s.hands[p] + s.draws[p] + below, rng)
            hand, draw = len(s.hands[p]), len(s.draws[p])
            s.hands[p] = cards[:hand]
            s.draws[p] = cards[hand : hand + draw]
            s.discards[p] = cards[hand + draw :] + top
        s.piles = [_shuffled(pile, rng) for pile in s.piles]
        s.rng = Rng.from_seed(rng.getrandbits(64))
        return s

    def evaluate(self, state: BaseState, seat: int) -> list[float]:
        assert isinstance(state, SummerCampState)
        turns = _turns_left(state)
        totals = [
            sum(w * f for w, f in zip(WEIGHTS, features(state, p, turns)))
            for p in range(state.players)
        ]
        top = max(totals)
        weights = [math.exp(t - top) for t in totals]
        whole = sum(weights)
        return [w / whole for w in weights]

    def final(self, outcome: Outcome) -> list[float]:
        """Each seat's value of a line that ended the game (``_margin_share``)."""
        return [_margin_share(outcome, p) for p in range(len(outcome.scores))]

    def moves(self, game: Game[SummerCampState, Move], state: BaseState, actor: int) -> list[Move]:
        assert isinstance(state, SummerCampState)
        return pruned(state, actor, game.legal_moves(state, actor))

    def budget_for(self, budget: int, players: int) -> int:
        """Twice the budget: a re-deal plays out every move worth searching, so one budget
        gives only a handful of re-deals, too few to tell moves apart; twice it stays well
        inside a second a move."""
        return SCALE * budget

    def rollout_move(
        self,
        game: Game[SummerCampState, Move],
        state: BaseState,
        actor: int,
        legal: list[Move],
        rng: random.Random,
    ) -> Move:
        assert isinstance(state, SummerCampState)
        return heuristic_bot(light_view(state, actor), legal, rng)


class SummerCampSearchBot(SearchBot[SummerCampState, Move]):
    """Rollouts of the heuristic bot from each move worth searching (``moves``), all on one
    re-deal, re-dealt until the budget is spent; the budget is split into rounds, after each
    of which the worse half of the moves is dropped (never the heuristic bot's own), so that
    the last moves standing are compared over the most re-deals. The move whose lines did best
    is played if it beat the heuristic bot's by more than ``EDGE`` a re-deal. A move the
    pruning leaves alone is made at once."""

    searcher: SummerCampSearcher

    def decide(
        self,
        game: Game[SummerCampState, Move],
        state: BaseState,
        seat: int,
        legal: list[Move],
        rng: random.Random,
        budget: int | None = None,
        trace: Trace | None = None,
    ) -> Move:
        if len(legal) == 1:
            return legal[0]
        searcher = self.searcher
        choices = searcher.moves(game, state, seat)
        if len(choices) == 1:
            return choices[0]
        budget = searcher.budget_for(self.budget if budget is None else budget, state.players)
        assert isinstance(state, SummerCampState)
        usual = heuristic_bot(light_view(state, seat), legal, rng)
        choices = list(dict.fromkeys([usual, *choices]))
        totals = [0.0] * len(choices)
        horizon = min(HORIZON, budget // (2 * len(choices)))
        live = list(range(len(choices)))
        rounds = max(1, math.ceil(math.log2(len(choices))))
        deals = steps = 0
        for r in range(1, rounds + 1):
            while steps < budget * r // rounds:
                dealt = _fresh(searcher.determinize(state, seat, rng))
                assert isinstance(dealt, SummerCampState)
                if trace is not None:
                    trace.deal(dealt)
                for i in live:
                    value, taken = self._played_out(
                        game, dealt.clone(), seat, choices[i], horizon, rng
                    )
                    if trace is not None:
                        trace.back_up([value])
                    totals[i] += value
                    steps += taken
                deals += 1
            if r < rounds:
                # Every move still in has been played on every re-deal, so totals compare.
                ranked = sorted(live, key=lambda i: (-totals[i], i))
                live = sorted(set(ranked[: (len(live) + 1) // 2]) | {0})
        if trace is not None:
            trace.end(rng)
        best = max(live, key=lambda i: (totals[i], -i))
        if totals[best] - totals[0] <= EDGE * deals:
            return usual
        return choices[best]

    def _played_out(
        self,
        game: Game[SummerCampState, Move],
        state: SummerCampState,
        seat: int,
        move: Move,
        horizon: int,
        rng: random.Random,
    ) -> tuple[float, int]:
        """``seat``'s share of the win after ``move`` and the heuristic bot's play, and the
        steps it took."""
        current = _advance(game, state, seat, move)
        assert isinstance(current, SummerCampState)  # the game's own step
        steps = 1
        for k in range(2 * horizon):
            if current.over:
                break
            actor = game.to_act(current)[0]
            before = current.active
            legal = game.legal_moves(current, actor)
            current = _advance(
                game, current, actor, self.searcher.rollout_move(game, current, actor, legal, rng)
            )
            assert isinstance(current, SummerCampState)
            steps += 1
            if k + 1 >= horizon and current.active != before:
                break
        outcome = game.outcome(current)
        if outcome is None:
            return self.searcher.evaluate(current, seat)[seat], steps
        return self.searcher.final(outcome)[seat], steps


def _margin_share(outcome: Outcome, seat: int) -> float:
    """Half the seat's share of the win, half a logistic of its lead over the best other."""
    scores = outcome.scores
    lead = scores[seat] - max(x for p, x in enumerate(scores) if p != seat)
    won = 1 / len(outcome.winners) if seat in outcome.winners else 0.0
    return 0.5 * won + 0.5 / (1 + math.exp(-lead / 5))


def _shuffled(cards: list[int], rng: random.Random) -> list[int]:
    # Sorted first, so the deal depends on which cards the pile holds, never on their order.
    out = sorted(cards)
    rng.shuffle(out)
    return out


def _owned(s: SummerCampState, p: int) -> list[int]:
    cards = s.hands[p] + s.draws[p] + s.discards[p]
    if p == s.active:
        cards = cards + [x.card for x in s.played]
    return cards


def _speed(s: SummerCampState, p: int) -> float:
    """Spaces a turn the seat's deck promises: a hand's worth of its average card."""
    cards = _owned(s, p)
    return HAND_SIZE * sum(PLAY_WORTH[COPIES[c]] for c in cards) / max(1, len(cards))


def _left(s: SummerCampState, p: int) -> int:
    return sum(FINAL_BRIDGE - pos for pos in s.pawns[p])


def _turns_left(s: SummerCampState) -> float:
    """Turns until someone could have all three activity badges, at a typical pace."""
    return min(_left(s, p) for p in range(s.players)) / PACE


def features(s: SummerCampState, p: int, turns: float) -> list[float]:
    """What a seat's position promises, as numbers the weights turn into points."""
    pawns = s.pawns[p]
    have = {b.kind for b in s.badges[p]}
    owned = _owned(s, p)
    low = min(pawns)
    badges = 0.0
    for i, pos in enumerate(pawns):
        # A pawn on the final bridge takes its badge at the end of the turn.
        if s.activity_badges[i] and s.paths[i].pack not in have:
            badges += s.activity_badges[i][0] * (pos / FINAL_BRIDGE) ** 2
    if "participation" not in have and s.participation:
        badges += s.participation[0] * min(1.0, low / FIRST_BRIDGE) ** 2
    if "all_star" not in have and s.all_star:
        badges += s.all_star[0] * min(1.0, low / SECOND_BRIDGE) ** 2
    speed = _speed(s, p)
    return [
        sum(b.points for b in s.badges[p]),
        sum(POINTS[COPIES[c]] for c in owned),
        sum(LAKE_POINTS.get(pos, 0) for pos in pawns) + sum(pawns),
        low,
        badges,
        min(_left(s, p), speed * turns),
        speed,
        s.snacks[p],
        sum(PLAY_WORTH[COPIES[c]] for c in s.hands[p]),
        s.energy if p == s.active else 0,
    ]


def light_view(s: SummerCampState, seat: int) -> dict[str, Any]:
    """The parts of the view the heuristic bot reads, built from the state at a fraction of
    the view's cost (no card points: only a gift's choice of opponent reads them)."""
    paths = [
        {
            "badges": s.activity_badges[i],
            "bonuses": s.paths[i].bonuses,
            "display": [None if c is None else COPIES[c] for c in s.display[i]],
        }
        for i in range(len(s.paths))
    ]
    seats = [
        {
            "seat": p,
            "pawns": s.pawns[p],
            "snack_tokens": s.snacks[p],
            "card_points": 0,
            "badges": [],
        }
        for p in range(s.players)
    ]
    prompt = {"kind": s.prompts[0].kind, "card": s.prompts[0].card} if s.prompts else None
    return {
        "you": seat,
        "packs": s.packs,
        "energy": s.energy,
        "bird_feeder": s.bird_feeder,
        "paths": paths,
        "seats": seats,
        "prompt": prompt,
        "supply": [{"card": k, "left": len(v)} for k, v in s.supply.items()],
    }


def pruned(s: SummerCampState, seat: int, legal: list[Move]) -> list[Move]:
    """The moves worth searching. Cards are played in one order (those that draw first), for
    their action when they have one (playing one for energy instead rarely pays, and the
    search would spend its budget on it); the rest for energy before anything is bought,
    since the hand is discarded at the end of the turn anyway; a snack bar token is spent only
    when it makes a card affordable."""
    if s.prompts:
        return legal
    plays = [m for m in legal if isinstance(m, Play)]
    if plays:
        actions = [m for m in plays if m.use == "action"]
        if not actions:
            return [plays[0]]
        first = min(actions, key=lambda m: (DRAWS_FIRST.get(ACTION[m.card], 2), m.card))
        return [first]
    reach = s.energy + s.snacks[seat] * snack_value(s)
    if s.snacks[seat] and any(s.energy < PRICES[k] <= reach for k in display_keys(s)):
        return legal
    return [m for m in legal if not isinstance(m, SpendSnack)]
