"""A Last Stick bot that reads only its seat's view: it takes the last stick when it can, and
otherwise leaves a pile that is a multiple of four if a card of its hand does that."""

from __future__ import annotations

import random

from tests.tiny_game.moves import Play


def heuristic_bot(view: dict, legal: list[Play], rng: random.Random) -> Play:
    worth = {card["id"]: card["worth"] for card in view["hand"]}
    left = view["sticks"]

    def after(move: Play) -> int:
        return max(left - worth[move.card], 0)

    for wanted in (lambda n: n == 0, lambda n: n % 4 == 0):
        good = [move for move in legal if wanted(after(move))]
        if good:
            return rng.choice(good)
    return min(legal, key=lambda move: worth[move.card])
