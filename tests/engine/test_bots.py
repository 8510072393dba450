import random

import pytest

from engine.bots import bot_view, random_bot
from engine.core import full_view
from engine.registry import GAMES


def test_random_bot_picks_a_legal_move():
    legal = ["a", "b", "c"]
    picks = {random_bot({}, legal, random.Random(seed)) for seed in range(30)}
    assert picks == set(legal)


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_only_a_bot_that_reads_the_view_is_given_one(game_id):
    game = GAMES[game_id]
    state = game.setup(game.min_players, game.options(None), 3)
    seat = game.to_act(state)[0]
    legal = game.legal_moves(state, seat)
    assert bot_view(game, random_bot, state, seat, legal) == {}
    heuristic = game.bots["heuristic"]
    assert bot_view(game, heuristic, state, seat, legal) == full_view(game, state, seat, legal)
