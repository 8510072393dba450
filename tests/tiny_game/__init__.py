"""Last Stick: the smallest complete game, kept in the tests to prove the ``Game`` contract
and to write ``docs/adding-a-game.md`` from. Registered only here (``registered``): the
server plays it only in the tests that ask for it.

Two players share a pile of sticks. Each holds seven cards, hidden from the other, each worth
1, 2 or 3 sticks; one more card lies face down, unused. In turn, a player plays a card face up
and takes that many sticks from the pile (all that is left if the card is worth more). Whoever
takes the last stick wins."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import ClassVar

from engine.bots import random_bot
from engine.core import Bot, Game, check_players
from engine.registry import GAMES
from tests.tiny_game import rules, schema
from tests.tiny_game.bot import heuristic_bot
from tests.tiny_game.moves import Move, move_adapter
from tests.tiny_game.state import LastStickState, Options
from tests.tiny_game.view import view


class LastStickGame(Game[LastStickState, Move]):
    id = "last-stick"
    title = "Last Stick"
    min_players = 2
    max_players = 2
    Options = Options
    State = LastStickState
    Move = Move
    move_adapter = move_adapter
    View = schema.View
    Details = schema.Details
    bots: ClassVar[dict[str, Bot]] = {"random": random_bot, "heuristic": heuristic_bot}

    def setup(self, players: int, options: Options, seed: int) -> LastStickState:
        check_players(self, players)
        return rules.setup(players, options, seed)

    to_act = staticmethod(rules.to_act)
    legal_moves = staticmethod(rules.legal_moves)
    apply = staticmethod(rules.apply)
    outcome = staticmethod(rules.outcome)
    view = staticmethod(view)
    describe = staticmethod(rules.describe)


GAME = LastStickGame()


@contextmanager
def registered() -> Iterator[LastStickGame]:
    """Last Stick among the games the server plays, for as long as the block lasts."""
    GAMES[GAME.id] = GAME
    try:
        yield GAME
    finally:
        del GAMES[GAME.id]


def create_app():
    """The app with Last Stick registered, for uvicorn's ``--factory``: the browser tests'
    server (``tests/browser/test_tiny_game.py``)."""
    from app.main import create_app as create

    GAMES[GAME.id] = GAME
    return create()
