import random
from collections import Counter

import pytest

from engine.core import full_view
from engine.hike import GAME
from engine.hike.bot import Risk, heuristic_bot
from engine.hike.cards import CARDS
from engine.hike.moves import Continue, Discard, Draw, DropOut, TakeHike
from engine.hike.state import Hike
from engine.playout import play_out

from .positions import Pool, build
from .test_rules import rulebook_example


def test_heuristic_beats_random_in_most_seeded_games():
    wins = 0.0
    for i in range(100):
        seat = i % 2
        bots = ["heuristic", "random"] if seat == 0 else ["random", "heuristic"]
        out = GAME.outcome(play_out(GAME, 2, 1000 + i, bots).state)
        if seat in out.winners:
            wins += 1 / len(out.winners)
    assert wins >= 60


def test_the_bot_always_picks_a_legal_move_in_games_of_every_size():
    for players in (3, 4, 5):
        result = play_out(GAME, players, players, ["heuristic"] * players)
        assert GAME.outcome(result.state) is not None


def decide(s, seat):
    view = full_view(GAME, s, seat)
    return heuristic_bot(view, GAME.legal_moves(s, seat), random.Random(0))


def test_the_bot_builds_a_small_backpack_and_hikes_with_a_full_one():
    p = Pool()
    small = build(p, 2, backpacks={0: p.many("granola_bar", "socks")})
    assert decide(small, 0) == Draw()
    p = Pool()
    full = p.many("tent", "camera", "compass", "flashlight", "walking_stick", "sleeping_bag")
    assert decide(build(p, 2, backpacks={0: full}), 0) == TakeHike()


def test_the_bot_throws_away_its_cheapest_card_and_scores_its_best():
    p = Pool()
    tent, bar, cam, compass = p.many("tent", "granola_bar", "camera", "compass")
    raccoon = p.take("raccoon")
    s = build(p, 2, backpacks={0: [tent, bar, cam, compass]}, draw_top=[raccoon])
    s = GAME.apply(s, 0, Draw())
    assert decide(s, 0) == Discard(card=bar)

    s, _, (bar, water, bag, _) = rulebook_example(lucky=False)
    assert decide(s, 0) == DropOut(score=bag)  # Reteka's backpack is thin: she takes the bag


def test_risk_counts_the_cards_that_would_empty_the_backpack():
    p = Pool()
    unseen = Counter({"tent": 5, "granola_bar": 5, "skunk": 2})
    lone_bar = [CARDS[p.take("granola_bar")].to_json()]
    risk = Risk(lone_bar, unseen)
    assert risk.bust == pytest.approx(7 / 12)  # any Tent or Skunk takes the only card
    assert risk.gain == pytest.approx((5 * 4 + 5 * 1) / 12)
    strong = [CARDS[c].to_json() for c in p.many("tent", "camera", "compass", "socks")]
    assert Risk(strong, unseen).bust == 0


def test_the_bot_pushes_on_with_a_strong_backpack_and_drops_out_with_a_weak_one():
    p = Pool()
    strong = p.many("tent", "camera", "compass", "flashlight", "walking_stick", "sleeping_bag")
    pile = p.many("granola_bar")
    hike = Hike(lead=0, original_lead=0, joined=[0], hikers=[0], pile=pile, to_ask=[0])
    s = build(p, 2, backpacks={0: strong}, hike=hike, phase="decide")
    assert decide(s, 0) == Continue()

    p = Pool()
    weak = p.many("granola_bar")
    pile = p.many("tent", "sleeping_bag")
    hike = Hike(lead=0, original_lead=0, joined=[0], hikers=[0], pile=pile, to_ask=[0])
    s = build(p, 2, backpacks={0: weak}, hike=hike, phase="decide")
    assert decide(s, 0) == DropOut()
