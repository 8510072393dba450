"""Summer Camp: a deck-building race along three activity paths to the merit badges."""

from __future__ import annotations

from typing import Any, ClassVar

from pydantic import BaseModel

from engine.bots import random_bot
from engine.core import Bot, Game, Outcome, check_players
from engine.summer_camp import moves, rules, schema, scoring, turn
from engine.summer_camp.board import catalog_board
from engine.summer_camp.bot import heuristic_bot
from engine.summer_camp.cards import CARD_LIST, PACKS
from engine.summer_camp.moves import Move, move_adapter
from engine.summer_camp.search import SummerCampSearchBot, SummerCampSearcher
from engine.summer_camp.state import SEAT_NAMES, Options, SummerCampState
from engine.summer_camp.view import hidden, view
from engine.undo import takes_back


@takes_back
class SummerCampGame(Game[SummerCampState, Move]):
    id = "summer-camp"
    title = "Summer Camp"
    min_players = 2
    max_players = 4
    Options = Options
    State = SummerCampState
    Move = Move
    move_adapter = move_adapter
    View = schema.View
    Details = schema.Details
    bots: ClassVar[dict[str, Bot]] = {
        "random": random_bot,
        "heuristic": heuristic_bot,
        "search": SummerCampSearchBot(SummerCampSearcher()),
    }

    # The signatures name ``moves.Move``: in the class body ``Move`` is the attribute above.
    def setup(self, players: int, options: BaseModel, seed: int) -> SummerCampState:
        assert isinstance(options, Options)  # made by ``options`` from the class's Options
        check_players(self, players)
        return turn.setup(players, options.packs, seed)

    def to_act(self, state: SummerCampState) -> list[int]:
        return rules.to_act(state)

    def legal_moves(self, state: SummerCampState, seat: int) -> list[moves.Move]:
        return rules.legal_moves(state, seat)

    def apply(self, state: SummerCampState, seat: int, move: moves.Move) -> SummerCampState:
        return rules.apply(state, seat, move)

    def view(self, state: SummerCampState, seat: int | None) -> dict[str, Any]:
        return view(state, seat)

    def hidden(self, state: SummerCampState, seat: int | None) -> list[list[int]]:
        return hidden(state, seat)

    def outcome(self, state: SummerCampState) -> Outcome | None:
        return scoring.outcome(state)

    def seat_name(self, seat: int) -> str:
        return SEAT_NAMES[seat]

    def describe(self, state: SummerCampState, seat: int, move: moves.Move) -> str:
        return rules.describe(state, seat, move)

    def catalog(self) -> dict[str, Any]:
        return {
            "cards": {c.key: c.to_json() for c in CARD_LIST},
            "packs": {
                key: {"id": key, "name": title} for key, title in {"base": "Base", **PACKS}.items()
            },
            "board": catalog_board(),
        }


GAME = SummerCampGame()
