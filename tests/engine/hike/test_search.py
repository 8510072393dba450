import random
from functools import cache

import pytest

from engine.bots import decide
from engine.core import Rng, copy_model, full_view
from engine.hike import GAME
from engine.hike.search import HikeSearcher
from engine.search import SearchBot
from tests.engine.honest_search import CHEATS, differing, planted, spread

SEARCHER = HikeSearcher()
BOT = GAME.bots["search"]
BUDGET = 300


def positions(seed: int, players: int = 2, every: int = 17):
    """States of a seeded game between heuristic bots, every ``every`` steps, where the
    seat to act has a real choice."""
    s = GAME.setup(players, GAME.options({}), seed)
    rng = random.Random(seed)
    steps = 0
    while GAME.outcome(s) is None:
        seat = GAME.to_act(s)[0]
        legal = GAME.legal_moves(s, seat)
        if steps % every == 0 and len(legal) > 1:
            yield s, seat, legal
        s = GAME.advance(s, seat, decide(GAME, GAME.bots["heuristic"], s, seat, legal, rng))
        steps += 1


def hidden_permuted(s, seat: int, rng: random.Random):
    """The same state as its seats see it, with the draw and discard piles dealt anew and
    another RNG."""
    cards = [*s.draw_pile, *s.discard_pile]
    rng.shuffle(cards)
    drawn = len(s.draw_pile)
    return copy_model(
        s,
        {
            "draw_pile": cards[:drawn],
            "discard_pile": cards[drawn:],
            "rng": Rng.from_seed(rng.getrandbits(64)),
        },
    )


def test_search_is_the_games_search_level():
    assert isinstance(BOT, SearchBot)
    assert isinstance(BOT.searcher, HikeSearcher)


@cache
def spread_positions():
    """32 positions, from the first decision to the last, at two to five players."""
    return spread(GAME, BOT, [(3, 2, {}), (8, 3, {}), (5, 4, {}), (6, 5, {})], 8)


def test_the_search_is_the_same_when_what_the_seat_cannot_see_is_dealt_again():
    positions = spread_positions()
    assert len(positions) >= 30
    assert differing(GAME, BOT, positions, hidden_permuted) == []


@pytest.mark.parametrize("cheat", CHEATS, ids=lambda c: c.__name__)
def test_a_planted_cheat_is_caught_at_every_position(cheat):
    positions = spread_positions()
    caught = differing(GAME, planted(BOT, cheat), positions, hidden_permuted)
    assert caught == list(range(len(positions)))


@pytest.mark.parametrize("players", [2, 3])
def test_the_same_seed_and_budget_give_the_same_move(players):
    for s, seat, legal in list(positions(4, players))[:6]:
        moves = {BOT.decide(GAME, s, seat, legal, random.Random(9), BUDGET) for _ in range(2)}
        assert len(moves) == 1


def test_at_three_or_more_players_the_budget_is_doubled():
    assert SEARCHER.model_opponents
    assert [SEARCHER.budget_for(3000, p) for p in (2, 3, 4, 5)] == [3000, 6000, 6000, 6000]


def test_a_modelled_seat_plays_the_heuristic_bots_move():
    for s, seat, legal in list(positions(7, 3))[:6]:
        rng = random.Random(seat)
        assert SEARCHER.opponent_move(GAME, s, seat, legal, random.Random(seat)) == decide(
            GAME, GAME.bots["heuristic"], s, seat, legal, rng
        )


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_determinization_keeps_the_seats_view_and_deals_the_piles_anew(players):
    for s, seat, _ in positions(players, players, every=11):
        before = full_view(GAME, s, seat)
        dealt = SEARCHER.determinize(s, seat, random.Random(1))
        assert full_view(GAME, dealt, seat) == before
        assert full_view(GAME, s, seat) == before
        assert sorted(dealt.draw_pile + dealt.discard_pile) == sorted(s.draw_pile + s.discard_pile)
        if len(s.draw_pile) > 3:
            again = SEARCHER.determinize(s, seat, random.Random(2))
            assert again.draw_pile != dealt.draw_pile
        assert dealt.rng != s.rng


def test_the_evaluation_gives_each_seat_a_share_that_follows_the_miles_scored():
    s, seat, _ = next(positions(2, 3))
    # Two Tents (8 miles) scored by seat 0, and the same backpack for everyone.
    ahead = copy_model(
        s,
        {
            "scoring": [[0, 1], [], []],
            "backpacks": [s.backpacks[0]] * 3,
            "hike": None,
            "debts": [None] * 3,
        },
    )
    values = SEARCHER.evaluate(ahead, seat)
    assert len(values) == 3
    assert all(0 <= v <= 1 for v in values)
    assert values[0] > values[1] and values[1] == pytest.approx(values[2])


# 40 games in two blocks, which the test processes share out: legality needs no more
# (the cheats are caught by the planted-cheat tests, not here).
@pytest.mark.slow
@pytest.mark.parametrize("block", range(2))
def test_search_plays_only_legal_moves_in_40_seeded_games(block):
    for seed in range(block * 20, (block + 1) * 20):
        players = 2 + seed % 3
        s = GAME.setup(players, GAME.options({}), seed)
        rng = random.Random(seed)
        while GAME.outcome(s) is None:
            seat = GAME.to_act(s)[0]
            legal = GAME.legal_moves(s, seat)
            bot = BOT if seat == 0 else GAME.bots["heuristic"]
            move = decide(GAME, bot, s, seat, legal, rng, budget=10)
            assert move in legal
            s = GAME.advance(s, seat, move)
