import random

import pytest

from engine.camping_life import GAME
from engine.camping_life.bot import heuristic_bot
from engine.camping_life.moves import Pick
from engine.camping_life.state import Placement
from engine.core import full_view
from engine.playout import play_out

from .conftest import arrange, take


@pytest.mark.slow
def test_heuristic_bot_beats_random():
    wins = 0
    for seed in range(100):
        seats = ["heuristic", "random"] if seed % 2 == 0 else ["random", "heuristic"]
        outcome = GAME.outcome(play_out(GAME, 2, seed, seats).state)
        wins += outcome.winners == [seats.index("heuristic")]
    assert wins >= 60


def test_heuristic_bot_always_makes_a_legal_move():
    for seed in range(5):
        result = play_out(GAME, 2, seed, ["heuristic", "heuristic"])
        assert GAME.outcome(result.state) is not None


def test_bot_places_a_forest_next_to_a_house():
    s = arrange(["pool", "house", "forest", "pool"], ["tent", "campfire"])
    s.areas[0][5] = take(s, "house")
    s.areas[0][6] = take(s, "tent")
    s.phase, s.revealed = "place", True
    s.placements = [Placement(seat=0, card=take(s, "forest"))]
    legal = GAME.legal_moves(s, 0)
    assert {m.row * 4 + m.col for m in legal} == {1, 2, 4, 7, 9, 10}
    move = heuristic_bot(full_view(GAME, s, 0), legal, random.Random(0))
    assert move.row * 4 + move.col in {1, 4, 9}


def test_bot_picks_the_next_round_card_that_scores_most():
    s = arrange(["pool", "house", "forest", "pool"], ["tent", "campfire"])
    s.areas[0][0] = take(s, "forest")
    s.areas[0][2] = take(s, "forest")
    s.phase, s.picker = "pick", 0
    tent, campfire = s.next_round
    move = heuristic_bot(full_view(GAME, s, 0), GAME.legal_moves(s, 0), random.Random(0))
    assert move == Pick(card=campfire)  # between the two forests: 2 points
