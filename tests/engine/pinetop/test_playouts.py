"""Seeded bot games at every player count and module choice: all finish, cards conserved."""

import random

from engine.core import full_view, play
from engine.pinetop import GAME
from engine.pinetop.cards import SUPPLY
from engine.playout import play_out

GAMES = 24


def all_cards(s) -> list[int]:
    cards = [*s.deck, *s.discard, *(c for c in s.face_up if c is not None)]
    cards += [c for hand in s.hands for c in hand]
    if s.pending is not None:
        cards += s.pending.paid
    return cards


def test_random_games_finish_with_every_card_accounted_for():
    for seed in range(GAMES):
        rng = random.Random(seed)
        players = 2 + seed % 4
        options = {k: rng.random() < 0.5 for k in ("friendship", "nature", "tower")}
        expected = 78 if options["tower"] else 68

        def conserved(s):
            cards = all_cards(s)
            assert len(cards) == expected and len(set(cards)) == expected
            assert sum(len(c) for c in s.campers) + sum(s.campers_left) == 4 * players

        result = play_out(GAME, players, seed, ["random"] * players, options, on_step=conserved)
        assert GAME.outcome(result.state).winners == [result.state.winner]
        assert result.state.rank[result.state.winner] == 4
