"""Camp Pinetop: lead campers round a map of cards, sew on achievement patches and rise from
Possum to Badger. 2 to 5 players; Friendship tokens, Nature and the Observation Tower are
modules."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from pydantic import BaseModel

from engine.bots import random_bot
from engine.core import Bot, Game, Outcome, check_players
from engine.pinetop import moves, rules, schema, setup, turn
from engine.pinetop.bot import heuristic_bot
from engine.pinetop.cards import RANKS, catalog
from engine.pinetop.labels import describe
from engine.pinetop.moves import Move, move_adapter
from engine.pinetop.search import search_bot
from engine.pinetop.state import SEAT_NAMES, Options, PinetopState
from engine.pinetop.view import hidden, view
from engine.undo import takes_back


@takes_back
class PinetopGame(Game[PinetopState, Move]):
    id = "pinetop"
    title = "Camp Pinetop"
    min_players = 2
    max_players = 5
    Options = Options
    State = PinetopState
    Move = Move
    move_adapter = move_adapter
    View = schema.View
    Details = schema.Details
    bots: ClassVar[dict[str, Bot]] = {
        "random": random_bot,
        "heuristic": heuristic_bot,
        "search": search_bot,
    }

    # The signatures name ``moves.Move``: in the class body ``Move`` is the attribute above.
    def setup(self, players: int, options: BaseModel, seed: int) -> PinetopState:
        assert isinstance(options, Options)  # made by ``options`` from the class's Options
        check_players(self, players)
        return setup.setup(players, options, seed)

    def to_act(self, state: PinetopState) -> list[int]:
        return rules.to_act(state)

    def legal_moves(self, state: PinetopState, seat: int) -> list[moves.Move]:
        return rules.legal_moves(state, seat)

    def apply(self, state: PinetopState, seat: int, move: moves.Move) -> PinetopState:
        return turn.apply(state, seat, move)

    def advance(self, state: PinetopState, seat: int, move: moves.Move) -> PinetopState:
        return turn.advance(state, seat, move)

    def view(self, state: PinetopState, seat: int | None) -> dict[str, Any]:
        return view(state, seat)

    def hidden(
        self, state: PinetopState, seat: int | None
    ) -> list[Sequence[int | tuple[str, int]]]:
        return hidden(state, seat)

    def outcome(self, state: PinetopState) -> Outcome | None:
        if state.winner is None:
            return None
        return Outcome(
            scores=list(state.rank),
            winners=[state.winner],
            details={
                "ranks": [RANKS[r].name for r in state.rank],
                "patches": [len(p) for p in state.patches],
                "advanced": [sum(p.values()) for p in state.patches],
                "turns": state.turn,
            },
        )

    def seat_name(self, seat: int) -> str:
        return SEAT_NAMES[seat]

    def describe(self, state: PinetopState, seat: int, move: moves.Move) -> str:
        return describe(state, seat, move)

    def catalog(self) -> dict[str, Any]:
        return catalog()


GAME = PinetopGame()
