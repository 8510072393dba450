"""Camp Pinetop: lead campers round a map of cards, sew on achievement patches and rise from
Possum to Badger. 2 to 5 players; Friendship tokens, Nature and the Observation Tower are
modules."""

from __future__ import annotations

from typing import ClassVar

from engine.core import Bot, Game, Outcome, check_players, random_bot
from engine.pinetop import rules, setup, turn
from engine.pinetop.bot import heuristic_bot
from engine.pinetop.cards import catalog
from engine.pinetop.labels import describe
from engine.pinetop.moves import Move, move_adapter
from engine.pinetop.search import search_bot
from engine.pinetop.state import Options, PinetopState
from engine.pinetop.view import view
from engine.undo import takes_back


@takes_back
class PinetopGame(Game[PinetopState, Move]):
    id = "pinetop"
    title = "Camp Pinetop"
    min_players = 2
    max_players = 5
    Options = Options
    State = PinetopState
    move_adapter = move_adapter
    bots: ClassVar[dict[str, Bot]] = {"random": random_bot, "heuristic": heuristic_bot,
                                      "search": search_bot}

    def setup(self, players: int, options: Options, seed: int) -> PinetopState:
        check_players(self, players)
        return setup.setup(players, options, seed)

    def undo_guard(self, state: PinetopState) -> tuple:
        """A step can be taken back while the supply deck keeps its size (no card drawn or
        turned up) and no other player's hand changed (a gift)."""
        others = tuple(len(h) for s, h in enumerate(state.hands) if s != state.active)
        return (state.active, state.turn, len(state.deck), others)

    def to_act(self, state: PinetopState) -> list[int]:
        return rules.to_act(state)

    def legal_moves(self, state: PinetopState, seat: int) -> list[Move]:
        return rules.legal_moves(state, seat)

    def apply(self, state: PinetopState, seat: int, move: Move) -> PinetopState:
        return turn.apply(state, seat, move)

    def advance(self, state: PinetopState, seat: int, move: Move) -> PinetopState:
        return turn.advance(state, seat, move)

    def view(self, state: PinetopState, seat: int | None) -> dict:
        return view(state, seat)

    def outcome(self, state: PinetopState) -> Outcome | None:
        return rules.outcome(state)

    def describe(self, state: PinetopState, seat: int, move: Move) -> str:
        return describe(state, seat, move)

    def catalog(self) -> dict:
        return catalog()


GAME = PinetopGame()
