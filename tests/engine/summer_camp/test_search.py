"""The search bot: it reads nothing its seat cannot see, a seed and a budget give one move, it
plays only legal moves, and a re-deal changes nothing the seat sees."""

import random
from functools import cache

import pytest

from engine.bots import decide
from engine.core import full_view, step
from engine.summer_camp import GAME
from engine.summer_camp import search
from engine.summer_camp.search import SummerCampSearchBot, SummerCampSearcher, light_view, pruned

from tests.engine.honest_search import CHEATS, differing, planted, spread

from .conftest import all_cards

SEARCH = GAME.bots["search"]
HEURISTIC = GAME.bots["heuristic"]


def positions(players: int, seed: int, every: int = 23, count: int = 4):
    """States of a heuristic game where the seat to act has a real choice to make."""
    state = GAME.setup(players, GAME.options(None), seed)
    rng = random.Random(seed)
    found, k = [], 0
    while GAME.outcome(state) is None and len(found) < count:
        seat = GAME.to_act(state)[0]
        legal = GAME.legal_moves(state, seat)
        k += 1
        if k % every == 0 and len(pruned(state, seat, legal)) > 1:
            found.append((state, seat, legal))
        state = step(GAME, state, seat, decide(GAME, HEURISTIC, state, seat, legal, rng))
    return found


def shuffled_hidden(state, viewer: int, rng: random.Random):
    """The same game with what ``viewer`` cannot see dealt differently: own draw pile, the
    others' hands, draw piles and discard piles below the top, the activity piles, the RNG."""
    t = state.clone()
    t.rng.state = rng.getrandbits(64)
    for pile in t.piles:
        rng.shuffle(pile)
    rng.shuffle(t.draws[viewer])
    for p in range(t.players):
        if p == viewer:
            continue
        cards = t.hands[p] + t.draws[p] + t.discards[p][:-1]
        rng.shuffle(cards)
        hand, draw = len(t.hands[p]), len(t.draws[p])
        t.hands[p], t.draws[p], t.discards[p] = (
            cards[:hand],
            cards[hand : hand + draw],
            cards[hand + draw :] + t.discards[p][-1:],
        )
    assert all_cards(t) == all_cards(state)
    return t


@cache
def spread_positions():
    """33 positions, from the first decision to the last, at two to four players."""
    return spread(GAME, SEARCH, [(3, 2, None), (5, 3, None), (8, 4, None)], 11)


def test_the_search_is_the_same_when_what_the_seat_cannot_see_is_dealt_again():
    positions = spread_positions()
    assert len(positions) >= 30
    assert differing(GAME, SEARCH, positions, shuffled_hidden) == []


@pytest.mark.parametrize("cheat", CHEATS, ids=lambda c: c.__name__)
def test_a_planted_cheat_is_caught_at_every_position(cheat):
    positions = spread_positions()
    caught = differing(GAME, planted(SEARCH, cheat), positions, shuffled_hidden)
    assert caught == list(range(len(positions)))


def test_a_seed_and_a_budget_give_one_move():
    for state, seat, legal in positions(2, 11, count=3):
        first = SEARCH.decide(GAME, state, seat, legal, random.Random(4), 400)
        assert SEARCH.decide(GAME, state, seat, legal, random.Random(4), 400) == first


@pytest.mark.parametrize("players,seed", [(2, 1), (3, 2), (4, 6)])
def test_a_redeal_keeps_what_the_seat_sees(players, seed):
    searcher = SummerCampSearcher()
    for state, seat, _ in positions(players, seed, every=9, count=6):
        before = state.clone()
        for k in range(3):
            dealt = searcher.determinize(state, seat, random.Random(k))
            assert full_view(GAME, dealt, seat) == full_view(GAME, state, seat)
            assert all_cards(dealt) == all_cards(state)
        assert state == before  # the real state is left alone


def test_a_redeal_changes_what_the_seat_cannot_see():
    state, seat, _ = positions(2, 4, count=1)[0]
    other = 1 - seat
    dealt = [SummerCampSearcher().determinize(state, seat, random.Random(k)) for k in range(6)]
    assert len({tuple(d.hands[other]) for d in dealt}) > 1
    assert len({tuple(d.piles[0]) for d in dealt}) > 1
    assert len({d.rng.state for d in dealt}) == 6


# 40 games in two blocks, which the test processes share out: legality needs no more
# (the cheats are caught by the planted-cheat tests, not here).
@pytest.mark.slow
@pytest.mark.parametrize("block", range(2))
def test_only_legal_moves_in_40_games(block):
    for seed in range(block * 20, (block + 1) * 20):
        players = 2 + seed % 3
        state = GAME.setup(players, GAME.options(None), seed)
        rng = random.Random(seed)
        me = seed % players
        while GAME.outcome(state) is None:
            seat = GAME.to_act(state)[0]
            legal = GAME.legal_moves(state, seat)
            if seat == me:
                move = SEARCH.decide(GAME, state, seat, legal, rng, 20)
                assert move in legal
            else:  # the rollouts' player: shorter games than random moves make
                move = HEURISTIC(light_view(state, seat), legal, rng)
            state = step(GAME, state, seat, move)


def test_the_heuristic_bots_move_is_kept_unless_another_does_clearly_better(monkeypatch):
    monkeypatch.setattr(search, "EDGE", 2.0)  # more than a whole win: nothing beats it
    for state, seat, legal in positions(2, 9, count=3):
        usual = HEURISTIC(light_view(state, seat), legal, random.Random(0))
        assert SEARCH.decide(GAME, state, seat, legal, random.Random(2), 300) == usual


def played_out(monkeypatch):
    """Each line the search plays out, as (move, steps), while the test runs."""
    lines = []
    original = SummerCampSearchBot._played_out

    def counted(self, game, state, seat, move, horizon, rng):
        value, taken = original(self, game, state, seat, move, horizon, rng)
        lines.append((move, taken))
        return value, taken

    monkeypatch.setattr(SummerCampSearchBot, "_played_out", counted)
    return lines


def test_summer_camp_searches_twice_the_budget(monkeypatch):
    lines = played_out(monkeypatch)
    state, seat, legal = positions(2, 9, count=1)[0]
    SEARCH.decide(GAME, state, seat, legal, random.Random(3), 3000)
    # One budget and a last re-deal (under 1,500 steps for a dozen moves) stay under 6000.
    assert len(set(m for m, _ in lines)) < 12
    assert sum(taken for _, taken in lines) >= 6000


def test_the_worse_moves_are_dropped_and_the_heuristic_bots_kept(monkeypatch):
    lines = played_out(monkeypatch)
    for state, seat, legal in positions(2, 9, count=4):
        lines.clear()
        usual = HEURISTIC(light_view(state, seat), legal, random.Random(0))
        SEARCH.decide(GAME, state, seat, legal, random.Random(2), 1000)
        counts = {m: sum(1 for n, _ in lines if n == m) for m, _ in lines}
        assert counts[usual] == max(counts.values())
        if len(counts) > 2:
            assert min(counts.values()) < counts[usual]
