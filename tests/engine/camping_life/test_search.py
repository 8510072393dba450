import random
from collections import Counter
from functools import cache

import pytest

from engine.camping_life import GAME
from engine.camping_life.cards import CARDS
from engine.camping_life.search import CampingLifeSearcher
from engine.camping_life.state import COINS, Bid
from engine.bots import decide
from engine.core import Rng, copy_model, full_view
from engine.search import SearchBot
from tests.engine.honest_search import CHEATS, differing, planted, spread

SEARCHER = CampingLifeSearcher()
BOT = GAME.bots["search"]
BUDGET = 300


def positions(seed: int, every: int = 5):
    """States of a seeded game between heuristic bots, every ``every`` steps, where the seat
    to act has a real choice."""
    s = GAME.setup(2, GAME.options({}), seed)
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
    """The same state as ``seat`` sees it, with everything else dealt anew: the face-down
    terrain cards (the discard pile's top is face up), the face-down missions, the other
    player's coins not turned over, and the RNG."""
    other = 1 - seat
    terrain = [*s.draw, *s.discard[:-1]]
    rng.shuffle(terrain)
    missions = [*s.mission_pile, s.secret_missions[other]]
    rng.shuffle(missions)
    secret = s.secret_missions.copy()
    secret[other] = missions.pop()
    hidden = s.hidden_table[other]
    coins = [
        *s.coins[other],
        *(b.coin for b in s.card_bids if b.seat == other),
        *([] if hidden is None else [hidden]),
    ]
    rng.shuffle(coins)
    bids = [
        Bid(seat=other, card=b.card, coin=coins.pop()) if b.seat == other else b
        for b in s.card_bids
    ]
    table = s.hidden_table.copy()
    if hidden is not None:
        table[other] = coins.pop()
    hands = s.coins.copy()
    hands[other] = coins
    drawn = len(s.draw)
    return copy_model(
        s,
        {
            "draw": terrain[:drawn],
            "discard": terrain[drawn:] + s.discard[-1:],
            "mission_pile": missions,
            "secret_missions": secret,
            "card_bids": bids,
            "hidden_table": table,
            "coins": hands,
            "rng": Rng.from_seed(rng.getrandbits(64)),
        },
    )


def test_search_is_the_games_search_level():
    assert isinstance(BOT, SearchBot)
    assert isinstance(BOT.searcher, CampingLifeSearcher)


@cache
def spread_positions():
    """33 positions of three games, from the first decision to the last."""
    return spread(GAME, BOT, [(3, 2, {}), (8, 2, {}), (11, 2, {})], 11)


def test_the_search_is_the_same_when_what_the_seat_cannot_see_is_dealt_again():
    positions = spread_positions()
    assert len(positions) >= 30
    assert differing(GAME, BOT, positions, hidden_permuted) == []


@pytest.mark.parametrize("cheat", CHEATS, ids=lambda c: c.__name__)
def test_a_planted_cheat_is_caught_at_every_position(cheat):
    positions = spread_positions()
    caught = differing(GAME, planted(BOT, cheat), positions, hidden_permuted)
    assert caught == list(range(len(positions)))


def test_the_same_seed_and_budget_give_the_same_move():
    for s, seat, legal in list(positions(4))[:6]:
        moves = {BOT.decide(GAME, s, seat, legal, random.Random(9), BUDGET) for _ in range(2)}
        assert len(moves) == 1


def test_a_determinization_keeps_the_seats_view():
    for seed in (1, 2):
        for s, seat, _ in positions(seed, every=3):
            before = full_view(GAME, s, seat)
            dealt = SEARCHER.determinize(s, seat, random.Random(1))
            assert full_view(GAME, dealt, seat) == before
            assert full_view(GAME, s, seat) == before


def test_the_other_players_face_down_coins_are_dealt_anew_from_those_not_turned_over():
    seen = Counter()
    for s, seat, _ in positions(7, every=1):
        other = 1 - seat
        theirs = [b for b in s.card_bids if b.seat == other]
        if not theirs:
            continue
        for n in range(4):
            dealt = SEARCHER.determinize(s, seat, random.Random(n))
            down = [b.coin for b in dealt.card_bids if b.seat == other]
            hidden = dealt.hidden_table[other]
            held = [*dealt.coins[other], *down, *([] if hidden is None else [hidden])]
            assert Counter(held) + Counter(s.table_coins[other]) == Counter(COINS)
            assert [b.card for b in dealt.card_bids] == [b.card for b in s.card_bids]
            assert dealt.coins[seat] == s.coins[seat]
            seen[down == [b.coin for b in theirs]] += 1
    assert seen[False] > 0 and seen[True] > 0


def test_the_evaluation_favours_the_seat_with_more_points():
    s, seat, _ = next(positions(2))
    road = next(c.id for c in CARDS if c.kind == "road")
    house = next(c.id for c in CARDS if c.kind == "house")
    area = [None] * 12
    area[0], area[1] = road, house
    ahead = copy_model(s, {"areas": [area, [None] * 12]})
    values = SEARCHER.evaluate(ahead, seat)
    assert all(0 <= v <= 1 for v in values)
    assert values[0] > values[1]
    assert sum(values) == pytest.approx(1)


# 40 games in two blocks, which the test processes share out: legality needs no more
# (the cheats are caught by the planted-cheat tests, not here).
@pytest.mark.slow
@pytest.mark.parametrize("block", range(2))
def test_search_plays_only_legal_moves_in_40_seeded_games(block):
    for seed in range(block * 20, (block + 1) * 20):
        s = GAME.setup(2, GAME.options({}), seed)
        rng = random.Random(seed)
        while GAME.outcome(s) is None:
            seat = GAME.to_act(s)[0]
            legal = GAME.legal_moves(s, seat)
            bot = BOT if seat == seed % 2 else GAME.bots["random"]
            move = decide(GAME, bot, s, seat, legal, rng, budget=5)
            assert move in legal
            s = GAME.advance(s, seat, move)
