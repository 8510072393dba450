"""Many games played a random move at a time, in turn, as a busy server sees them."""

from __future__ import annotations

import random
from collections.abc import Iterator

from engine.core import full_view, play


def moves_in_turn(game, games: int, rounds: int, viewer: int) -> Iterator[tuple]:
    """``(state, view, next state, next view)`` for each move of ``games`` two-seat games,
    each making a random move in turn for ``rounds`` rounds; the views are ``viewer``'s."""
    tables = []
    for seed in range(games):
        s = game.setup(2, game.options({}), seed)
        tables.append([s, random.Random(seed), full_view(game, s, viewer)])
    for _ in range(rounds):
        for table in tables:
            s, rng, view = table
            if game.outcome(s) is not None:
                continue
            seat = game.to_act(s)[0]
            t = play(game, s, seat, rng.choice(game.legal_moves(s, seat)))
            after = full_view(game, t, viewer)
            yield s, view, t, after
            table[0], table[2] = t, after
