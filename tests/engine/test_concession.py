"""A concession's line: in each game's words, and numbered like a move's, so that the lines of
the moves after it keep their numbers."""

import random

import pytest

from engine.concession import conceded, line
from engine.core import play
from engine.registry import GAMES, get_game


def test_each_game_names_the_seat_as_its_log_does():
    words = {kind: line(get_game(kind), 1, played_on=True).text for kind in GAMES}
    assert words == {
        "hike": "Player 2 concedes: a bot plays the seat to the end.",
        "summer-camp": "Blue concedes: a bot plays the seat to the end.",
        "camping-life": "Blue concedes: a bot plays the seat to the end.",
        "pinetop": "Blue concedes: a bot plays the seat to the end.",
    }
    assert line(get_game("pinetop"), 0, played_on=False).text == "Red concedes the game."
    assert line(get_game("hike"), 2, played_on=False).seat == 2


@pytest.mark.parametrize("kind", sorted(GAMES))
def test_the_line_is_counted_and_is_the_latest_decision(kind):
    game = get_game(kind)
    state = game.setup(2, game.options(None), 5).settled()
    told = conceded(game, state, 1, played_on=True)
    assert told.log == [line(game, 1, played_on=True)]
    assert told.last_decision == told.logged == state.logged
    stored = game.load(game.dump(told))
    assert stored.logged == state.logged + 1 and stored.log == []
    # The next move's lines come after it.
    seat = game.to_act(stored)[0]
    after = play(game, stored, seat, random.Random(1).choice(game.legal_moves(stored, seat)))
    assert after.logged == state.logged + 1
    assert after.last_decision == (state.logged + 1 if after.log else told.last_decision)
    # What was conceded from is untouched.
    assert state.log == [] and state.last_decision is None
