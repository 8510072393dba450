import random
from functools import cache

import pytest

from engine.bots import decide
from engine.core import Rng, copy_model, full_view, play
from engine.pinetop import GAME
from engine.pinetop.search import LIKE, SEARCHER, badger_gap, search_bot
from tests.engine.honest_search import CHEATS, differing, planted, spread

MODULES = {"friendship": True, "nature": True, "tower": True}


def positions():
    """Mid-game states of seeded heuristic games, with the seat to act and a choice to make."""
    out = []
    for seed, players, options, steps in (
        (1, 2, {}, 30),
        (2, 3, MODULES, 60),
        (3, 2, MODULES, 90),
        (4, 4, {}, 45),
    ):
        state = GAME.setup(players, GAME.options(options), seed)
        rng = random.Random(seed)
        taken = 0
        while taken < steps or len(GAME.legal_moves(state, GAME.to_act(state)[0])) < 3:
            seat = GAME.to_act(state)[0]
            legal = GAME.legal_moves(state, seat)
            move = decide(GAME, GAME.bots["heuristic"], state, seat, legal, rng)
            state = play(GAME, state, seat, move)
            taken += 1
        out.append((state, GAME.to_act(state)[0]))
    return out


def shuffled_hidden(state, seat, rng):
    """The same table with everything ``seat`` cannot see dealt again another way."""
    others = [x for x in range(state.players) if x != seat]
    pool = list(state.deck) + [c for x in others for c in state.hands[x]]
    rng.shuffle(pool)
    hands = [list(h) for h in state.hands]
    for x in others:
        hands[x], pool = pool[: len(hands[x])], pool[len(hands[x]) :]
    changes = {"hands": hands, "deck": pool, "rng": Rng.from_seed(rng.getrandbits(64))}
    if state.nature is not None:
        deck = list(state.nature.deck)
        rng.shuffle(deck)
        changes["nature"] = copy_model(state.nature, {"deck": tuple(deck)})
    return copy_model(state, changes)


def search_move(state, seat, seed=5, budget=400):
    legal = GAME.legal_moves(state, seat)
    return search_bot.decide(GAME, state, seat, legal, random.Random(seed), budget=budget)


def test_the_budget_is_doubled_at_three_players_and_half_as_much_again_at_four_and_five():
    assert SEARCHER.model_opponents
    assert [SEARCHER.budget_for(3000, p) for p in (2, 3, 4, 5)] == [3000, 6000, 4500, 4500]


@cache
def spread_positions():
    """35 positions, from the first decision to the last, at two to five players, with and
    without the modules."""
    tables = [(1, 2, {}), (3, 2, MODULES), (2, 3, MODULES), (4, 4, {}), (5, 5, MODULES)]
    return spread(GAME, search_bot, tables, 7)


def test_the_search_is_the_same_when_what_the_seat_cannot_see_is_dealt_again():
    positions = spread_positions()
    assert len(positions) >= 30
    assert differing(GAME, search_bot, positions, shuffled_hidden) == []


@pytest.mark.parametrize("cheat", CHEATS, ids=lambda c: c.__name__)
def test_a_planted_cheat_is_caught_at_every_position(cheat):
    positions = spread_positions()
    caught = differing(GAME, planted(search_bot, cheat), positions, shuffled_hidden)
    assert caught == list(range(len(positions)))


def test_a_seed_and_a_budget_give_the_same_move():
    for state, seat in positions():
        assert search_move(state, seat, seed=9) == search_move(state, seat, seed=9)


def test_a_determinization_looks_the_same_from_the_seat():
    rng = random.Random(1)
    for state, seat in positions():
        before = full_view(GAME, state, seat)
        det = SEARCHER.determinize(state, seat, rng)
        assert full_view(GAME, det, seat) == before
        assert state == copy_model(state, {})  # the given state is left alone
        others = [x for x in range(state.players) if x != seat]
        hidden = sorted(LIKE[c] for x in others for c in state.hands[x])
        dealt = sorted(c for x in others for c in det.hands[x])
        assert sorted(hidden + [LIKE[c] for c in state.deck]) == sorted(dealt + det.deck)
        assert [len(h) for h in det.hands] == [len(h) for h in state.hands]


def test_determinizations_deal_the_hidden_cards_differently():
    state, seat = positions()[0]
    rng = random.Random(2)
    decks = {tuple(SEARCHER.determinize(state, seat, rng).deck) for _ in range(5)}
    assert len(decks) == 5


# 100 games in five blocks, which the test processes share out.
@pytest.mark.slow
@pytest.mark.parametrize("block", range(5))
def test_search_plays_only_legal_moves(block):
    # One iteration a move: the point is legality, not strength; every kind of decision is
    # met in 100 games.
    for seed in range(block * 20, (block + 1) * 20):
        seats = ["search", "heuristic"] if seed % 2 == 0 else ["heuristic", "search"]
        state = GAME.setup(2, GAME.options(MODULES if seed % 3 == 0 else {}), seed)
        rng = random.Random(seed)
        while GAME.outcome(state) is None:
            seat = GAME.to_act(state)[0]
            legal = GAME.legal_moves(state, seat)
            move = decide(GAME, GAME.bots[seats[seat]], state, seat, legal, rng, budget=1)
            assert move in legal
            state = play(GAME, state, seat, move)


def test_the_evaluation_favours_the_seat_nearer_badger():
    state, _ = positions()[0]
    ahead = copy_model(
        state, {"patches": [{"forager": True, "campfire": False, "pack_mule": False}, {}]}
    )
    values = SEARCHER.evaluate(ahead, 0)
    assert values[0] > 0.5 > values[1]
    assert abs(sum(values) - 1) < 1e-9
    assert badger_gap({}) == 10
    assert badger_gap(ahead.patches[0]) == 6
